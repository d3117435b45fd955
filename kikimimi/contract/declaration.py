"""What a game *is*, said once, apart from any play of it.

A game's package exports one `Declaration` (its entry point in the
`kikimimi.games` group names it): the name, the player range, the pieces,
the options, the referee's commands, the bots, the report, the diagram, the
kit.  The runtime reads all of that before a single input exists — to check
a table config, list `sim GAME --options`, render every phrase before the
first scan, enrol a kit — and none of it changes while a game is played.
One play is a separate object (`kikimimi.contract.protocol.Play`) that the
declaration makes: `declaration.new_play(players, options)`.  This is
OpenSpiel's split of `Game` (the static description and
`new_initial_state()`) from `State`.

Every field has a default, so a declaration loads with `name` and `play`
alone; the contract every game keeps (`kikimimi check GAME`) also needs
`tags`, `options`, `commands` with hint and stop, ear bots, a `diagram`
and a `report` (docs/authoring.md says why).  A game written before this split (one
`protocol.Game` subclass carrying both) still loads: `Declaration.of_game`
reads its class attributes.
"""
from __future__ import annotations

import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kikimimi.contract.protocol import CONTRACT_COMMANDS, Command, Play, check_table_options

if TYPE_CHECKING:
    from kikimimi.contract.options import Options
    from kikimimi.contract.protocol import Game

__all__ = ["CONTRACT_COMMANDS", "Declaration", "KitHook", "OfficialSession", "ValuesHook"]

#: A table's look-alike sets: (what each player holds, what the table holds), `kikimimi.contract.kit`.
KitHook = Callable[[int, Mapping[str, Any]], tuple[Sequence[str], Sequence[str]]]
#: Every value each phrase parameter can take at such a table (`kikimimi.voice.domains`).
ValuesHook = Callable[[int, Mapping[str, Any]], Mapping[str, Sequence[Any]]]

#: Who may answer HINT (`Declaration.hint`).
HINT_ANSWERERS = ("runtime", "game")
#: Tags that are the runtime's, not a game's pieces: seat tokens and command tags.
RUNTIME_PREFIXES = ("seat:", "cmd:")


