"""`kikimimi replay`, `kikimimi sim` and `kikimimi diagram`: games without hardware."""
from __future__ import annotations

import argparse
import dataclasses
import json
import re
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from kikimimi.cli import CliError, one_line
from kikimimi.contract.declaration import Declaration
from kikimimi.table.engine import LogEvent, ScriptRun, log_line, tagmap_for
from kikimimi.table.public import PublicView
from kikimimi.contract.registry import UnknownGame, declaration, game_names
from kikimimi.contract.script import Garbled, ScriptError, dumps, read_script
from kikimimi.table.outputs import Output
from kikimimi.contract.tagmap import TagMapError

if TYPE_CHECKING:  # the sound devices load only when audio is asked for
    from kikimimi.voice.output import AudioOutput


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("replay", help="run a table script, print its event log")
    p.add_argument("script", help="table script (JSON lines, docs/contract.md)")
    p.add_argument("--public", action="store_true", help="only what a spectator may see")
    p.add_argument("--tagmap", help="tag map TOML for uid lines (default: the header's or the game's)")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("sim", help="bots play a game (prints its event log)")
    p.add_argument("game", help=f"one of: {', '.join(game_names())}")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--players", type=int, default=None, help="default: the game's official count")
    p.add_argument("--bot", default=None, help="bot kind (game-specific; --options lists them)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="game option, e.g. scoring=competition (repeatable; --options lists them)")
    p.add_argument("--options", action="store_true", help="list the game's options and bots, and exit")
    p.add_argument("--lang", choices=("ja", "en"), default="en")
    p.add_argument("--record", metavar="SCRIPT", help="write the table script that reproduces the game")
    p.add_argument("--games", type=int, default=None, metavar="N",
                   help="play N games and print the designer's report instead")
    p.add_argument("--plot", metavar="FILE", help="with --games: also draw a plot")
    p.add_argument("--versus", metavar="BOT,BOT", default=None,
                   help="with --games: pit bot kinds on the same seeds, each with 95 %% intervals")
    p.add_argument("--variant", action="append", default=[], metavar="KEY=V1,V2",
                   help="with --games: play each value of an option on the same seeds and compare "
                        "(repeatable: every combination)")
    p.add_argument("--baseline", default=None, metavar="WAY",
                   help="with --versus/--variant: the way the others are compared with (default the first), "
                        "or 'all' for every pair")
    p.add_argument("--workers", default="auto", metavar="N|auto",
                   help="with --games: play the games in N processes (the same report; default auto: "
                        "the cores there are, one for a short run)")
    p.add_argument("--narrate", action="store_true",
                   help="print what is spoken, as text, instead of the event log")
    p.add_argument("--voice", choices=("auto", "audio", "text"), default=None,
                   help="speak the game: audio on the sound device, text, or auto (audio when there is one)")
    p.add_argument("--listen", default="table,seat:1",
                   help="with --voice: whose ears to play (default: the speaker and seat 1)")
    p.add_argument("--pace", type=float, default=0.0, metavar="SECONDS",
                   help="pause between inputs so people can follow")
    p.add_argument("--serve", metavar="JOURNAL",
                   help="play through a live table with the console API open (kikimimi console attaches); "
                        "the journal is the recording")
    p.set_defaults(func=cmd_sim)

    p = sub.add_parser("report", help="the designer's report: many bot games as one accessible HTML page")
    p.add_argument("game", help=f"one of: {', '.join(game_names())}")
    p.add_argument("--games", type=int, default=200, metavar="N", help="games per arm and player count (200)")
    p.add_argument("--seed", type=int, default=1, help="the first seed (N seeds from it, the same in every arm)")
    p.add_argument("--players", default=None, metavar="K,K",
                   help="player counts, e.g. 6,8,10 (default: the game's official count)")
    p.add_argument("--bot", default=None, help="bot kind (game-specific; sim GAME --options lists them)")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="game option (repeatable)")
    p.add_argument("--versus", metavar="BOT,BOT", default=None,
                   help="bot kinds to set side by side, or 'ladder': the game's kinds from weak to strong")
    p.add_argument("--variant", action="append", default=[], metavar="KEY=V1,V2",
                   help="an option's values to compare (repeatable: every combination)")
    p.add_argument("--baseline", default=None, metavar="ARM",
                   help="the arm the others are compared with (default the first), or 'all' for every pair")
    p.add_argument("--detect", type=float, default=None, metavar="POINTS",
                   help="also say how many games show a change of POINTS percentage points at 80 %% power")
    p.add_argument("--workers", default="auto", metavar="N|auto",
                   help="processes playing games (the same page; default auto: the cores there are, one for a short run)")
    p.add_argument("--cluster", default=None, metavar="ADDRESS",
                   help="play the games on a Ray cluster (host:port, or auto; needs kikimimi[cluster])")
    p.add_argument("--fairness", action="store_true",
                   help="add the null experiment: identical bots in every chair, each chair's and place's edge")
    p.add_argument("-o", "--output", default=None, metavar="FILE", help="the HTML file (default: GAME-report.html)")
    p.set_defaults(func=cmd_report)

    p = sub.add_parser("diagram", help="draw a game's state machine (Mermaid text)")
    p.add_argument("game")
    # Only Mermaid: no SVG renderer ships with kikimimi, so none is offered (paste the text
    # into any Mermaid viewer, or `mmdc` from @mermaid-js/mermaid-cli, to get a picture).
    p.add_argument("--format", choices=("mermaid",), default="mermaid")
    p.add_argument("-o", "--output", help="file to write (default: stdout)")
    p.set_defaults(func=cmd_diagram)


