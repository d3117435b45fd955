"""The console's command line: the table script's `console` grammar, plus the
few words the console itself handles.

Anything the game understands goes through untouched as `{"console": TEXT}`
(`declare trident 2`, `suit heart`, `penalty 1`, `deal`, `stop`, ...),
so the console never needs to know a game's commands and a command typed
here is exactly the line a table script would hold.  Only these are the
console's own:

    undo              take back the latest accepted input (shown, then confirmed once)
    lost 2 | lost f   a reader is lost  -> {"reader": "hand", "seat": 2, "lost": true}
    back 2 | back f   it is back
    help              the list of commands
    quit              leave the console (the table plays on)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kikimimi.bots.referee_bots import SYNTAX as SEAT_BOTS
from kikimimi.table.stand_in import SYNTAX as STAND_IN

#: The table's own commands, whatever the game (the daemon and the console handle them).
TABLE_COMMANDS: list[tuple[str, str]] = [
    *STAND_IN,
    *SEAT_BOTS,
    ("new", "start the next game at this table (between games: or every player scans AGREE)"),
    ("game NAME", "between games, play NAME next, at once (a table file listing several games; "
                  "its game card on the field reader chooses it too)"),
    ("game NAME key=value ...", "the same with other options: players=N and the game's own "
                                "(kikimimi sim GAME --options), e.g. game witch players=6 night_seconds=90"),
    ("voice speaker|seat-N rate WPM", "that output's speech rate, 40-600 words per minute"),
    ("voice speaker|seat-N volume PCT", "that output's volume, 0-400 percent"),
    ("lost SEAT | lost f", "mark a hand or the field reader lost (back SEAT | back f: found again)"),
    ("undo", "take back the latest input the game accepted (asks first)"),
    ("pause | resume", "stop the game's clock (a break, a fault at the table) and start it again"),
    ("help, quit", "this list; leave the console (the table plays on)"),
]


def game_commands(game: str | None) -> list[tuple[str, str]]:
    """The referee commands of the game being served (the game describes them itself)."""
    from kikimimi.contract.declaration import CONTRACT_COMMANDS
    from kikimimi.contract.registry import UnknownGame, declaration

    try:
        return declaration(str(game)).referee_commands()
    except UnknownGame:
        return list(CONTRACT_COMMANDS)


def help_text(game: str | None) -> str:
    """The command list for this table: the game's commands, then the table's own."""
    rows = game_commands(game) + TABLE_COMMANDS
    width = max(len(syntax) for syntax, _ in rows) + 2
    lines = [f"Commands for {game or 'this table'} (sent to the table as script lines, logged and replayable):"]
    lines += [f"  {syntax:<{width}}{what}" for syntax, what in rows]
    return "\n".join(lines)


class CommandError(ValueError):
    """A command line the console cannot send (one line)."""


@dataclass(frozen=True)
class Command:
    kind: str  # "submit", "undo", "help" or "quit"
    line: dict[str, Any] | None = None


def parse_command(text: str, players: int) -> Command | None:
    """One typed line -> what to do; None for a blank line."""
    text = " ".join(text.split())
    if not text:
        return None
    words = text.split(" ")
    head = words[0].lower()
    if head in ("undo", "help", "quit") and len(words) == 1:
        return Command(head)
    if head in ("undo", "help", "quit"):
        raise CommandError(f"'{head}' takes nothing after it")
    if head in ("lost", "back"):
        if len(words) != 2:
            raise CommandError(f"'{head}' takes one reader: a seat number (1-{players}) or f for the field")
        return Command("submit", {**_reader(words[1], players), head: True})
    return Command("submit", {"console": text})


def _reader(word: str, players: int) -> dict[str, Any]:
    if word.lower() in ("f", "field"):
        return {"reader": "field"}
    if word.isdigit() and 1 <= int(word) <= players:
        return {"reader": "hand", "seat": int(word)}
    raise CommandError(f"{word!r} is not a reader: a seat number (1-{players}) or f for the field")
