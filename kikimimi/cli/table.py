"""`kikimimi table setup`: find the readers and sound cards, bind them to seats by ear, write the table file."""
from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from kikimimi.cli import CliError, actions, one_line


def add_parser(sub: argparse._SubParsersAction) -> None:
    s = actions(sub, "table").add_parser("setup", help="spoken from start to end: each player scans when their earphone asks")
    s.add_argument("out", help="the table file to write (e.g. hardware/my-table.toml)")
    s.add_argument("--game", nargs="+", default=["trident"], metavar="GAME",
                   help="the game this table plays, or several for an evening, the first first (default: trident)")
    s.add_argument("--players", type=int, default=3, help="seats at the table (default: 3)")
    s.add_argument("--lang", choices=("ja", "en"), default="ja", help="the language spoken (default: ja)")
    from kikimimi.readers import registry
    from kikimimi.box.setup.found import discoverable

    kinds = [registry.kind(name) for name in discoverable()[1:]]
    auto = " and ".join(k.summary for k in kinds if k and k.auto)
    named = registry.listed([k.name for k in kinds if k and not k.auto], "and")
    s.add_argument("--driver", choices=discoverable(), default="auto",
                   help=f"the readers' kind (default: auto, {auto} together, each written with its own driver"
                        + (f"; {named} must be named)" if named else ")"))
    s.add_argument("--udev", metavar="FILE", help="also write udev rules naming each reader by its USB port")
    s.add_argument("--force", action="store_true", help="replace an existing table file")
    s.add_argument("--answer-seconds", type=float, default=10.0,
                   help="how long a question waits for a scan (default: 10)")
    s.add_argument("--rate", type=int, help="speech rate, words per minute; kept in the table file, so doctor "
                                            "--listen and the games speak at it too (default: the voice's own)")
    s.add_argument("--no-enrol", action="store_true",
                   help="bind the devices only; enrol the pieces later (run the set-up again)")
    s.add_argument("--enrol-seconds", type=float, default=60.0,
                   help="how long enrolment waits for each piece before it stops (default: 60)")
    s.add_argument("--serial-dir", default="/dev/serial/by-path", help=argparse.SUPPRESS)
    s.add_argument("--cache-dir", help=argparse.SUPPRESS)
    s.set_defaults(func=cmd_setup)


def _checked(args: argparse.Namespace) -> Path:
    from kikimimi.contract.registry import UnknownGame, declaration

    names = []
    with one_line(UnknownGame, ValueError):
        for game in args.game:
            decl = declaration(game)
            decl.check_players(args.players)
            if decl.name in names:
                raise CliError(f"--game {decl.name} is named twice")
            names.append(decl.name)
    args.game = names
    out = Path(args.out)
    if out.exists() and not args.force:
        raise CliError(f"{out} exists: choose another name, or --force to replace it "
                       "(its tag maps are kept: enrolment goes on where it stopped)")
    if not out.parent.is_dir():
        raise CliError(f"{out.parent} is not a folder")
    if not 0.5 <= args.answer_seconds <= 120:
        raise CliError("--answer-seconds must be from 0.5 to 120")
    from kikimimi.voice.settings import MAX_RATE, MIN_RATE

    if args.rate is not None and not MIN_RATE <= args.rate <= MAX_RATE:
        raise CliError(f"--rate must be from {MIN_RATE} to {MAX_RATE} words per minute")
    if not 1 <= args.enrol_seconds <= 3600:
        raise CliError("--enrol-seconds must be from 1 to 3600")
    return out


def _say_too_few_readers(cards: list[Any], found: int, need: int, args: argparse.Namespace) -> None:
    """The set-up is heard, not read: too few readers is said on every card found (and printed,
    as every set-up line is) before the one-line error, not a silence the table never explains."""
    from kikimimi.box.setup.live import LiveIO

    io = LiveIO(cards, [], lang=args.lang, rate=args.rate, answer_s=args.answer_seconds,
                cache_dir=Path(args.cache_dir) if args.cache_dir else None)
    try:
        io.say_all([c.id for c in cards], "setup-few-readers", readers=found, need=need)
    finally:
        io.close()


