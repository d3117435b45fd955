"""`kikimimi service install TABLE.toml`: the table starts when the box is switched on."""
from __future__ import annotations

import argparse
import os
from pathlib import Path

from kikimimi.cli import actions, one_line


def add_parser(sub: argparse._SubParsersAction) -> None:
    i = actions(sub, "service").add_parser("install", help="write a systemd unit that serves this table at boot")
    i.add_argument("config", help="the table file (kikimimi table setup writes one)")
    i.add_argument("--user", default="kikimimi", help="the unprivileged user it runs as (default: kikimimi; "
                                                           "created as a system user when run as root)")
    i.add_argument("--unit-dir", default="/etc/systemd/system", help="where the unit is written")
    i.add_argument("--python", metavar="PATH",
                   help="the interpreter the service runs (default: this one); the user must be able to run it")
    i.add_argument("--owner", metavar="USER", default=os.environ.get("SUDO_USER") or None,
                   help="who keeps the referee's console on the served table: joins the service's group "
                        "(default: the user who ran sudo)")
    i.set_defaults(func=cmd_install)


def cmd_install(args: argparse.Namespace) -> int:
    from kikimimi.box.service import install

    with one_line(ValueError):  # ServiceError, or the table file refused (ConfigError)
        unit = install(args.config, args.user, Path(args.unit_dir), python=args.python,
                       say=lambda done: print(f"kikimimi: {done}", flush=True),
                       owner=args.owner if args.owner != "root" else None)
    print(f"kikimimi: wrote {unit}")
    print(f"  start it now and at every boot: sudo systemctl daemon-reload && sudo systemctl enable --now {unit.name}")
    print(f"  what it says: journalctl -u {unit.name} -f")
    return 0
