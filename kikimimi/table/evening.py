"""A table's evening: game after game on one running table, and an official session's flow.

Why it lives beside the daemon and not in a game: every game ends the same
way at a real table (the result is announced, the players put their pieces
back and say they are ready), and an official practice session is a club
matter, not a rule of play.  So a game only says `game-over`; this module
makes the table wait, starts the next game on the referee's `new` or when
every seated player has scanned AGREE, and, in an official session, knows
game k of n, records each game as it ends (once), and speaks the
settlement when the last game is in.

The session travels in each game's journal header (`"session": {...}`), so
a table restarted in the middle of a session resumes the current game *and*
the session, and a game that ended just before a crash is recorded on
restart, never twice.  The lines this module speaks are the table's own,
not the game's: they carry `"evening": true` and no `seq`, so a game's
event log still replays byte for byte from its journal.
"""
from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from kikimimi.contract.declaration import OfficialSession
from kikimimi.table.engine import LogEvent
from kikimimi.contract.phrases import Phrasebook
from kikimimi.contract.protocol import TABLE
from kikimimi.contract.script import NEW_GAME, Header
from kikimimi.table.config import GameChoice
from kikimimi.contract.tagmap import normalise_uid
from kikimimi.table.option_words import OptionWordsRefused, next_options

if TYPE_CHECKING:  # the records load only for a table that records (a session, a club)
    from kikimimi.table.daemon import Daemon
    from kikimimi.records import Club, GameRecord, Settlement, Target

#: What `_recorded` answers when the records cannot be read: a count to go on with, or None.
_Fallback = TypeVar("_Fallback", int, None)

#: Bounds on what a journal header may claim about its session (the header is untrusted bytes).
MAX_SESSION_ID = 10**9
MAX_SESSION_GAMES = 100
AGREE = "cmd:agree"
#: A game card's tag (`game:witch`): on the field reader between games it chooses the next game.
GAME_CARD = "game:"
#: The referee's console command that chooses (and starts) the next game: `game NAME`.
GAME_COMMAND = "game"

Complain = Callable[[str], None]


class SessionRefused(ValueError):
    """An official session cannot be played at this table (one line, said before anything starts)."""


def check_session_table(game: str, players: int, options: Mapping[str, Any],
                        where: str = "the table") -> OfficialSession:
    """Refuse a table that is not set for the session its game declares (the Trident's: the
    seed's competition rules); the session's rules when it is."""
    from kikimimi.contract.registry import declaration, game_names

    decl = declaration(game)
    rules = decl.session
    if rules is None:
        with_sessions = [name for name in game_names() if _has_sessions(name)]
        games = " or ".join(name.capitalize() for name in with_sessions) or "no"
        raise SessionRefused(f"{where}: official practice sessions are {games} games, not {game}")
    if players != rules.players:
        raise SessionRefused(f"{where}: an official practice session is played by exactly "
                             f"{rules.players} players, not {players} (table.players)")
    defaults = decl.options.defaults if decl.options is not None else {}
    for name, value in rules.options.items():
        if options.get(name) != value:
            raise SessionRefused(f"{where}: an official practice session uses {value} {name}, not "
                                 f"{options.get(name, defaults.get(name))!r}: set options = "
                                 f"{{ {name} = \"{value}\" }} in [table]")
    return rules


def _has_sessions(game: str) -> bool:
    from kikimimi.contract.registry import declaration

    try:
        return declaration(game).session is not None
    except Exception:  # a plugin that does not load holds no session
        return False


