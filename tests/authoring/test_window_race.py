"""Ear bots race a window for several seats in the order the runtime logged for it.

The engine draws a seeded `order` for each `choice-window` (docs/choices.md); the ear
table (kikimimi/bots/ear.py `EarTable`) asks that window's seats in that order while it is
open, so the seat that answers first is the logged order's first, then the next after a
decline, and never the one this table's own per-input draw would have picked.  Played with
the outside Coup-like fixture (tests/authoring/outside/coupish), whose every asked seat
answers (YES now and then, else NO)."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from kikimimi.contract import registry
from kikimimi.design.sim import play

COUPISH = Path(__file__).with_name("outside") / "coupish"
SEEDS = range(1, 41)


@pytest.fixture(autouse=True)
def coupish(monkeypatch):
    monkeypatch.syspath_prepend(str(COUPISH))
    monkeypatch.setattr(registry, "_registered", dict(registry._registered))
    from kikimimi_coupish import GAME

    registry.register(GAME)
    yield


def windows(log: list) -> list[tuple[list[int], list[int]]]:
    """Each window the game opened: its logged order, and the seats that answered it
    (declined, or answered and won), in the log's order."""
    out: list[tuple[list[int], list[int]]] = []
    for ev in log:
        if ev["type"] == "choice-window":
            out.append((ev["order"], []))
        elif out and ev["type"] == "choice-cancel" and ev.get("declined"):
            out[-1][1].extend(ev["seats"])
        elif out and ev["type"] == "chosen" and ev.get("window"):
            out[-1][1].append(ev["seat"])
    return out


def test_the_ear_bots_answer_a_window_in_its_logged_order():
    seen, first = 0, Counter()
    for seed in SEEDS:
        _, log = play("coupish", seed, 4, {"first": seed % 4 + 1}, "ear")
        for order, answered in windows(log):
            assert answered, f"seed {seed}: nobody answered the window {order}"
            assert answered == order[:len(answered)], f"seed {seed}: order {order}, answered {answered}"
            seen += 1
            first[answered[0]] += 1
    assert seen >= len(SEEDS)  # every game opens a window or more
    assert len(first) == 4  # the logged order is seeded: each seat answers first in some window