def _load_game(name: str) -> Declaration:
    try:
        return declaration(name)
    except UnknownGame as exc:
        raise CliError(str(exc)) from None


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        parsed = read_script(args.script)
        tagmap = tagmap_for(parsed.header, Path(args.script).parent, args.tagmap)
        run = ScriptRun(parsed.header, tagmap=tagmap)
    except (ScriptError, TagMapError) as exc:
        raise CliError(str(exc)) from None
    for warning in parsed.warnings:
        print(f"kikimimi: warning: {warning}", file=sys.stderr)
    write_lines(sys.stdout, run, parsed.lines, PublicView() if args.public else None)
    return 0


#: Log lines `replay` gathers before one write (a write per line was a tenth of its time).
WRITE_BATCH = 256


def write_lines(out: TextIO, run: ScriptRun, lines: Iterable[tuple[int, dict[str, Any] | Garbled]],
                keep: Callable[[list[LogEvent]], list[LogEvent]] | None) -> None:
    """The replay loop: the header's events, then each line's (undo lines too: the
    live table's log, seq for seq), one JSON line an event, written in batches."""
    pending: list[str] = []
    try:
        pending += map(log_line, keep(run.log) if keep else run.log)
        feed = run.feed
        for number, item in lines:
            events = feed(number, item)
            pending += map(log_line, keep(events) if keep else events)
            if len(pending) >= WRITE_BATCH:
                pending.append("")  # the last line's newline
                out.write("\n".join(pending))
                pending = []
        run.close()
    finally:  # whatever stops the loop, every line made so far is written, as one by one did
        if pending:
            out.write("\n".join(pending) + "\n")
        out.flush()


