"""A reasoning seat of AIWolf's 15-player regulation deck (8 humans, the mirror, the priest,
the knight, 3 witches, the familiar) that heard its role, its partners, the nights and the
day: the start of every test of the bots at 15 players."""
from __future__ import annotations

import random
from collections.abc import Sequence

from kikimimi_games.witch import bots as witch_bots

DECK15 = ["human"] * 8 + ["mirror", "priest", "knight", "witch", "witch", "witch", "familiar"]


def seat(number: int, role: str, partners: Sequence[int] = (), day: int = 2, gone: Sequence[int] = (),
         voted: Sequence[int] = (), players: int = 15) -> witch_bots.BotSeat:
    """At another count the seat reasons over that count's own deck."""
    s = witch_bots.BotSeat(number, players, "reason", random.Random(number), DECK15 if players == 15 else None)
    s.hear({"to": f"seat:{number}", "key": "your-role", "params": {"role": f"role:{role}"}})
    if partners:
        s.hear({"to": f"seat:{number}", "key": "partners", "params": {"seats": list(partners)}})
    if voted:
        s.hear({"to": "table", "key": "voted-out", "params": {"seats": list(voted)}})
    if gone:
        s.hear({"to": "table", "key": "morning", "params": {"seats": list(gone)}})
    s.hear({"to": "table", "key": "day", "params": {"day": day}})
    return s


def said(s: witch_bots.BotSeat, by: int, text: str) -> None:
    s.hear({"to": "table", "key": "speech", "params": {"seat": by, "text": text}})
