"""The report's pictures, drawn with matplotlib (the `report` extra: never skipped;
`kikimimi report` refuses in one line before any game when it is missing).

Each picture has a title that says what and how many, its axes labelled, a
reference line where one means something (a fair share, no difference), and
intervals as error bars.  Drawn to PNG bytes without a date or a version in
them, so the same games give the same bytes.
"""
from __future__ import annotations

import functools
import io
import textwrap
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from kikimimi.design.confidence import Estimate

#: Colours that stay apart for the common colour blindnesses (Okabe and Ito's palette, its
#: yellow left out: too faint on white); each series has its own marker too.
COLOURS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#000000", "#7F7F7F")
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")


def _plt() -> Any:
    from kikimimi.contract.extras import need

    matplotlib = need("report", "kikimimi report's pictures")

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def warm_up() -> None:
    """Load matplotlib and its Agg canvas ahead of the first picture (see build.make)."""
    _plt()


def later(draw: Callable[..., bytes], *args: Any, **kwargs: Any) -> Callable[[], bytes]:
    """A picture to draw when the page is put together: the pictures are
    independent and most of the page's own time, so the report's workers draw
    them side by side (a partial of a module-level function travels to them)."""
    return functools.partial(draw, *args, **kwargs)


def drawn(picture: Callable[[], bytes]) -> bytes:
    """The PNG of a `later` picture (in whichever process is free)."""
    return picture()


def _png(fig: Any) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=96, metadata={"Software": None})
    _plt().close(fig)
    return buf.getvalue()


def _wrap(text: str, width: int) -> str:
    return "\n".join(textwrap.wrap(text, width)) or text


def _width(groups: int, series: int) -> float:
    return min(14.0, max(6.0, 0.45 * groups * max(1, series) + 2.0))


def boxes(data: Mapping[str, Mapping[str, Sequence[float]]], title: str, ylabel: str) -> bytes:
    """Box plots (median, quartiles, whiskers at 1.5 IQR): a group per key of
    `data` (a player count), a box per series inside it (an arm)."""
    plt = _plt()
    groups = list(data)
    series = list(dict.fromkeys(s for g in data.values() for s in g))
    fig, ax = plt.subplots(figsize=(_width(len(groups), len(series)), 4.2))
    width = 0.8 / max(1, len(series))
    for i, name in enumerate(series):
        xs = [g + (i - (len(series) - 1) / 2) * width for g in range(len(groups))]
        values = [list(data[g].get(name, [])) or [float("nan")] for g in groups]
        b = ax.boxplot(values, positions=xs, widths=width * 0.85, patch_artist=True, showfliers=False)
        for patch in b["boxes"]:
            patch.set_facecolor(COLOURS[i % len(COLOURS)])
            patch.set_alpha(0.75)
        ax.plot([], [], color=COLOURS[i % len(COLOURS)], linewidth=8, label=name)
    ax.set_xticks(range(len(groups)), groups)
    ax.set_ylabel(ylabel)
    ax.set_title(_wrap(title, 90), fontsize=10)
    if len(series) > 1:
        ax.legend(fontsize=8)
    fig.tight_layout()
    return _png(fig)


def points(data: Mapping[str, Mapping[str, Estimate]], title: str, ylabel: str,
           reference: float | None = None, reference_label: str = "", percent: bool = True,
           shares: Mapping[str, float] | None = None) -> bytes:
    """Points with 95 % intervals: a group per key (a seat, a team), a series per
    arm, and a dashed reference line (a fair share, or no difference)."""
    plt = _plt()
    groups = list(data)
    series = list(dict.fromkeys(s for g in data.values() for s in g))
    fig, ax = plt.subplots(figsize=(_width(len(groups), len(series)), 4.2))
    width = 0.7 / max(1, len(series))
    scale = 100.0 if percent else 1.0
    for i, name in enumerate(series):
        xs, ys, lo, hi = [], [], [], []
        for g, group in enumerate(groups):
            est = data[group].get(name)
            if est is None:
                continue
            xs.append(g + (i - (len(series) - 1) / 2) * width)
            ys.append(scale * est.value)
            lo.append(max(0.0, scale * (est.value - est.low)))
            hi.append(max(0.0, scale * (est.high - est.value)))
        ax.errorbar(xs, ys, yerr=[lo, hi], fmt=MARKERS[i % len(MARKERS)], color=COLOURS[i % len(COLOURS)],
                    capsize=3, label=name)
    if reference is not None:
        ax.axhline(scale * reference, linestyle="--", color="#444", linewidth=1, label=reference_label or None)
    for g, group in enumerate(groups):  # a fair share of its own per group (one winner among k players)
        if shares and group in shares:
            ax.hlines(scale * shares[group], g - 0.45, g + 0.45, linestyles="--", color="#444", linewidth=1,
                      label=reference_label if g == 0 else None)
    ax.set_xticks(range(len(groups)), groups, rotation=20 if len(groups) > 6 else 0,
                  ha="right" if len(groups) > 6 else "center")
    ax.set_ylabel(ylabel)
    ax.set_title(_wrap(title, 90), fontsize=10)
    if len(series) > 1 or reference_label:
        ax.legend(fontsize=8)
    fig.tight_layout()
    return _png(fig)


def differences(rows: Sequence[tuple[str, Estimate, bool]], title: str, xlabel: str, percent: bool = True) -> bytes:
    """Paired differences as horizontal intervals, zero marked; a filled mark
    (and "Holm ✓" in the label) for each that stays significant after Holm."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(11.0, max(2.8, 0.5 * len(rows) + 1.6)))
    scale = 100.0 if percent else 1.0
    for y, (label, est, kept) in enumerate(reversed(rows)):
        colour = COLOURS[0] if kept else "#555555"
        ax.errorbar([scale * est.value], [y], xerr=[[max(0.0, scale * (est.value - est.low))],
                                                     [max(0.0, scale * (est.high - est.value))]],
                    fmt="o", color=colour, mfc=colour if kept else "white", capsize=3)
    ax.axvline(0.0, color="#444", linewidth=1, linestyle="--")
    ax.set_yticks(range(len(rows)), [_wrap(f"{label}{' (Holm ✓)' if kept else ''}", 48)
                                     for label, _, kept in reversed(rows)], fontsize=8)
    ax.set_xlabel(xlabel)
    ax.set_title(_wrap(title, 90), fontsize=10)
    fig.tight_layout()
    return _png(fig)


def bars(data: Mapping[str, Mapping[str, float]], title: str, xlabel: str) -> bytes:
    """Horizontal bars: a row per key (a rule), a bar per series (an arm)."""
    plt = _plt()
    groups = list(data)
    series = list(dict.fromkeys(s for g in data.values() for s in g))
    fig, ax = plt.subplots(figsize=(8.5, max(2.5, 0.3 * len(groups) * max(1, len(series)) ** 0.5 + 1.4)))
    height = 0.8 / max(1, len(series))
    for i, name in enumerate(series):
        ys = [len(groups) - 1 - g + ((len(series) - 1) / 2 - i) * height for g in range(len(groups))]
        ax.barh(ys, [data[g].get(name, 0.0) for g in groups], height, color=COLOURS[i % len(COLOURS)], label=name)
    ax.set_yticks(range(len(groups)), list(reversed(groups)), fontsize=8)
    ax.set_xlabel(xlabel)
    ax.set_title(_wrap(title, 90), fontsize=10)
    if len(series) > 1:
        ax.legend(fontsize=8)
    fig.tight_layout()
    return _png(fig)
