"""`kikimimi voices check PACK GAME LANG` and `kikimimi voices prepare GAME LANG`.

`check` compares a recorded pack with the catalogue: the phrases it does not
record (spoken by the engine instead), and the files nothing will ever play
(an unknown key, a parameter the phrase does not take, a misspelt name).
`prepare` renders a table's whole catalogue into the clip cache ahead of the
day, so even the first start of `kikimimi serve` is a warm one.
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import TYPE_CHECKING

from kikimimi.cli import CliError

if TYPE_CHECKING:
    from kikimimi.contract.declaration import Declaration


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("voices", help="recorded voice packs and the clip cache")
    vs = p.add_subparsers(dest="voices_command", metavar="ACTION", required=True)
    c = vs.add_parser("check", help="list a pack's missing and unused phrase keys")
    c.add_argument("pack", help="folder of <key>.wav / <key>@<param>=<value>.wav")
    c.add_argument("game")
    c.add_argument("lang", choices=("ja", "en"))
    c.set_defaults(func=cmd_check)
    r = vs.add_parser("prepare", help="render every phrase a table can say into the clip cache")
    r.add_argument("game")
    r.add_argument("lang", choices=("ja", "en"))
    r.add_argument("--players", type=int, help="seats at the table (default: the game's official count)")
    r.add_argument("--rate", type=int, action="append", help="words per minute (repeat for several outputs)")
    r.add_argument("--engine", default="auto", help="auto | openjtalk | espeak-ng | pyttsx3")
    r.add_argument("--cache", help="clip cache folder (default: $XDG_CACHE_HOME/kikimimi/clips)")
    r.set_defaults(func=cmd_prepare)


def _game(name: str) -> Declaration:
    from kikimimi.contract.registry import UnknownGame, declaration

    try:
        return declaration(name)
    except UnknownGame as exc:
        raise CliError(str(exc)) from None


def cmd_check(args: argparse.Namespace) -> int:
    from kikimimi.contract.phrases import Phrasebook
    from kikimimi.voice.domains import placeholders
    from kikimimi.voice.pack import VoicePack

    folder = Path(args.pack)
    if not folder.is_dir():
        raise CliError(f"{folder}: not a folder of recorded phrases")
    decl = _game(args.game)
    book = Phrasebook(args.lang, ("core", decl.name))
    pack = VoicePack(folder)
    missing = sorted(k for k in book.phrases if k not in pack)
    unused = [f"{name}: not <key>.wav or <key>@<param>=<value>.wav" for name in pack.bad]
    for key, params, stem in sorted(pack.entries(), key=lambda e: e[2]):
        if key not in book.phrases:
            unused.append(f"{stem}.wav: no phrase {key!r} in {decl.name}/{args.lang}")
            continue
        extra = sorted(set(params) - set(placeholders(book.phrases[key])))
        if extra:
            unused.append(f"{stem}.wav: {key!r} takes no parameter {', '.join(extra)}")
    print(f"{folder}: {len(pack.files)} recordings, {len(book.phrases) - len(missing)} of "
          f"{len(book.phrases)} phrases of {decl.name}/{args.lang} recorded")
    for key in missing:
        print(f"missing: {key} = {book.phrases[key]!r} (spoken by the engine)")
    for line in unused:
        print(f"unused: {line}")
    return 1 if unused else 0


def cmd_prepare(args: argparse.Namespace) -> int:
    from kikimimi.voice.domains import table_texts
    from kikimimi.voice.render import Renderer
    from kikimimi.voice.settings import MAX_RATE, MIN_RATE

    decl = _game(args.game)
    players = args.players or decl.default_players
    try:
        decl.check_players(players)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    rates = args.rate or [None]
    if any(r is not None and not MIN_RATE <= r <= MAX_RATE for r in rates):
        raise CliError(f"--rate must be {MIN_RATE}-{MAX_RATE} words per minute")
    try:
        renderer = Renderer(args.lang, Path(args.cache) if args.cache else None, engine=args.engine)
    except ValueError as exc:
        raise CliError(str(exc)) from None
    if renderer.problem:
        raise CliError(renderer.problem)
    got = table_texts(decl.name, players, {}, args.lang)
    started = time.perf_counter()
    made, failures = renderer.fill_cache(got.texts, rates, progress=True)
    for line in failures:
        print(line)
    print(f"{decl.name}/{args.lang}, {players} players, {renderer.describe()}: {len(got.texts)} texts x "
          f"{len(rates)} rate(s), {made} rendered now in {time.perf_counter() - started:.1f} s")
    for key, why in got.on_demand.items():
        print(f"rendered when first said: {key} ({why})")
    return 1 if failures else 0
