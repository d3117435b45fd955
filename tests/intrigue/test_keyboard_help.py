"""Issue 34 item 7: after resuming an evening's イントリーゲ the keyboard help said "seats 1-3".
The help printed by `kikimimi serve` with typed readers came from the table file's player
count; it now comes from the game at the table (a resumed evening plays the journal's)."""
from __future__ import annotations

from pathlib import Path

from kikimimi.engine import Table
from kikimimi.script import Header
from kikimimi.sim_readers import table_help

SERVE = Path(__file__).parents[2] / "kikimimi" / "cli" / "serve.py"


def test_the_help_names_the_seats_of_the_game_at_the_table():
    for players in (4, 5):
        text = table_help(Table(Header("intrigue", players, {"bribes": "hidden"})))
        assert f"seats 1-{players})" in text and "advisor-" in text
        assert "seats 1-3)" not in text


def test_serve_prints_the_tables_help_not_the_configs_count():
    source = SERVE.read_text(encoding="utf-8")
    assert "table_help(daemon.table)" in source
    assert "config.players), file=sys.stderr" not in source
