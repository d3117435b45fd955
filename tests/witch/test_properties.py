"""Whatever arrives — legal, illegal, garbage — the game answers without an exception,
every game ends, and no role, finding or team secret reaches the public view."""
from __future__ import annotations

import re
import string

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from kikimimi.contract.protocol import visible_to
from kikimimi.testkit.roles_script import Script, internal_errors, of, public_view, said, secrets_in_public
from kikimimi.design.sim import play
from kikimimi.table.engine import run_script
from kikimimi_games.witch import bots as witch_bots
from kikimimi_games.witch.rules import ROLES

from .table import DECK10, WITCH_SECRETS, day1, table

SEATS = 10
TAGS = ([f"seat:{k}" for k in range(1, SEATS + 1)] + ["cmd:ok", "cmd:hint", "cmd:advise", "cmd:exorcise",
        "cmd:silence", "cmd:yes", "cmd:no", "cmd:trident"] + [f"witch:role-{r}-{n}" for r in ROLES for n in (1, 2, 3)])
CONSOLE = ["speak {a} {text}", "deadroom {a} {text}", "advise {a} {b}", "exorcise {a} {b}", "silence {a}",
           "act {a} {b}", "yes {a}", "no {a}", "ok {a}", "hint {a}", "next", "speak {a}", "act {a}", "frob {a} {b}",
           "advise {a} x", "speak 0 {text}", "stop"]
seat = st.integers(min_value=-1, max_value=SEATS + 2)
text = st.text(alphabet=string.ascii_letters + "あいう漢字 ｱ", min_size=1, max_size=300).map(lambda t: t.strip() or "x")
step = st.one_of(
    st.tuples(st.just("hand"), st.integers(1, SEATS), st.sampled_from(TAGS)),
    st.tuples(st.just("field"), st.booleans(), st.sampled_from(TAGS[:SEATS] + ["cmd:ok"])),
    st.tuples(st.just("console"), st.sampled_from(CONSOLE), st.tuples(seat, seat, text)),
    st.tuples(st.just("wait"), st.floats(0.1, 300), st.just(None)),
)


def apply(s: Script, steps) -> Script:
    for kind, a, b in steps:
        if kind == "hand":
            s.hand(a, b)
        elif kind == "field":
            s.field(b, removed=a)
        elif kind == "console":
            x, y, words = b
            s.console(a.format(a=x, b=y, text=words))
        else:
            s.wait(a)
    return s


def check(log) -> None:
    assert not internal_errors(log)
    assert not secrets_in_public(log, WITCH_SECRETS, ("night-speech", "deadroom-speech", "your-role", "partners"))
    for e in public_view(log):
        assert not re.search(r"role:(witch|mirror|priest|familiar|knight|twin|imp|human)", str(e.get("params", ""))) \
            or e["key"] in ("reveal", "claim-co", "claim-found", "claim-estimate"), e  # a seat's own spoken claim


@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.booleans(), st.lists(step, max_size=80))
def test_random_inputs_never_crash_never_leak_and_stop_always_ends(dealt, steps):
    s = apply(day1(DECK10) if dealt else Script("witch", SEATS, roles=DECK10), steps)
    log = s.run()
    check(log)
    if not of(log, "game-over"):
        log = s.console("stop").run()
    assert of(log, "game-over")
    assert sum(1 for e in log if e["type"] == "game-over") == 1


@settings(max_examples=25, deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.integers(1, SEATS), st.integers(1, SEATS)), min_size=1, max_size=200))
def test_random_legal_scans_play_on_and_keep_secrets(pairs):
    """Seat tokens only (votes and night acts), no referee: every refusal is private and the game goes on."""
    s = day1(DECK10)
    for actor, target in pairs:
        s.hand(actor, f"seat:{target}")
    log = s.run()
    check(log)
    for e in of(log, "error"):
        assert e.get("private"), e


@pytest.mark.parametrize("players", [5, 7, 8, 10, 13, 16])
@pytest.mark.parametrize("bot", ["reason", "plain", "random"])
def test_bot_games_end_with_a_winner_keep_secrets_and_replay_identically(players, bot):
    for seed in (1, 2):
        script, log = play("witch", seed, players, {}, bot)
        assert of(log, "game-over")[0]["winner"] in ("islanders", "witches", "imp")
        check(log)
        assert not of(log, "error")  # the bots play legally: no refusal, no referee needed but to call
        assert not [line for line in script if line.get("console") == "stop"]  # the vote (next)
        calls = [line["t"] for line in script if line.get("console") == "next"]
        assert calls == [e["t"] for e in said(log, "vote-now-all") if e["t"] in calls]
        assert run_script(script) == log


def test_bots_hear_only_what_their_seat_may_know(monkeypatch):
    heard = []
    original = witch_bots.BotSeat.hear

    def spy(self, ev):
        heard.append((self.seat, ev))
        return original(self, ev)

    monkeypatch.setattr(witch_bots.BotSeat, "hear", spy)
    play("witch", 3, 10, {}, "reason")
    assert heard and all(visible_to(ev, seat) and ev["type"] == "say" for seat, ev in heard)


def test_the_plain_bots_publish_findings_and_vote_on_them():
    """Over a few games the real mirror claims, and islanders vote for the seats its claims name."""
    claims = votes_on_claims = 0
    for seed in range(1, 9):
        _, log = play("witch", seed, 8, {}, "plain")
        mirror = next(e["seat"] for e in of(log, "role") if e["role"] == "mirror")
        named: set[int] = set()
        for e in log:
            if e["type"] == "say" and e["key"] == "speech" and e["params"]["seat"] == mirror:
                found = witch_bots.parse_claim(e["params"]["text"]) or {}
                claims += bool(found)
                named |= {t for t, f in found.items() if f == "witch"}
            if e["type"] == "tally" and named:
                votes_on_claims += sum(1 for t in e["ballots"].values() if t in named)
    assert claims >= 3 and votes_on_claims >= 3


def test_a_prologue_without_ok_is_ended_by_the_referee():
    log = table().console("next").run()
    assert of(log, "phase")[-1]["phase"] == "day"
