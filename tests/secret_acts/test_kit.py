"""The kit of look-alike pieces per game and player count, enrolled as
several tagged copies of one piece, checked, and read out by `kikimimi doctor`."""
from __future__ import annotations

import time
import tomllib

import pytest

from kikimimi.cli import tags
from kikimimi.table.engine import run_script
from kikimimi.contract.kit import kit_for, missing_copies
from kikimimi.contract.registry import declaration, game_names
from support.ntag import Ntag213
from support.pn532_emulator import PN532Emulator

GAMES = [name for name in game_names() if name != "toy"]


@pytest.fixture
def pn532(tmp_path):
    emu = PN532Emulator(str(tmp_path / "pn532")).start()
    yield emu
    emu.stop()


@pytest.mark.parametrize("game", GAMES)
def test_every_secret_act_of_a_game_is_in_each_players_own_set(game):
    decl = declaration(game)
    for players in sorted({decl.min_players, decl.default_players, decl.max_players}):
        kit = kit_for(game, players)
        known = decl.known_tags(players) | {f"seat:{k}" for k in range(1, players + 1)} | {"cmd:hint"}
        assert set(kit.own) | set(kit.table) <= known | {f"cmd:{c}" for c in ("ok", "yes", "no", "bribe", "raise",
                                                                              "extend", "shorten", "trident",
                                                                              "pass", "agree", "pair")}
        assert "cmd:hint" in kit.own  # HINT is private: asked on one's own reader
        if game in ("witch", "mafia42", "intrigue"):  # votes, targets, dispatches: a seat token of one's own
            assert {f"seat:{k}" for k in range(1, players + 1)} <= set(kit.own)
        copies = kit.copies()
        assert all(copies[p] >= players for p in kit.own)
        assert sum(copies.values()) == kit.tags()
        assert kit.lines()[0].startswith(f"{game} for {players}: ")


def test_the_witch_kit_gives_every_player_every_power_tag():
    kit = kit_for("witch", 6)
    assert {"cmd:advise", "cmd:exorcise", "cmd:silence", "cmd:ok"} <= set(kit.own)
    assert len([t for t in kit.table if t.startswith("witch:role-")]) == 6


def test_several_tagged_copies_of_one_piece_are_enrolled_checked_and_resolved(pn532, tmp_path):
    copies = {("seat:1", 1): Ntag213("04000000000011"), ("seat:2", 1): Ntag213("04000000000012"),
              ("seat:1", 2): Ntag213("04000000000021"), ("seat:2", 2): Ntag213("04000000000022")}
    said: list[str] = []
    shown = {"again": False}

    def put(tag: Ntag213) -> None:
        pn532.remove()
        time.sleep(0.05)
        pn532.place(tag)

    def speak(text: str) -> None:
        said.append(text)
        if text.startswith("Set "):
            n, name = int(text[4]), text.split(": scan ")[1].rstrip(".")
            piece = "seat:" + name.split()[-1]
            if n == 2 and piece == "seat:1" and not shown["again"]:
                shown["again"] = True
                put(copies[("seat:1", 1)])  # the first copy again: not a second copy
                return
            put(copies[(piece, n)])
        elif text.startswith("That tag is already"):
            put(copies[("seat:1", 2)])

    tagmap = tmp_path / "kit.toml"
    assert tags.enroll("seat", f"pn532:{pn532.path}", tagmap, speak=speak, players=2, copies=2,
                       timeout_s=5, poll_ms=10) == 0, said
    assert "That tag is already enrolled as seat 1. Take another copy." in said
    saved = tomllib.loads(tagmap.read_text())["tags"]
    assert sorted(saved.values()) == ["seat:1", "seat:1", "seat:2", "seat:2"]
    out: list[str] = []
    assert tags.check("seat", tagmap, players=2, copies=2, out=out.append) == 0, out
    assert out == ["seat: 4 of 4 tags enrolled"]
    out.clear()
    assert tags.check("seat", tagmap, players=2, copies=3, out=out.append) == 1
    assert out[0] == "missing: seat:1 (2 of 3 copies)"
    # the table resolves either copy to the piece: the game never learns whose copy it was
    header = {"game": "witch", "players": 5, "tagmap": str(tagmap)}
    a = run_script([header, {"t": 1, "reader": "hand", "seat": 1, "uid": copies[("seat:1", 1)].uid_hex}])
    b = run_script([header, {"t": 1, "reader": "hand", "seat": 1, "uid": copies[("seat:1", 2)].uid_hex}])
    assert a == b and not any("unknown tag" in str(ev.get("message")) for ev in a)


def test_a_kit_is_checked_with_the_copies_each_piece_needs(tmp_path):
    kit = kit_for("intrigue", 3)
    lines, uid = ["[tags]"], 0x04000000000000
    for piece, n in kit.copies().items():
        for _ in range(n):
            uid += 1
            lines.append(f'"{uid:014x}" = "{piece}"')
    path = tmp_path / "intrigue.toml"
    path.write_text("\n".join(lines[:-1]) + "\n")  # the last copy is missing
    out: list[str] = []
    assert tags.check("kit:intrigue", path, players=3, out=out.append) == 1
    assert out[0].startswith("missing: ") and "(2 of 3 copies)" in out[0]
    path.write_text("\n".join(lines) + "\n")
    out.clear()
    assert tags.check("kit:intrigue", path, players=3, out=out.append) == 0, out
    assert out == [f"kit:intrigue: {kit.tags()} of {kit.tags()} tags enrolled"]
    assert missing_copies(kit, {}) and not missing_copies(kit, tags.read_tagmap(path))


def test_doctor_reads_out_the_kit_of_a_table_file():
    from pathlib import Path

    from kikimimi.box.doctor import config_checks

    for toml in sorted(Path("games").glob("*/sim.toml")):
        config, checks = config_checks(toml)
        assert config is not None
        kit = [c for c in checks if c.name == "kit"]
        assert kit and kit[0].detail == kit_for(config.game, config.players, config.options).lines()[0]
        assert any("own set" in c.detail for c in kit)
