"""Plumbing lines per game: the code a game writes for hooks, loops and parsing,
now beside a revision from before the plugin boundary (the anchor, read from git in the same run).

Counted, per game package, with `ast` (whole definitions, decorators included):
- the runtime hooks a game wrote as methods: `simulation`, `tune`, `diagram`,
  `referee_commands`, `check_options`;
- console parsing: `_console`, `on_console`, `_console_seat`, `_seat`, `_seat_arg`, and
  the handlers a command table names (`console_*`);
- option parsing: `parse_options`, `edition_from_options`, `_whole`;
- the tuning loop: `tune` functions, `Report` classes (trials, figures, text, plot);
- declarations of these: `bots`, `bot_table`, `ear_table`, `report`, `diagram_of`,
  `console_commands`, `options_schema`, `option_names`, `OPTIONS`, `OPTION_NAMES`, `DEFAULTS`;
  since the declaration is its own object (`kikimimi.contract.declaration.Declaration`), the same
  fields as keywords of a `Declaration(...)` call (`bots`, `bot_table`, `ear_table`, `report`,
  `diagram`, `commands`, `options`, `option_names`: the lines they span, each line once) and
  the commands table a game keeps beside it (`COMMANDS`).

Interaction counts what a game wrote for the runtime's own tags: its HINT answer
(`_hint` methods, and each `if` branch whose test names "cmd:hint" or "hint", test and body), which the
runtime now answers itself (`Declaration.hint`, `kikimimi.contract.choices`).

Strict counts only hooks, loops and parsing code (a report class counts its `trials`); broad
adds the declarations themselves, the console handlers' bodies (what a command does) and whole
report classes.  What a game's rules need (pieces, phases, phrase values) is not counted.

    .venv/bin/python bench/plumbing_lines.py [--before REV]
"""
from __future__ import annotations

import argparse
import ast
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
#: main when the boundary work of docs/authoring.md began.
BEFORE = "4232005"
GAMES = ("trident", "onisagashi", "witch", "mafia42", "intrigue")
FUNCTIONS = {"simulation", "tune", "diagram", "referee_commands", "check_options", "_console", "on_console",
             "_console_seat", "_seat", "_seat_arg", "parse_options", "edition_from_options", "_whole"}
NAMES = {"bots", "bot_table", "ear_table", "report", "diagram_of", "console_commands", "options_schema",
         "option_names", "OPTIONS", "OPTION_NAMES", "DEFAULTS", "COMMANDS"}
#: The same declarations as fields of a `Declaration(...)` (counted in the broad figure alike).
KEYWORDS = {"bots", "bot_table", "ear_table", "report", "diagram", "commands", "options", "option_names"}


def _span(node: ast.AST) -> int:
    first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])  # type: ignore[attr-defined]
    return node.end_lineno - first + 1  # type: ignore[attr-defined]


def interaction(source: str) -> int:
    """Lines of one file that answer the runtime's own tags (HINT) in the game's code."""
    tree = ast.parse(source)
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == "_hint":
            lines.update(range(node.lineno, node.end_lineno + 1))  # type: ignore[operator]
        elif isinstance(node, ast.If) and any(isinstance(c, ast.Constant) and c.value in ("cmd:hint", "hint")
                                              for c in ast.walk(node.test)):
            lines.update(range(node.test.lineno, node.body[-1].end_lineno + 1))  # type: ignore[operator]
    return len(lines)


def plumbing(source: str) -> tuple[int, int]:
    """(strict, broad) lines of one file: strict is hooks, loops and parsing code; broad adds the
    declarations, the console handlers' bodies and the whole report classes."""
    strict = broad = 0
    tree = ast.parse(source)
    reports = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name.endswith("Report")]
    for report in reports:
        broad += _span(report)
        strict += 1 + sum(_span(n) for n in report.body if isinstance(n, ast.FunctionDef) and n.name == "trials")
    scopes: list[list[ast.stmt]] = [tree.body]
    scopes += [n.body for n in tree.body if isinstance(n, ast.ClassDef) and n not in reports]
    for body in scopes:
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if node.name in FUNCTIONS:
                    strict += _span(node)
                    broad += _span(node)
                elif node.name.startswith("console_"):
                    broad += _span(node)
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if any(isinstance(t, ast.Name) and t.id in NAMES for t in targets):
                    broad += _span(node)
    broad += len(_declaration_lines(tree))
    return strict, broad


def _declaration_lines(tree: ast.AST) -> set[int]:
    """The lines the plumbing fields of every `Declaration(...)` call span (a line holding two
    fields counts once), so a declaration object is counted as its class attributes were."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) == "Declaration":
            for kw in node.keywords:
                if kw.arg in KEYWORDS:
                    lines.update(range(kw.value.lineno, kw.value.end_lineno + 1))  # type: ignore[operator]
    return lines


def _files(rev: str | None, game: str) -> dict[str, str]:
    folder = f"games/{game}"
    if rev is None:
        return {str(p): p.read_text(encoding="utf-8") for p in sorted((REPO / folder).glob("*.py"))}
    names = subprocess.run(["git", "-C", str(REPO), "ls-tree", "--name-only", f"{rev}:{folder}"],
                           capture_output=True, text=True, check=True).stdout.split()
    return {n: subprocess.run(["git", "-C", str(REPO), "show", f"{rev}:{folder}/{n}"], capture_output=True,
                              text=True, check=True).stdout for n in names if n.endswith(".py")}


def _count(rev: str | None, game: str) -> tuple[int, int, int]:
    files = _files(rev, game).values()
    counts = [plumbing(src) for src in files]
    return sum(c[0] for c in counts), sum(c[1] for c in counts), sum(interaction(src) for src in files)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default=BEFORE, help=f"the anchor revision (default {BEFORE})")
    args = parser.parse_args()
    print(f"plumbing lines per game (before: {args.before}, now: the working tree)")
    print(f"{'game':12s} {'strict before':>13s} {'now':>5s} {'ratio':>6s}   {'broad before':>12s} {'now':>5s} "
          f"{'ratio':>6s}   {'interaction before':>18s} {'now':>5s}")
    totals = [0, 0, 0, 0, 0, 0]
    for game in GAMES:
        (sb, bb, ib), (sn, bn, i_n) = _count(args.before, game), _count(None, game)
        for i, v in enumerate((sb, sn, bb, bn, ib, i_n)):
            totals[i] += v
        print(f"{game:12s} {sb:13d} {sn:5d} {sn / sb:6.2f}   {bb:12d} {bn:5d} {bn / bb:6.2f}   {ib:18d} {i_n:5d}")
    sb, sn, bb, bn, ib, i_n = totals
    print(f"{'all':12s} {sb:13d} {sn:5d} {sn / sb:6.2f}   {bb:12d} {bn:5d} {bn / bb:6.2f}   {ib:18d} {i_n:5d}")


if __name__ == "__main__":
    main()
