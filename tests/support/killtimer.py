"""Kill a real `kikimimi serve` right after its timers fire, and check that
nothing announced is ever taken back.

One run plays one real-time game on a table of simulated readers (the
keyboard is a pipe this harness types into), with `--events` as the record
of everything the table told its outputs.  Each time the events show that a
timer fired (the *kind* of timer is the plan's to say), the daemon is
SIGKILLed at once, restarted on the same journal, and poked with an input
straight away (an input landing before a rewound timer is what made the
rolled-back announcements of the issue).  The plan keeps acting on what it
has heard, the way players would, so the game goes on from kill to kill.

At the end, `check` holds the run to the promise: every event ever told, by
any of the killed daemons or the last one, is the event of that `seq` in a
replay of the final journal (so what was heard before each kill is a prefix
of what the table holds after it), the told `seq`s are 1…N with none
missing, and every event is told at most twice (a kill between telling and
marking it told repeats it; it never loses it).

Used by `tests/time/test_kill_after_timer.py` (30 kills per game) and
`bench/kill_after_timer.py` (as many as asked, with figures).
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kikimimi.table.engine import ScriptRun
from kikimimi.contract.script import read_script
from kikimimi.testkit.tables import sim_table_toml

LogEvent = dict[str, Any]


@dataclass
class Plan:
    """What the players of one game do, and which events show a timer that fired."""

    game: str
    players: int
    options: dict[str, Any]
    #: Typed lines that deal the game and start its clock.
    opening: list[str]
    #: The heard events so far -> typed lines to act now (called when the state
    #: changes, after each restart, and again when nothing happened for a while).
    act: Callable[[list[LogEvent]], list[str]]
    #: An event -> the kind of timer whose firing it shows (None: not one).
    fired: Callable[[list[LogEvent], LogEvent], str | None]
    #: Typed right after each restart.
    probe: str
    kinds: tuple[str, ...] = ()


@dataclass
class Outcome:
    kills: Counter[str] = field(default_factory=Counter)
    told: int = 0  # events told, all daemons together
    repeated: int = 0  # told twice (a kill between telling and marking)
    unspoken_told: int = 0  # told by a restarted daemon before its probe's answer: applied, never told
    restart_seconds: list[float] = field(default_factory=list)
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)


def _typed_seat(seat: int, tag: str) -> str:
    return f"{seat} {tag}"


def _deal(cards: str, deck: list[str]) -> list[str]:
    """Each seat scans its card of `deck` (seat 1 the first), each copy of a card once:
    `_deal("witch:role", ["human", "human"])` types `1 witch:role-human-1`, `2 witch:role-human-2`."""
    copies: Counter[str] = Counter()
    opening = []
    for seat, card in enumerate(deck, start=1):
        copies[card] += 1
        opening.append(_typed_seat(seat, f"{cards}-{card}-{copies[card]}"))
    return opening


# -- the three real-time games ------------------------------------------------------------------
def _last(events: list[LogEvent], type_: str) -> LogEvent | None:
    return next((ev for ev in reversed(events) if ev.get("type") == type_), None)


def mafia_plan() -> Plan:
    """マフィア42, 4 seats, every phase 1 s: nobody is aimed at by night; by day all vote
    seat 3 (seat 3 votes seat 4) and all say no, so every phase's timer comes round."""
    jobs = ["mafia", "citizen", "citizen", "police"]
    opening = _deal("mafia42:job", jobs)

    def act(heard: list[LogEvent]) -> list[str]:
        phase = _last(heard, "phase")
        if phase is None:
            return []
        if phase["phase"] == "vote":
            return [_typed_seat(s, "seat:4" if s == 3 else "seat:3") for s in range(1, 5)]
        if phase["phase"] == "approval":
            return [_typed_seat(s, "cmd:no") for s in range(1, 5)]
        return []

    def fired(heard: list[LogEvent], ev: LogEvent) -> str | None:
        if ev.get("type") != "phase" or ev.get("in") is not None:
            return None
        before = [e for e in heard if e.get("type") == "phase" and e["seq"] < ev["seq"]]
        return before[-1]["phase"] if before else None

    options = {"jobs": jobs, "night": 1, "morning": 1, "discussion_per_player": 1, "vote": 1,
               "defence": 1, "approval": 1}
    return Plan("mafia42", 4, options, opening, act, fired, "2 cmd:hint",
                ("night", "morning", "discussion", "vote", "defence", "approval"))