@dataclass(frozen=True)
class OfficialSession:
    """The table a game's official practice sessions are played at: a club's rules, so the
    game's to say (the Trident's: three players, competition scoring) and the evening's
    to check before anything starts."""

    #: The only player count a session seats.
    players: int
    #: Options a session table must set to exactly these values ({"scoring": "competition"}).
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class Declaration:
    """One game, declared: everything the runtime knows of it without a play."""

    #: The name in table scripts, on the command line and in the entry point.
    name: str
    #: The class of one play: called (players, options) by `new_play`.
    play: type[Play]
    #: How people call the game (the rules file's title); the name when left out.
    title: str = ""
    #: The player range the rules allow; a table outside it is refused in one line.
    min_players: int = 2
    max_players: int = 8
    #: The count the rules call official (the default of `kikimimi sim`, `serve`, the tests).
    official_players: int | None = None
    #: Every piece tag of the game, or a function of the player count giving them.  Seat
    #: tokens and the contract's command tags are the runtime's: a game leaves them out, and
    #: a game with a `kit` need not list here what its kit already names (`known_tags`).
    tags: frozenset[str] | Callable[[int], frozenset[str]] = frozenset()
    #: The tag sets the pieces belong to (`kikimimi tags enroll SET`); the name when left out.
    tag_sets: tuple[str, ...] = ()
    #: The options, declared once (`kikimimi.contract.options`): they give `check_options`, the CLI
    #: help and the one-line errors.
    options: Options | None = None
    #: A game without a schema may still name its options; None: any name passes.
    option_names: frozenset[str] | None = None
    #: Options that are a seat's secret or would let a spectator recompute one (a role
    #: preference, a skill): kept out of the public header.
    secret_options: frozenset[str] = frozenset()
    #: The referee's console commands as a table (`kikimimi.contract.commands`): one parser, one help.
    commands: Sequence[Command] = ()
    # Parts fetched from the game's package only when needed, so a table that only plays
    # loads no bots: each is "module:name", the module relative to the game's package
    # (".bots:WitchSimulation"); `kikimimi.contract.parts` puts them to use.
    #: `kikimimi sim --bot NAME`: the bot names, the default first; "ear" names the ear bots.
    bots: tuple[str, ...] = ()
    #: The event bots' table, called (seed, players, options, bot) -> `Simulation`.
    bot_table: str | None = None
    #: The ear-only bots' table (docs/ear.md), called the same way -> `kikimimi.bots.ear.EarTable`.
    #: Every game keeps them in `ear.py`, so this is the place unless a game says otherwise.
    ear_table: str | None = ".ear:ear_simulation"
    #: `kikimimi sim GAME --games N`: a `kikimimi.design.tuning.Report` class.
    report: str | None = None
    #: `kikimimi diagram GAME`: a function () -> Mermaid text, drawn from the phases that run.
    diagram: str | None = None
    #: The look-alike sets of a table (`kikimimi.contract.kit`); None: each player holds a seat token
    #: and HINT, and the table holds every piece.  A game with a kit gets exactly its kit's
    #: seat tokens and command tags: a contract command tag (or a seat token) its kit does not
    #: name is refused by the runtime in one line, in the scanning seat's earphone, and never
    #: reaches the game as a piece (`kikimimi.contract.kit.table_tags`).
    kit: KitHook | None = None
    #: Who answers HINT (`cmd:hint` on a hand reader): "runtime" (the default) speaks
    #: `kikimimi.contract.hints.hint(play, seat)` from the play's `sight` (and `own`) and never passes
    #: the tag to the game; "game" leaves it to a game whose HINT needs the input itself (the
    #: hidden-role games read the scan's time).  A play without `sight` always answers it.
    hint: str = "runtime"
    #: Phrase parameter values, so every phrase renders before it is needed; None: each
    #: parameter is rendered when first said.
    phrase_values: ValuesHook | None = None
    #: The package holding the game's phrases, sim table and tag map (`kikimimi.contract.game_files`);
    #: the play class's package when left out.
    package: str = ""
    #: Stop the game's clock while a hand reader is lost: a seat that cannot act must not
    #: run out of time (the hidden-role games, 鬼探し's raise window).
    pause_when_reader_lost: bool = False
    #: Stop it while the field reader is lost too, where the field is part of play
    #: (闇に笑う魔女's microphone).
    pause_when_field_lost: bool = False
    #: The referee may seat a bot in an empty chair at a live table (its acts journaled like
    #: any console line, its secrets to the referee only): games that can be played so.
    seat_bots: bool = False
    #: The command tags the game's players hold (NAME of `cmd:NAME` on a hand reader): its
    #: own and those of the contract's (`protocol.COMMAND_TAGS`) it uses.  Its kit gives each
    #: player these; `kikimimi tags enroll cmd` enrols every game's.
    command_tags: tuple[str, ...] = ()
    #: The referee's console view of a play's snapshot and a spectator's of the public
    #: events ("module:name" of a `kikimimi.contract.view.TableView`, loaded only by a
    #: console); None: the console's generic view (seats, hands, turn, `key: value`).
    view: str | None = None
    #: The table an official practice session is played at (`kikimimi serve --session`);
    #: None: the game has no sessions.
    session: OfficialSession | None = None
    #: Pieces whose scan on a hand reader is a public act the rules make public (a claim, a
    #: guess, a declaration): the table may name them on the speaker (`kikimimi check
    #: secrets` holds every other hand piece to its seat).
    public_scans: frozenset[str] = frozenset()
    #: Pieces laid face down on the field (a bid, a secret card put away): their field scans
    #: are secret, and `kikimimi check secrets` fails a public naming of one.
    face_down: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        if not self.name or not isinstance(self.name, str):
            raise ValueError(f"a declaration needs a name, not {self.name!r}")
        if not 1 <= self.min_players <= self.max_players:
            raise ValueError(f"{self.name}: players {self.min_players}-{self.max_players} is no range")
        if self.official_players is not None and not self.min_players <= self.official_players <= self.max_players:
            raise ValueError(f"{self.name}: official count {self.official_players} is outside "
                             f"{self.min_players}-{self.max_players}")
        # Defaults that depend on another field (frozen: set once, here).
        if not self.title:
            object.__setattr__(self, "title", self.name)
        if not self.tag_sets:
            object.__setattr__(self, "tag_sets", (self.name,))
        if not self.package:
            object.__setattr__(self, "package", _package_of(self.play))
        object.__setattr__(self, "commands", tuple(self.commands))
        object.__setattr__(self, "command_tags", tuple(self.command_tags))
        if self.hint not in HINT_ANSWERERS:
            raise ValueError(f"{self.name}: hint must be one of {', '.join(HINT_ANSWERERS)}, not {self.hint!r}")

    # -- the one play ---------------------------------------------------------------
    def new_play(self, players: int, options: Mapping[str, Any] | None = None) -> Play:
        """One play of this game at a table of `players` (options as the header gives them)."""
        return self.play(players, options)

    # -- what the runtime asks before any play ------------------------------------------
    @property
    def default_players(self) -> int:
        """The count a table, a sim or a test takes when none is given: the official one."""
        return self.official_players or self.min_players

    def check_players(self, players: int) -> None:
        """Refuse a count outside the rules' range, in the one line every caller says."""
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"{self.name} is for {self.min_players}-{self.max_players} players, not {players}")

    def known_tags(self, players: int) -> frozenset[str]:
        """Every piece tag at a table of `players`: the declared tags and the pieces of the
        kit at the default options (its seat tokens and command tags are the runtime's)."""
        tags = self.tags(players) if callable(self.tags) else self.tags
        if self.kit is None:
            return tags
        try:
            own, table = self.kit(players, {})
        except Exception:  # a kit that needs options to be listed: the declared tags alone
            return tags
        return tags | frozenset(p for p in (*own, *table) if not p.startswith(RUNTIME_PREFIXES))

    def check_options(self, players: int, options: Mapping[str, Any]) -> None:
        """Refuse bad options with a one-line `ValueError` naming the option.

        Called before a table creates anything, so a typo in a config is found at
        once: the schema (or the declared names) first, then one play is set up with
        them, which runs the play's own checks."""
        check_table_options(self.options, self.option_names, self.new_play, players, options)

    def referee_commands(self) -> list[tuple[str, str]]:
        """The referee's console commands: (syntax, one-line help).

        The console lists exactly these, so a referee is never offered a command the
        table would refuse: the game's table, else what docs/contract.md gives every game."""
        if self.commands:
            return [(c.syntax, c.help) for c in self.commands]
        return list(CONTRACT_COMMANDS)

    def own_values(self, players: int, options: Mapping[str, Any]) -> dict[str, Sequence[Any]]:
        """The game's phrase parameter values at such a table (none declared: empty)."""
        return dict(self.phrase_values(players, options) or {}) if self.phrase_values else {}

    # -- a game written before the split ---------------------------------------------------
    @classmethod
    def of_game(cls, game: type[Game]) -> Declaration:
        """The declaration an old-style `protocol.Game` subclass makes with its class
        attributes, so an outside package written before the split still plays."""
        kit = getattr(game, "kit", None)
        values = getattr(game, "phrase_values", None)
        return cls(
            name=game.name, play=game, title=str(getattr(game, "title", "") or ""),
            min_players=game.min_players, max_players=game.max_players,
            official_players=game.official_players, tags=game.known_tags, tag_sets=tuple(game.tag_sets),
            options=game.options_schema, option_names=game.option_names,
            secret_options=frozenset(getattr(game, "secret_options", ())),
            commands=tuple(game.console_commands), bots=tuple(game.bots), bot_table=game.bot_table,
            ear_table=game.ear_table, report=game.report, diagram=game.diagram_of,
            kit=kit if callable(kit) else None,
            phrase_values=values if callable(values) else None,
            pause_when_reader_lost=bool(getattr(game, "pause_when_reader_lost", False)),
            pause_when_field_lost=bool(getattr(game, "pause_when_field_lost", False)),
            seat_bots=bool(getattr(game, "seat_bots", False)),
            command_tags=tuple(getattr(game, "command_tags", ())),
            hint=str(getattr(game, "hint_answered_by", "runtime")),
            public_scans=frozenset(getattr(game, "public_scans", ())),
            face_down=frozenset(getattr(game, "face_down", ())))


def _package_of(play: type) -> str:
    """The package that defines a class (a single-module plugin: the module itself)."""
    module = sys.modules[play.__module__]
    return module.__package__ or play.__module__.rpartition(".")[0] or play.__module__
