"""`kikimimi`: the one command line for tables, tools and tests (CONTRACT.md).

Each subcommand lives in its own module with an `add_parser(subparsers)`;
games add theirs through `Game.add_cli`.  Every handler returns an exit
code; expected failures print one line to stderr, never a traceback.
"""
from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# Modules that each add one or more subcommands, in help order.
COMMAND_MODULES = (
    "kikimimi.cli.play",      # replay, sim, diagram
    "kikimimi.cli.serve",     # serve
    "kikimimi.cli.doctor",    # doctor
    "kikimimi.cli.tags",      # tags enroll|check
    "kikimimi.cli.records",   # players, session, contest, seating, export
    "kikimimi.cli.console",   # console
    "kikimimi.cli.voices",    # voices check|prepare
)


class CliError(Exception):
    """An expected failure: its message is the one line the user sees."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="kikimimi",
        description="Controller for voice-output games played with NFC-tagged pieces.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:  # that part of the product is not built yet
                continue
            raise
        module.add_parser(sub)
    from kikimimi.registry import game_class, game_names

    for game in game_names():
        try:
            cls = game_class(game)
        except Exception:  # one broken plugin must not take the CLI down;
            continue  # its error is shown when that game is asked for
        cls.add_cli(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except CliError as exc:
        print(f"kikimimi: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("kikimimi: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0

