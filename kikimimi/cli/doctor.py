"""`kikimimi doctor [TABLE.toml]`."""
from __future__ import annotations

import argparse


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("doctor", help="what is configured, found and missing, each with the fix")
    p.add_argument("config", nargs="?", help="a table config to check (readers, audio, journal)")
    p.set_defaults(func=cmd_doctor)


def cmd_doctor(args: argparse.Namespace) -> int:
    from kikimimi.doctor import run

    checks = run(args.config)
    for check in checks:
        print(check.line())
    bad = sum(not c.ok for c in checks)
    print(f"{len(checks) - bad} ok, {bad} to fix")
    return 1 if bad else 0
