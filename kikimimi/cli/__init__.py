"""`kikimimi`: the one command line for tables, tools and tests (docs/contract.md).

Each subcommand lives in its own module with an `add_parser(subparsers)`;
games add theirs through the `kikimimi.contract.commands` entry-point group.  Every
handler returns an exit code; expected failures print one line to stderr,
never a traceback.

Only the module of the command being run is imported: a table's start-up and
`kikimimi --help` should not pay for every game plugin, numpy and the records
layer (docs/speed.md measured 220-280 ms for `--help` when everything loaded).
"""
from __future__ import annotations

import argparse
import contextlib
import importlib
import sys
from collections.abc import Iterator, Sequence

#: Each built-in command, the module that adds it, and its one-line help, in help order.
COMMANDS: tuple[tuple[str, str, str], ...] = (
    ("replay", "kikimimi.cli.play", "run a table script, print its event log"),
    ("sim", "kikimimi.cli.play", "bots play a game (prints its event log)"),
    ("diagram", "kikimimi.cli.play", "draw a game's state machine"),
    ("check", "kikimimi.cli.check", "hold an installed game to the contract every game keeps"),
    ("serve", "kikimimi.cli.serve", "run a table: readers, voice, journal"),
    ("doctor", "kikimimi.cli.doctor", "what is configured, found and missing, each with the fix"),
    ("table", "kikimimi.cli.table", "set a real table up by ear: readers, earphones, seats"),
    ("service", "kikimimi.cli.service", "install a table as a boot service (systemd)"),
    ("tags", "kikimimi.cli.tags", "enrol and check the tags of a piece set"),
    ("players", "kikimimi.cli.records", "club players and their titles"),
    ("session", "kikimimi.cli.records", "official practice sessions (full/half trial)"),
    ("contest", "kikimimi.cli.records", "contests (tournaments) won"),
    ("seating", "kikimimi.cli.records", "the order in which players choose seats"),
    ("export", "kikimimi.cli.records", "export records as CSV"),
    ("console", "kikimimi.cli.console", "the referee console (or a spectator's view) of a running table"),
    ("web", "kikimimi.cli.web", "the web console for phones: serve it, pair a device, list or revoke devices"),
    ("voices", "kikimimi.cli.voices", "check a recorded voice pack; render a game's phrases ahead of a table"),
)
#: Games (and other plugins) add commands here: name = "package.module:add_parser".
PLUGIN_GROUP = "kikimimi.contract.commands"


class CliError(Exception):
    """An expected failure: its message is the one line the user sees."""


@contextlib.contextmanager
def one_line(*errors: type[Exception]) -> Iterator[None]:
    """Within it, an expected error of these kinds becomes the user's one line (a `CliError`)."""
    try:
        yield
    except errors as exc:
        raise CliError(str(exc)) from None


def actions(sub: argparse._SubParsersAction, command: str) -> argparse._SubParsersAction:
    """A command whose next word is an ACTION (`table setup`, `service install`): the
    command's parser, its help from `COMMANDS`, and the parsers of its actions."""
    parser = sub.add_parser(command, help=next(h for name, _, h in COMMANDS if name == command))
    return parser.add_subparsers(dest=f"{command}_command", metavar="ACTION", required=True)


def _new_parser() -> tuple[argparse.ArgumentParser, argparse._SubParsersAction]:
    parser = argparse.ArgumentParser(
        prog="kikimimi",
        description="Controller for voice-output games played with NFC-tagged pieces.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    return parser, sub


def _plugin_commands() -> dict[str, object]:
    """Plugin commands by name, not loaded (loading one may import numpy)."""
    from importlib.metadata import entry_points

    return {ep.name: ep for ep in entry_points(group=PLUGIN_GROUP)}


def _add_module(sub: argparse._SubParsersAction, name: str) -> bool:
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name == name:  # that part of the product is not installed
            return False
        raise
    module.add_parser(sub)
    return True


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser for `command` (only its module is imported), or for every
    command when `command` is None or unknown."""
    parser, sub = _new_parser()
    modules = [m for c, m, _ in COMMANDS if command in (None, c)]
    plugins = _plugin_commands() if command is None or not modules else {}
    if command in plugins:
        plugins = {command: plugins[command]}
    elif command is not None and not modules:
        modules = list(dict.fromkeys(m for _, m, _ in COMMANDS))
    for name in dict.fromkeys(modules):
        _add_module(sub, name)
    for ep in plugins.values():
        try:
            ep.load()(sub)  # type: ignore[attr-defined]
        except Exception as exc:  # one broken plugin must not take the CLI down
            print(f"kikimimi: plugin command {ep.name!r} unavailable: {exc}", file=sys.stderr)  # type: ignore[attr-defined]
    return parser


def _help_parser() -> argparse.ArgumentParser:
    """`kikimimi --help` from the table above: nothing but argparse is imported."""
    parser, sub = _new_parser()
    for command, _, text in COMMANDS:
        sub.add_parser(command, help=text)
    for name in sorted(_plugin_commands()):
        sub.add_parser(name, help=f"{name}'s own tools (kikimimi {name} --help)")
    return parser


def _command_of(argv: Sequence[str]) -> str | None:
    return next((a for a in argv if not a.startswith("-")), None)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    command = _command_of(argv)
    if command is None:
        _help_parser().parse_args(argv)  # prints help or the usage error, and exits
        return 2
    args = build_parser(command).parse_args(argv)
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
