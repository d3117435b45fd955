"""The designer's and author's tools: bot games in bulk, the figures, the report, the check.

`sim` drives bot games through the real engine; `tuning` is `kikimimi sim GAME --games N`;
`versus`, `duel` and `confidence` compare kinds and variants with intervals; `plot` and
`report/` draw and write the page; `contract_check` is `kikimimi check GAME`.  May import the
live table and everything below it, never the command line.
"""
