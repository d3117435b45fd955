"""Histograms for the designer's reports (`kikimimi sim GAME --games N --plot FILE`).

matplotlib is the optional `plot` extra: without it a report says so in one
line and is otherwise whole."""
from __future__ import annotations

from collections.abc import Sequence


def histogram(values: Sequence[float], path: str, xlabel: str, ylabel: str, bins: int = 30) -> str:
    """Write a histogram of `values` to `path`; return the report's line about it."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "plot skipped: matplotlib is not installed (pip install 'kikimimi[plot]')"
    fig, ax = plt.subplots()
    ax.hist(list(values), bins=bins)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    fig.savefig(path)
    plt.close(fig)
    return f"plot written to {path}"
