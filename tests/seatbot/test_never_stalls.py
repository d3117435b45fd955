"""A bot that cannot act never stalls the table: it passes, or stops an act refused three times,
and tells the referee.  The game's own bots rarely get there, so these seats are two small bots
written for it (the driver, the daemon and the game are the real ones)."""
from __future__ import annotations

from typing import Any

from kikimimi.contract import parts as declared
from kikimimi.api.sim_host import VirtualClock
from kikimimi.table.daemon import Daemon
from kikimimi.bots.ear import EarBot, EarTable, Heard
from kikimimi.roles.ear import DealtCards
from kikimimi.contract.script import Header
from kikimimi.bots.empty_seats import GIVE_UP, NOTE


class Stubborn(EarBot):
    """Scans a seat token that is not in the game, whenever it hears anything."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.todo: list[str] = []

    def hear(self, heard: Heard) -> None:
        self.todo = ["scan"]

    def act(self, reach: Any) -> dict[str, Any] | None:
        if not self.todo:
            return None
        self.todo = []
        return {"reader": "hand", "tag": "seat:9"}


class Undecided(Stubborn):
    """Is asked to act and finds nothing it may choose."""

    def act(self, reach: Any) -> dict[str, Any] | None:
        self.todo = []
        return None


def _seated(tmp_path) -> tuple[Daemon, VirtualClock, list[dict[str, Any]]]:
    """A 6-seat witch table on a virtual clock, every event it tells kept, and `bot 3` typed."""
    clock = VirtualClock()
    daemon = Daemon(Header("witch", 6, lang="en"), tmp_path / "j.jsonl", clock=clock)
    daemon.open()
    told: list[dict[str, Any]] = []
    daemon.subscribe(lambda item, events: told.extend(events))
    daemon.submit({"console": "bot 3"})
    return daemon, clock, told


def _table(monkeypatch, tmp_path, bot: type[Stubborn]) -> tuple[Daemon, VirtualClock, list[dict[str, Any]]]:
    def simulation(cls: Any, seed: int, players: int, options: Any, kind: Any = None) -> EarTable:
        import random

        world = DealtCards("witch:role", ["witch"] + ["human"] * (players - 1), random.Random(seed))
        return EarTable("witch", world, [bot(s) for s in range(1, players + 1)])

    monkeypatch.setattr(declared, "simulation", simulation)
    daemon, clock, told = _seated(tmp_path)
    for seat in (1, 2, 4):  # the table goes on around it
        clock.now += 1
        daemon.submit({"reader": "hand", "seat": seat, "tag": "cmd:hint"})
    for n in range(200):
        clock.now += 0.5
        daemon.tick()
        if n % 20 == 0:  # its earphone speaks (a HINT): each time, something to answer
            daemon.submit({"console": "hint 3"})
    return daemon, clock, told


def test_an_act_refused_three_times_in_a_row_is_given_up_and_the_referee_told(monkeypatch, tmp_path):
    daemon, clock, told = _table(monkeypatch, tmp_path, Stubborn)
    acts = [item for _, item in daemon.lines if isinstance(item, dict) and item.get("bot") == 3]
    assert [a["console"] for a in acts] == ["scan 3 seat:9"] * GIVE_UP
    notes = [ev for ev in told if ev["type"] == NOTE]
    assert len(notes) == 1 and "refused three times" in notes[0]["message"] and notes[0]["private"] == "referee"
    assert notes[0] not in daemon.log  # advice, not an input: never logged
    daemon.close()


def test_a_bot_with_nothing_it_may_choose_passes_and_says_so(monkeypatch, tmp_path):
    daemon, clock, told = _table(monkeypatch, tmp_path, Undecided)
    assert not [item for _, item in daemon.lines if isinstance(item, dict) and item.get("bot")]
    notes = [ev["message"] for ev in told if ev["type"] == NOTE]
    assert notes and all("passes" in n for n in notes)
    daemon.close()


class Broken(Stubborn):
    """A bot with a bug: it fails on the second line it hears."""

    heard = 0

    def hear(self, heard: Heard) -> None:
        self.heard += 1
        if self.heard == 2:
            raise KeyError("a bug")
        super().hear(heard)


def test_a_bot_that_fails_is_unseated_and_the_table_goes_on(monkeypatch, tmp_path):
    daemon, clock, told = _table(monkeypatch, tmp_path, Broken)
    notes = [ev["message"] for ev in told if ev["type"] == NOTE]
    assert len(notes) == 1 and "it failed (KeyError" in notes[0] and "bot 3" in notes[0]
    assert daemon.seat_bots.seats[3].failed
    private = [ev for ev in daemon.log if ev.get("to") == "seat:3"]
    assert private and not [ev for ev in daemon.seat_bots.room(private)]  # its earphone still plays nowhere
    assert daemon.lines[-1][1]["console"] == "hint 3"  # every input still taken and told
    assert {ev["seq"] for ev in told if ev.get("seq") is not None} == {ev["seq"] for ev in daemon.log if ev["in"] != 1}
    daemon.close()


def test_a_plugin_whose_ear_table_is_not_one_is_told_in_one_line(monkeypatch, tmp_path):
    """A sixth game's author who returns something else from its ear table: the referee hears
    what is wrong in one line, and the table goes on (no traceback reaches the console)."""
    monkeypatch.setattr(declared, "simulation", lambda *args, **kwargs: object())
    daemon, clock, told = _seated(tmp_path)
    clock.now += 1
    daemon.submit({"reader": "hand", "seat": 1, "tag": "cmd:hint"})
    notes = [ev["message"] for ev in told if ev["type"] == NOTE]
    assert len(notes) == 1 and "ear table is not an EarTable (it is object" in notes[0] and "\n" not in notes[0]
    assert 3 not in daemon.seat_bots.seats  # nothing plays it; the referee may unbot it
    assert daemon.lines[-1][1]["seat"] == 1  # the next input was still taken
    daemon.close()
