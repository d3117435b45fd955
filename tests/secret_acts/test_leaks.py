"""Leaks, each found playing a live table, and one general test over
every game: no refusal, error or console echo names a private piece in public."""
from __future__ import annotations

import pytest

from kikimimi.table.engine import public_view, run_script
from kikimimi.contract.protocol import visible_to
from kikimimi.contract.registry import declaration, game_names
from kikimimi.contract.script import dumps
from kikimimi.design.sim import play

GAMES = [name for name in game_names() if name != "toy"]
ONI_HANDS = {1: ["mion", "tofu", "swamp"], 2: ["rena", "nata", "dam"], 3: ["keiichi", "kugi", "phonebox"],
             4: ["satoko", "kame", "roadside"], 5: ["rika", "bat", "forest"]}


def oni_dealt(rules: str = "beginner") -> list[dict]:
    lines: list[dict] = [{"game": "onisagashi", "players": 5, "lang": "ja", "options": {"rules": rules}}]
    for seat, cards in ONI_HANDS.items():
        lines += [{"t": len(lines), "reader": "hand", "seat": seat, "tag": f"oni:card-{c}"} for c in cards]
    return lines


def public_of(log, line):
    return [ev for ev in log if ev["in"] == line and visible_to(ev, None)]


def test_oni_beginner_answers_the_declarers_own_card_as_any_other_token():
    """Everyone sees the token, so an answer only an own card got told the card."""
    own = oni_dealt() + [{"t": 100, "reader": "field", "tag": "oni:token-mion"}]  # seat 1 holds 魅音
    other = oni_dealt() + [{"t": 100, "reader": "field", "tag": "oni:token-rena"}]
    mine, theirs = run_script(own), run_script(other)
    strip = lambda evs: [{k: v for k, v in e.items() if k not in ("text", "params", "seq")} for e in evs]  # noqa: E731
    assert strip(public_of(mine, len(own))) == strip(public_of(theirs, len(other)))
    assert [e["key"] for e in public_of(mine, len(own)) if e["type"] == "say"] == ["token"]
    assert any(ev["type"] == "say" and ev["key"] == "own-card" and ev["to"] == "seat:1" for ev in mine)


def test_oni_console_refusals_are_no_public_events_naming_cards():
    for typed in ("declare mion tofu swamp", "raise rena", "scan 1 oni:card-mion extra", "deal oni:card-rika"):
        lines = oni_dealt() + [{"t": 100, "console": typed}]
        log = run_script(lines)
        assert [ev["type"] for ev in log if ev["in"] == len(lines)] == ["error"]
        assert not public_of(log, len(lines)), typed


@pytest.mark.parametrize("game,card", [("witch", "witch:role-witch-1"), ("mafia42", "mafia42:job-mafia-1")])
def test_a_role_card_put_on_the_field_is_never_named_in_public(game, card):
    players = declaration(game).official_players
    log = run_script([{"game": game, "players": players}, {"t": 1, "reader": "field", "tag": card}])
    public = public_of(log, 2)
    assert public and card not in dumps(public)
    assert any(ev["type"] == "error" and card in ev["message"] and ev["private"] == "referee" for ev in log)


def private_pieces(game: str, players: int) -> list[str]:
    """Two pieces a player keeps to themself, of the kind the game deals in hands."""
    kinds = {"witch": "witch:role-", "mafia42": "mafia42:job-", "onisagashi": "oni:card-",
             "trident": "trident:", "intrigue": "intrigue:advisor-"}
    tags = sorted(t for t in declaration(game).known_tags(players) if t.startswith(kinds[game]))
    return [tags[0], tags[-1]]


def hostile(game: str, piece: str) -> list[dict]:
    """A piece where it does not belong, and console lines echoing it."""
    out = [{"console": f"frobnicate {piece}"}, {"console": f"act 1 {piece}"}, {"console": f"scan 99 {piece}"},
           {"console": f"hint {piece}"}]
    if game != "trident":  # a Trident piece on the field is a play, announced by the rules
        out.append({"reader": "field", "tag": piece})
        out.append({"reader": "field", "tag": piece, "removed": True})
    return out


@pytest.mark.parametrize("game", GAMES)
def test_no_refusal_error_or_console_echo_tells_which_private_piece_it_was(game):
    """The attacker compares two tables that differ only in which private piece
    was refused: the public views must be the same, at every point of a game."""
    decl = declaration(game)
    players = decl.default_players
    script, _ = play(game, 5, players)
    first, second = private_pieces(game, players)
    points = sorted({1, len(script) // 3, 2 * len(script) // 3, len(script) - 1})
    for k in points:
        views = []
        for piece in (first, second):
            t = script[k].get("t", 0)
            lines = script[:k + 1] + [{"t": t, **h} for h in hostile(game, piece)] + script[k + 1:]
            log = run_script(lines)
            injected = range(k + 2, k + 2 + len(hostile(game, piece)))
            said = [ev for ev in log if ev["in"] in injected and visible_to(ev, None)]
            assert piece not in dumps(said), (k, said)
            views.append([{k2: v for k2, v in ev.items() if k2 != "t"} for ev in public_view(log)])
        assert views[0] == views[1], f"{game}: the public view tells {first} from {second} (after line {k})"