@dataclass
class SessionState:
    """Where an official session stands at this table: game `number` of `total`, the scores so far."""

    id: int
    number: int
    total: int
    firsts: dict[int, int] = field(default_factory=dict)  # seat -> 1st places in this session
    points: dict[int, int] = field(default_factory=dict)  # seat -> competition points (fewer is better)
    closed: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "game": self.number, "of": self.total,
                "firsts": {str(k): v for k, v in sorted(self.firsts.items())},
                "points": {str(k): v for k, v in sorted(self.points.items())}}

    @classmethod
    def from_header(cls, header: Header) -> "SessionState | None":
        """The session a journal header names, or None; a malformed one is refused in one line."""
        raw = header.extra.get("session")
        if raw is None:
            return None
        if not isinstance(raw, Mapping):
            raise SessionRefused('journal header: "session" must be an object')
        sid, number, total = (_whole(raw, "id", MAX_SESSION_ID), _whole(raw, "game", MAX_SESSION_GAMES),
                              _whole(raw, "of", MAX_SESSION_GAMES))
        seats = header.players
        return cls(sid, number, total, _seat_counts(raw.get("firsts"), seats), _seat_counts(raw.get("points"), seats))

    def absorb(self, ranking: list[Mapping[str, Any]]) -> None:
        for entry in ranking:
            seat = int(entry["seat"])
            self.firsts[seat] = self.firsts.get(seat, 0) + (entry.get("place") == 1)
            points = entry.get("points")
            if isinstance(points, int) and not isinstance(points, bool):
                self.points[seat] = self.points.get(seat, 0) + points


def _whole(raw: Mapping[str, Any], name: str, top: int) -> int:
    value = raw.get(name)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= top:
        raise SessionRefused(f'journal header: session "{name}" must be a whole number 1-{top}')
    return value


def _seat_counts(raw: Any, seats: int) -> dict[int, int]:
    if not isinstance(raw, Mapping):
        return {}
    out = {}
    for key, value in list(raw.items())[:seats]:
        if str(key).isdecimal() and len(str(key)) < 3 and isinstance(value, int) and not isinstance(value, bool):
            out[int(key)] = max(0, min(value, 10**6))
    return out


class ClubSession:
    """The records side of one official session, through the records API only: a
    read never creates a mistyped database (`create=False`), and a game is recorded
    once, by its identity (`game_id`)."""

    def __init__(self, session_id: int, db: Target, lang: str, players: int | None = None):
        """`players`: the count the game's session is played by (`check_session_table`);
        None takes the session's own."""
        from kikimimi.records import RecordsError
        from kikimimi.records.spoken import Speaker

        self.id, self.db = session_id, db
        try:
            with self._club() as club:
                info = club.session(session_id)
                self.seats = dict(info.seats)
                speaker = Speaker(lang)
                self.names = {seat: speaker.spoken_name(club.player(pid)) for seat, pid in self.seats.items()}
        except RecordsError as exc:
            raise SessionRefused(str(exc)) from None
        if info.status != "open":
            raise SessionRefused(f"session {session_id} is {info.status}, not open (kikimimi session start)")
        if players is not None and len(self.seats) != players:
            raise SessionRefused(f"session {session_id} seats {len(self.seats)} players, not {players}")
        self.total = info.planned
        self.speaker = speaker

    def _club(self) -> Club:
        from kikimimi.records import Club

        return Club(self.db, create=False)

    def recorded(self) -> int:
        """How many games of the session the records hold."""
        with self._club() as club:
            return club.session(self.id).games

    def record(self, event: Mapping[str, Any], journal: bytes) -> GameRecord | None:
        """Record one game, identified by its journal's bytes up to the line that ended it;
        None when the records already hold that game."""
        from kikimimi import records

        last = event.get("in")
        upto = last if isinstance(last, int) and not isinstance(last, bool) and last > 0 else None
        try:
            return records.record_game_over(self.id, event, self.seats, db=self.db,
                                            game_id=records.game_identity(journal, upto))
        except records.AlreadyRecorded as exc:
            _complain(f"session {self.id}: {exc}")
            return None

    def settlement_lines(self, settlements: Iterable[Settlement]) -> list[str]:
        lines: list[str] = []
        with self._club() as club:
            for settlement in settlements:
                lines += self.speaker.settlement(club.player(settlement.player_id), settlement)
        return lines


