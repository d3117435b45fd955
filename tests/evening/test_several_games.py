"""An evening of several games on one daemon: the table file's games, `game NAME`,
a game card on the field reader, each game in its own journal, every result in
the club records."""
from __future__ import annotations

from pathlib import Path

import pytest

from kikimimi.table.daemon import Daemon
from kikimimi.table.engine import run_script
from kikimimi.table.evening import ClubPlays, Evening
from kikimimi.records import Club
from kikimimi.records.plays import history, plays
from kikimimi.contract.script import Header, read_script
from kikimimi.design.sim import play
from kikimimi.table.config import ConfigError, load_table_config
from kikimimi.testkit.tables import sim_table_toml

TABLE = sim_table_toml("trident", 3, "var/table.jsonl", hands=4) + """
[games.intrigue]
players = 4
card = "04:A1:B2:C3"

[games.onisagashi]
players = 4
options = { raise_window = 2.0 }
"""


def _config(tmp: Path, text: str = TABLE):
    (tmp / "table.toml").write_text(text)
    return load_table_config(tmp / "table.toml")


def _club(tmp: Path) -> Path:
    db = tmp / "club.sqlite"
    with Club(db) as club:
        for name in ("Ann", "Bob", "Cy", "Dee"):
            club.add_player(name, name.lower())
    return db


