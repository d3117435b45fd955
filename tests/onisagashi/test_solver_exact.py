"""The solver against the brute-force oracle, and the seed's worked example."""
from __future__ import annotations

import random

import pytest

from kikimimi_games.onisagashi.knowledge import knowledge_from_json
from kikimimi_games.onisagashi.solver import analyse

from . import brute


def test_seed_worked_example():
    """Seed section 3: holding 魅音, 豆腐の角, 沼; I declare 圭一, 金属バット, 森の中 and P2, P4 say have."""
    k = knowledge_from_json({"rules": "beginner", "players": 5, "me": 1,
                             "hand": ["mion", "tofu", "swamp"],
                             "history": [{"declarer": 1, "cards": ["keiichi", "bat", "forest"], "have": [3, 5]}]})
    m = analyse(k).matrix()
    row = lambda c: [m[c][col] for col in ("1", "2", "3", "4", "5", "answer")]
    for declared in ("keiichi", "bat", "forest"):
        assert row(declared) == [0, 0, 1, 0, 1, 1]
    for mine in ("mion", "tofu", "swamp"):
        assert row(mine) == [1, 0, 0, 0, 0, 0]
    for other in ("rena", "satoko", "rika", "shion", "nata", "kugi", "kame", "kuwa", "dam", "phonebox", "roadside", "riverbank"):
        assert row(other) == [0, 1, 1, 1, 1, 1]


def _positions(rules: str, players: int, wanted: int, seed: int, budget: int):
    rng = random.Random(seed)
    got = []
    tries = 0
    while len(got) < wanted:
        tries += 1
        assert tries < wanted * 20, "the generator rarely produces brute-forceable positions"
        k, _ = brute.random_position(rng, rules, players, rng.randint(3, 12))
        try:
            found = brute.deals(k, budget)
        except brute.TooBig:
            continue
        got.append((k, found))
    return got


@pytest.mark.parametrize("rules,players,wanted,seed", [
    ("beginner", 5, 150, 1), ("advanced", 5, 150, 2), ("beginner", 4, 25, 3), ("advanced", 3, 25, 4), ("advanced", 6, 25, 5),
])
def test_matrix_equals_brute_force(rules, players, wanted, seed):
    for k, found in _positions(rules, players, wanted, seed, budget=25_000):
        a = analyse(k)
        assert a.deals == len(found), k
        assert a.matrix() == brute.matrix(k, found), k


def test_best_declaration_equals_brute_force():
    rng = random.Random(7)
    checked = 0
    for rules in ("beginner", "advanced"):
        for k, found in _positions(rules, 5, 6, rng.randint(0, 10**6), budget=25_000):
            if len(found) < 2:
                continue
            a = analyse(k)
            scores = {d: brute.information(k, found, d) for d in brute.legal_declarations(k)}
            top = max(scores.values())
            expected = min((d for d, v in scores.items() if v >= top - 1e-9),
                           key=lambda d: [brute.CARDS.index(c) for c in d])
            assert a.best() == expected
            for d, v in a.information().items():
                assert abs(v - scores[d]) < 1e-9
            checked += 1
    assert checked >= 6
