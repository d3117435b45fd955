"""`kikimimi tags enroll|check`: teach the table which physical tag is which piece.

Enrolment walks one person through a piece set by voice ("scan heart 1"):
the prompts go through a `speak(text)` callable, which is plain printing until
the runtime wires speech in.  Each tag gets its piece name written as an NDEF
text record where the tag allows it, and its uid recorded in the tag map
either way, so read-only tags and 125 kHz cards work too.  The map is saved
after every piece: an interrupted enrolment resumes where it stopped.
"""
from __future__ import annotations

import argparse
import queue
import re
import sys
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from kikimimi.readers.base import RawEvent
from kikimimi.contract.tagmap import NextScan, Scan, enrol_piece, say_name, write_tagmap

Speak = Callable[[str], None]

MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        "scan": "Scan {name}.",
        "scan-copy": "Set {copy}: scan {name}.",
        "again": "That tag is already enrolled as {other}. Take another copy.",
        "done": "{name}: done.",
        "done-uid": "{name}: done, uid only ({why}).",
        "taken": "That tag is already {other}. Take another tag.",
        "names-other": "That tag says it is {other}. Take another tag.",
        "lost": "The reader is not answering.",
        "back": "The reader is back.",
        "skip": "{count} pieces already enrolled.",
        "all": "All {count} pieces of {set} are enrolled.",
        "timeout": "No tag for {seconds} seconds: stopping. {done} of {count} enrolled; run again to go on.",
    },
    "ja": {
        "scan": "{name} を かざして ください。",
        "scan-copy": "{copy} くみめ、 {name} を かざして ください。",
        "again": "その タグは もう {other} として とうろく ずみ です。 べつの コピーを かざして ください。",
        "done": "{name}、 とうろく しました。",
        "done-uid": "{name}、 ばんごう だけ とうろく しました。",
        "taken": "その タグは もう {other} です。 べつの タグを かざして ください。",
        "names-other": "その タグには {other} と かいて あります。 べつの タグを かざして ください。",
        "lost": "リーダーが こたえません。",
        "back": "リーダーが もどりました。",
        "skip": "{count} こ は とうろく ずみ です。",
        "all": "{count} こ すべて とうろく しました。",
        "timeout": "{seconds} びょう タグが ありません。 とめます。 {count} こ の うち {done} こ とうろく ずみ です。",
    },
}


class TagsError(Exception):
    """An expected failure of a tags command: one line for the user."""


# -- piece sets and names ------------------------------------------------------------
def _natural(name: str) -> list[Any]:
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]


def pieces_of(set_name: str, players: int) -> list[str]:
    """Every piece of a set, in the order a person would lay them out.

    `seat` and `cmd` are the runtime's own sets (`cmd`: the contract's command tags
    and every installed game's own); any other set is a game plugin, asked through
    its `known_tags(players)`.
    """
    if set_name == "seat":
        return [f"seat:{k}" for k in range(1, players + 1)]
    if set_name == "cmd":
        return command_pieces()
    from kikimimi.contract.registry import UnknownGame, declaration

    try:
        decl = declaration(set_name)
        tags = decl.known_tags(players)
    except UnknownGame as exc:
        raise TagsError(f"{exc}; or use the sets seat, cmd") from None
    except Exception as exc:  # a plugin that cannot list its pieces
        raise TagsError(f"game {set_name!r} cannot list its pieces: {exc}") from None
    # a game's pieces carry its tag sets' prefixes, which need not be its name (鬼探し's are oni:)
    prefixes = tuple(f"{s}:" for s in decl.tag_sets)
    pieces = sorted((t for t in tags if t.startswith(prefixes)), key=_natural)
    if not pieces:
        raise TagsError(f"game {set_name!r} lists no pieces named {' or '.join(p + '…' for p in prefixes)}")
    return pieces


