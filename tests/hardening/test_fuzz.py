"""Thousands of hostile scripts through the engine, for every registered game.

Seeded and bounded in time.  For each game (`registry.game_names()`, so a
game that lands later is covered without touching this file): no exception
escapes the runtime, no game crashes (`internal error`), the log is standard
JSON, a piece scanned on a hand reader is never named in the public answer
to that scan, the spectators' view never carries an undo's input, and a
replay of the same lines gives the same log.

Every 40th script also goes through a live `Daemon` (journal, clock, timer
ticks, undos): its log must be what a replay of its journal gives.

A game may add its own invariant (pieces conserved, ...) as a method
`check_invariants()` on the game object: it is called after every line and
should raise AssertionError when broken.
"""
from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import pytest

from kikimimi.api.views import public_events
from kikimimi.table.daemon import Daemon
from kikimimi.table.engine import ScriptRun
from kikimimi.contract.protocol import visible_to
from kikimimi.contract.registry import declaration, game_names
from kikimimi.contract.script import Header, dumps, iter_dicts, parse_line, read_script

#: Seconds of fuzzing for all games together, shared evenly (the test stays under ~30 s).
TOTAL_BUDGET = 24.0
SCRIPTS_PER_GAME = 2000
#: Scripts every game gets whatever the machine's load: the time budget only bounds the rest.
SCRIPTS_AT_LEAST = 200
WORDS = ["undo", "stop", "hint", "deal", "next", "declare", "raise", "penalty", "pass", "new-ish",
         "2", "9", "-1", "²", "٣", "0x10", "1e9", "", "   ", "trident", "🀄", "\u3000", "a" * 300]


def _lines(rng: random.Random, tags: list[str], players: int) -> list[Any]:
    out: list[Any] = []
    t = 0.0
    for _ in range(rng.randint(5, 60)):
        t = max(0.0, t + rng.choice([0, 0.5, 1, 3, 12, -2]))
        kind = rng.random()
        if kind < 0.55:
            line: dict[str, Any] = {"t": t, "reader": rng.choice(["hand", "hand", "field"]),
                                    "tag": rng.choice(tags)}
            if line["reader"] == "hand":
                line["seat"] = rng.choice([*range(1, players + 1), 0, players + 1, "1", True])
            if rng.random() < 0.15:
                line["removed"] = True
            out.append(line)
        elif kind < 0.8:
            words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 3)))
            out.append({"t": t, "console": words})
        elif kind < 0.85:
            out.append({"t": t, "reader": rng.choice(["hand", "field"]), "seat": 1,
                        rng.choice(["lost", "back"]): True})
        elif kind < 0.9:
            out.append({"t": t, "reader": "field", "uid": rng.choice(["04a1b2c3d4", "zz", "", "0" * 50])})
        else:
            out.append(rng.choice([
                "not json", "[1, 2]", "{", '{"t": NaN}', '{"t": 1e999, "console": "x"}',
                '{"t": 1, "console": "\\ud800"}', "[" * 200, '{"t": ' + "9" * 60 + "}",
                json.dumps({"t": "soon", "console": "undo"}), json.dumps({"t": t}),
                json.dumps({"t": t, "reader": "hand", "seat": 1, "tag": 7}),
            ]))
    return out


def _check(run: ScriptRun, lines: list[Any], pieces: frozenset[str]) -> None:
    hand_scans: dict[int, str] = {}
    for number, item in enumerate(iter_dicts(lines), start=2):
        if isinstance(item, dict) and item.get("reader") == "hand" and item.get("tag") in pieces \
                and not item.get("removed"):
            hand_scans[number] = item["tag"]
        run.feed(number, item)
        checker = getattr(run.table.game, "check_invariants", None)
        if callable(checker):
            checker()
    crashes = [ev["message"] for ev in run.log if ev["type"] == "error" and "internal error" in ev["message"]]
    assert not crashes, crashes[0]
    for ev in run.log:
        json.loads(json.dumps(ev, ensure_ascii=False, allow_nan=False).encode("utf-8"))
    for ev in public_events(run.log):  # what a spectator's socket carries
        assert "input" not in ev or ev["type"] != "undo"
    for ev in run.log:  # what the speaker and `replay --public` give (their own `in` numbers aside)
        if not visible_to(ev, None):
            continue
        scanned = hand_scans.get(ev.get("in"))
        if scanned is not None:
            assert scanned not in dumps(ev), f"a hand scan of {scanned} named in public: {ev}"


def _live_equals_replay(header: Header, lines: list[Any], journal: Path) -> None:
    now = [0.0]
    daemon = Daemon(header, journal, clock=lambda: now[0])
    daemon.open()
    for line in lines:
        item = parse_line(line) if isinstance(line, str) else line
        if not isinstance(item, dict):
            continue  # a daemon is handed objects: text garbage never reaches it
        now[0] += 0.7
        if item.get("t", 0) == 0:
            daemon.tick()
        try:
            daemon.submit({k: v for k, v in item.items() if k != "t"})
        except ValueError:  # refused before the journal (InputRefused): nothing happened
            pass
    daemon.close()
    parsed = read_script(journal)
    replay = ScriptRun(parsed.header)
    for number, item in parsed.lines:
        replay.feed(number, item)
    replay.close()
    assert replay.log == daemon.log
    journal.unlink()


@pytest.mark.parametrize("game", game_names())
def test_hostile_scripts_never_break_the_table(game, toy, tmp_path):
    decl = declaration(game)
    players = decl.default_players
    pieces = decl.known_tags(players)
    tags = sorted(pieces)
    tags += ["cmd:pass", "cmd:hint", "cmd:agree", f"seat:{players}", "nope:x", "", "cmd:../../x"]
    rng = random.Random(f"kikimimi-fuzz-{game}")
    header = Header(decl.name, players, {}, rng.choice(["en", "ja"]))
    budget = TOTAL_BUDGET / len(game_names())
    deadline = time.monotonic() + budget
    scripts = 0
    while scripts < SCRIPTS_AT_LEAST or (scripts < SCRIPTS_PER_GAME and time.monotonic() < deadline):
        lines = _lines(rng, tags, players)
        run = ScriptRun(header)
        _check(run, lines, pieces)
        run.close()
        if scripts % 25 == 0:  # replay is deterministic, also through the text of the script
            again = ScriptRun(header)
            for number, line in enumerate(lines, start=2):
                text = line if isinstance(line, str) else dumps(line)
                again.feed(number, parse_line(text))
            again.close()
            assert again.log == run.log
        if scripts % 40 == 0:
            _live_equals_replay(header, lines, tmp_path / "live.jsonl")
        scripts += 1
