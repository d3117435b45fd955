"""`kikimimi serve TABLE.toml`: run one table, its readers and its voices.

Simulated readers are a backend like any other: with `driver = "sim"` (or
`--sim-readers`), the keyboard or a table script stands in for the readers
and everything else (journal, resume, voices, console API) is the real thing.
"""
from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kikimimi.cli import CliError, one_line
from kikimimi.cli.play import audio_or_text
from kikimimi.table.daemon import Daemon
from kikimimi.table.engine import LogEvent
from kikimimi.table.evening import ClubPlays, ClubSession, Evening, SessionRefused, SessionState
from kikimimi.table.narrate import TextOutput
from kikimimi.table.outputs import Output
from kikimimi.table.readiness import HeldInputs, ready_lines
from kikimimi.contract.script import Header, ScriptError, dumps
from kikimimi.bots.empty_seats import DELAY
from kikimimi.table.config import ConfigError, TableConfig, load_table_config

if TYPE_CHECKING:  # each loads only when its part runs
    from kikimimi.api.server import ApiServer
    from kikimimi.table.journal import EventsFile
    from kikimimi.readers.runner import ReaderInput, ReaderRunner
    from kikimimi.records import Target
    from kikimimi.voice.output import AudioOutput


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("serve", help="run a table from its config (readers, voices, journal)")
    p.add_argument("config", help="table config TOML (see hardware/), or a game's name for its own simulated table")
    p.add_argument("--journal", help="table script to append to and resume from (default: the config's)")
    p.add_argument("--fresh", action="store_true", help="start a new game: the old journal is kept aside")
    p.add_argument("--sim-readers", metavar="interactive|SCRIPT",
                   help="simulated readers: the keyboard, or a table script played at its times")
    p.add_argument("--speed", type=float, default=1.0, help="with a script: time factor (0 = at once)")
    p.add_argument("--voice", choices=("auto", "audio", "text"), default="auto",
                   help="audio outputs from the config's [audio], or text only")
    p.add_argument("--events", metavar="FILE", help="also append the event log (JSON lines) here")
    p.add_argument("--quiet", action="store_true", help="print no narration")
    p.add_argument("--session", type=int, metavar="ID",
                   help="record each finished game in this official practice session (kikimimi session start)")
    p.add_argument("--db", help="the club records (a file or postgresql:// URL): each finished game goes into "
                                "its players' history; with --session the ranks too (default: $KIKIMIMI_DB or "
                                "the user's)")
    p.add_argument("--players", nargs="+", metavar="NAME",
                   help="the club players at seats 1, 2, ... (for the records; a seat not named is a guest)")
    p.set_defaults(func=cmd_serve)


def cmd_serve(args: argparse.Namespace) -> int:
    # Everything is checked before anything is created or moved: the config
    # (schema, game options, readers), the session, then the journal's lock.
    with one_line(ConfigError):
        config = load_table_config(args.config)
    journal = Path(args.journal) if args.journal else config.journal
    db = args.db or config.records.get("db")
    club = _club_session(args.session, db, config) if args.session is not None else None
    extra: dict[str, Any] = {"table": config.path.stem}
    wpm = speaker_rate(config.audio)
    if wpm is not None:  # the model of when a line has been heard speaks as this table does
        extra["wpm"] = wpm
    if club is not None:
        extra["session"] = Evening.header_session(club)
    header = Header(config.game, config.players, config.options, config.lang, extra)
    with one_line(ScriptError):
        daemon = _open_daemon(header, journal, config, args.fresh,
                              heard_by_outputs=bool(config.audio) and args.voice != "text")
        warnings = daemon.open(fresh=args.fresh)
    with contextlib.ExitStack() as cleanup:
        cleanup.callback(daemon.close)
        with one_line(SessionRefused):  # the session is settled before any output, socket or reader opens
            evening = _evening(daemon, club, db, config, args.players)
            evening.prepare()
        try:
            code = _serve(args, config, daemon, warnings, evening, cleanup)
        except KeyboardInterrupt:  # Ctrl-C while the table was starting: closed all the same
            code = INTERRUPTED
    if code == INTERRUPTED:  # said once everything is closed: the journal is the whole game
        _say_how_to_resume(daemon.journal_path)
    return code


