"""`kikimimi doctor [TABLE.toml]`."""
from __future__ import annotations

import argparse

from kikimimi.cli import CliError


#: What `doctor` without a table file checked, and what to pass for the rest.
NO_TABLE = ("no table file given: checked this machine only (Python, speech, sound devices, games); "
            "to check a table's readers, sound outputs and journal too: kikimimi doctor TABLE.toml")


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("doctor", help="what is configured, found and missing, each with the fix")
    p.add_argument("config", nargs="?", help="a table config to check (readers, audio, journal)")
    p.add_argument("--listen", action="store_true",
                   help='say "speaker", "seat 1", "seat 2", ... through each output in turn, then the kit '
                        '(each player\'s pieces, the table\'s, the tags missing) on the speaker, to check by ear')
    p.set_defaults(func=cmd_doctor)


def cmd_doctor(args: argparse.Namespace) -> int:
    from kikimimi.box.doctor import listen, run

    if args.listen:
        if not args.config:
            raise CliError("--listen needs the table file: kikimimi doctor --listen TABLE.toml")
        try:
            checks = listen(args.config)
        except ValueError as exc:  # the table file or its [audio] refused, in one line
            raise CliError(str(exc)) from None
    else:
        checks = run(args.config)
    for check in checks:
        print(check.line())
    bad = sum(not c.ok for c in checks)
    print(f"{len(checks) - bad} ok, {bad} to fix")
    if not args.config:
        print(NO_TABLE)
    return 1 if bad else 0
