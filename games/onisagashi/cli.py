"""`kikimimi onisagashi solve OBS.json`: the deduction matrix and best declaration for one seat."""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .knowledge import KnowledgeError, knowledge_from_json
from .solver import analyse


def add_cli(subparsers: Any) -> None:
    parser = subparsers.add_parser("onisagashi", help="鬼探し tools")
    sub = parser.add_subparsers(dest="onisagashi_command", required=True)
    solve = sub.add_parser("solve", help="matrix, settled answer and best declaration for one seat's observations")
    solve.add_argument("observations", help="observations JSON (docs/contract.md), or - for stdin")
    solve.set_defaults(func=solve_command)


def solve_command(args: argparse.Namespace) -> int:
    path = args.observations
    try:
        text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
    except OSError as exc:
        print(f"onisagashi solve: cannot read {path}: {exc.strerror}", file=sys.stderr)
        return 2
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        print(f"onisagashi solve: {path} is not JSON: {exc.msg} at line {exc.lineno}", file=sys.stderr)
        return 2
    try:
        result = analyse(knowledge_from_json(data)).to_json()
    except KnowledgeError as exc:
        print(f"onisagashi solve: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(result, ensure_ascii=False))
    return 0