#: The exit code of a table stopped by Ctrl-C (128 + SIGINT, as a shell reports it).
INTERRUPTED = 130


def _say_how_to_resume(journal: Path) -> None:
    """Ctrl-C's answer: where the game is, that nothing heard is lost, and the command
    that resumes it (the same one, without --fresh: docs/durability.md)."""
    import shlex

    again = [a for a in sys.argv[1:] if a != "--fresh"]
    if sys.stderr.isatty():
        print(file=sys.stderr)  # past the terminal's ^C
    print(f"kikimimi: stopped. The game is kept in {journal.resolve()}; nothing announced is lost.\n"
          f"kikimimi: to resume it: {shlex.join(['kikimimi', *again])}", file=sys.stderr, flush=True)


def speaker_rate(audio: Mapping[str, Any] | None) -> int | None:
    """The speaker's words a minute as the table file sets them (`[audio.outputs.speaker] rate`,
    else `[audio] rate`), or None for the engine's default.  The journal's header keeps it
    (`wpm`), so the modelled moment a prompt has been heard (kikimimi.contract.heard: `--voice
    text`, a replay) comes where this table's speech would end, and a replay is exact."""
    if not audio:
        return None
    speaker = (audio.get("outputs") or {}).get("speaker") or {}
    rate = speaker.get("rate", audio.get("rate")) if isinstance(speaker, Mapping) else audio.get("rate")
    return rate if type(rate) is int else None


def _open_daemon(header: Header, journal: Path, config: TableConfig, fresh: bool,
                 heard_by_outputs: bool = False) -> Daemon:
    """The daemon for the journal's game: an evening's table resumes whichever of its
    games the journal holds (its own header, seats and tag set)."""
    game = config.games.get(header.game)
    if not fresh and journal.is_file():
        from kikimimi.contract.script import read_script

        try:
            on_disk = read_script(journal).header
        except (OSError, ScriptError):
            on_disk = None  # the daemon's own open repairs it or says why, in one line
        if on_disk is not None and on_disk.game != header.game and on_disk.game in config.games:
            game = config.games[on_disk.game]
            header = Header(game.game, game.players, dict(game.options), header.lang, dict(header.extra))
    seats = set(range(1, header.players + 1)) & config.hand_seats
    delay = config.seat_bots.get("delay") or DELAY  # [seat_bots] delay: a bot's wait before it acts
    return Daemon(header, journal, tagmap=game.tagmap if game else config.tagmap, hand_seats=seats,
                  has_field=config.has_field, bot_delay=(float(delay[0]), float(delay[1])),
                  heard_by_outputs=heard_by_outputs)


