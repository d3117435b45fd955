"""Two outside games of the kinds an author wrote against kikimimi, kept as
fixtures in tests/authoring/outside: a Coup-like claim and challenge round (the current
style: a Declaration and a Play, a window for several seats, its claims declared public)
and a Love-Letter-like guessing round in the older style (one `protocol.Game` class, a
guard's guess named aloud, no declaration of it).  Both pass `kikimimi check` unchanged,
and the secrets part still catches every private naming around them."""
from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kikimimi.contract import registry
from kikimimi.design.contract_check import PARTS, check
from kikimimi.contract.declaration import Declaration
from kikimimi.contract.protocol import say

OUTSIDE = Path(__file__).with_name("outside")
ROOT = Path(__file__).resolve().parents[2]
FOLDERS = [OUTSIDE / "coupish", OUTSIDE / "lovers", ROOT / "examples" / "highcard"]


@pytest.fixture(autouse=True)
def outside_games(monkeypatch):
    """The fixtures importable and registered here only (the suite's registry is left as it was)."""
    for folder in FOLDERS:
        monkeypatch.syspath_prepend(str(folder))
    monkeypatch.setattr(registry, "_registered", dict(registry._registered))
    from kikimimi_coupish import GAME
    from kikimimi_lovers import LoversGame

    registry.register(GAME)
    registry.register(Declaration.of_game(LoversGame))
    yield


def lines(failures):
    return [f.line() for f in failures]


@pytest.mark.parametrize("game", ["coupish", "lovers"])
def test_each_outside_game_keeps_every_part_of_the_contract(game):
    assert lines(check(game)) == []


def test_kikimimi_check_passes_both_as_installed(tmp_path):
    """Through the command an author runs, found by their entry points alone."""
    info = tmp_path / "outside_games-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: outside-games\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[kikimimi.games]\ncoupish = kikimimi_coupish:GAME\n"
                                           "lovers = kikimimi_lovers:LoversGame\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), *(str(f) for f in FOLDERS[:2])])}
    run = subprocess.run([sys.executable, "-m", "kikimimi.cli", "check", "coupish", "lovers"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.split("\n")[:2] == [f"coupish: {len(PARTS)} of {len(PARTS)} parts kept",
                                         f"lovers: {len(PARTS)} of {len(PARTS)} parts kept"]


def test_a_claim_is_public_only_because_the_game_declares_it():
    from kikimimi_coupish import GAME

    undeclared = dataclasses.replace(GAME, public_scans=frozenset())
    registry.register(undeclared)
    got = lines(check(undeclared, ["secrets"]))
    assert len(got) == 1 and "hand scan of cp:claim-" in got[0] and "public_scans" in got[0]


def test_a_dealt_card_named_in_public_is_still_caught_with_the_claims_declared():
    from kikimimi_coupish import GAME, CoupishPlay

    class Leaky(CoupishPlay):
        def _draw(self, seat, card):
            out = super()._draw(seat, card)
            return out + [say("table", "claims", seat=seat, card=card)] if seat in self.influence else out

    registry.register(dataclasses.replace(GAME, play=Leaky))
    got = lines(check("coupish", ["secrets"]))
    assert len(got) == 1 and "hand scan of cp:" in got[0] and "cp:claim" not in got[0].split("named")[0]


def test_a_look_alike_told_in_private_and_named_in_public_is_caught():
    from kikimimi_lovers import LoversGame

    class Whispers(LoversGame):
        def handle(self, inp):
            out = super().handle(inp)
            if inp.tag and inp.tag.startswith("lv:guess-") and any(e.type == "guess" for e in out):
                out.insert(0, say(f"seat:{inp.seat}", "your-card", card=inp.tag))  # a secret act, then said aloud
            return out

    registry.register(Declaration.of_game(Whispers))
    got = lines(check("lovers", ["secrets"]))
    assert len(got) == 1 and "secret choice lv:guess-" in got[0]


def test_a_face_down_field_scan_named_in_public_is_caught():
    from kikimimi_highcard import GAME

    registry.register(GAME)
    assert lines(check("highcard", ["secrets"])) == []  # shown face up: the rules make it public
    registry.register(dataclasses.replace(GAME, face_down=frozenset(t for t in GAME.known_tags(3))))
    got = lines(check("highcard", ["secrets"]))
    assert len(got) == 1 and "laid face down" in got[0]
