"""`kikimimi players|session|contest|seating|export`: the club's records by hand.

The referee uses these between games; the daemon records games itself
through `kikimimi.records.record_game_over`.  Every command takes `--db` (an
SQLite file or a postgresql:// URL; default $KIKIMIMI_DB or
~/.local/share/kikimimi/club.sqlite) and answers a refused request with one
line on stderr and exit status 2.  Only `players add` (or `--create`) makes a
new database: a mistyped `--db` is an error, not an empty club.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from kikimimi.records import Club, RecordsError, Settlement, game_identity
from kikimimi.records import contest as contests
from kikimimi.records.export import TABLES, write_csv
from kikimimi.records.ladder import Rank, peerage_key, rank_key
from kikimimi.records.seating import all_first_time, seating_line, seating_order
from kikimimi.records.spoken import Speaker


def _db_parent() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--db", metavar="PATH|URL", default=None,
                        help="club records: an SQLite file or a postgresql:// URL "
                             "(default: $KIKIMIMI_DB or ~/.local/share/kikimimi/club.sqlite)")
    common.add_argument("--create", action="store_true",
                        help="create the records database if it does not exist yet")
    return common


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    """Add players, session, contest, seating and export to a `kikimimi` parser."""
    common = _db_parent()

    players = subparsers.add_parser("players", help="club players and their titles")
    psub = players.add_subparsers(dest="players_command", metavar="ACTION", required=True)
    p = psub.add_parser("add", parents=[common], help="register a player")
    p.add_argument("name", help="display name (unique in the club)")
    p.add_argument("--kana", default="", help="spoken name in kana (needed where the tables speak Japanese)")
    p.add_argument("--lang", choices=("ja", "en"), default=None,
                   help="the language the club's tables speak (default: the --table's, else ja: --kana is needed)")
    p.add_argument("--table", type=Path, metavar="TABLE.toml", help="take the language from this table's config")
    p.add_argument("--form", choices=("king", "queen"), default="king",
                   help="title form: King/Baron/... or Queen/Baroness/...")
    p.set_defaults(func=_players_add)
    p = psub.add_parser("list", parents=[common], help="every player with rank, peerage and wins")
    p.set_defaults(func=_players_list)
    p = psub.add_parser("show", parents=[common], help="one player's profile and settlement history")
    p.add_argument("player", help="display name or #id")
    p.set_defaults(func=_players_show)

    session = subparsers.add_parser("session", help="official practice sessions (full/half trial)")
    ssub = session.add_subparsers(dest="session_command", metavar="ACTION", required=True)
    p = ssub.add_parser("start", parents=[common], help="open a session; players in seat order 1, 2, 3")
    p.add_argument("--kind", choices=("full", "half"), default=None,
                   help="full trial (10 games) or half (5); default full, or the contest's kind")
    p.add_argument("--contest", metavar="NAME", help="this session is one table of a contest across tables")
    p.add_argument("--table", type=int, metavar="K", help="with --contest: the table number (default: lowest free)")
    p.add_argument("players", nargs="+", metavar="PLAYER")
    p.set_defaults(func=_session_start)
    p = ssub.add_parser("status", parents=[common], help="a session's games so far (default: open sessions)")
    p.add_argument("session", nargs="?", type=int)
    p.set_defaults(func=_session_status)
    p = ssub.add_parser("end", parents=[common], help="settle a finished session, or abandon an unfinished one")
    p.add_argument("session", type=int)
    p.add_argument("--abandon", action="store_true", help="record it as abandoned: no settlement")
    p.set_defaults(func=_session_end)
    p = ssub.add_parser("record-log", parents=[common], help="record a game from its event log (JSON lines)")
    p.add_argument("session", type=int)
    p.add_argument("log", type=Path, metavar="LOG.jsonl")
    p.add_argument("--seats", required=True, metavar="P1,P2,P3", help="the players at seats 1, 2, 3")
    p.set_defaults(func=_session_record_log)

    contest = subparsers.add_parser("contest", help="contests (tournaments) across tables, and contests won")
    csub = contest.add_subparsers(dest="contest_command", metavar="ACTION", required=True)
    p = csub.add_parser("start", parents=[common], help="open a contest played at several tables")
    p.add_argument("name", help="the contest's name")
    p.add_argument("--tables", type=int, required=True, metavar="N", help="how many tables play it")
    p.add_argument("--kind", choices=("full", "half"), default="half", help="each table's session (default half)")
    p.set_defaults(func=_contest_start)
    p = csub.add_parser("standings", parents=[common], help="the standings across the contest's tables")
    p.add_argument("name", nargs="?", help="the contest (default: the one open contest)")
    p.add_argument("--lang", choices=("ja", "en"), default="ja", help="language of the spoken line")
    _voice_option(p)
    p.set_defaults(func=_contest_standings)
    p = csub.add_parser("close", parents=[common], help="close a contest: its winner's peerage step is recorded")
    p.add_argument("name", help="the contest")
    p.add_argument("--winner", metavar="PLAYER", help="the play-off's winner, when the top is tied")
    p.add_argument("--lang", choices=("ja", "en"), default="ja", help="language of the spoken lines")
    _voice_option(p)
    p.set_defaults(func=_contest_close)
    p = csub.add_parser("list", parents=[common], help="every contest across tables")
    p.set_defaults(func=_contest_list)
    p = csub.add_parser("record", parents=[common], help="record a contest winner: one peerage step and one rank")
    p.add_argument("player")
    p.add_argument("--name", required=True, help="the contest's name")
    p.set_defaults(func=_contest_record)

    p = subparsers.add_parser("seating", parents=[common], help="the order in which players choose seats")
    p.add_argument("players", nargs="+", metavar="PLAYER", help="in order of arrival")
    p.add_argument("--lang", choices=("ja", "en"), default="ja", help="language of the spoken line")
    p.set_defaults(func=_seating)

    p = subparsers.add_parser("export", parents=[common], help="export records as CSV")
    p.add_argument("--what", choices=TABLES, default="players")
    p.add_argument("--output", "-o", type=Path, help="file to write (default: stdout)")
    p.set_defaults(func=_export)


def _voice_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--voice", choices=("text", "auto", "audio"), default="text",
                   help="also speak the lines on the sound device (auto: if there is one); default: print them")


def _speak(lines: Sequence[str], lang: str, mode: str) -> None:
    """Say the lines on the speaker of the default sound device, as a table would."""
    if mode == "text" or not lines:
        return
    from kikimimi.cli import CliError
    from kikimimi.cli.play import audio_or_text

    try:
        audio = audio_or_text(mode, lambda cls: cls.default_device(1, lang, listen=("table",)))
    except CliError as exc:
        raise RecordsError(str(exc)) from None
    if audio is None:
        return
    try:
        for problem in audio.emit([{"type": "say", "to": "table", "key": "records", "text": t} for t in lines]):
            print(f"kikimimi: {problem}", file=sys.stderr)
        audio.wait_idle(timeout=120)
    finally:
        audio.close()


def _run(args: argparse.Namespace, body: Callable[[Club], int | None], *, create: bool = False) -> int:
    """Open the club, run one command; a refusal is one stderr line, exit 2."""
    try:
        club = Club(args.db, create=create or args.create)
    except RecordsError as exc:
        print(f"kikimimi: {exc}", file=sys.stderr)
        return 2
    try:
        return int(body(club) or 0)
    except RecordsError as exc:
        print(f"kikimimi: {exc}", file=sys.stderr)
        return 2
    finally:
        club.close()


def _en(key: str) -> str:
    return Speaker("en").book.name(key)


def _title(rank: int, peerage: int, form: str) -> str:
    text = _en(f"rank:{rank_key(Rank(rank), form)}")
    if peerage:
        text = f"{_en('peerage:' + peerage_key(peerage, form))} {text}"
    return text


def _table_lang(args: argparse.Namespace) -> str:
    """The language players are spoken in: --lang, else the --table's, else Japanese."""
    if args.lang is not None:
        return args.lang
    if args.table is None:
        return "ja"
    from kikimimi.table.config import ConfigError, load_table_config

    try:
        return load_table_config(args.table).lang
    except ConfigError as exc:
        raise RecordsError(str(exc)) from None