def parse_options(pairs: list[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise CliError(f"--option {pair!r}: expected KEY=VALUE")
        try:
            options[key] = json.loads(value)
        except json.JSONDecodeError:
            options[key] = value
    return options


def split_values(text: str) -> list[str]:
    """`a,b,[1,2]` -> ["a", "b", "[1,2]"]: commas inside brackets or braces belong to the value."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += ch in "[{"
        depth -= ch in "]}"
        if ch == "," and depth == 0:
            out.append(text[start:i])
            start = i + 1
    out.append(text[start:])
    return out


#: `NAME:VALUE` in a `--variant`: the arm's name, then its value (a value with a colon of its
#: own is given as quoted JSON: "\"a:b\"").
NAMED = re.compile(r"([A-Za-z][A-Za-z0-9_.-]{0,23}):(.+)", re.DOTALL)


def parse_variants(pairs: list[str]) -> dict[str, list[Any]]:
    """`--variant KEY=V1,V2` (repeatable; a key given twice gathers its values); a value may be
    named, `KEY=NAME:VALUE,...`, and its arms are called `KEY=NAME` (tuning.Named)."""
    from kikimimi.design.tuning import Named

    variants: dict[str, list[Any]] = {}
    for pair in pairs:
        key, sep, values = pair.partition("=")
        texts = split_values(values)
        if not sep or not key or not all(texts):
            raise CliError(f"--variant {pair!r}: expected KEY=VALUE,VALUE (or KEY=NAME:VALUE,NAME:VALUE)")
        for text in texts:
            named = NAMED.fullmatch(text)
            value: Any = parse_options([f"{key}={named.group(2) if named else text}"])[key]
            if named:
                value = Named(named.group(1), value)
            if value not in variants.setdefault(key, []):
                variants[key].append(value)
    return variants


def audio_or_text(mode: str, make_audio: Callable[[type[AudioOutput]], Output]) -> Output | None:
    """The audio output `make_audio(AudioOutput)` builds, or None (text only).

    `mode` "text" never opens audio; "audio" insists (no device is an error);
    "auto" falls back to text and says so on stderr."""
    if mode == "text":
        return None
    try:
        from kikimimi.voice.devices import available
        from kikimimi.voice.output import AudioOutput
    except ImportError as exc:
        reason: str | None = f"audio support not installed ({exc})"
    else:
        reason = available()
        if reason is None:
            return make_audio(AudioOutput)
    if mode == "audio":
        raise CliError(f"no sound output: {reason}")
    print(f"kikimimi: no sound device ({reason}): text only.", file=sys.stderr)
    return None


def open_outputs(mode: str, players: int, lang: str, listen: list[str]) -> list[Output]:
    """The demo's outputs: text always; the sound device too when there is one."""
    from kikimimi.table.narrate import TextOutput

    audio = audio_or_text(mode, lambda cls: cls.default_device(players, lang, listen=listen))
    if audio is not None:
        print(f"kikimimi: speaking through the sound device ({', '.join(listen)}).", file=sys.stderr)
    return [TextOutput()] + ([audio] if audio is not None else [])


def cmd_sim(args: argparse.Namespace) -> int:
    from kikimimi.design.sim import play

    decl = _load_game(args.game)
    if args.options:
        print(game_help(decl))
        return 0
    players = args.players or decl.default_players
    options = parse_options(args.option)
    if args.games is not None and args.bot == "ear":
        from kikimimi.design.sim import compare  # the ear bots' report beside the event bots'

        try:
            print(compare(decl.name, args.games, args.seed, players, options, progress=sys.stderr.isatty()))
        except (NotImplementedError, ValueError) as exc:
            raise CliError(str(exc)) from None
        return 0
    if (args.versus or args.variant or args.baseline) and args.games is None:
        raise CliError("--versus, --variant and --baseline compare many games: give --games N")
    if args.games is not None:
        from kikimimi.design.tuning import tune

        if args.games < 1:
            raise CliError("--games: give a whole number of at least 1")
        if args.plot:
            from kikimimi.contract.extras import MissingExtra, need

            with one_line(MissingExtra):  # before the games, not after them
                need("report", "--plot")
        versus_bots = versus_kinds(decl, args.versus)
        if versus_bots is not None and (len(versus_bots) < 2 or not all(versus_bots)):
            raise CliError(f"--versus {args.versus!r}: give two bot kinds or more, e.g. --versus human,search")
        from kikimimi.design.report.run import workers_for

        try:
            report = tune(decl, args.games, args.seed, players, options, bot=args.bot,
                          plot=args.plot, progress=sys.stderr.isatty(),
                          versus_bots=versus_bots, variants=parse_variants(args.variant),
                          workers=workers_for(args.workers, args.games), baseline=args.baseline)
        except (NotImplementedError, ValueError) as exc:
            raise CliError(str(exc)) from None
        print(report)
        return 0
    if args.serve:
        return _serve_sim(decl, args, players, options)
    outputs: list[Output] = []
    if args.voice:
        outputs = open_outputs(args.voice, players, args.lang, args.listen.split(","))
    elif args.narrate:
        from kikimimi.table.narrate import TextOutput

        outputs = [TextOutput()]

    def watch(line: dict[str, Any], events: Sequence[dict[str, Any]]) -> None:
        if not outputs:
            for ev in events:
                sys.stdout.write(dumps(ev) + "\n")
            return
        hand_seat = line.get("seat") if line.get("reader") == "hand" else None
        for out in outputs:
            out.emit(events, cause_hand_seat=hand_seat)
        for out in outputs:
            out.wait_idle()
        if args.pace:
            time.sleep(args.pace)

    try:
        script, _ = play(decl.name, args.seed, players, options, args.bot, lang=args.lang, watch=watch)
    except (NotImplementedError, ScriptError, ValueError) as exc:
        raise CliError(str(exc)) from None
    finally:
        for out in outputs:
            out.close()
    if args.record:
        with open(args.record, "w", encoding="utf-8") as f:
            for line in script:
                f.write(dumps(line) + "\n")
    return 0


def _serve_sim(decl: Declaration, args: argparse.Namespace, players: int, options: dict[str, Any]) -> int:
    """A bot game a referee can watch and steer from `kikimimi console`."""
    from kikimimi.api.sim_host import serve_sim
    from kikimimi.table.narrate import TextOutput

    text = TextOutput()

    def narrate(line: dict[str, Any], events: Sequence[dict[str, Any]]) -> None:
        text.emit(events)  # runs under the table's lock: print only, never wait

    try:
        serve_sim(decl.name, args.seed, players, options, args.bot, journal=Path(args.serve),
                  lang=args.lang, pace=args.pace or 1.0, watch=narrate)
    except (NotImplementedError, ScriptError, ValueError) as exc:
        raise CliError(str(exc)) from None
    return 0


#: `--versus ladder`: the game's bot kinds from the weakest to the strongest (`Report.ladder`).
LADDER = "ladder"


def versus_kinds(decl: Declaration, text: str | None) -> list[str] | None:
    """`--versus A,B,...`, or `--versus ladder`: the game's skill ladder, weak to strong."""
    if not text:
        return None
    if text.strip() == LADDER:
        from kikimimi.contract.parts import part

        ladder = list(getattr(part(decl, decl.report), "ladder", ()) if decl.report else ())
        if len(ladder) < 2:
            raise CliError(f"--versus ladder: {decl.name} names no skill ladder (give the bot kinds)")
        return ladder
    return [b.strip() for b in text.split(",")]


def parse_counts(text: str | None, decl: Declaration) -> list[int]:
    """`--players 6,8,10` -> [6, 8, 10]; none: the game's official count."""
    if text is None:
        return [decl.default_players]
    try:
        counts = [int(part) for part in text.split(",")]
    except ValueError:
        raise CliError(f"--players {text!r}: give player counts like 6,8,10") from None
    if len(set(counts)) != len(counts) or len(counts) > 16:
        raise CliError(f"--players {text!r}: each count once, at most 16 counts")
    return counts


def cmd_report(args: argparse.Namespace) -> int:
    """`kikimimi report GAME`: play the arms' games and write the HTML page."""
    from kikimimi.contract.extras import need
    from kikimimi.design.report.build import beside, check_writable, command_line, make, plan_of, write_page
    from kikimimi.design.report.page import tables_csv, tables_json
    from kikimimi.design.report.run import workers_for, workers_wanted

    decl = _load_game(args.game)
    counts = parse_counts(args.players, decl)
    versus_bots = versus_kinds(decl, args.versus)
    if versus_bots is not None and (len(versus_bots) < 2 or not all(versus_bots)):
        raise CliError(f"--versus {args.versus!r}: give two bot kinds or more, e.g. --versus plain,reason")
    if versus_bots and args.bot:
        raise CliError("give either --bot or --versus, not both")
    output = args.output or f"{decl.name}-report.html"
    try:
        need("report", "kikimimi report")  # its pictures: said before the games, not after them
        if args.cluster:
            need("cluster", "--cluster")
        check_writable(output)  # said before the games, not after them
        workers_wanted(args.workers)  # a wrong count is said before the games
        command = command_line(decl.name, args.games, args.seed, counts, args.option, args.versus, args.bot,
                               args.variant, args.baseline, args.detect, output)
        plan, jobs = plan_of(decl, args.games, args.seed, counts, parse_options(args.option),
                             versus_bots or [args.bot], parse_variants(args.variant), args.baseline, args.detect,
                             command)
        if args.fairness:
            command += " --fairness"
            plan = dataclasses.replace(plan, command=command)
        workers = workers_for(args.workers, len(jobs))
        tables: list[dict[str, Any]] = []
        html = make(decl, plan, jobs, workers, cluster=args.cluster, fairness=args.fairness, tables=tables)
        write_page(output, html)
        as_json, as_csv = beside(output)
        if as_json != output and as_csv != output:  # every table beside the page, for a spreadsheet
            write_page(as_json, tables_json(tables, plan.command))
            write_page(as_csv, tables_csv(tables))
    except (NotImplementedError, ValueError) as exc:
        raise CliError(str(exc)) from None
    print(f"report written to {output} ({len(jobs)} games; its tables in {as_json} and {as_csv})")
    return 0


def game_help(decl: Declaration) -> str:
    """What `kikimimi sim GAME --options` prints: the declared options and bots."""
    schema = decl.options
    lines = [f"{decl.name}: {decl.min_players}-{decl.max_players} players (official {decl.official_players})",
             "options (--option NAME=VALUE):"]
    lines += [f"  {line}" for line in schema.help_lines()] if schema else ["  none declared"]
    lines.append("bots (--bot NAME, the first is the default): " + (", ".join(decl.bots) or "none"))
    return "\n".join(lines)


def cmd_diagram(args: argparse.Namespace) -> int:
    from kikimimi.contract.parts import diagram

    decl = _load_game(args.game)
    try:
        text = diagram(decl, args.format)
    except (NotImplementedError, ValueError) as exc:
        raise CliError(str(exc)) from None
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0
