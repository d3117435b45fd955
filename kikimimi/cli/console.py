"""`kikimimi console [--socket PATH | CONFIG.toml]`: referee or watch a running table.

Given the table config, the console finds the sockets and the secret next
to the config's journal, exactly where `kikimimi serve` put them.
"""
from __future__ import annotations

import argparse
import os
from pathlib import Path

from kikimimi.cli import CliError


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("console", help="the referee console (or a spectator's view) of a running table")
    p.add_argument("config", nargs="?", help="the table config TOML that `kikimimi serve` runs")
    p.add_argument("--socket", help="the table's socket instead (JOURNAL.sock; spectators: JOURNAL.public.sock)")
    p.add_argument("--journal", help="the journal the table was served with, if not the config's")
    p.add_argument("--spectator", action="store_true", help="public events only, no secret needed")
    p.add_argument("--secret-file", help="the table's secret (default: next to the socket)")
    p.add_argument("--plain", action="store_true",
                   help="line mode for a screen reader or braille display: each event printed once, "
                        "commands at a prompt, nothing redrawn")
    p.set_defaults(func=cmd_console)


def socket_from_args(args: argparse.Namespace) -> Path:
    from kikimimi.api import paths

    if args.socket:
        if args.config or args.journal:
            raise CliError("give either --socket or a table config, not both")
        return Path(args.socket)
    if args.journal:
        journal = Path(args.journal)
    elif args.config:  # the table as this user reads the file, or as the boot service does (kikimimi.console.served)
        from kikimimi.console.served import NotReachable, served_socket
        from kikimimi.table.config import ConfigError

        try:
            return served_socket(args.config, spectator=args.spectator)
        except (ConfigError, NotReachable) as exc:
            raise CliError(str(exc)) from None
    else:
        raise CliError("which table? give its config (kikimimi console TABLE.toml) or --socket PATH")
    return paths.public_socket(journal) if args.spectator else paths.referee_socket(journal)


def cmd_console(args: argparse.Namespace) -> int:
    from kikimimi.api import paths
    from kikimimi.api.client import ApiClientError, read_secret

    socket = socket_from_args(args)
    spectator = args.spectator or paths.is_public_socket(socket)
    from kikimimi.console.served import closed_line, present

    closed: list[Path] = []
    if not present(socket, closed):  # said before the screen switches to the console
        if closed:
            raise CliError(closed_line(socket))
        raise CliError(f"{socket}: no table is being served here (is `kikimimi serve` running?)")
    secret_file = Path(args.secret_file) if args.secret_file else paths.secret_for_socket(socket)
    if not spectator:
        try:  # checked now for a clear one-line refusal; read again at every reconnection
            read_secret(secret_file)
        except ApiClientError as exc:
            if present(secret_file) and not os.access(secret_file, os.R_OK):  # the group's, not this user's
                raise CliError(closed_line(secret_file).replace(": closed to", ": the table's secret is closed to", 1)) \
                    from None
            raise CliError(str(exc)) from None
    if args.plain:
        import asyncio

        from kikimimi.console.plain import PlainConsole

        try:
            return asyncio.run(PlainConsole(socket, spectator=spectator, secret_file=secret_file).run())
        except ApiClientError as exc:
            raise CliError(str(exc)) from None
        except KeyboardInterrupt:
            return 0
    from kikimimi.console.app import ConsoleApp

    app = ConsoleApp(socket, spectator=spectator, secret_file=secret_file)
    app.run()
    if app.return_code and app.return_code != 0:
        raise CliError(str(app.return_value if isinstance(app.return_value, str) else "could not attach to the table"))
    return 0