def command_pieces() -> list[str]:
    """The `cmd` set: the contract's command tags, then each installed game's own, once."""
    from kikimimi.contract.protocol import COMMAND_TAGS
    from kikimimi.contract.registry import declaration, game_names

    names = sorted(tag.partition(":")[2] for tag in COMMAND_TAGS)
    for game in game_names():
        try:
            names += [c for c in declaration(game).command_tags if c not in names]
        except Exception:  # a plugin that does not load names no command tags
            continue
    return [f"cmd:{c}" for c in names]


def spoken_names(set_name: str, lang: str) -> dict[str, str]:
    """How each piece is said, from the game's phrase catalogue when it has one."""
    from kikimimi.contract.phrases import load_catalogue

    names: dict[str, str] = {}
    for catalogue in ("core", set_name):
        try:
            names.update(load_catalogue(catalogue, lang)[1])
        except Exception:
            pass
    return names


# -- the tag map file --------------------------------------------------------------
def read_tagmap(path: Path) -> dict[str, str]:
    from kikimimi.contract.tagmap import TagMapError, load_tagmap

    if not path.exists():
        return {}
    try:
        return load_tagmap(path)
    except TagMapError as exc:
        raise TagsError(str(exc)) from None


# -- enrol -----------------------------------------------------------------------------
def reader_section(spec: str, poll_ms: int = 30) -> dict[str, Any]:
    """`pn532:/dev/ttyUSB0`, `rdm6300:/dev/ttyS1` or `usb:054c:06c3` -> a reader section (a kind
    whose paths start with its own name keeps the whole spec as the path)."""
    from kikimimi.readers.registry import kind

    driver, _, rest = spec.partition(":")
    if not rest:
        raise TagsError(f"--reader {spec!r}: write DRIVER:PATH, e.g. pn532:/dev/kikimimi-hand-1")
    path = spec if getattr(kind(driver), "path_names_kind", False) else rest
    return {"driver": driver, "path": path, "poll_ms": poll_ms, "retry_ms": 300}


def plan_of(set_name: str, players: int, copies: int = 1) -> list[tuple[str, int]]:
    """What to enrol, in order: (piece, which copy).  A set `--copies N` times over,
    or `kit:GAME`: the table's pieces once, then each player's own set in turn."""
    if set_name.startswith("kit:"):
        from kikimimi.contract.kit import kit_for
        from kikimimi.contract.registry import UnknownGame

        try:
            kit = kit_for(set_name[4:], players)
        except UnknownGame as exc:
            raise TagsError(str(exc)) from None
        plan = [(p, 1) for p in kit.table]
        for k in range(1, players + 1):
            plan += [(p, k + (1 if p in kit.table else 0)) for p in kit.own]
        return plan
    if not 1 <= copies <= 64:
        raise TagsError(f"--copies {copies}: between 1 and 64")
    pieces = pieces_of(set_name, players)
    return [(p, n) for n in range(1, copies + 1) for p in pieces]


def wanted_copies(set_name: str, players: int, copies: int = 1) -> dict[str, int]:
    """piece -> how many tagged copies the map should hold."""
    out: dict[str, int] = {}
    for piece, n in plan_of(set_name, players, copies):
        out[piece] = max(out.get(piece, 0), n)
    return out


