"""Plain text for every pane, built from whatever the snapshot and events hold.

The console knows no game: it gives the keys every game shares (the phase,
seats and their hands, the turn) a familiar line each, lets the game's own
view (`TableView`, named by its declaration) say what its other keys mean,
and prints every key left as `key: value`, so a new game is readable on day
one.  Everything is
words and marks like `<- turn`, never colour alone, so a screen reader or a
braille line can follow it.
"""
from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from typing import Any

from kikimimi.contract.view import GENERIC, TableView, by_seat, pieces, short

#: Snapshot keys every game's view shows the same way; the rest is the game's view's, or `key: value`.
KNOWN = ("phase", "turn", "hands")


def view_of(game: Any) -> TableView:
    """The view a game declares, or the generic one (an unknown or broken game is still shown)."""
    return _view(str(game))


@functools.lru_cache(maxsize=16)
def _view(game: str) -> TableView:
    from kikimimi.contract.parts import part
    from kikimimi.contract.registry import declaration

    try:
        decl = declaration(game)
        found = part(decl, decl.view) if decl.view else GENERIC
    except Exception:  # a game that cannot name its view still gets the generic one
        return GENERIC
    return found if isinstance(found, TableView) else GENERIC


def noun_for(game: str | None) -> str:
    """"card" for a card game, else "piece": what the players hold, in the referee's words.

    Read from the game's own tags (a game whose tags are `SET:card-...` is
    played with cards), so a new card game is named right without the
    console knowing it."""
    from kikimimi.contract.registry import UnknownGame, declaration

    try:
        decl = declaration(str(game))
        tags = decl.known_tags(decl.default_players)
    except (UnknownGame, Exception):  # a game that cannot list its tags still gets a readable view
        return "piece"
    return "card" if any(":card-" in t for t in tags) else "piece"


