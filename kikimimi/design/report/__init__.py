"""The designer's report, `kikimimi report GAME`: one HTML file that answers a
designer's questions about many bot games (docs/report.md)."""
