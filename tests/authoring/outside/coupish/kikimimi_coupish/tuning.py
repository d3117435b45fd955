"""`kikimimi sim coupish --games N`: how often is a claim challenged?"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kikimimi.game import Ask, Log, Report, Row, Script, Trial


class CoupishReport(Report):
    def figures(self, trial: Trial, script: Script, log: Log) -> Any:
        return sum(1 for ev in log if ev["type"] == "challenge")

    def text(self, rows: Sequence[Row], ask: Ask) -> str:
        challenged = sum(1 for _, n in rows if n)
        return f"Coupish: {len(rows)} bot games, {ask.players} players; a claim challenged in {challenged}"