def readable(value: Any, nested: bool = False) -> str:
    """Snapshot data as words: lists joined, objects as `key value`, seats named, never JSON."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple, set, frozenset)):
        items = [readable(v, nested=True) for v in value if v is not None]
        return ", ".join(items) if items else "none"
    if isinstance(value, Mapping):
        parts = [f"{'seat ' if str(k).isdecimal() else ''}{k} {readable(v, nested=True)}"
                 for k, v in value.items() if v is not None and v != [] and v != {}]
        text = (", " if nested else "; ").join(parts) if parts else "none"
        return f"({text})" if nested and len(parts) > 1 else text
    return short(value)


def table_text(header: Mapping[str, Any], snapshot: Mapping[str, Any] | None,
               public: "PublicTable | None" = None) -> str:
    """The table at a glance: the referee's from the snapshot, a spectator's from public events."""
    players = int(header.get("players", 0))
    noun = noun_for(header.get("game"))
    lines = [f"{header.get('game', '?')} - {players} players - {header.get('lang', '')}"]
    game: Mapping[str, Any] = dict((snapshot or {}).get("game") or {}) if snapshot else {}
    if public is not None and snapshot is None:
        game = public.as_snapshot()
    over = (snapshot or {}).get("over") if snapshot else (public.over if public else False)
    if over:
        lines.append("GAME OVER")
    if "phase" in game:
        lines.append(f"phase: {game['phase']}")
    view = view_of(header.get("game"))
    if public is not None and snapshot is None:
        game = {**game, **view.public(public.events)}
    hands = by_seat(game.get("hands"))
    bots = dict((snapshot or {}).get("seat_bots") or {}) if snapshot else {}  # the referee's only
    for seat in range(1, players + 1):
        parts = [f"seat {seat}:"]
        if seat in hands:
            hand = hands[seat]
            if isinstance(hand, (list, tuple)):
                parts.append(pieces(len(hand), noun) + (f" ({', '.join(short(t) for t in hand)})" if hand else ""))
            else:
                parts.append(pieces(int(hand), noun) if isinstance(hand, int) else f"{hand} {noun}s")
        if game.get("turn") == seat:
            parts.append("<- turn")
        parts += view.seat_marks(game, seat)
        if str(seat) in bots:
            parts.append(f"played by a bot ({bots[str(seat)]})")
        lines.append(" ".join(parts))
    lines += view.lines(game, noun)
    for key, value in game.items():
        if key in KNOWN or key in view.shown or value is None or value == [] or value == {}:
            continue
        if isinstance(value, (list, tuple)) and value and all(isinstance(v, Mapping) for v in value):
            lines.append(f"{key}:")  # a list of records (a history): one line each
            lines += [f"  {i}. {readable(v)}" for i, v in enumerate(value, start=1)]
        else:
            lines.append(f"{key}: {readable(value)}")
    return "\n".join(lines)


def health_text(health: Mapping[str, str]) -> str:
    if not health:
        return "Readers and audio: nothing reported"
    lines = ["Readers and audio:"]
    for name, state in sorted(health.items()):
        lines.append(f"  {name}: {state.upper() if state == 'lost' else state}")
    return "\n".join(lines)


def session_text(snapshot: Mapping[str, Any] | None) -> str:
    """The session pane: game k of n and the scores so far, and who is ready between games."""
    session = (snapshot or {}).get("session")
    if not isinstance(session, Mapping) or not session:
        return "Session: none (a single game)"
    lines = []
    if "id" in session:
        state = "closed" if session.get("closed") else f"game {session.get('game')} of {session.get('of')}"
        lines.append(f"Session {session['id']}: {state}")
        for row in session.get("scores") or []:
            if isinstance(row, Mapping):
                wins = int(row.get("firsts", 0) or 0)
                name = f" {row['name']}" if row.get("name") else ""
                lines.append(f"  seat {row.get('seat')}{name}: {wins} {'win' if wins == 1 else 'wins'}, "
                             f"{row.get('points', 0)} points")
    else:
        lines.append("Session: none (a single game)")
    if session.get("waiting"):
        ready = ", ".join(str(s) for s in session.get("ready") or []) or "nobody yet"
        lines.append(f"Between games: ready: {ready} (AGREE on each hand reader, or: new)")
    return "\n".join(lines)


def input_text(item: Mapping[str, Any] | None) -> str:
    """One script line in words, for the undo question."""
    if not item:
        return "nothing"
    if "garbled" in item:
        return f"an unreadable line ({item['garbled']!r})"
    if "console" in item:
        return f"the console command '{item['console']}'"
    reader = "the field reader" if item.get("reader") == "field" else f"seat {item.get('seat')}'s hand reader"
    for state in ("lost", "back"):
        if item.get(state):
            return f"{reader} marked {state}"
    what = short(item.get("tag") or f"uid {item.get('uid')}")
    verb = "taken off" if item.get("removed") else "put on"
    return f"{what} {verb} {reader}"


def event_line(ev: Mapping[str, Any]) -> str | None:
    """One log line: what was spoken, to whom, and what the table decided."""
    kind = ev.get("type")
    if kind == "reveal":  # one phrase in several earphones
        who = " + ".join(str(a).replace("seat:", "seat ") for a in ev.get("private") or ()) + " ears"
        return f"[{who}] {ev.get('text', ev.get('key'))}"
    if kind == "say":
        to = str(ev.get("to"))
        who = "speaker" if to == "table" else to.replace("seat:", "seat ") + " ear"
        return f"[{who}] {ev.get('text', ev.get('key'))}"
    if kind in ("timer-set", "timer-cancel"):
        return None
    if kind == "error":
        return f"! refused: {ev.get('message')}"
    if kind == "undo":
        what = f": {input_text(ev['input'])}" if isinstance(ev.get("input"), Mapping) else ""
        return f"undo: line {ev.get('undone')} taken back{what}"
    if kind == "game-over":
        places = ", ".join(f"{r.get('place')}. seat {r.get('seat')}" for r in ev.get("ranking", []))
        return f"= game over ({ev.get('reason', '')}){': ' + places if places else ''}"
    if kind == "seat-bot":  # the referee's only (kikimimi.bots.referee_bots)
        kind_of = ev.get("kind")
        return (f"* seat {ev.get('seat')} is played by a bot ({kind_of}): its earphone comes to you only"
                if kind_of else f"* seat {ev.get('seat')}: the bot has stopped, a player sits there")
    if kind == "seat-bot-note":
        return f"* {ev.get('message')}"
    if kind == "reader":
        name = "field reader" if ev.get("reader") == "field" else f"hand reader {ev.get('seat')}"
        detail = f": {ev['detail']}" if ev.get("detail") else ""
        return f"* {name} {ev.get('state')}{detail}"
    fields = {k: v for k, v in ev.items() if k not in ("seq", "t", "type", "in", "private")}
    words = " ".join(f"{k}={short(v) if k == 'tag' else v}" for k, v in fields.items())
    secret = " (private)" if "private" in ev else ""
    return f"- {kind} {words}{secret}".rstrip()


def unseen(log: Iterable[Mapping[str, Any]], last_seq: int) -> list[Mapping[str, Any]]:
    """After a reconnection: the events of the welcome log not shown yet.

    A resumed game replays to the same numbering, so what is past `last_seq`
    is new; a log that ends before `last_seq` is another game, shown whole."""
    events = list(log)
    top = max((ev["seq"] for ev in events if isinstance(ev.get("seq"), int)), default=0)
    if top < last_seq:
        return events
    return [ev for ev in events if isinstance(ev.get("seq"), int) and ev["seq"] > last_seq]


def last_seq(events: Iterable[Mapping[str, Any]], before: int = 0) -> int:
    """The highest game `seq` after these events (a game's first event starts it over)."""
    for ev in events:
        seq = ev.get("seq")
        if isinstance(seq, int):
            before = seq if seq == 1 else max(before, seq)
    return before


class PublicTable:
    """What a spectator can know of the table, followed from public events: the turn, the
    pieces played to the field and the end; the game's view reads the rest from `events`."""

    def __init__(self) -> None:
        self._begin()

    def _begin(self) -> None:
        """Nothing known yet: a table before (or between) games."""
        self.turn: int | None = None
        self.field: list[str] = []
        self.events: list[Mapping[str, Any]] = []  # this game's public events, for its view
        self.over = False

    def absorb(self, events: Iterable[Mapping[str, Any]]) -> None:
        for ev in events:
            kind = ev.get("type")
            if ev.get("seq") == 1:  # a game's first event: the next game at this table began
                self._begin()
            self.events.append(ev)
            if kind == "turn":
                self.turn = ev.get("seat")
            elif kind == "play":
                self.field.append(str(ev.get("tag")))
            elif kind == "game-over":
                self.over = True

    def as_snapshot(self) -> dict[str, Any]:
        return {"turn": self.turn, "field": self.field}