class ClubPlays:
    """Every finished game's result in the club records, whatever the game (the game
    history per player; the rank ladder stays the Trident's, through `ClubSession`).

    Seats are the session's players, else the names the table was given
    (`serve --players`); a seat nobody named is recorded as a guest.  Once per
    game: its identity is the journal's bytes up to the line that ended it."""

    def __init__(self, db: Target, table: str, seated: Mapping[int, str] | None = None):
        self.db, self.table = db, table
        self.seated: dict[int, int | str] = dict(seated or {})

    def record(self, header: Header, event: Mapping[str, Any], journal: bytes,
               seats: Mapping[int, int | str] | None = None, session_id: int | None = None) -> str:
        """One line for the referee: recorded, already recorded, or why not."""
        from kikimimi import records

        last = event.get("in")
        upto = last if isinstance(last, int) and not isinstance(last, bool) and last > 0 else None
        seated = {k: v for k, v in (seats if seats is not None else self.seated).items() if k <= header.players}
        try:
            play = records.record_play(header.game, event, seated, db=self.db, table=self.table,
                                       game_id=records.game_identity(journal, upto), session_id=session_id)
        except records.AlreadyRecorded:
            return f"{header.game}: this game is already in the club records; not recorded again"
        except records.RecordsError as exc:
            return f"{header.game}: not in the club records: {exc}"
        return f"{header.game}: game {play.id} in the club records"