def _players_add(args: argparse.Namespace) -> int:
    try:
        lang = _table_lang(args)
    except RecordsError as exc:
        print(f"kikimimi: {exc}", file=sys.stderr)
        return 2
    if lang == "ja" and not args.kana.strip():
        print("kikimimi: a Japanese table speaks each player's kana: give --kana "
              "(or --lang en where the tables speak English)", file=sys.stderr)
        return 2

    def body(club: Club) -> None:
        p = club.add_player(args.name, args.kana, args.form)
        spoken = f"{p.kana}, " if p.kana else ""
        print(f"#{p.id} {p.name} ({spoken}{p.form} form)")
    return _run(args, body, create=True)


def _players_list(args: argparse.Namespace) -> int:
    def body(club: Club) -> None:
        players = club.players()
        if not players:
            print(f"no players in {club.where} yet (add one with: kikimimi players add NAME)")
        for p in players:
            lad = p.ladder
            print(f"#{p.id}\t{p.name}\t{_title(lad.rank, lad.peerage, p.form)}\twins {lad.wins}\t"
                  f"games {lad.games}\tsessions {lad.sessions}")
    return _run(args, body)


def _describe(s: Settlement, form: str) -> str:
    where = f"session {s.session_id}" if s.session_id is not None else f"contest {s.contest_id}"
    return (f"{s.at} {where}: {_title(s.rank_before, s.peerage_before, form)} -> "
            f"{_title(s.rank_after, s.peerage_after, form)}, wins {s.wins_before} -> {s.wins_after} "
            f"({', '.join(s.reasons)})")