def cmd_setup(args: argparse.Namespace) -> int:
    out = _checked(args)
    from kikimimi.box.setup.dialogue import SetupFailed, run_dialogue
    from kikimimi.box.setup.found import find_readers, usb_cards
    from kikimimi.box.setup.live import LiveIO
    from kikimimi.box.setup.tablefile import table_toml, tagmap_names, udev_rules, write_new
    from kikimimi.table.config import ConfigError, load_table_config
    from kikimimi.readers.probe import probe
    from kikimimi.voice.devices import output_devices

    from kikimimi.readers.registry import kind

    readers, looked = find_readers(args.driver, Path(args.serial_dir))
    ttys = [r for r in readers if getattr(kind(r.driver), "tty", False)]
    if args.udev and (not getattr(kind(args.driver), "tty", True) or readers and not ttys):
        raise CliError("--udev names serial readers: a USB reader is named by its port in the table file "
                       "and needs only udev/99-kikimimi.rules")
    try:
        devices = output_devices()
    except Exception as exc:
        raise CliError(f"no sound devices: {exc}") from None
    cards, problems = usb_cards(devices)
    for line in problems:
        print(f"kikimimi: {line}", file=sys.stderr)
    need = args.players + 1
    if len(cards) < need:
        raise CliError(f"{len(cards)} sound cards found, {need} needed (the speaker and one earphone a seat): "
                       "plug them in (aplay -l lists them)")
    if len(readers) < need:
        _say_too_few_readers(cards, len(readers), need, args)
        raise CliError(f"{len(readers)} {looked}, {need} needed "
                       "(the field reader and one a seat): plug them in")
    silent = []
    for reader in readers:  # each reader asked its firmware through the real driver before it is used
        check = probe(reader.id, {"driver": reader.driver, "path": reader.path})
        print(check.line().replace(f"reader {reader.id} answers", f"reader at USB {reader.port} answers"))
        if not check.ok:
            silent.append(reader)
    answering = [r for r in readers if r not in silent]
    cache = Path(args.cache_dir) if args.cache_dir else None
    io = LiveIO(cards, answering, lang=args.lang, rate=args.rate,
                answer_s=args.answer_seconds, cache_dir=cache)
    try:
        for cid, problem in io.problems().items():
            print(f"kikimimi: sound card {cid}: {problem}", file=sys.stderr)
        io.prepare([r.port for r in silent])
        ids = [c.id for c in cards]
        io.say_all(ids, "setup-start", cards=len(cards), readers=len(readers))
        for reader in silent:
            io.say_all(ids, "setup-reader-silent", port=reader.port)
        try:
            binding = run_dialogue(io, ids, args.players)
        except SetupFailed:
            print("kikimimi: set-up stopped: not enough seats were bound; nothing written", file=sys.stderr)
            return 1
        found_readers = {r.id: r for r in readers}
        found_cards = {c.id: c for c in cards}
        maps = tagmap_names(out, args.game)
        _keep_tagmaps(out.parent, maps.values())
        write_new(out, table_toml(binding, args.game[0], args.players, args.lang, found_readers, found_cards,
                                  tagmaps=maps, rate=args.rate))
        try:
            load_table_config(out)
        except ConfigError as exc:
            raise CliError(f"the table file written does not load: {exc}") from None
        if args.udev:
            write_new(Path(args.udev), udev_rules(binding, found_readers))
        assert binding.speaker is not None
        io.say(binding.speaker, "setup-done", players=args.players)
        for seat, (card, rid) in sorted(binding.seats.items()):
            print(f"seat {seat}: earphone {io.where(card)}, reader at USB {found_readers[rid].port}")
        print(f"kikimimi: wrote {out}" + (f" and {args.udev}" if args.udev else ""))
        if args.no_enrol:
            return 0
        return _enrol(io, binding, args, {g: out.parent / m for g, m in maps.items()}, out)
    finally:
        io.close()


def _keep_tagmaps(folder: Path, names: Iterable[str]) -> None:
    """An empty map for each game that has none yet; one already there is the enrolment so
    far (a set-up run again goes on from it), so it is kept as it is."""
    from kikimimi.cli.tags import TagsError, read_tagmap, write_tagmap

    for name in names:
        path = folder / name
        try:
            if not path.exists():
                write_tagmap(path, {})
            else:
                read_tagmap(path)  # refused in one line when it is not a tag map
        except TagsError as exc:
            raise CliError(f"{exc}: move it aside, and the set-up writes a new one") from None
        except OSError as exc:
            raise CliError(f"cannot write {path}: {exc.strerror or exc}") from None


def _enrol(io: Any, binding: Any, args: argparse.Namespace, maps: dict[str, Path], out: Path) -> int:
    """Each player's own pieces on their own reader, then the table's: one tag map a game."""
    from kikimimi.contract.kit import kit_for
    from kikimimi.box.setup.enrol import EveningKit, enrol, piece_names, texts_to_prepare
    from kikimimi.contract.tagmap import TagMapError

    try:
        kit = EveningKit([kit_for(g, args.players) for g in args.game], maps)
    except TagMapError as exc:
        raise CliError(str(exc)) from None
    names = piece_names(args.game, args.lang, kit.own + kit.table)
    io.prepare_texts(texts_to_prepare(io.book, kit, names))
    io.say_all([binding.speaker, *(card for card, _ in binding.seats.values())], "enrol-start")
    remind = max(2 * args.answer_seconds, 5.0)  # a prompt missed is said again
    if not enrol(io, kit, binding.seats, binding.speaker, binding.field_reader, names, args.enrol_seconds, remind):
        print(f"kikimimi: enrolment stopped: {len(kit.tags)} tags enrolled so far, kept in "
              f"{', '.join(str(p) for p in maps.values())}; run the same set-up again with --force "
              "to go on where it stopped", file=sys.stderr)
        return 1
    print(f"kikimimi: enrolled {len(kit.tags)} tags: " + ", ".join(f"{g} in {p}" for g, p in maps.items()))
    return 0