def _serve(args: argparse.Namespace, config: TableConfig, daemon: Daemon, warnings: list[str],
           evening: Evening, cleanup: contextlib.ExitStack) -> int:
    journal = daemon.journal_path
    if daemon.set_aside is not None:
        print(f"kikimimi: previous journal kept as {daemon.set_aside}", file=sys.stderr)
    for warning in warnings:
        print(f"kikimimi: warning: {warning}", file=sys.stderr)
    if daemon.resumed:
        print(f"kikimimi: resumed {journal} ({daemon.resumed} inputs replayed)", file=sys.stderr)

    stop = threading.Event()
    failed: list[str] = []
    interrupted = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    outputs = _outputs(args, config)
    for out in outputs:  # a question's time starts when its clip has played: the clips' own lengths
        lengths = getattr(out, "clip_seconds", None)
        if callable(lengths) and daemon.heard_by_outputs:
            daemon.clip_lengths(lengths)
    for out in outputs:
        cleanup.callback(out.close)
        cleanup.callback(out.wait_idle, timeout=5)
    events_file = _open_events(args.events) if args.events else None
    if events_file:
        cleanup.callback(events_file.close)

    def fan_out(line: dict[str, Any], events: Sequence[LogEvent]) -> None:
        hand_seat = line.get("seat") if line.get("reader") == "hand" and not line.get("removed") else None
        room = daemon.seat_bots.room(events)  # a bot's earphone plays nowhere (docs/seat-bots.md)
        for out in outputs:
            shown = events if isinstance(out, TextOutput) and out.listen is None else room  # the referee's text sees all
            for problem in out.emit(shown, cause_hand_seat=hand_seat) or []:
                print(f"kikimimi: {problem}", file=sys.stderr)
        if events_file:
            events_file.write_lines([dumps(ev) for ev in events])

    def alert(message: str, said: dict[str, Any]) -> None:
        """An input the journal could not take: printed once and spoken, never logged."""
        _complain(message)
        for out in outputs:
            out.emit([said], cause_hand_seat=None)

    daemon.subscribe(fan_out)
    cleanup.callback(daemon.unsubscribe, fan_out)
    _pair_card(daemon, config, outputs)
    daemon.subscribe_alerts(alert)
    for out in outputs:  # the referee's voice settings (rate, volume) replayed from the journal
        getattr(out, "restore", lambda _log: None)(daemon.log)
    api = _start_api(daemon, config)
    if api is not None:
        cleanup.callback(api.stop)
        for out in outputs:
            for component, state in getattr(out, "health", dict)().items():
                api.report_health(f"audio {component}", state)
    if daemon.resumed:  # applied before the stop but never told (a kill in between): told now
        daemon.speak_unspoken()
    source = args.sim_readers or ("interactive" if config.simulated else None)
    held = HeldInputs(daemon.try_submit)  # a scan during the wait reaches the game after "ready"
    runner = None if source else _start_readers(config, held, daemon.table.tagmap, evening)
    if runner is not None:
        cleanup.callback(runner.stop)
    absent = runner.wait_first_connect(config.ready_wait) if runner else []
    _say_ready(outputs, config, [(s.role, s.seat) for s in absent])
    evening.begin()  # after the outputs and the API, so its lines follow the game's everywhere
    if daemon.resumed:
        # the last call heard before the stop may no longer be true: say where the table stands
        for out in outputs:
            out.emit(daemon.resume_report(), cause_hand_seat=None)
    held.release()
    threads = [threading.Thread(target=_ticker, args=(daemon, stop), daemon=True, name="timers")]
    if source == "interactive":
        from kikimimi.table.sim_readers import table_help, typed_lines

        print(table_help(daemon.table), file=sys.stderr)
        threads.append(threading.Thread(
            target=_then_stop, args=(stop, failed, typed_lines, _keyboard(), _LiveTags(daemon),
                                     daemon.try_submit, _complain, stop), daemon=True, name="keyboard"))
    elif source:
        from kikimimi.table.sim_readers import scripted_lines

        threads.append(threading.Thread(
            target=_then_stop, args=(stop, failed, scripted_lines, source, daemon.try_submit, stop, args.speed),
            daemon=True, name="script"))
    cleanup.callback(stop.set)  # on any way out, the input threads stop first

    def on_ctrl_c(*_: object) -> None:  # once playing, a clean stop (no KeyboardInterrupt mid-cleanup)
        interrupted.set()
        stop.set()
    signal.signal(signal.SIGINT, on_ctrl_c)  # before this (a first start rendering): KeyboardInterrupt
    for thread in threads:
        thread.start()
    while not stop.wait(0.2):
        pass
    stop.set()
    if interrupted.is_set():
        return INTERRUPTED
    return 1 if failed else 0


def _pair_card(daemon: Daemon, config: TableConfig, outputs: list[Output]) -> None:
    """The owner's PAIR card (kikimimi/table/pair_card.py): its code's lines reach the sound
    outputs and a text output of the earphones only, never the referee's text (it prints
    everything) nor any listener of the daemon."""
    from kikimimi.table.pair_card import PairCard

    ears = [out for out in outputs if not (isinstance(out, TextOutput) and out.listen is None)]

    def to_earphones(events: Sequence[LogEvent]) -> None:
        seat = next((int(ev["to"].split(":")[1]) for ev in events if str(ev.get("to", "")).startswith("seat:")), None)
        for out in ears:
            for problem in out.emit(events, cause_hand_seat=seat) or []:
                _complain(problem)

    daemon.earphone_only.append(to_earphones)
    PairCard(daemon, web=bool(config.web), complain=_complain).attach()


def _say_ready(outputs: list[Output], config: TableConfig, absent: list[tuple[str, int | None]]) -> None:
    """On the speaker (a boot service has no screen): each missing earphone and reader, then "ready"."""
    for out in outputs:
        health = getattr(out, "health", None)
        if health is None:  # the text narration: a terminal already shows every problem
            continue
        for problem in out.emit(ready_lines(health(), config.players, config.lang, absent),
                                cause_hand_seat=None) or []:
            _complain(problem)