class Clock:
    """The table's clock, moved by the test: a game's timers fire as in its bot script."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _evening(tmp: Path, db: Path | None = None):
    config = _config(tmp)
    header = Header(config.game, config.players, config.options, config.lang, {"table": "table"})
    daemon = Daemon(header, config.journal, tagmap=config.tagmap, hand_seats={1, 2, 3}, has_field=True,
                    clock=Clock())
    daemon.open()
    heard: list[dict] = []
    daemon.subscribe(lambda line, events: heard.extend(events))
    complaints: list[str] = []
    plays_ = ClubPlays(db, "table", {1: "Ann", 2: "Bob", 3: "Cy", 4: "Dee"}) if db else None
    Evening(daemon, complain=complaints.append, games=config.games, hand_seats=config.hand_seats,
            plays=plays_).begin()
    return daemon, heard, complaints


def _finish(daemon: Daemon, seed: int = 1) -> dict:
    h = daemon.header
    script, log = play(h.game, seed, h.players, h.options)
    clock, start = daemon.clock, daemon.clock.now  # the game began now (a fresh journal starts its clock)
    for line in script[1:]:
        clock.now = start + line["t"]
        daemon.tick()
        daemon.submit({k: v for k, v in line.items() if k != "t"})
    assert daemon.table.game.over, h.game
    return next(ev for ev in log if ev["type"] == "game-over")


def _speaker(heard: list[dict]) -> list[str]:
    return [ev["text"] for ev in heard if ev["type"] == "say" and ev["to"] == "table"]


def test_the_table_file_lists_the_evenings_games_with_seats_tags_and_cards(tmp_path):
    config = _config(tmp_path)
    assert list(config.games) == ["trident", "intrigue", "onisagashi"]
    assert (config.games["intrigue"].players, config.games["intrigue"].card) == (4, "04a1b2c3")
    assert config.games["onisagashi"].options == {"raise_window": 2.0}
    assert config.seats == 4 and config.players == 3
    for bad, why in (('[games.chess]\n', "games.chess"), ('[games.mafia42]\nplayers = 20\n', "4-12 players"),
                     ('[games.witch]\nplayers = 5\ncard = "zz"\n', "hex"),
                     ('[games.witch]\nplayers = 5\ncard = "04a1b2c3"\n', "same card"),
                     ('[games.witch]\nseats = 5\n', "unknown key"),
                     ('[games.mafia42]\nplayers = 4\noptions = { mode = "chess" }\n', "games.mafia42.options")):
        with pytest.raises(ConfigError, match=why):
            _config(tmp_path, TABLE.replace("[readers.hand-1]", bad + "[readers.hand-1]", 1))
    with pytest.raises(ConfigError, match="no hand reader for seat 4"):  # the biggest game needs its seats
        _config(tmp_path, TABLE.replace('[readers.hand-4]\nrole = "hand"\nseat = 4\ndriver = "sim"\n', ""))


def test_game_name_and_a_game_card_choose_the_next_game_each_in_its_own_journal(tmp_path):
    db = _club(tmp_path)
    daemon, heard, complaints = _evening(tmp_path, db)
    refused = daemon.submit({"console": "game intrigue"})  # not while a game is under way
    assert refused[0]["type"] == "error" and "under way" in refused[0]["message"]
    assert daemon.header.game == "trident" and daemon.table.inputs == 0  # nothing journaled, nothing changed
    trident = _finish(daemon)
    assert _speaker(heard)[-1] == "To play another game, put its game card on the field reader."
    assert daemon.submit({"console": "game chess"})[0]["message"].startswith("no game 'chess' at this table")

    # the referee: `game intrigue` starts it at once, for its own 4 seats
    events = daemon.submit({"console": "game intrigue"})
    assert daemon.header.game == "intrigue" and daemon.header.players == 4
    assert read_script(daemon.journal_path).header.game == "intrigue"
    assert events and not daemon.table.game.over and daemon.table.hand_seats == {1, 2, 3, 4}
    intrigue = _finish(daemon, seed=2)

    # a game card on the field reader (by its uid) chooses 鬼探し; everyone's AGREE starts it
    daemon.submit({"reader": "field", "uid": "04a1b2c3"})  # intrigue's own card: chosen again ...
    daemon.submit({"reader": "field", "tag": "game:onisagashi"})  # ... then another card: this one
    assert _speaker(heard)[-1] == "Next game: Oni-sagashi, for 4 players. Everyone scans AGREE on their hand reader."
    assert daemon.snapshot()["session"]["next"] == "onisagashi"
    for seat in (1, 2, 3):
        daemon.submit({"reader": "hand", "seat": seat, "tag": "cmd:agree"})
    assert daemon.header.game == "intrigue"  # seat 4 plays 鬼探し too: not everyone is ready
    daemon.submit({"reader": "hand", "seat": 4, "tag": "cmd:agree"})
    assert daemon.header.game == "onisagashi" and daemon.header.options == {"raise_window": 2.0}
    oni = _finish(daemon, seed=3)
    daemon.close()

    # each game kept its own journal, and each replays alone to the same end
    kept = sorted((tmp_path / "var").glob("table.game*.jsonl")) + [daemon.journal_path]
    assert [read_script(p).header.game for p in kept] == ["trident", "intrigue", "onisagashi"]
    for path, result in zip(kept, (trident, intrigue, oni)):
        ended = [ev for ev in run_script(path.read_text().splitlines()) if ev["type"] == "game-over"]
        assert ended and ended[0]["ranking"] == result["ranking"]

    # every result is in the club records, in each player's game history
    with Club(db) as club:
        assert [p.game for p in plays(club)] == ["trident", "intrigue", "onisagashi"]
        dee = history(club, "Dee")
        assert [r.play.game for r in dee] == ["intrigue", "onisagashi"]  # Dee had no seat at the Trident
        ann = history(club, "Ann")
        assert [(r.play.game, r.place) for r in ann] == [
            (g, next(e["place"] for e in res["ranking"] if e["seat"] == 1))
            for g, res in (("trident", trident), ("intrigue", intrigue), ("onisagashi", oni))]
        assert club.player("Ann").ladder.games == 0  # the rank ladder is the Trident sessions' only
    assert sum("in the club records" in c for c in complaints) == 3


def test_a_game_is_recorded_once_and_a_records_failure_is_one_line(tmp_path):
    db = _club(tmp_path)
    daemon, heard, complaints = _evening(tmp_path, db)
    _finish(daemon)
    daemon.submit({"console": "undo"})  # the ending taken back and played again: the same game
    last = read_script(daemon.journal_path).lines[-2][1]
    daemon.submit({k: v for k, v in last.items() if k != "t"})
    assert any("already in the club records" in c for c in complaints)
    with Club(db) as club:
        assert len(plays(club)) == 1
    (tmp_path / "other").mkdir()
    daemon2, _, complaints2 = _evening(tmp_path / "other", tmp_path / "missing.sqlite")
    _finish(daemon2)
    assert any("not in the club records" in c and "missing.sqlite" in c for c in complaints2)


def test_game_name_with_options_plays_the_next_game_with_them_and_a_restart_keeps_them(tmp_path):
    daemon, heard, _ = _evening(tmp_path)
    _finish(daemon)
    for words, why in (("rounds=0", "rounds must be"), ("colour=red", "unknown option 'colour'"),
                       ("players=9", "3-6 players, not 9"), ("players=5", "hand reader at seat 5"),
                       ("rounds", "name=value"), ("rounds=2 rounds=3", "given twice")):
        refused = daemon.submit({"console": f"game onisagashi {words}"})
        assert [ev["type"] for ev in refused] == ["error"], words
        assert why in refused[0]["message"] and "\n" not in refused[0]["message"], words
    assert daemon.header.game == "trident" and daemon.table.game.over  # a refusal changed nothing

    daemon.submit({"console": "game onisagashi players=3 rounds=1 rules=advanced raise_window=4.5"})
    want = {"raise_window": 4.5, "rounds": 1, "rules": "advanced"}
    assert (daemon.header.game, daemon.header.players, daemon.header.options) == ("onisagashi", 3, want)
    assert read_script(daemon.journal_path).header.options == want  # on disk before the game's first input
    assert daemon.table.hand_seats == {1, 2, 3}
    daemon.close()

    # a killed daemon resumes the game it journaled: the same game, seats and options
    again = Daemon(read_script(daemon.journal_path).header, daemon.journal_path, hand_seats={1, 2, 3},
                   has_field=True, clock=Clock())
    again.open()
    assert (again.table.header.game, again.table.header.players, again.table.header.options) == ("onisagashi", 3, want)
    again.close()