class Evening:
    """The flow between games on one daemon: `prepare()` it before anything opens (it may
    refuse), `begin()` it once the outputs and the API listen.

    `games` are the table's games for the evening (the table file's `[table]`
    game and its `[games.NAME]` sections): between games the referee's `game
    NAME` starts one, and its card on the field reader chooses it for the
    AGREE round.  `hand_seats` are the seats with a hand reader at this table."""

    def __init__(self, daemon: Daemon, club: ClubSession | None = None, *, complain: Complain | None = None,
                 games: Mapping[str, GameChoice] | None = None, hand_seats: set[int] | None = None,
                 plays: ClubPlays | None = None):
        self.daemon = daemon
        self.club = club
        self.complain = complain or _complain
        self.session: SessionState | None = None
        self.agreed: set[int] = set()
        self._prepared = False
        self._start_next = False
        self._phrases: Phrasebook | None = None
        self._book_game = ""
        self.games = dict(games or {})
        self.cards = {choice.card: name for name, choice in self.games.items() if choice.card}
        self.hand_seats = set(hand_seats) if hand_seats is not None else None
        self.plays = plays
        self.chosen: str | None = None  # the next game, chosen between games by its card
        #: The chosen game with the referee's options (`game NAME key=value ...`), used once.
        self.changed: GameChoice | None = None
        #: Told each new game's tag map (serve hands it to the reader drivers, so the new
        #: game's enrolled pieces are known by their uid alone, as the first game's were).
        self.on_tagmap: Callable[[Mapping[str, str]], None] | None = None
        self._play_recorded = False  # this game's result went to the club records (once per game)

    # -- start-up ---------------------------------------------------------------
    def prepare(self) -> None:
        """Decide which session this journal continues, or refuse in one line; attaches nothing."""
        d = self.daemon
        with d.lock:
            on_disk = SessionState.from_header(d.header)
            self._start_next = False
            if self.club is None:
                return
            if on_disk is not None and on_disk.id == self.club.id:
                self.session = on_disk
            elif d.resumed and not d.table.game.over:
                raise SessionRefused(
                    f"{d.journal_path}: the journal holds an unfinished game that is not of session "
                    f"{self.club.id}: finish it, or start with --fresh")
            else:  # a finished game of no session (or another) waits: the session starts anew
                self.session = SessionState(self.club.id, self.club.recorded() + 1, self.club.total)
                self._start_next = True
        self._prepared = True

    def begin(self) -> None:
        """Attach to the daemon and say where the evening stands: a fresh game, a
        resumed one, or a finished one waiting for the next."""
        if not self._prepared:
            self.prepare()
        d = self.daemon
        with d.lock:
            d.intercept = self._intercept
            d.subscribe(self._after)
            d.extras["session"] = self.view
            if self.games:
                d.extras["games"] = self.games_view
            if self._start_next:
                self._next_game()
            elif not d.resumed:
                d.announce(self._opening_lines() + list(d.log))
            elif d.table.game.over:
                ended = next((ev for ev in reversed(d.log) if ev.get("type") == "game-over"), None)
                d.announce(self._game_over(ended, resumed=True) if ended is not None else self._waiting_lines())
            else:
                d.announce(self._continue_lines())

    @staticmethod
    def header_session(club: ClubSession) -> dict[str, Any]:
        """The `session` of a fresh journal's header for `club`'s next game."""
        return SessionState(club.id, club.recorded() + 1, club.total).to_json()

    # -- what the table says -----------------------------------------------------
    def _say(self, key: str, text: str | None = None, **params: Any) -> LogEvent:
        table = self.daemon.table
        ev: LogEvent = {"seq": None, "t": table.t, "type": "say", "in": None, "to": TABLE, "key": key,
                        "text": text if text is not None else self._book().render(key, params),
                        "evening": True}
        if params:
            ev["params"] = params
        return ev

    def _book(self) -> Phrasebook:
        """The table's phrases and the evening's own catalogue (voices/evening): said between
        games only, so not among the texts a table renders before its first input."""
        header = self.daemon.header
        if self._phrases is None or (self._phrases.lang, self._book_game) != (header.lang, header.game):
            self._phrases = Phrasebook(header.lang, ("core", header.game, "evening"))
            self._book_game = header.game
        return self._phrases

    def _opening_lines(self) -> list[LogEvent]:
        s = self.session
        if s is None or s.closed:
            return []
        return [self._say("session-game-begins", number=s.number, total=s.total)]

    def _continue_lines(self) -> list[LogEvent]:
        s = self.session
        if s is None or s.closed:
            return []
        return [self._say("session-game-continues", number=s.number, total=s.total)]

    def _waiting_lines(self) -> list[LogEvent]:
        s = self.session
        if s is not None and not s.closed and self.club is not None:
            return [self._say("session-next", number=self._recorded(s.number - 1) + 1)]
        more = [self._say("evening-choose")] if any(c.card for c in self.games.values()) else []
        return [self._say("table-waiting"), *more]

    # -- the daemon's hooks (called under its lock) -------------------------------
    def _intercept(self, item: dict[str, Any]) -> list[LogEvent] | None:
        """`new` and, once the game is over, the AGREE scans are the evening's, not the game's."""
        console = item.get("console")
        if isinstance(console, str) and console.strip() == NEW_GAME:
            return self._next_game()
        if isinstance(console, str) and console.split(maxsplit=1)[:1] == [GAME_COMMAND] and self.games:
            return self._choose(console.split()[1:], by_referee=True)
        if not self.daemon.table.game.over or item.get("reader") not in ("hand", "field"):
            return None
        tag = item.get("tag")
        if tag is None and isinstance(item.get("uid"), str):
            uid = normalise_uid(item["uid"])
            tag = f"{GAME_CARD}{self.cards[uid]}" if uid in self.cards else self.daemon.table.tagmap.get(uid)
        if isinstance(tag, str) and tag.startswith(GAME_CARD) and item.get("reader") == "field" and self.games:
            return [] if item.get("removed") else self._choose([tag[len(GAME_CARD):]], by_referee=False)
        if tag != AGREE or item.get("reader") != "hand":
            return None
        if item.get("removed"):
            return []  # lifting the AGREE tag again says nothing
        seat = item.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int) or seat not in self._seats():
            return None  # the engine refuses it in its own words
        return self._agree(seat)

    def _after(self, line: dict[str, Any], events: Sequence[LogEvent]) -> None:
        for ev in events:
            if ev.get("type") == "game-over" and ev.get("seq") is not None:
                self.daemon.announce(self._game_over(ev))

    # -- between games -------------------------------------------------------------
    def _game_over(self, ev: Mapping[str, Any], resumed: bool = False) -> list[LogEvent]:
        """Record the game (once) and say the result and what comes next.

        `resumed`: the table restarted on a finished game, which may have been
        recorded just before the restart (then it only counts in the scores)."""
        self.agreed.clear()
        s = self.session
        if s is None or s.closed or self.club is None:
            self._record_play(ev)
            return self._waiting_lines()
        from kikimimi.records import NotCounted, RecordsError

        recorded = self._recorded(None)
        if recorded is None:  # the records cannot be read now: said, and recordable later from the log
            return [self._say("session-not-recorded"), *self._waiting_lines()]
        ranking = sorted(ev.get("ranking", []), key=lambda e: e["place"])
        if recorded >= s.number:
            lines = []
            if resumed:  # recorded just before the restart: said again, counted in the scores once
                s.absorb(ranking)
                lines.append(self._result_line(s.number, ranking))
            else:
                self.complain(f"session {s.id}: game {s.number} is already recorded; not recorded again")
            if recorded >= s.total:
                s.closed = True
                return lines + [self._say("session-over")]
            return lines + self._waiting_lines()
        try:
            record = self.club.record(ev, Path(self.daemon.journal_path).read_bytes())
        except NotCounted as exc:
            self.complain(f"session {s.id}: game {s.number} not counted: {exc}")
            return [self._say("session-not-counted", number=s.number), *self._waiting_lines()]
        except (RecordsError, OSError) as exc:
            self.complain(f"session {s.id}: game {s.number} not recorded: {exc} "
                          f"(kikimimi session record-log {s.id} can record it from the event log)")
            return [self._say("session-not-recorded"), *self._waiting_lines()]
        if record is None:  # the records hold this very game already: said, not counted again
            return [self._result_line(s.number, ranking), *self._waiting_lines()]
        self._record_play(ev)
        s.absorb(ranking)
        self.complain(f"session {s.id}: game {record.number} of {s.total} recorded")
        lines = [self._result_line(record.number, ranking)]
        if record.settlements:
            s.closed = True
            texts = self.club.settlement_lines(record.settlements)
            for text in texts:
                self.complain(f"session {s.id}: {text}")
            lines += [self._say("session-settlement", text) for text in texts]
            lines += [] if texts else [self._say("session-no-change")]
            lines.append(self._say("session-over"))
            return lines
        return lines + self._waiting_lines()

    def _record_play(self, ev: Mapping[str, Any]) -> None:
        """The game in every player's game history (any game; said to the referee, not aloud)."""
        if self.plays is None:
            return
        d = self.daemon
        if self._play_recorded:  # an undo took the ending back and it ended again: still one game
            self.complain(f"{d.header.game}: this game is already in the club records; not recorded again")
            return
        self._play_recorded = True
        try:
            journal = Path(d.journal_path).read_bytes()
        except OSError as exc:
            self.complain(f"{d.header.game}: not in the club records: {exc}")
            return
        in_session = self.session is not None and self.club is not None
        self.complain(self.plays.record(d.header, ev, journal, self.club.seats if in_session and self.club else None,
                                        self.session.id if in_session and self.session else None))

    def _recorded(self, fallback: _Fallback) -> int | _Fallback:
        """How many games of the session the records hold; `fallback` (said once on
        stderr) when they cannot be read: a database down mid-evening must not
        stop the table, whose journal keeps every game to record later."""
        from kikimimi.records import RecordsError

        assert self.club is not None and self.session is not None
        try:
            return self.club.recorded()
        except RecordsError as exc:
            self.complain(f"session {self.session.id}: the records cannot be read now ({exc}); "
                          f"kikimimi session record-log {self.session.id} can record a game from its event log")
            return fallback

    def _result_line(self, number: int, ranking: list[Mapping[str, Any]]) -> LogEvent:
        names = [self.club.names.get(e["seat"], f"seat {e['seat']}") if self.club else f"seat {e['seat']}"
                 for e in ranking]
        total = self.session.total if self.session else number
        return self._say("session-game-result", number=number, total=total,
                         first=names[0], second=names[1], third=names[2])

    def _agree(self, seat: int) -> list[LogEvent]:
        self.agreed.add(seat)
        seats = self._seats()
        ready = self._say("session-ready", seat=seat, count=len(self.agreed & seats), players=len(seats))
        if not seats <= self.agreed:
            self.daemon.announce([ready])
            return [ready]
        self.daemon.announce([ready])
        return [ready, *self._next_game()]

    def _choose(self, words: list[str], by_referee: bool) -> list[LogEvent]:
        """`game NAME` (the referee: it starts now) or a game card on the field (it is
        chosen, and the AGREE round starts it).  Between games only; refused in one line."""
        d = self.daemon
        name = words[0] if len(words) == 1 or (words and by_referee) else ""
        choice = self.games.get(name)
        if choice is None:
            known = ", ".join(self.games)
            return [self._refuse(f"which game? type game and its name, one of {known}" if not name
                                 else f"no game {name!r} at this table ({known})")]
        s = self.session
        if s is not None and not s.closed and name != d.header.game:
            return [self._refuse(f"official session {s.id} is under way (game {s.number} of {s.total}): "
                                 f"its games are {d.header.game} games")]
        if not d.table.game.over:
            return [self._refuse(f"{d.header.game} is under way: choose the next game when it is over "
                                 f"(new abandons it)")]
        if len(words) > 1:  # `game NAME key=value ...`: the next game with other options
            if s is not None and not s.closed:
                return [self._refuse(f"official session {s.id} is under way: its games keep the session's "
                                     f"options")]
            try:
                players, options = next_options(name, choice.players, choice.options, words[1:])
            except OptionWordsRefused as exc:
                return [self._refuse(str(exc))]
            missing = sorted(set(range(1, players + 1)) - self.hand_seats) if self.hand_seats is not None else []
            if missing:
                return [self._refuse(f"{name} for {players} players needs a hand reader at seat {missing[0]}, "
                                     f"which this table has not")]
            self.changed = replace(choice, players=players, options=options)
        self.chosen = name
        if by_referee:
            return self._next_game()
        self.agreed.clear()
        said = [self._say("evening-game-chosen", game=f"{GAME_CARD}{name}", players=choice.players)]
        d.announce(said)
        return said

    def _refuse(self, message: str) -> LogEvent:
        """The evening's refusal, for the referee who typed it (not journaled, not said aloud)."""
        return {"seq": None, "t": self.daemon.table.t, "type": "error", "in": None, "message": message,
                "evening": True}

    def _next_game(self) -> list[LogEvent]:
        """A fresh journal for the next game; in a session, game k of n said first."""
        d = self.daemon
        self.agreed.clear()
        s = self.session
        if s is not None and s.closed:
            self.session = s = None
        if s is not None and self.club is not None:
            s.number = self._recorded(s.number - 1) + 1
        choice = self.games.get(self.chosen) if self.chosen is not None else None
        if choice is not None and self.changed is not None and self.changed.game == choice.game:
            choice = self.changed  # `game NAME key=value ...`: this game with the referee's options
        self.chosen, self.changed = None, None
        self._play_recorded = False
        d.header = self._header(choice)
        first = self._opening_lines()
        if first:
            d.announce(first)
        if choice is None:
            return first + d.new_game()
        seats = set(range(1, choice.players + 1))
        started = d.new_game(tagmap=choice.tagmap,
                             hand_seats=seats & self.hand_seats if self.hand_seats is not None else seats)
        if self.on_tagmap is not None:
            self.on_tagmap(d.table.tagmap)
        return first + started

    def _header(self, choice: GameChoice | None = None) -> Header:
        extra = {k: v for k, v in self.daemon.header.extra.items() if k != "session"}
        if self.session is not None:
            extra["session"] = self.session.to_json()
        if choice is not None:
            return replace(self.daemon.header, game=choice.game, players=choice.players,
                           options=dict(choice.options), extra=extra)
        return replace(self.daemon.header, extra=extra)

    def _seats(self) -> set[int]:
        """The seats whose AGREE starts the next game: the chosen game's, else this one's."""
        table = self.daemon.table
        choice = self.games.get(self.chosen) if self.chosen is not None else None
        if choice is None:
            return set(range(1, table.header.players + 1)) & set(table.hand_seats)
        seats = set(range(1, choice.players + 1))
        return seats & self.hand_seats if self.hand_seats is not None else seats

    # -- the referee's view --------------------------------------------------------
    def games_view(self) -> dict[str, dict[str, Any]]:
        """The evening's games with the seats and options the table file gives each: what a
        form for `game NAME key=value ...` starts from (the game's schema says the rest)."""
        return {name: {"players": c.players, "options": dict(c.options)} for name, c in self.games.items()}

    def view(self) -> dict[str, Any] | None:
        """The session pane of the console: game k of n, the scores, who is ready."""
        over = self.daemon.table.game.over
        s = self.session
        out: dict[str, Any] = {}
        if s is not None:
            names = self.club.names if self.club is not None else {}
            out = {"id": s.id, "game": s.number, "of": s.total, "closed": s.closed,
                   "scores": [{"seat": seat, "name": names.get(seat, ""), "firsts": s.firsts.get(seat, 0),
                               "points": s.points.get(seat, 0)} for seat in sorted(self._seats())]}
        if over:
            out["waiting"] = True
            out["ready"] = sorted(self.agreed)
            if self.chosen is not None:
                out["next"] = self.chosen
        return out or None


def _complain(message: str) -> None:
    print(f"kikimimi: {message}", file=sys.stderr, flush=True)