def enroll(
    set_name: str,
    reader: str,
    tagmap_path: str | Path,
    lang: str = "en",
    speak: Speak = print,
    players: int = 6,
    timeout_s: float = 120.0,
    poll_ms: int = 30,
    copies: int = 1,
) -> int:
    """Walk through the set; return 0 when every piece is enrolled, 1 if stopped."""
    from kikimimi.readers.factory import make_driver

    msg = MESSAGES.get(lang, MESSAGES["en"])
    plan = plan_of(set_name, players, copies)
    names = spoken_names(set_name[4:] if set_name.startswith("kit:") else set_name, lang)
    several = max(n for _, n in plan) > 1
    path = Path(tagmap_path)
    tagmap = read_tagmap(path)
    try:
        driver = make_driver("enrol", reader_section(reader, poll_ms))
    except ValueError as exc:
        raise TagsError(str(exc)) from None

    have: dict[str, int] = {}
    for piece in tagmap.values():
        have[piece] = have.get(piece, 0) + 1
    todo = [(p, n) for p, n in plan if have.get(p, 0) < n]
    if len(todo) < len(plan):
        speak(msg["skip"].format(count=len(plan) - len(todo)))
    if not todo:
        speak(msg["all"].format(count=len(plan), set=set_name))
        return 0

    expected: list[str | None] = [todo[0][0]]  # shared with the driver thread

    def labeller(uid: str, name: str | None) -> str | None:
        piece = expected[0]
        if piece is None or uid in tagmap or (name and name != piece):
            return None  # refused below, nothing written
        return None if name == piece else piece

    if hasattr(driver, "labeller"):
        driver.labeller = labeller
    events: queue.Queue[RawEvent] = queue.Queue()
    stop = threading.Event()
    thread = threading.Thread(target=driver.run, args=(events.put, stop), name="enrol-reader", daemon=True)
    thread.start()
    pending = _first_word(driver, events, stop, thread, reader)
    done = len(plan) - len(todo)

    def tell(key: str, **params: Any) -> None:
        speak(msg[key].format(**params))

    try:
        for piece, n in todo:
            expected[0] = piece
            name = say_name(piece, names)
            speak(msg["scan-copy"].format(copy=n, name=name) if several else msg["scan"].format(name=name))
            if not enrol_piece(piece, _raw_scans(events, tagmap, speak, msg, pending), tagmap,
                               lambda m: write_tagmap(path, m), tell, names, timeout_s):
                speak(msg["timeout"].format(seconds=int(timeout_s), done=done, count=len(plan)))
                return 1
            done += 1
    finally:
        stop.set()
        thread.join(timeout=5)
    speak(msg["all"].format(count=len(plan), set=set_name))
    return 0


#: Seconds the reader has to open (or be found missing) before the first prompt: a PN532's
#: first open is tried a few times (nfc_driver.FIRST_OPEN_TRIES), a missing device is said at once.
FIRST_WORD_S = 10.0


def _first_word(driver: Any, events: "queue.Queue[RawEvent]", stop: threading.Event, thread: threading.Thread,
                reader: str) -> list[RawEvent]:
    """The reader's first event, before a piece is asked for: a device that cannot open is said at
    once in one line (not a prompt spoken to nobody and a wait of --timeout seconds)."""
    try:
        first = events.get(timeout=FIRST_WORD_S)
    except queue.Empty:
        return []  # still opening: the walk goes on, and a lost reader is spoken there
    if first.kind == "lost":
        stop.set()
        thread.join(timeout=5)
        raise TagsError(f"the reader {reader} cannot be used: {first.detail or 'it does not answer'}")
    return [first]


def _raw_scans(events: "queue.Queue[RawEvent]", tagmap: Mapping[str, str], speak: Speak,
               msg: Mapping[str, str], pending: list[RawEvent] | None = None) -> NextScan:
    """A driver's raw events as scans: a lost reader said, a tag resting at connect counted;
    `pending` (the first event, already taken from the queue) comes first."""
    def next_scan(left: float) -> Scan | None:
        deadline = time.monotonic() + left
        while (left := deadline - time.monotonic()) > 0:
            if pending:
                ev = pending.pop(0)
            else:
                try:
                    ev = events.get(timeout=left)
                except queue.Empty:
                    return None
            if ev.kind == "lost":
                speak(msg["lost"])
                continue
            if ev.kind == "connected":
                present = dict(ev.present)
                if ev.present and present.keys() - tagmap.keys():
                    uid = next(iter(present))  # a tag already on the reader when it opened counts as scanned
                    return uid, present[uid], ""
                continue
            if ev.kind == "placed" and ev.uid is not None:
                return ev.uid, ev.tag, ev.detail
        return None
    return next_scan


