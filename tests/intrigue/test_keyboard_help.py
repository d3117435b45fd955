"""After resuming an evening's イントリーゲ the keyboard help said "seats 1-3".
The help printed by `kikimimi serve` with typed readers came from the table file's player
count (the evening's first game); it now comes from the game at the table (a resumed
evening plays the journal's)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from kikimimi.table.engine import Table
from kikimimi.contract.script import Header
from kikimimi.table.sim_readers import table_help
from kikimimi.testkit.tables import sim_table_toml


def test_the_help_names_the_seats_of_the_game_at_the_table():
    for players in (4, 5):
        text = table_help(Table(Header("intrigue", players, {"bribes": "hidden"})))
        assert f"seats 1-{players})" in text and "advisor-" in text


def test_a_resumed_evenings_intrigue_is_helped_with_its_own_four_seats(tmp_path: Path):
    """An evening whose table file starts with a 3-player Trident, killed during its
    4-player イントリーゲ: served again, it resumes イントリーゲ and the help says seats 1-4."""
    (tmp_path / "table.toml").write_text(
        sim_table_toml("trident", 3, "var/table.jsonl", hands=4) + "\n[games.intrigue]\nplayers = 4\n")
    (tmp_path / "var").mkdir()
    header = {"game": "intrigue", "players": 4, "options": {"seed": 12345}, "lang": "en", "table": "table"}
    (tmp_path / "var" / "table.jsonl").write_text(json.dumps(header) + "\n")
    done = subprocess.run(
        [sys.executable, "-m", "kikimimi.cli", "serve", "table.toml", "--voice", "text", "--quiet",
         "--sim-readers", "interactive"],
        cwd=tmp_path, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
    assert "Pieces (intrigue)" in done.stderr, done.stderr  # the journal's game, not the Trident
    helped = [line for line in done.stderr.splitlines() if line.startswith("Type: SEAT PIECE")]
    assert len(helped) == 1 and "(seats 1-4)" in helped[0], done.stderr
