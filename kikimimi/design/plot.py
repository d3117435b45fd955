"""Histograms for the designer's reports (`kikimimi sim GAME --games N --plot FILE`).

matplotlib is the `report` extra (kikimimi/contract/extras.py): a plot asked for is drawn,
or refused in one line naming the extra, never skipped.  The full designer's report is
`kikimimi report GAME` (kikimimi/design/report/)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kikimimi.design.confidence import Estimate


def _pyplot() -> Any:
    from kikimimi.contract.extras import need

    matplotlib = need("report", "a plot (--plot)")

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def histogram(values: Sequence[float], path: str, xlabel: str, ylabel: str, bins: int = 30) -> str:
    """Write a histogram of `values` to `path`; return the report's line about it."""
    plt = _pyplot()
    fig, ax = plt.subplots()
    ax.hist(list(values), bins=bins)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    fig.savefig(path)
    plt.close(fig)
    return f"plot written to {path}"


def bars(series: Mapping[str, Sequence[float]], groups: Sequence[str], path: str, ylabel: str) -> str:
    """Grouped bars, one colour per series (say, each bot kind's share of each place)."""
    plt = _pyplot()
    fig, ax = plt.subplots()
    width = 0.8 / max(1, len(series))
    for i, (name, values) in enumerate(series.items()):
        ax.bar([g + i * width for g in range(len(groups))], list(values), width, label=name)
    ax.set_xticks([g + width * (len(series) - 1) / 2 for g in range(len(groups))], list(groups))
    ax.set_ylabel(ylabel)
    ax.legend()
    fig.savefig(path)
    plt.close(fig)
    return f"plot written to {path}"


def intervals(series: Mapping[str, Sequence[Estimate]], groups: Sequence[str], path: str, ylabel: str,
              title: str = "") -> str:
    """Grouped bars with their 95 % intervals as error bars: each way of playing
    (a series) on each measure (a group), so overlapping intervals show at a glance.
    The title says what and how many; the width stops at a page's (14 in)."""
    plt = _pyplot()
    if not groups:
        return "plot skipped: no rate to draw"
    fig, ax = plt.subplots(figsize=(min(14.0, max(6.0, 1.2 * len(groups) * max(1, len(series)) / 2)), 4.5))
    if title:
        ax.set_title(title, fontsize=10)
    width = 0.8 / max(1, len(series))
    for i, (name, ests) in enumerate(series.items()):
        xs = [g + i * width for g in range(len(groups))]
        values = [e.value for e in ests]
        errors = [[max(0.0, e.value - e.low) for e in ests], [max(0.0, e.high - e.value) for e in ests]]
        ax.bar(xs, values, width, yerr=errors, capsize=3, label=name)
    ax.set_xticks([g + width * (len(series) - 1) / 2 for g in range(len(groups))], list(groups),
                  rotation=20, ha="right")
    ax.set_ylabel(ylabel)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return f"plot written to {path}"