# -- check -------------------------------------------------------------------------------
def check(set_name: str, tagmap_path: str | Path, players: int = 6,
          out: Callable[[str], None] = print, copies: int = 1) -> int:
    """Say which pieces of a set (or a kit) are missing, duplicated or unknown; 0 when none are."""
    wanted = wanted_copies(set_name, players, copies)
    tagmap = read_tagmap(Path(tagmap_path))
    prefixes = tuple({p.partition(":")[0] + ":" for p in wanted}) if set_name.startswith("kit:") \
        else (f"{set_name}:",)
    by_piece: dict[str, list[str]] = {}
    for uid, piece in tagmap.items():
        if piece.startswith(prefixes):
            by_piece.setdefault(piece, []).append(uid)
    missing = {p: n for p, n in wanted.items() if len(by_piece.get(p, ())) < n}
    duplicated = {p: uids for p, uids in by_piece.items() if p in wanted and len(uids) > wanted[p]}
    unknown = sorted(set(by_piece) - set(wanted), key=_natural)
    for p, n in sorted(missing.items(), key=lambda kv: _natural(kv[0])):
        got = len(by_piece.get(p, ()))
        out(f"missing: {p}" + (f" ({got} of {n} copies)" if n > 1 else ""))
    for p, uids in sorted(duplicated.items(), key=lambda kv: _natural(kv[0])):
        out(f"duplicated: {p} on {len(uids)} tags ({', '.join(sorted(uids))})"
            + (f", {wanted[p]} wanted" if wanted[p] > 1 else ""))
    for p in unknown:
        out(f"unknown: {p} is not a piece of {set_name} (uid {', '.join(sorted(by_piece[p]))})")
    ok = not (missing or duplicated or unknown)
    total = sum(wanted.values())
    enrolled = sum(min(len(by_piece.get(p, ())), n) for p, n in wanted.items())
    noun = "tags" if total != len(wanted) else "pieces"
    out(f"{set_name}: {enrolled} of {total} {noun} enrolled"
        + ("" if ok else f", {len(missing)} missing, {len(duplicated)} duplicated, {len(unknown)} unknown"))
    return 0 if ok else 1


# -- command line ------------------------------------------------------------------------
def add_parser(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("tags", help="enrol piece sets and check tag maps")
    sub = p.add_subparsers(dest="tags_command", metavar="ACTION", required=True)

    e = sub.add_parser("enroll", help="walk through a piece set, scanning each piece once")
    e.add_argument("set", help="piece set: a game (e.g. trident), seat, cmd, or kit:GAME (the whole kit)")
    e.add_argument("--reader", required=True, metavar="DRIVER:PATH",
                   help="e.g. pn532:/dev/kikimimi-hand-1, rdm6300:/dev/ttyUSB1, usb:054c:06c3")
    e.add_argument("--tagmap", required=True, metavar="FILE", help="tag map to add to (created if missing)")
    e.add_argument("--lang", choices=("ja", "en"), default="ja")
    e.add_argument("--players", type=int, default=6, help="for sets that depend on it (seat tokens)")
    e.add_argument("--timeout", type=float, default=120.0, help="seconds to wait for each piece")
    e.add_argument("--copies", type=int, default=1, help="look-alike copies of each piece (one per player's set)")
    e.set_defaults(func=_enroll_handler)

    c = sub.add_parser("check", help="which pieces of a set are missing or duplicated in a tag map")
    c.add_argument("set")
    c.add_argument("--tagmap", required=True, metavar="FILE")
    c.add_argument("--players", type=int, default=6)
    c.add_argument("--copies", type=int, default=1, help="copies each piece should have")
    c.set_defaults(func=_check_handler)


def _fail(exc: Exception) -> int:
    print(f"kikimimi tags: {exc}", file=sys.stderr)
    return 2


def _enroll_handler(args: argparse.Namespace) -> int:
    try:
        return enroll(args.set, args.reader, args.tagmap, lang=args.lang, players=args.players,
                      timeout_s=args.timeout, copies=args.copies)
    except TagsError as exc:
        return _fail(exc)


def _check_handler(args: argparse.Namespace) -> int:
    try:
        return check(args.set, args.tagmap, players=args.players, copies=args.copies)
    except TagsError as exc:
        return _fail(exc)
