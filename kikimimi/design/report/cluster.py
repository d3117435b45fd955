"""`kikimimi report --cluster ADDRESS`: the report's games on a Ray cluster.

Ray is the optional `cluster` extra (`pip install 'kikimimi[cluster]'`): a
designer with one laptop never installs it.  The games are sent in the same
chunks as to local workers and put back in the plan's order, so the page is
byte for byte the one a single local worker writes (tests/report).  Every
machine of the cluster needs this kikimimi installed: a game is played by its
code there.
"""
from __future__ import annotations

import socket
import sys
from collections.abc import Callable, Sequence
from typing import Any

from kikimimi.design.report.run import chunked, run_chunk


def _ray() -> Any:
    """The ray module, typed as Any: mypy passes with the extra or without it."""
    from kikimimi.contract.extras import need

    return need("cluster", "--cluster")


def _reachable(address: str, seconds: float = 5.0) -> None:
    """Ray retries a dead address for minutes; a designer is told at once."""
    host, _, port = address.removeprefix("ray://").rpartition(":")
    try:
        with socket.create_connection((host or "127.0.0.1", int(port)), timeout=seconds):
            return
    except (OSError, ValueError) as exc:
        raise ValueError(f"--cluster {address}: no Ray cluster there ({exc or 'give host:port'})") from None


def run_on_cluster(work: Callable[[Any], Any], items: Sequence[Any], address: str, progress: bool = True,
                   label: str = "games") -> list[Any]:
    """`work(item)` for every item on the Ray cluster at `address` ("auto": the one
    this machine belongs to), in the items' order, with progress on stderr."""
    from tqdm import tqdm

    ray = _ray()
    joined = not ray.is_initialized()
    if joined and address != "auto":
        _reachable(address)
    if joined:
        try:
            ray.init(address=address, log_to_driver=False, logging_level="ERROR")
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise ValueError(f"--cluster {address}: no Ray cluster there ({str(exc).splitlines()[0]})") from None
    bar = tqdm(total=len(items), desc=label, unit="game", file=sys.stderr, disable=not progress)
    try:
        remote = ray.remote(run_chunk)
        starts = {}
        for start, chunk in chunked(items, max(1, int(ray.cluster_resources().get("CPU", 1)))):
            starts[remote.remote(work, chunk)] = start
        results: list[Any] = [None] * len(items)
        pending = list(starts)
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                out = ray.get(ref)
                results[starts[ref]:starts[ref] + len(out)] = out
                bar.update(len(out))
        return results
    finally:
        bar.close()
        if joined:
            ray.shutdown()