def _players_show(args: argparse.Namespace) -> int:
    def body(club: Club) -> None:
        p = club.player(args.player)
        lad = p.ladder
        print(f"#{p.id} {p.name}{f' ({p.kana})' if p.kana else ''}, {_title(lad.rank, lad.peerage, p.form)}")
        print(f"wins {lad.wins} (1st places {lad.firsts}), games {lad.games}, crashes {lad.crashes}, "
              f"sessions {lad.sessions}, contests {lad.contests}")
        bonuses = ", ".join(f"{_en('rank:' + rank_key(Rank(r), p.form))} {n}" for r, n in sorted(lad.bonuses.items()))
        print(f"current run {lad.run}, 4-win streaks {lad.four_streaks}, streak bonuses by rank held: {bonuses or 'none'}")
        history = club.history(p.id)
        if not history:
            print("no settlements yet")
        for s in history:
            print(_describe(s, p.form))
        from kikimimi.records.plays import history as games_of

        played = games_of(club, p.id)
        print(f"games played at the club's tables: {len(played)}" + (":" if played else ""))
        for r in played:
            team = f", {r.team}" if r.team else ""
            print(f"  {r.play.recorded_at} {r.play.game} ({r.play.players} players, table {r.play.table or '?'}): "
                  f"seat {r.seat}, place {r.place}{team}, {'won' if r.won else 'lost'}")
    return _run(args, body)


def _print_settlements(club: Club, settlements: Sequence[Settlement]) -> None:
    for s in settlements:
        p = club.player(s.player_id)
        print(f"{p.name}: {_describe(s, p.form)}")


def _session_start(args: argparse.Namespace) -> int:
    def body(club: Club) -> None:
        kind = args.kind
        if args.contest is not None and kind is None:
            kind = contests.contest(club, args.contest).kind
        elif args.contest is None and args.table is not None:
            raise RecordsError("--table is a table of a contest: give --contest NAME too")
        info = club.start_session(kind or "full", {i + 1: name for i, name in enumerate(args.players)},
                                  contest=args.contest, table=args.table)
        where = f" at table {info.table} of contest {args.contest!r}" if info.contest_id is not None else ""
        print(f"session {info.id} open{where}: {info.kind} trial, {info.planned} games")
    return _run(args, body)


def _session_status(args: argparse.Namespace) -> int:
    def body(club: Club) -> None:
        infos = [club.session(args.session)] if args.session is not None else club.sessions("open")
        if not infos:
            print("no open session")
        for info in infos:
            seats = ", ".join(f"{seat}: {club.player(pid).name}" for seat, pid in info.seats.items())
            where = ""
            if info.contest_id is not None:
                where = f", table {info.table} of contest {contests.contest(club, info.contest_id).name!r}"
            print(f"session {info.id} ({info.kind} trial{where}) {info.status}: {info.games} of {info.planned} games; "
                  f"seats {seats}")
    return _run(args, body)


def _session_end(args: argparse.Namespace) -> int:
    def body(club: Club) -> None:
        settled = club.end_session(args.session, abandon=args.abandon)
        if args.abandon:
            print(f"session {args.session} abandoned: its games count for wins and streaks; nothing settled")
        _print_settlements(club, settled)
    return _run(args, body)


MAX_LOG_BYTES = 64 * 1024 * 1024


