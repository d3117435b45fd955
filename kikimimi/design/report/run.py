"""Playing the report's games: every arm × player count × seed, on one core or many.

Each game is independent and seeded, so a game's facts do not depend on the
process that played it; the results are put back in the plan's order, so the
report is byte for byte the same with one worker or many (tests/report).
With N workers, N − 1 processes are started with "spawn" (safe beside
threads, and the same on every platform) and this process is the N-th: it
plays chunks of the plan too, from its first second, while the others start
(a spawned worker spends its first second importing, which this process has
done already).  Each chunk is a contiguous run of the plan.  Progress with an
ETA goes to stderr (tqdm).
"""
from __future__ import annotations

import functools
import os
import sys
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import Any

from kikimimi.design.report.facts import game_facts


@dataclass(frozen=True)
class Job:
    """One bot game of the plan: which arm and count it belongs to, and how to play it."""

    arm: str
    seed: int
    players: int
    options: Mapping[str, Any] = field(default_factory=dict)
    bot: str | None = None


def play_job(game: str, job: Job) -> dict[str, Any]:
    """Play one game and read its facts (runs in a worker process)."""
    from kikimimi.design.sim import play

    script, log = play(game, job.seed, job.players, dict(job.options), job.bot)
    report = report_of(game)
    if report is None:
        return game_facts(script, log)
    return game_facts(script, log, report.abilities, report.margin_field(job.options))


@functools.lru_cache(maxsize=8)
def report_of(game: str) -> Any:
    """The game's `Report` (kikimimi/design/tuning.py), for what it says of its own events (the
    abilities its table only speaks of, the field its ranking is ordered by), or None."""
    from kikimimi.contract.parts import part
    from kikimimi.contract.registry import declaration

    decl = declaration(game)
    return part(decl, decl.report)() if decl.report else None


def run_chunk(work: Callable[[Any], Any], items: Sequence[Any]) -> list[Any]:
    """One chunk of the plan, in a worker process (or on a cluster's node)."""
    return [work(item) for item in items]


def chunked(items: Sequence[Any], workers: int) -> list[tuple[int, Sequence[Any]]]:
    """(start, items) chunks that shrink toward the end ("guided" scheduling): up to
    8 games while much is left, so sending them costs little, then a share of what
    is left, down to one game, so the cores finish together (the last chunk is the
    time one core waits for the others) and the ETA keeps moving."""
    out: list[tuple[int, Sequence[Any]]] = []
    start, share = 0, 4 * max(1, workers)
    while start < len(items):
        size = max(1, min(8, -(-(len(items) - start) // share)))
        out.append((start, items[start:start + size]))
        start += size
    return out


def workers_wanted(text: str) -> int:
    """`--workers N|auto`: auto is the cores this process may use."""
    if text == "auto":
        try:
            return max(1, len(os.sched_getaffinity(0)))
        except AttributeError:  # not Linux
            return max(1, os.cpu_count() or 1)
    try:
        n = int(text)
    except ValueError:
        n = 0
    if not 1 <= n <= 256:
        raise ValueError(f"--workers {text!r}: give a whole number 1-256, or auto")
    return n


#: Fewer games than this are played by this process alone when the worker count is left to
#: `auto`: a spawned helper spends its first half second importing, more than a short run saves.
SHORT_RUN = 64


def workers_for(text: str, games: int) -> int:
    """`--workers` as asked (`workers_wanted`), except that `auto` (the default) plays a run of
    fewer than SHORT_RUN games here alone; the page is the same either way."""
    n = workers_wanted(text)
    return 1 if text == "auto" and games < SHORT_RUN else n


class Workers:
    """N processes for a run of independent items: N − 1 spawned helpers and this
    process.  Kept open across several `map`s (the report's games, then its
    pictures), so the helpers are spawned, and import what they need, once.
    `warm_up` runs in each helper as it starts (the report's drawing library,
    loaded while the games are played rather than when the pictures are due)."""

    def __init__(self, workers: int, warm_up: Callable[[], None] | None = None) -> None:
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None
        if workers > 1:
            self._pool = ProcessPoolExecutor(max_workers=workers - 1, mp_context=get_context("spawn"),
                                             initializer=warm_up)

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, kind: Any, *_: Any) -> None:
        if self._pool is not None:
            if kind is None:
                self._pool.shutdown()
            else:  # an error (or ^C): the helpers' queued chunks are dropped, not played out
                self._pool.shutdown(wait=False, cancel_futures=True)

    def map(self, work: Callable[[Any], Any], items: Sequence[Any], progress: bool = True,
            label: str = "games", unit: str = "game") -> list[Any]:
        """`work(item)` for every item, in the items' order (`work` must be a
        module-level function, or a partial of one, for "spawn" to send it), with
        a progress bar and its ETA on stderr."""
        from tqdm import tqdm

        bar = tqdm(total=len(items), desc=label, unit=unit, file=sys.stderr, disable=not progress,
                   mininterval=0.5 if sys.stderr.isatty() else 5.0)
        try:
            if self._pool is None or len(items) < 2:
                out = []
                for item in items:
                    out.append(work(item))
                    bar.update(1)
                return out
            return _in_processes(self._pool, work, items, self.workers, bar.update)
        finally:
            bar.close()


def run_all(work: Callable[[Any], Any], items: Sequence[Any], workers: int = 1, progress: bool = True,
            label: str = "games") -> list[Any]:
    """`Workers(workers).map(work, items, …)`, its helpers closed after."""
    with Workers(workers) as pool:
        return pool.map(work, items, progress, label)


def _in_processes(pool: ProcessPoolExecutor, work: Callable[[Any], Any], items: Sequence[Any], workers: int,
                  done: Callable[[int], Any]) -> list[Any]:
    queue = deque(chunked(items, workers))
    results: list[Any] = [None] * len(items)
    helpers = workers - 1
    pending: dict[Future[list[Any]], int] = {}

    def put(start: int, out: list[Any]) -> None:
        results[start:start + len(out)] = out
        done(len(out))

    def collect() -> None:
        for future in [f for f in pending if f.done()]:
            put(pending.pop(future), future.result())
        # a helper has its next chunk waiting, so it never waits for this process; near the end
        # only the one it plays, so this process is not left waiting for a helper's backlog
        ahead = 2 * helpers if len(queue) > 2 * workers else helpers
        while queue and len(pending) < ahead:
            start, chunk = queue.popleft()
            pending[pool.submit(run_chunk, work, chunk)] = start

    while queue or pending:
        collect()
        if queue:  # this process plays a chunk of its own meanwhile, a game at a time, and
            start, chunk = queue.popleft()  # hands a helper that finished its next chunk between games
            out = []
            for item in chunk:
                out.append(work(item))
                collect()
            put(start, out)
        elif pending:
            wait(pending, return_when=FIRST_COMPLETED)
    return results