class _LiveTags(Collection[str]):
    """The tags of the game being played now: the next game of an evening has others."""

    def __init__(self, daemon: Daemon) -> None:
        self.daemon = daemon

    def __contains__(self, tag: object) -> bool:
        return tag in self._tags()

    def __iter__(self) -> Iterator[str]:
        return iter(self._tags())

    def __len__(self) -> int:
        return len(self._tags())

    def _tags(self) -> frozenset[str]:
        """The game's, and the owner's PAIR card, which the daemon answers before any game (`2 pair`)."""
        from kikimimi.contract.kit import PAIR_TAG

        return frozenset(self.daemon.table.known_tags) | {PAIR_TAG}


def _keyboard() -> Any:
    """Standard input unbuffered: a daemon thread blocked in a buffered read
    holds the buffer's lock, and Python aborts (SIGABRT) when it exits under
    it; a raw read holds no lock, so SIGTERM ends the table cleanly."""
    return open(sys.stdin.fileno(), "rb", buffering=0, closefd=False)


def _open_events(name: str) -> EventsFile:
    """The `--events` file: it holds every hand, so it is the table's own (0600, no symlink)."""
    from kikimimi.table.journal import EventsFile, JournalError

    try:
        return EventsFile(Path(name))
    except JournalError as exc:
        raise CliError(f"--events: {exc}") from None


def _club_session(session_id: int, db: Target, config: TableConfig) -> ClubSession:
    """The official session to play, checked before anything starts: the table
    must be set for the seed's competition rules and the session open."""
    from kikimimi.table.evening import ClubSession, check_session_table

    with one_line(SessionRefused):
        rules = check_session_table(config.game, config.players, config.options, str(config.path))
        return ClubSession(session_id, db, config.lang, rules.players)


def _evening(daemon: Daemon, club: ClubSession | None, db: Target, config: TableConfig, players: list[str] | None = None) -> Evening:
    """The flow between games; a journal of an open session resumes that session
    even when the restart does not name it again.  Every finished game goes into
    the club records when the table names them (--db, [records] db, $KIKIMIMI_DB)."""
    if club is None:
        on_disk = SessionState.from_header(daemon.header)
        if on_disk is not None:
            try:
                club = _club_session(on_disk.id, db, config)
            except CliError as exc:
                _complain(f"{daemon.journal_path} was a game of session {on_disk.id}, not resumed: {exc}")
    named = db or os.environ.get("KIKIMIMI_DB") or (club.db if club is not None else None)
    if players and len(players) > config.seats:
        raise CliError(f"--players: {len(players)} names for a table of {config.seats} seats")
    plays = ClubPlays(named, config.path.stem, dict(enumerate(players or [], start=1))) if named else None
    return Evening(daemon, club, complain=_complain, games=config.games, hand_seats=config.hand_seats,
                   plays=plays)


def _then_stop(stop: threading.Event, failed: list[str], fn: Any, *args: Any) -> None:
    """Run an input source; when it ends the table stops.  Its failure is one
    printed line and a non-zero exit, never a silent stop."""
    try:
        fn(*args)
    except ScriptError as exc:
        _complain(str(exc))
        failed.append(str(exc))
    except Exception as exc:
        _complain(f"{threading.current_thread().name} input stopped: {type(exc).__name__}: {exc}")
        failed.append(str(exc))
    finally:
        stop.set()


def _complain(message: str) -> None:
    print(f"kikimimi: {message}", file=sys.stderr, flush=True)


def _ticker(daemon: Daemon, stop: threading.Event) -> None:
    while not stop.wait(0.05):
        daemon.tick()


def _outputs(args: argparse.Namespace, config: TableConfig) -> list[Output]:
    outputs: list[Output] = [] if args.quiet else [TextOutput()]
    audio_config = config.audio
    if not audio_config:
        return outputs

    def make(cls: type[AudioOutput]) -> AudioOutput:
        try:
            audio = cls.from_config(audio_config, config.seats, config.lang)
        except ValueError as exc:
            raise CliError(f"{config.path}: {exc}") from None
        first, rest = _texts_in_order(config)
        audio.start(first, rest, progress=sys.stderr.isatty(), lines=_first_start_lines(config.lang))
        return audio

    audio = audio_or_text(args.voice, make)
    if audio is not None:
        return outputs + [audio]
    return outputs or [TextOutput()]


