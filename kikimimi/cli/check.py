"""`kikimimi check GAME...`: an installed game held to the whole contract (kikimimi/design/contract_check.py).

One line per failure, each with its fix; exit 0 when every game keeps every part, 1 when one
does not (2, as for any command, when the command line itself is wrong)."""
from __future__ import annotations

import argparse
import sys

from kikimimi.cli import CliError


def add_parser(sub: argparse._SubParsersAction) -> None:
    from kikimimi.design.contract_check import PARTS

    p = sub.add_parser("check", help="hold an installed game to the contract every game keeps",
                       description="Play short seeded games of each GAME through the real engine and check "
                                   "every part of the contract: " + ", ".join(PARTS) + ".")
    p.add_argument("games", nargs="+", metavar="GAME", help="an installed game (its kikimimi.games entry point)")
    p.add_argument("--part", action="append", choices=list(PARTS), metavar="PART",
                   help=f"check only this part (repeatable): {', '.join(PARTS)}")
    p.add_argument("--json", action="store_true", help="print the failures as one JSON list")
    p.add_argument("--bot", action="append", metavar="KIND", dest="fair_bots", default=[],
                   help="the fairness part's bot kind (repeatable; 'all': every kind that seats identical bots)")
    p.add_argument("--games", type=int, metavar="N", dest="fair_games",
                   help="the fairness part's games per bot kind (default 120)")
    p.set_defaults(func=cmd_check)


def cmd_check(args: argparse.Namespace) -> int:
    from kikimimi.design.contract_check import LOAD, PARTS, as_json, check

    failures = []
    for game in args.games:
        if args.fair_games is not None and not 20 <= args.fair_games <= 100_000:
            raise CliError("--games must be 20 to 100000")
        found = check(game, args.part, args.fair_bots, args.fair_games)
        failures += found
        if not args.json:
            for failure in found:
                print(failure.line())
            parts = args.part or list(PARTS)
            broken = {f.part for f in found}
            if LOAD in broken:
                print(f"{game}: not checked: it does not load")
                continue
            print(f"{game}: {len(parts) - len(broken)} of {len(parts)} parts kept"
                  + (f"; broken: {', '.join(p for p in parts if p in broken)}" if broken else ""))
    if args.json:
        print(as_json(failures))
    sys.stdout.flush()
    if failures and not args.json and len(args.games) > 1:
        print(f"{len(failures)} failures", file=sys.stderr)
    return 1 if failures else 0


__all__ = ["CliError", "add_parser", "cmd_check"]
