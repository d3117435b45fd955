"""For each game, a whole game played at a physical table's
kit (every scan is a uid of the copy the player holds), and two tables that differ
only in a secret act look the same to the speaker and in the public view: which
seat scanned what, and when, cannot be told."""
from __future__ import annotations

from typing import Any

import pytest

from kikimimi.table.engine import public_view, run_script
from kikimimi.contract.protocol import visible_to
from kikimimi.design.sim import play

from .kit_table import KitTable


def before_the_end(log: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The public view up to the game's end (the end reveals roles, cash, answers by rule)."""
    view = public_view(log)
    end = next((i for i, ev in enumerate(view) if ev["type"] == "game-over"), len(view))
    return view[:end]


def spoken(log: list[dict[str, Any]]) -> list[tuple[float, str]]:
    """What the speaker said before the end, and when."""
    end = next((ev["seq"] for ev in log if ev["type"] == "game-over"), None)
    return [(ev["t"], ev["text"]) for ev in log if ev["type"] == "say" and ev["to"] == "table"
            and (end is None or ev["seq"] < end)]


def assert_played_from_the_kit(log: list[dict[str, Any]]) -> None:
    assert any(ev["type"] == "game-over" for ev in log)
    assert not [ev for ev in log if ev["type"] == "error" and "unknown tag" in str(ev.get("message"))]


# -- 闇に笑う魔女: who is the priest, who is a human ------------------------------------
WITCH_ROLES = {"A": ["witch", "priest", "human", "human", "mirror"],
               "B": ["witch", "human", "priest", "human", "mirror"]}


def witch_game(deal: list[str]) -> list[dict[str, Any]]:
    lines: list[dict[str, Any]] = [{"game": "witch", "players": 5, "lang": "ja",
                                    "options": {"roles": ["witch", "priest", "human", "human", "mirror"],
                                                "day_acts": "free"}}]  # the kit's cover (docs/secrets.md); the day calls: test_day_acts
    t = 0.0

    def hand(seat: int, tag: str, dt: float = 1.0) -> None:
        nonlocal t
        t += dt
        lines.append({"t": t, "reader": "hand", "seat": seat, "tag": tag})

    seen: dict[str, int] = {}
    for seat, role in enumerate(deal, 1):
        seen[role] = seen.get(role, 0) + 1
        hand(seat, f"witch:role-{role}-{seen[role]}")
    for seat in range(1, 6):
        hand(seat, "cmd:ok")
    t += 2
    lines.append({"t": t, "reader": "field", "tag": "seat:2"})  # seat 2 speaks for ten seconds
    t += 10
    lines.append({"t": t, "reader": "field", "tag": "seat:2", "removed": True})
    for voter, target in ((4, 1), (5, 1), (1, 2)):
        hand(voter, f"seat:{target}")
    # seats 2 and 3 both scan EXORCISE then seat 1, and ADVISE then seat 4: one has each
    # power; for the other the pair does nothing (it was a vote, and it completed the count)
    for seat in (2, 3):
        hand(seat, "cmd:exorcise")
        hand(seat, "seat:1", 0.5)
        hand(seat, "cmd:advise")
        hand(seat, "seat:4", 0.5)
        hand(seat, "cmd:hint")
    for voter, target in ((2, 1), (3, 1)):
        hand(voter, f"seat:{target}")
    return lines


def test_witch_the_priest_and_the_human_cannot_be_told_apart(tmp_path):
    kit = KitTable("witch", 5, {"roles": WITCH_ROLES["A"]}, tmp_path)
    logs = {name: run_script(kit.physical(witch_game(deal))) for name, deal in WITCH_ROLES.items()}
    for log in logs.values():
        assert_played_from_the_kit(log)
    a, b = logs["A"], logs["B"]
    # the powers were used: a mark and an advisory in each game, by different seats
    assert [(e["seat"], e["type"]) for e in a if e["type"] in ("exorcise", "advise")] == [(2, "exorcise"), (3, "advise")]
    assert [(e["seat"], e["type"]) for e in b if e["type"] in ("exorcise", "advise")] == [(2, "advise"), (3, "exorcise")]
    assert before_the_end(a) == before_the_end(b)
    assert spoken(a) == spoken(b) and len(spoken(a)) > 10
    ends = [next(ev for ev in log if ev["type"] == "game-over")["winner"] for log in (a, b)]
    assert ends == ["islanders", "islanders"]


# -- イントリーゲ: a hidden offer's amount ----------------------------------------------
def test_intrigue_a_hidden_offer_changes_nothing_public_before_the_final_count(tmp_path):
    options = {"bribes": "hidden", "seed": 11}
    script, _ = play("intrigue", 2, 4, options, "greedy")
    kit = KitTable("intrigue", 4, options, tmp_path)
    taps = [i for i, line in enumerate(script) if line.get("tag") == "cmd:bribe"]
    oks = [i for i, line in enumerate(script) if line.get("tag") == "cmd:ok"]
    assert taps and len(oks) > 10
    k = oks[len(oks) // 2]  # one more tap before this OK: another amount, the same time
    other = script[:k] + [{**script[k], "tag": "cmd:bribe"}] + script[k:]
    a, b = (run_script(kit.physical(s)) for s in (script, other))
    for log in (a, b):
        assert_played_from_the_kit(log)
    amounts = [[e["amount"] for e in log if e["type"] == "offer"] for log in (a, b)]
    assert amounts[0] != amounts[1]
    assert [{k2: v for k2, v in e.items() if k2 != "in"} for e in before_the_end(a)] == \
        [{k2: v for k2, v in e.items() if k2 != "in"} for e in before_the_end(b)]


# -- 鬼探し and the Trident: what a player asks their own reader ---------------------------
def with_private_lookups(script: list[dict[str, Any]], players: int, tags: list[str]) -> list[dict[str, Any]]:
    """The same game, with every seat scanning its own HINT (and pieces of its own set)
    on its hand reader now and then, at the time of the line before."""
    out = [script[0]]
    for n, line in enumerate(script[1:], 1):
        out.append(line)
        if n % 9 == 0 and "t" in line:
            seat = n // 9 % players + 1
            out += [{"t": line["t"], "reader": "hand", "seat": seat, "tag": tag} for tag in tags]
    return out


@pytest.mark.parametrize("game,players,tags", [
    ("trident", 3, ["cmd:hint"]),
    ("onisagashi", 5, ["cmd:hint"]),
])
def test_a_players_private_questions_leave_no_trace_in_public(tmp_path, game, players, tags):
    script, log = play(game, 4, players)
    kit = KitTable(game, players, {}, tmp_path)
    asked = with_private_lookups(script, players, tags)
    plain, busy = run_script(kit.physical(script)), run_script(kit.physical(asked))
    assert_played_from_the_kit(busy)
    assert sum(1 for ev in busy if ev["type"] == "say" and ev["to"] != "table") > \
        sum(1 for ev in plain if ev["type"] == "say" and ev["to"] != "table") + 5  # they were answered
    assert [ev for ev in plain if visible_to(ev, None)] != public_view(plain)  # the raw numbering differs
    assert public_view(plain) == public_view(busy)  # ... the public view does not


def test_oni_an_assistant_question_on_ones_own_tokens_is_private(tmp_path):
    """鬼探し's assistant: a seat scans declaration tokens of its own set on its hand
    reader and hears what it knows of each; nobody else learns which it asked about."""
    script, _ = play("onisagashi", 4, 5)
    kit = KitTable("onisagashi", 5, {}, tmp_path)
    k = next(i for i, line in enumerate(script) if line.get("reader") == "field")  # the first declaration
    for asks in (["oni:token-rena", "oni:token-bat"], ["oni:token-dam", "oni:token-kugi"]):
        lines = script[:k] + [{"t": script[k - 1]["t"], "reader": "hand", "seat": 3, "tag": tag} for tag in asks] + \
            script[k:]
        log = run_script(kit.physical(lines))
        assert any(ev["type"] == "say" and ev["to"] == "seat:3" and ev["in"] == k + 1 for ev in log)
        assert public_view(log) == public_view(run_script(kit.physical(script)))