def read_log(path: Path) -> bytes:
    """An event log's bytes (bounded: a log is a game's events, not a disk image)."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_LOG_BYTES + 1)
    except OSError as exc:
        raise RecordsError(f"{path}: cannot read ({exc.strerror})") from None
    if len(data) > MAX_LOG_BYTES:
        raise RecordsError(f"{path}: larger than {MAX_LOG_BYTES // (1024 * 1024)} MiB; not an event log")
    return data


def read_game_over(path: Path, data: bytes | None = None) -> dict:
    """The last `game-over` event of an event log (JSON lines)."""
    data = read_log(path) if data is None else data
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordsError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    found = None
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except json.JSONDecodeError as exc:
            raise RecordsError(f"{path}:{number}: not JSON ({exc.msg})") from None
        if isinstance(event, dict) and event.get("type") == "game-over":
            found = event
    if found is None:
        raise RecordsError(f"{path}: no game-over event (did the game finish?)")
    return found


def _session_record_log(args: argparse.Namespace) -> int:
    def body(club: Club) -> None:
        names = [n.strip() for n in args.seats.split(",") if n.strip()]
        data = read_log(args.log)
        event = read_game_over(args.log, data)
        rec = club.record_game_over(args.session, event, {i + 1: n for i, n in enumerate(names)},
                                    game_id=game_identity(data))
        info = club.session(args.session)
        print(f"session {rec.session_id} game {rec.number} of {info.planned}: 1st {club.player(rec.winner).name}")
        _print_settlements(club, rec.settlements)
    return _run(args, body)


def _contest_record(args: argparse.Namespace) -> int:
    def body(club: Club) -> None:
        s = club.record_contest(args.player, args.name)
        _print_settlements(club, [s])
    return _run(args, body)


def _contest_start(args: argparse.Namespace) -> int:
    def body(club: Club) -> None:
        info = contests.start_contest(club, args.name, args.tables, args.kind)
        print(f"contest {info.name!r} open: {info.tables} tables, each a {info.kind} trial; "
              f"start each table's session with: kikimimi session start --contest {info.name!r} P1 P2 P3")
    return _run(args, body)


def _only_open_contest(club: Club) -> str | int:
    open_ = [c for c in contests.contests(club) if c.status == "open"]
    if len(open_) != 1:
        raise RecordsError("no open contest; name one" if not open_ else
                           f"{len(open_)} contests are open; name one: " + ", ".join(c.name for c in open_))
    return open_[0].id


def _contest_standings(args: argparse.Namespace) -> int:
    def body(club: Club) -> None:
        ref = args.name if args.name is not None else _only_open_contest(club)
        info, table = contests.standings(club, ref)
        started = len({t for t, _, _ in info.sessions})
        print(f"contest {info.name!r} ({info.status}): {started} of {info.tables} tables started, "
              f"{sum(s.games for s in table) // 3} games")
        if not any(s.games for s in table):
            print("no games recorded yet")
        else:
            for s in table:
                tables = ",".join(str(t) for t in s.tables)
                print(f"{s.place}.\t{s.player.name}\twins {s.wins}\tpoints {s.points}\tgames {s.games}\ttable {tables}")
        line = Speaker(args.lang).standings(info.name, table)
        print(line)
        _speak([line], args.lang, args.voice)
    return _run(args, body)


def _contest_close(args: argparse.Namespace) -> int:
    def body(club: Club) -> None:
        info, settlement = contests.close_contest(club, args.name, args.winner)
        winner = club.player(settlement.player_id)
        print(f"contest {info.name!r} closed: won by {winner.name}")
        _print_settlements(club, [settlement])
        speaker = Speaker(args.lang)
        lines = [speaker.render("contest-won", name=speaker.spoken_name(winner), contest=info.name),
                 *speaker.settlement(winner, settlement)]
        for line in lines:
            print(line)
        _speak(lines, args.lang, args.voice)
    return _run(args, body)


def _contest_list(args: argparse.Namespace) -> int:
    def body(club: Club) -> None:
        found = contests.contests(club)
        if not found:
            print("no contests yet (open one with: kikimimi contest start NAME --tables N)")
        for c in found:
            won = f", won by {club.player(c.winner_id).name}" if c.winner_id is not None else ""
            print(f"#{c.id}\t{c.name}\t{c.status}\t{c.tables} tables, {c.kind} trials, "
                  f"{len(c.sessions)} sessions{won}")
    return _run(args, body)


def _seating(args: argparse.Namespace) -> int:
    def body(club: Club) -> None:
        arrivals = [club.player(n) for n in args.players]
        if len({p.id for p in arrivals}) != len(arrivals):
            raise RecordsError("a player is listed twice")
        order = seating_order(arrivals)
        why = "order of arrival (all first-time)" if all_first_time(arrivals) else "lowest, highest, then top down"
        for i, p in enumerate(order, 1):
            print(f"{i}. {p.name} ({_title(p.rank, p.peerage, p.form)})")
        print(f"# {why}")
        print(seating_line(arrivals, args.lang))
    return _run(args, body)


def _export(args: argparse.Namespace) -> int:
    def body(club: Club) -> None:
        if args.output is None:
            n = write_csv(club, args.what, sys.stdout)
            if n == 0:
                print(f"no {args.what} recorded yet: only the header row was written", file=sys.stderr)
            return
        try:
            with open(args.output, "w", encoding="utf-8", newline="") as out:
                n = write_csv(club, args.what, out)
        except OSError as exc:
            raise RecordsError(f"{args.output}: cannot write ({exc.strerror})") from None
        print(f"{n} rows written to {args.output}" if n else
              f"no {args.what} recorded yet: {args.output} has only the header row", file=sys.stderr)
    return _run(args, body)


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m kikimimi.cli.records ...`: the records commands on their own."""
    parser = argparse.ArgumentParser(prog="kikimimi")
    add_parser(parser.add_subparsers(dest="command", metavar="COMMAND", required=True))
    args = parser.parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
