"""A game package written before the declaration was split from the play still plays.

The package below is what an outside author wrote last month: one `protocol.Game`
subclass whose class attributes declare the game, registered through its entry point
alone (a dist-info folder, as pip leaves it).  The registry builds its declaration from
those attributes (`Declaration.of_game`), and every part of the runtime that reads a
declaration (sim, options, kit, phrases, the console's help, the engine's pause flag)
reads the old class through it.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

LEGACY = '''
import random

from kikimimi.contract.commands import Command, dispatch, hint_command
from kikimimi.bots.ear import EarBot, EarTable, Handles
from kikimimi.contract.hints import line
from kikimimi.contract.options import Options, seat
from kikimimi.contract.protocol import Game, error, event, say
from kikimimi.design.tuning import Report

PEBBLES = frozenset(f"peb:pebble-{n}" for n in range(1, 5))


class PebbleGame(Game):
    """Each seat puts one pebble on the field; the last pebble ends the game."""

    name = "pebbles"
    min_players, max_players, official_players = 2, 3, 2
    options_schema = Options(seat("first", 1, "the seat that places first"))
    secret_options = frozenset({"first"})
    pause_when_reader_lost = True
    bots = ("plain", "ear")
    bot_table = "legacy_pebbles:pebble_table"
    ear_table = "legacy_pebbles:pebble_ears"
    report = "legacy_pebbles:PebbleReport"
    diagram_of = "legacy_pebbles:diagram"
    console_commands = (hint_command(), Command("stop", "end it now", "console_stop"))

    def __init__(self, players, options=None):
        super().__init__(players, options)
        if "first" in self.options and self.options["first"] not in range(1, players + 1):
            raise ValueError("first: no such seat")
        self.placed = []

    @classmethod
    def known_tags(cls, players):
        return PEBBLES

    @classmethod
    def kit(cls, players, options):
        return [f"seat:{k}" for k in range(1, players + 1)], sorted(PEBBLES)

    @classmethod
    def phrase_values(cls, players, options):
        return {"seat": range(1, players + 1)}

    @property
    def over(self):
        return len(self.placed) >= self.players

    def start(self, t):
        return [say("table", "place")]

    def handle(self, inp):
        if inp.console is not None:
            return dispatch(self, self.console_commands, inp.console, inp.t, self.players)
        if not inp.placed or inp.reader != "field":
            return []
        if inp.tag in self.placed:
            return [error("placed already")]
        self.placed.append(inp.tag)
        out = [event("play", seat=len(self.placed), tag=inp.tag), say("table", "placed", seat=len(self.placed))]
        if self.over:
            first = self.options.get("first", 1)  # by turn order: never by chair (kikimimi check, fairness)
            ranking = [{"seat": s, "place": 1 + (s - first) % self.players} for s in range(1, self.players + 1)]
            out.append(event("game-over", reason="end", ranking=ranking))
        return out

    def console_hint(self, t, seat):
        return [say(f"seat:{seat}", "placed", seat=len(self.placed))]

    def sight(self, seat):
        return [line("placed", seat=len(self.placed))]

    def console_stop(self, t):
        self.placed = list(range(self.players))
        return [event("game-over", reason="stopped", ranking=[])]


class PebbleTable:
    def __init__(self):
        self.left = sorted(PEBBLES)

    def next_input(self):
        return {"reader": "field", "tag": self.left.pop()} if self.left else None

    def observe(self, events):
        pass


def pebble_table(seed, players, options, bot=None):
    return PebbleTable()


class Basket:
    """The ear bots' table: a basket of pebbles any seat may reach."""

    def __init__(self, rng):
        self.handles = Handles(PEBBLES, rng)
        self.left = sorted(PEBBLES)
        self.over = False

    def follow(self, ev):
        self.over = self.over or ev.get("type") == "game-over"

    def reach(self, seat):
        return self.handles.of(self.left[-1]) if seat is not None and self.left else None

    def tag_for(self, seat, handle):
        if seat is None or not self.left or self.handles.of(self.left[-1]) != handle:
            return None
        return self.left.pop()

    def public_tag(self, tag):
        return tag.startswith(("cmd:", "seat:"))


class Placer(EarBot):
    def __init__(self, seat):
        self.seat, self.todo = seat, False

    def hear(self, heard):
        self.todo = self.todo or heard.key == "place" or (heard.key == "placed" and heard.params["seat"] == self.seat - 1)

    def act(self, reach):
        todo, self.todo = self.todo, False
        return {"reader": "field", "piece": reach} if todo and reach is not None else None