def witch_plan() -> Plan:
    """闇に笑う魔女, 6 seats, a 1 s night: the referee ends each day at once (`next`),
    nobody acts at night, so each night ends on its timer."""
    roles = ["witch", "human", "human", "mirror", "human", "knight"]
    opening = _deal("witch:role", roles)

    def act(heard: list[LogEvent]) -> list[str]:
        phase = _last(heard, "phase")
        if phase is None or phase["phase"] == "night":
            return []
        return ["> next"]

    def fired(heard: list[LogEvent], ev: LogEvent) -> str | None:
        return "night" if ev.get("type") == "phase" and ev.get("in") is None else None

    return Plan("witch", 6, {"roles": roles, "night_seconds": 1}, opening, act, fired, "2 cmd:hint", ("night",))


#: 鬼探し's deal for the plan: the answer is rena · kuwa · forest.
_ONI_HANDS = {1: ("satoko", "kame", "roadside"), 2: ("keiichi", "tofu", "swamp"), 3: ("mion", "bat", "dam"),
              4: ("shion", "kugi", "phonebox"), 5: ("rika", "nata", "riverbank")}
#: A place each seat may declare (not its own, and not the answer): every declaration is wrong.
_ONI_PLACE = {1: "swamp", 2: "dam", 3: "phonebox", 4: "riverbank", 5: "roadside"}


def onisagashi_plan() -> Plan:
    """鬼探し, 5 seats, a 0.3 s settle and raise window (each after the speaker's lines): each seat
    in turn declares rena · kuwa and a place someone else holds (always wrong), nobody raises,
    the window closes on its timer."""
    opening = [_typed_seat(s, f"oni:card-{card}") for s, hand in _ONI_HANDS.items() for card in hand]

    def act(heard: list[LogEvent]) -> list[str]:
        turn = _last(heard, "turn")
        if turn is None or _last(heard, "game-over") is not None:
            return []
        seat = turn["seat"]
        # each token once a turn: one named again at every look would keep the speaker talking,
        # and the settle and the window count from when it has said its lines
        since = heard[max(i for i, ev in enumerate(heard) if ev is turn):]
        named = {ev["params"]["card"] for ev in since if ev.get("type") == "say" and ev.get("key") == "token"}
        return [f"f oni:token-{card}" for card in ("rena", "kuwa", _ONI_PLACE[seat]) if f"oni:card-{card}" not in named]

    def fired(heard: list[LogEvent], ev: LogEvent) -> str | None:
        return "raise-window" if ev.get("type") == "turn" and ev.get("in") is None else None

    return Plan("onisagashi", 5, {"raise_window": 0.3, "settle": 0.3}, opening, act, fired, "1 cmd:hint", ("raise-window",))


#: Words a minute of the served tables (`[audio] rate`, the header's `wpm`).
RATE = 600

PLANS: dict[str, Callable[[], Plan]] = {"mafia42": mafia_plan, "witch": witch_plan, "onisagashi": onisagashi_plan}


# -- running it ---------------------------------------------------------------------------------------
class _Table:
    """One `kikimimi serve` of the plan's table; the keyboard is our pipe."""

    def __init__(self, folder: Path, command: list[str]) -> None:
        self.proc = subprocess.Popen(
            command + ["serve", "table.toml", "--voice", "text", "--quiet", "--sim-readers", "interactive",
                       "--events", "events.jsonl"],
            cwd=folder, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def type(self, lines: list[str]) -> None:
        if not lines or self.proc.stdin is None:
            return
        try:
            self.proc.stdin.write("".join(line + "\n" for line in lines).encode())
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass

    def kill(self) -> None:
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)
        if self.proc.stdin is not None:
            try:
                self.proc.stdin.close()
            except OSError:
                pass