def _texts_in_order(config: TableConfig) -> tuple[list[str], list[str]]:
    """Every phrase with every value its parameters take at this table, and every
    name, split for a quick start: what the first game says first (rendered
    before the table opens), then the rest of it and every other game of the
    evening (rendered in the background while the table plays)."""
    from kikimimi.table.pair_card import texts as pair_card_texts
    from kikimimi.voice.domains import first_and_rest, table_texts

    first, rest = first_and_rest(config.game, config.players, config.options, config.lang)
    rest += [text for text in pair_card_texts(config.lang) if text not in rest]  # each digit a clip of its own
    for name, choice in config.games.items():
        if name != config.game:
            rest += table_texts(name, choice.players, choice.options, config.lang).texts
    return first, rest


def _first_start_lines(lang: str) -> Callable[[str, int | None], str]:
    """The speaker's lines while a first start renders the voice (the evening's catalogue)."""
    from kikimimi.contract.phrases import Phrasebook

    book = Phrasebook(lang, ("evening",))

    def line(what: str, percent: int | None) -> str:
        return book.render("first-start-preparing" if percent is None else "first-start-progress",
                           None if percent is None else {"percent": percent})
    return line


def _start_readers(config: TableConfig, submit: Callable[[dict[str, Any]], Any], tagmap: Mapping[str, str],
                   evening: Evening) -> ReaderRunner:
    """Real drivers, each in its own thread, feeding the one reader runner.  They know the
    uids of the game being played (a resumed evening's may be a later game's), and the next
    game's when the evening switches: an enrolled piece is then one chip command."""
    try:
        from kikimimi.readers.factory import make_driver, make_settings
        from kikimimi.readers.runner import ReaderRunner
    except ImportError as exc:
        raise CliError(f"reader drivers unavailable ({exc})") from None
    settings, drivers = [], []
    for rid, section in config.readers.items():
        try:
            settings.append(make_settings(rid, section))
            drivers.append(make_driver(rid, section, known=tagmap))
        except ValueError as exc:
            raise CliError(f"{config.path}: {exc}") from None

    def on_input(ri: ReaderInput) -> None:
        line: dict[str, Any] = {"reader": ri.role}
        if ri.seat is not None:
            line["seat"] = ri.seat
        if ri.kind in ("lost", "back"):
            line[ri.kind] = True
            if ri.detail:
                line["detail"] = ri.detail
            if ri.kind == "lost" and ri.unopened:
                line["detail"] = unopened_line(ri, config)
                line["unopened"] = True
                _complain(line["detail"])  # the OS reason, once, on the terminal (and to the referee)
        else:
            line.update({"tag": ri.tag} if ri.tag else {"uid": ri.uid})
            if ri.kind == "removed":
                line["removed"] = True
        submit(line)

    def known(game_tagmap: Mapping[str, str]) -> None:
        uids = frozenset(game_tagmap)
        for driver in drivers:
            if hasattr(driver, "known"):  # an NFC reader; a 125 kHz card is never read beyond its uid
                driver.known = uids

    evening.on_tagmap = known
    runner = ReaderRunner(settings, on_input)
    runner.start(drivers)
    return runner


def unopened_line(ri: ReaderInput, config: TableConfig) -> str:
    """One line for a reader that never opened: which, where, the OS reason, and what to run."""
    name = f"hand {ri.seat} reader" if ri.role == "hand" else "field reader"
    path = config.readers.get(ri.reader, {}).get("path", "")
    reason = ri.detail.removeprefix(f"cannot open {path}: ") if path else ri.detail
    return f"{name} ({ri.reader}) cannot be opened at {path or '?'}: {reason}; run kikimimi doctor {config.path}"


def _start_api(daemon: Daemon, config: TableConfig) -> ApiServer | None:
    """The local API for consoles and spectators, when that part is installed."""
    try:
        from kikimimi.api.server import ApiError, start_api
    except ModuleNotFoundError:
        return None
    with one_line(ApiError):
        return start_api(daemon, config)
