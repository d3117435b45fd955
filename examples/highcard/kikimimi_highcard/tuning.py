"""`kikimimi sim highcard --games N`: does the seat that shows first win more often?"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from kikimimi.game import Ask, Log, Report, Row, Script, Trial


class HighCardReport(Report):
    def figures(self, trial: Trial, script: Script, log: Log) -> Any:
        over = next((ev for ev in log if ev["type"] == "game-over"), None)
        return over["ranking"][0]["seat"] if over and over["ranking"] else None

    def text(self, rows: Sequence[Row], ask: Ask) -> str:
        wins = Counter(winner for _, winner in rows)
        rates = ", ".join(f"seat {s} {wins[s] / len(rows):.0%}" for s in range(1, ask.players + 1))
        return f"High card: {len(rows)} bot games, {ask.players} players; wins: {rates}"
