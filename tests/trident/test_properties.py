"""Property tests: random legal and illegal table inputs never break the game's invariants."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kikimimi.table.engine import Table
from kikimimi.contract.script import Header
from kikimimi.design.sim import play
from kikimimi_games.trident.pieces import TAGS

ALL = sorted(TAGS)
COMMANDS = ["declare trident", "declare pass", "declare agree", "suit", "penalty", "stop", "nonsense"]
STEP = st.tuples(st.integers(0, 9), st.integers(0, 200), st.integers(0, 200))


def _line(op: int, a: int, b: int, snap: dict, players: int) -> dict:
    seat = a % players + 1
    hands = snap["hands"]
    if op in (0, 1):  # a basket piece on a hand reader (a draw or the deal)
        pool = snap["basket"] or ALL
        return {"reader": "hand", "seat": seat, "tag": pool[b % len(pool)]}
    if op in (2, 3):  # a piece from the turn player's (or any) hand onto the field
        holder = snap["turn"] if op == 2 else seat
        pool = hands[holder] or ALL
        return {"reader": "field", "tag": pool[b % len(pool)]}
    if op == 4:  # a basket piece straight onto the field
        pool = snap["basket"] or ALL
        return {"reader": "field", "tag": pool[b % len(pool)]}
    if op == 5:  # any tag on any reader
        return {"reader": "hand", "seat": seat, "tag": ALL[b % len(ALL)]} if b % 2 else {"reader": "field", "tag": ALL[b % len(ALL)]}
    if op == 6:
        return {"reader": "hand", "seat": seat, "tag": ["cmd:trident", "cmd:pass", "cmd:agree", "cmd:hint"][b % 4]}
    if op == 7:
        cmd = COMMANDS[b % len(COMMANDS)]
        if cmd.startswith("declare") or cmd == "penalty":
            cmd += f" {a % (players + 1) + 1}"
        elif cmd == "suit":
            cmd += " " + ["heart", "diamond", "spade", "clover", "moon"][a % 5]
        return {"console": cmd} if cmd != "stop" or b % 7 == 0 else {"console": "declare pass 1"}
    # op 8, 9: the own hand scanned (listening), or removal
    pool = hands[seat] or ALL
    return {"reader": "hand", "seat": seat, "tag": pool[b % len(pool)], "removed": op == 9}


def _mentions(ev: dict) -> set[str]:
    found = {v for v in (ev.get("tag"),) if isinstance(v, str)}
    found |= {v for v in (ev.get("params") or {}).values() if isinstance(v, str)}
    return found & TAGS


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 4), steps=st.lists(STEP, min_size=20, max_size=160),
       scoring=st.sampled_from(["normal", "competition"]))
def test_random_inputs_keep_pieces_accounted_secrets_private_and_errors_harmless(players, steps, scoring):
    table = Table(Header("trident", players, {"scoring": scoring}, "en", {}))
    table.start()
    game = table.game
    # deal most of the time, so the inputs reach the interesting phases
    line_no = 1
    for k in range(5 * players if steps[0][0] < 8 else 0):
        line_no += 1
        table.feed(line_no, {"t": line_no, "reader": "hand", "seat": k // 5 + 1, "tag": game.snapshot()["basket"][k * 3 % 20]})
    for op, a, b in steps:
        before = game.snapshot()
        line_no += 1
        events = table.feed(line_no, {"t": line_no, **_line(op, a, b, before, players)})
        after = game.snapshot()
        assert not [e for e in events if e["type"] == "error" and "internal" in e["message"]]
        pieces = sorted(after["basket"] + after["field"] + [t for h in after["hands"].values() for t in h])
        assert pieces == ALL
        if any(e["type"] == "error" for e in events):
            assert after == before
        if not any(e["type"] == "rotate" for e in events):
            holder = {t: s for s, h in after["hands"].items() for t in h}
            for ev in events:
                for tag in _mentions(ev) & holder.keys():
                    audience = ev["to"] if ev["type"] == "say" else ev.get("private", "table")
                    assert audience == f"seat:{holder[tag]}", (ev, holder[tag])
        if game.over:
            break


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 4), bot=st.sampled_from(["human", "random"]))
def test_bot_games_always_end_with_pieces_accounted(seed, players, bot):
    script, log = play("trident", seed, players, {}, bot)
    over = [e for e in log if e["type"] == "game-over"]
    assert len(over) == 1 and over[0]["reason"] in ("out", "crash", "stopped")
    assert [e["place"] for e in over[0]["ranking"]] == list(range(1, players + 1))
