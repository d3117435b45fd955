"""`driver = "sim"`: no device; the keyboard or a table script stands in for the readers
(`kikimimi.table.sim_readers`), and everything else `serve` runs is the real thing.  A table is all
simulated or all hardware (the table file says so when it mixes them)."""
from __future__ import annotations

from kikimimi.contract.finding import Check
from kikimimi.readers.kind import ReaderKind

KIND = ReaderKind(
    name="sim",
    summary="simulated readers (the keyboard or a table script)",
    simulated=True,
    checks=lambda sections, where: [Check("readers", True, "simulated (keyboard or script)")],
)