class _Tail:
    """The `--events` file, read as it grows (whole lines only)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.offset = 0
        self.rest = b""

    def new(self) -> list[LogEvent]:
        try:
            with open(self.path, "rb") as f:
                f.seek(self.offset)
                data = f.read()
        except FileNotFoundError:
            return []
        self.offset += len(data)
        data = self.rest + data
        *whole, self.rest = data.split(b"\n")
        return [json.loads(line) for line in whole if line.strip()]


def run(plan: Plan, folder: Path, kills: int, command: list[str] | None = None,
        timeout: float = 600.0) -> Outcome:
    """Play `plan` at a served table in `folder`, SIGKILLing it after `kills` timers
    (each right after it fired), then stop it cleanly and `check` the whole run."""
    command = command or [sys.executable, "-m", "kikimimi.cli"]
    folder.mkdir(parents=True, exist_ok=True)
    toml = sim_table_toml(plan.game, plan.players, more=f"options = {_toml_inline(plan.options)}\n")
    # the table speaks at a fast listener's rate: the modelled moment each limit starts (its
    # call heard) comes 3.4 times sooner than at the default 175, so the kills come sooner too
    toml += f"[audio]\nrate = {RATE}\n"
    (folder / "table.toml").write_text(toml, encoding="utf-8")
    outcome = Outcome()
    tail = _Tail(folder / "events.jsonl")
    heard: list[LogEvent] = []
    started = time.monotonic()
    table = _Table(folder, command)
    table.type(plan.opening)
    deadline = started + timeout
    try:
        while sum(outcome.kills.values()) < kills:
            killed = _until_a_timer(plan, table, tail, heard, outcome, deadline)
            if not killed:
                outcome.problems.append(f"{plan.game}: no timer fired in time "
                                        f"({sum(outcome.kills.values())} kills so far)")
                break
            restart = time.monotonic()
            table = _Table(folder, command)
            table.type([plan.probe])
            first = _wait_for(tail, heard, deadline, lambda: table.proc.poll() is not None)
            outcome.restart_seconds.append(time.monotonic() - restart)
            lines = [ev["in"] for ev in first if type(ev.get("seq")) is int and type(ev.get("in")) is int]
            outcome.unspoken_told += sum(1 for ev in first if type(ev.get("seq")) is int
                                         and type(ev.get("in")) is int and ev["in"] != max(lines))
            table.type(plan.act(heard))
    finally:
        table.kill()
    heard += tail.new()
    outcome.seconds = time.monotonic() - started
    outcome.problems += check(folder / "journal.jsonl", heard, outcome)
    return outcome


def _toml_inline(options: dict[str, Any]) -> str:
    return "{ " + ", ".join(f"{k} = {json.dumps(v)}" for k, v in options.items()) + " }"


def _until_a_timer(plan: Plan, table: _Table, tail: _Tail, heard: list[LogEvent], outcome: Outcome,
                   deadline: float) -> bool:
    """Act on what is heard until an event shows a timer fired; then SIGKILL at once."""
    acted_at = time.monotonic()
    state = None
    while time.monotonic() < deadline:
        new = tail.new()
        for i, ev in enumerate(new):
            heard.append(ev)
            if type(ev.get("seq")) is not int:
                continue
            kind = plan.fired(heard, ev)
            if kind is not None:
                table.kill()
                outcome.kills[kind] += 1
                heard += new[i + 1:] + tail.new()  # whatever it told before it died was heard
                return True
        now_state = (len([e for e in heard if e.get("type") in ("phase", "turn", "tally")]),)
        if now_state != state or time.monotonic() - acted_at > 0.5:
            state = now_state
            table.type(plan.act(heard))
            acted_at = time.monotonic()
        if table.proc.poll() is not None:
            return False
        time.sleep(0.01)
    return False


def _wait_for(tail: _Tail, heard: list[LogEvent], deadline: float, dead: Callable[[], bool]) -> list[LogEvent]:
    """The first events a restarted daemon tells (its unspoken ones, then the probe's answer)."""
    got: list[LogEvent] = []
    while time.monotonic() < deadline and not dead():
        new = tail.new()
        got += new
        if any(type(ev.get("seq")) is int and ev.get("in") is not None for ev in new) or \
                any(ev.get("type") == "say" and ev.get("seq") is None for ev in new):
            break
        time.sleep(0.01)
    heard += got
    return got


def check(journal: Path, heard: list[LogEvent], outcome: Outcome | None = None) -> list[str]:
    """What was told, against the replay of the final journal (see the module's docstring)."""
    problems: list[str] = []
    parsed = read_script(journal)
    run = ScriptRun(parsed.header)
    for number, item in parsed.lines:
        run.feed(number, item)
    run.close()
    by_seq = {ev["seq"]: ev for ev in run.log}
    seen: Counter[int] = Counter()
    for ev in heard:
        seq = ev.get("seq")
        if type(seq) is not int:
            continue  # the table's own lines (where it stands after a resume): no log event
        seen[seq] += 1
        if by_seq.get(seq) != ev:
            problems.append(f"told event seq {seq} is not the journal's: told {json.dumps(ev)[:200]}, "
                            f"journal has {json.dumps(by_seq.get(seq))[:200]}")
            if len(problems) > 5:
                break
    if seen:
        top = max(seen)
        missing = sorted(set(range(1, top + 1)) - set(seen))
        if missing:
            problems.append(f"{len(missing)} events of the journal before seq {top} were never told "
                            f"(first: {missing[:5]})")
    twice = [seq for seq, n in seen.items() if n > 2]
    if twice:
        problems.append(f"events told more than twice: {twice[:5]}")
    if outcome is not None:
        outcome.told = len(seen)
        outcome.repeated = sum(1 for n in seen.values() if n == 2)
    return problems
