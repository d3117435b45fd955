"""The Trident's search bot: it plays from what its seat may know, replays from its seed,
and its report compares it deal by deal with the bot it replaces."""
from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

from kikimimi.table.engine import Table, default_tagmap
from kikimimi.contract.script import Header
from kikimimi.design.sim import play
from kikimimi.design.tuning import Ask
from kikimimi_games.trident.search import (
    DECK, UNKNOWN, SearchBot, View, bot_table, determinize, focal_seat, root_moves, search)
from kikimimi_games.trident.simulation import BASKET_TOP
from kikimimi_games.trident.tuning import TridentReport, duel

SEED = 7


def _decision_points(seed: int, limit: int = 12) -> list[tuple[Any, SearchBot, list[str]]]:
    """Play a search game through the engine; at each of the search bot's turns
    keep (the table's world, a copy of the bot, its hand) as they were just before it chose."""
    table = bot_table(seed, 3, {}, "search")
    me = focal_seat(seed, 3)
    engine = Table(Header("trident", 3, {}, "en", {"seed": seed}), tagmap=default_tagmap("trident"))
    table.observe(engine.start())
    points: list[tuple[Any, SearchBot, list[str]]] = []
    n = 0
    while not engine.game.over and n < 3000 and len(points) < limit:
        bot = table.bots[me]
        assert isinstance(bot, SearchBot)
        hand = table.world.hands[me]
        if bot.turn == me and not bot.choosing and bot.view(hand) is not None and \
                bot.off_turn_action(list(hand), len(table.world.basket)) is None:
            points.append((copy.deepcopy(table.world), copy.deepcopy(bot), list(hand)))
        line = table.next_input()
        if line is None:
            break
        n += 1
        table.observe(engine.feed(n, {"t": float(n), **line}))
    return points


def _what(action: dict[str, Any], world: Any) -> tuple[str, str]:
    """A decision as the table sees it, with "the basket's top" named as such."""
    tag = action.get("tag", action.get("console", ""))
    return action.get("reader", "console"), "basket-top" if tag == BASKET_TOP else tag


def test_the_search_bot_decides_the_same_whatever_the_others_hold():
    points = _decision_points(SEED)
    assert len(points) >= 5
    for world, bot, hand in points:
        others = [t for s, h in world.hands.items() if s != bot.seat for t in h] + list(world.basket)
        shuffled = copy.deepcopy(world)
        rng = random.Random(1)
        rng.shuffle(others)  # the same counts, other pieces in every other hand and the basket
        for s, h in shuffled.hands.items():
            if s != bot.seat:
                shuffled.hands[s] = [others.pop() for _ in h]
        shuffled.basket = [others.pop() for _ in shuffled.basket]
        assert others == []
        assert Counter(t for s, h in shuffled.hands.items() if s != bot.seat for t in h) != \
            Counter(t for s, h in world.hands.items() if s != bot.seat for t in h)
        a = copy.deepcopy(bot).turn_action(list(hand), len(world.basket))
        b = copy.deepcopy(bot).turn_action(list(hand), len(shuffled.basket))
        assert _what(a, world) == _what(b, shuffled)


def test_the_view_holds_only_what_the_seat_heard():
    _, bot, hand = _decision_points(SEED, limit=1)[0]
    view = bot.view(hand)
    assert view is not None
    assert len(view.hand) == len(hand)
    # the bot's own unknown pieces stay unknown: the tag names the effect, the bot may not read it
    bot.memory.update({t: "unknown" for t in hand})
    view = bot.view(hand)
    assert view is not None and set(view.hand) == {UNKNOWN}
    assert sum(view.counts) + sum(view.seen.values()) <= sum(DECK.values())


def test_a_determinization_keeps_every_public_count():
    view = View(1, 3, (0, 0, UNKNOWN, 9), (4, 6, 2), {0: 3, 11: 1}, 0, 0, False, 1, False)
    for seed in range(20):
        model = determinize(view, random.Random(seed))
        assert [len(h) for h in model.hands] == [4, 6, 2]
        assert model.hands[0][:2] == [0, 0] and model.hands[0][3] == 9
        assert model.hands[0][2] in (12, 13, 14)  # an unknown, and not the one already seen on the field
        everything = Counter(c for h in model.hands for c in h) + Counter(model.basket) + Counter(view.seen)
        assert everything == DECK


def test_the_search_prefers_going_out_to_drawing():
    view = View(2, 3, (1,), (5, 1, 5), {}, 1, 0, False, 1, False)
    assert root_moves(view) == [("play", 1), ("draw", -1)]
    assert search(view, random.Random(0), iterations=40) == ("play", 1)


def test_search_games_replay_identically_from_their_seeds():
    a = play("trident", SEED, 3, {}, "search")
    b = play("trident", SEED, 3, {}, "search")
    assert a == b
    human = play("trident", SEED, 3, {}, "human")
    me = f"seat:{focal_seat(SEED, 3)}"
    assert [ln for ln in a[0] if ln.get("seat") != me] != [ln for ln in human[0] if ln.get("seat") != me]


def test_the_report_pits_the_search_bot_against_the_bot_it_replaces_deal_by_deal():
    report = TridentReport()
    ask = Ask(games=6, seed=3, players=3, options={}, bot="search")
    trials = report.trials(ask)
    assert [(t.seed, t.bot) for t in trials[:2]] == [(3, "search"), (3, "human")]
    rows = []
    for trial in trials:
        script, log = play("trident", trial.seed, trial.players, dict(trial.options), trial.bot)
        rows.append((trial, report.figures(trial, script, log)))
    text, by = duel(rows, ask)
    assert len(by["contender"]) == len(by["human"]) == 6
    assert "search − human: win rate" in text and "[" in text
    assert ("not significant" in text) or ("significant" in text)