def pebble_ears(seed, players, options, bot=None):
    return EarTable("pebbles", Basket(random.Random(seed)), [Placer(s) for s in range(1, players + 1)])


class PebbleReport(Report):
    def figures(self, trial, script, log):
        return sum(ev["type"] == "play" for ev in log)

    def text(self, rows, ask):
        return f"Pebbles: {len(rows)} games, {sum(n for _, n in rows)} pebbles placed"


def diagram():
    return "stateDiagram-v2\\n  [*] --> placing\\n  placing --> [*]: every seat placed"
'''

PHRASES = {
    "en": '[phrases]\nplace = "Each seat, place a pebble."\nplaced = "Pebble {seat} is down."\n',
    "ja": '[phrases]\nplace = "小石を置いてください。"\nplaced = "{seat}個目の小石です。"\n',
}

PROBE = '''
import json
from kikimimi.console.commands import game_commands
from kikimimi.table.engine import Table
from kikimimi.contract.kit import kit_for
from kikimimi.table.public import secret_options_of
from kikimimi.contract.registry import UnknownGame, declaration
from kikimimi.contract.script import Header

d = declaration("pebbles")
out = {"play": d.play.__name__, "players": [d.min_players, d.max_players, d.default_players],
       "tags": sorted(d.known_tags(2)), "bots": list(d.bots), "help": [s for s, _ in game_commands("pebbles")],
       "kit": list(kit_for("pebbles", 2).own), "secret": sorted(secret_options_of("pebbles")),
       "pause": Table(Header("pebbles", 2, {}, "en"))._pause_on_lost}
for players, options in ((4, {}), (2, {"colour": 1}), (2, {"first": 9})):
    try:
        d.check_players(players)
        d.check_options(players, options)
    except ValueError as exc:
        out.setdefault("refused", []).append(str(exc))
try:
    declaration("misnamed")
except UnknownGame as exc:
    out["misnamed"] = str(exc)
print(json.dumps(out))
'''


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The old package, laid out as pip installs it: the module, its phrases, a dist-info
    folder whose entry point names the Game class."""
    site = tmp_path_factory.mktemp("legacy-site")
    pkg = site / "legacy_pebbles"
    (pkg / "phrases").mkdir(parents=True)
    (pkg / "__init__.py").write_text(LEGACY, encoding="utf-8")
    for lang, text in PHRASES.items():
        (pkg / "phrases" / f"{lang}.toml").write_text(text, encoding="utf-8")
    info = site / "legacy_pebbles-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: legacy-pebbles\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[kikimimi.games]\npebbles = legacy_pebbles:PebbleGame\n"
                                           "misnamed = legacy_pebbles:PebbleGame\n",
                                           encoding="utf-8")
    return site


def _run(site: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(site)}
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def test_an_old_style_game_is_read_through_its_declaration(site):
    run = _run(site, "-c", PROBE)
    assert run.returncode == 0, run.stderr
    got = json.loads(run.stdout)
    assert got["play"] == "PebbleGame" and got["players"] == [2, 3, 2]
    assert got["tags"] == [f"peb:pebble-{n}" for n in range(1, 5)] and got["bots"] == ["plain", "ear"]
    assert got["help"] == ["hint SEAT", "stop"]  # its own command table, not the contract's default
    assert got["kit"] == ["seat:1", "seat:2", "cmd:agree"] and got["secret"] == ["first"] and got["pause"] is True
    assert got["misnamed"] == "plugin 'misnamed' (legacy_pebbles:PebbleGame) declares the game 'pebbles'"
    assert got["refused"] == ["pebbles is for 2-3 players, not 4",
                              "unknown option 'colour' (have: first)", "first must be a seat from 1 to 2, not 9"]


def test_an_old_style_game_plays_a_whole_bot_game_in_both_languages(site):
    for lang, line in (("en", "Pebble 2 is down."), ("ja", "2個目の小石です。")):
        run = _run(site, "-m", "kikimimi.cli", "sim", "pebbles", "--lang", lang, "--narrate", "--seed", "1")
        assert run.returncode == 0, run.stderr
        assert line in run.stdout
    events = _run(site, "-m", "kikimimi.cli", "sim", "pebbles", "--seed", "1")
    log = [json.loads(x) for x in events.stdout.splitlines()]
    assert [e["type"] for e in log].count("play") == 2 and log[-1]["type"] == "game-over"


def test_an_old_style_game_passes_kikimimi_check(site):
    """The whole contract, read through the old class's attributes: an author's game written
    before the split is checked like any other, without a change."""
    run = _run(site, "-m", "kikimimi.cli", "check", "pebbles")
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.strip() == "pebbles: 12 of 12 parts kept"
