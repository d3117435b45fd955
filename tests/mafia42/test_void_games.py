"""The bot games that ended void, as the designer's report dealt them, seeded.

Four were stalls between bots, now fixed in the bots; the last kind is a stalemate the rules
give no end to, which the simulated referee now stops after `STALEMATE_DAYS` quiet days."""
from __future__ import annotations

from typing import Any

import pytest

from kikimimi.design.sim import play
from kikimimi_games.mafia42.bots import STALEMATE_DAYS

#: (seed, players, deck) from `kikimimi sim mafia42 --games 1000 --seed 1 --option mode=cult`.
STALLS = [
    # a converted judge, not knowing it played for the cult, spared its leader every day,
    # and the town voted the leader every day
    (68, 10, ["mafia", "mafia", "madam", "police", "doctor", "cult-leader", "judge", "society", "society",
              "politician"]),
    # the converted seats shielded their leader in every approval; the town voted him again and again
    (402, 12, ["mafia", "mafia", "mafia", "madam", "police", "doctor", "cult-leader", "fanatic", "politician",
               "clergy", "medium", "gangster"]),
    # (found with this change's first cult bots) a converted politician and the fanatic, who do not
    # know each other, tied the town's vote every day
    (691, 12, ["mafia", "mafia", "mafia", "spy", "police", "doctor", "cult-leader", "fanatic", "magician",
               "politician", "mercenary", "prophet"]),
    # after a tie the town followed the seat named most, whose tie came back the next day
    (858, 12, ["mafia", "mafia", "mafia", "witch", "police", "doctor", "cult-leader", "fanatic", "magician",
               "politician", "medium", "reporter"]),
]


def _over(log: list[dict[str, Any]]) -> dict[str, Any]:
    return next(e for e in reversed(log) if e["type"] == "game-over")


@pytest.mark.parametrize("seed,players,deck", STALLS, ids=[str(s[0]) for s in STALLS])
def test_a_former_stall_between_bots_ends_with_a_winner(seed, players, deck):
    script, log = play("mafia42", seed, players, {"mode": "cult", "jobs": deck}, "reason", max_inputs=3000)
    over = _over(log)
    assert over["winner"] in ("mafia", "citizens", "cult"), over.get("reason")
    assert over["day"] < 20


def test_a_stalemate_the_rules_cannot_end_is_stopped_void_by_the_referee():
    """A witch in contact alone against a mercenary whose client was shot: her curse takes his
    shot every night, the mafia cannot win while he lives (∞ heads), and one vote each ties
    every day. Nobody can win; the referee stops it, void, a month of days after the last death."""
    deck = ["mafia", "mafia", "witch", "police", "doctor", "mercenary", "politician", "clergy"]
    script, log = play("mafia42", 718, 8, {"mode": "classic", "jobs": deck}, "reason")
    over = _over(log)
    assert (over["winner"], over["reason"]) == ("void", "stopped")
    assert script[-1] == {"t": script[-1]["t"], "console": "stop"}
    living = {r["role"] for r in over["ranking"] if r["alive"]}
    assert living == {"witch", "mercenary"}
    last_death = max(e["t"] for e in log if e["type"] == "death")
    days = [e["day"] for e in log if e["type"] == "phase" and e["t"] > last_death]
    assert STALEMATE_DAYS <= max(days) - min(days) <= STALEMATE_DAYS + 2
    assert len(script) < 2000  # not the 20,000 inputs of the sim's last resort
