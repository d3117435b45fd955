"""The contract every game keeps, checked over any installed game (`kikimimi check GAME`).

An author outside this repository has no `tests/`: the contract the shipped games are held
to lives here, in the package, so `kikimimi check GAME` holds a new game to exactly what
the repository's own test (tests/test_every_game.py) holds every registered game to.  Each
part plays short seeded games through the real engine and answers with failures, each one
line saying what is wrong and the fix; no part ever raises (a game that raises is a
failure named with its exception)."""
from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from kikimimi.contract import parts as declared
from kikimimi.contract.declaration import Declaration
from kikimimi.bots.ear import EAR, EarTable, Heard, game_figures
from kikimimi.table.engine import LogEvent, ScriptRun, log_line, public_view, run_script, tagmap_for
from kikimimi.contract.phrases import LANGUAGES, Phrasebook
from kikimimi.contract.protocol import REFEREE, RESERVED_EVENTS, TABLE, Game, Play, audiences_of, seat_audience, visible_to
from kikimimi.contract.registry import declaration
from kikimimi.contract.script import Header, dumps

#: What a declaration says: a play class (of the declaration's kind) carrying one of these is
#: declaring on the play what belongs in its Declaration.
DECLARED_ON_THE_PLAY = frozenset({
    "name", "min_players", "max_players", "official_players", "tag_sets", "options_schema", "option_names",
    "bots", "bot_table", "ear_table", "report", "diagram_of", "kit", "phrase_values", "secret_options",
    "pause_when_reader_lost", "pause_when_field_lost", "check_options", "referee_commands"})


@dataclass(frozen=True)
class Failure:
    """One broken promise: which part, what is wrong, and what to do about it."""

    game: str
    part: str
    problem: str
    fix: str

    def line(self) -> str:
        return f"{self.game}: {self.part}: {self.problem} (fix: {self.fix})"


Check = Callable[["Checker"], None]


class Checker:
    """One game's check: its declaration, the seeded games the parts share, the failures found."""

    def __init__(self, decl: Declaration, fair_bots: Sequence[str] = (), fair_games: int | None = None):
        self.decl = decl
        #: The bot kinds and games of the null experiment (`fairness`): by default the first
        #: kind that seats identical bots, at the check's budget (kikimimi/design/fairness.py).
        self.fair_bots = tuple(fair_bots)
        self.fair_games = fair_games
        self.part = ""
        self.failures: list[Failure] = []
        self._games: dict[tuple[int, str | None], tuple[list[dict[str, Any]], list[LogEvent]]] = {}

    def fail(self, problem: str, fix: str) -> None:
        self.failures.append(Failure(self.decl.name, self.part, _one_line(problem), _one_line(fix)))

    def seeded(self, seed: int, bot: str | None = None) -> tuple[list[dict[str, Any]], list[LogEvent]]:
        """A bot game at the default table (script with its header first, log), played once."""
        from kikimimi.design.sim import play

        key = (seed, bot)
        if key not in self._games:
            self._games[key] = play(self.decl.name, seed, self.decl.default_players, {}, bot)
        return self._games[key]

    def book(self, lang: str, catalogues: Sequence[str]) -> Phrasebook | None:
        try:
            return Phrasebook(lang, tuple(catalogues))
        except Exception as exc:
            self.fail(f"the {lang} phrases do not load: {exc}",
                      f"write phrases/{lang}.toml in the game's package (docs/authoring.md, Phrases)")
            return None


# -- the parts ----------------------------------------------------------------------------------
def check_declaration(c: Checker) -> None:
    """One declaration that makes separate plays; the static description lives only in it."""
    decl = c.decl
    if not decl.min_players <= decl.default_players <= decl.max_players:
        c.fail(f"the default table of {decl.default_players} is outside {decl.min_players}-{decl.max_players}",
               "set official_players within the range")
    tags = decl.known_tags(decl.default_players)
    if not tags:
        c.fail("the game declares no piece tags", "give Declaration(tags=...) every piece as 'SET:NAME'")
    bad = sorted(t for t in tags if not isinstance(t, str) or ":" not in t)[:3]
    if bad:
        c.fail(f"tags without a set: {bad}", "name every piece 'SET:NAME', e.g. 'highcard:card-1'")
    if not issubclass(decl.play, Game):  # an old-style Game declares on its class by design
        left = sorted(DECLARED_ON_THE_PLAY & set(dir(decl.play)))
        if left:
            c.fail(f"the play class still declares {left}", "move them into the game's Declaration")
    one, two = decl.new_play(decl.default_players, {}), decl.new_play(decl.default_players, {})
    if not isinstance(one, Play) or one is two or one.over:
        c.fail("new_play does not make a new Play that is not over",
               "Declaration(play=...) must be a Play subclass whose __init__ starts a fresh game")
        return
    one.start(0.0)
    fresh = decl.new_play(decl.default_players, {})
    if two.snapshot() != fresh.snapshot():
        c.fail("starting one play changed another", "keep play state on the instance, never on the class or module")
    for p in (one, two, fresh):
        p.close()


def check_phrases(c: Checker) -> None:
    """Every language holds the same keys, and every line said in a seeded game exists in each."""
    own: dict[str, set[str]] = {}
    books: dict[str, Phrasebook] = {}
    for lang in LANGUAGES:
        mine, book = c.book(lang, (c.decl.name,)), c.book(lang, ("core", c.decl.name))
        if mine is None or book is None:
            continue
        own[lang], books[lang] = set(mine.phrases), book
        if not mine.phrases:
            c.fail(f"phrases/{lang}.toml holds no phrase", f"write every line the game says in {lang}")
    first = LANGUAGES[-1]  # English: what an author writes first
    for lang in own:
        if lang != first and first in own and own[lang] != own[first]:
            missing, extra = sorted(own[first] - own[lang]), sorted(own[lang] - own[first])
            c.fail(f"phrases/{lang}.toml lacks {missing[:5]} and has {extra[:5]} beyond {first}.toml",
                   "give every language exactly the same keys")
    bots = [None, EAR] if EAR in c.decl.bots else [None]
    said = {ev["key"] for bot in bots for ev in c.seeded(5, bot)[1] if ev["type"] == "say"}
    if not said:
        c.fail("a seeded game says nothing", "say() what the table hears (docs/authoring.md)")
    for lang, book in books.items():
        gone = sorted(k for k in said if not book.has(k))
        if gone:
            c.fail(f"said but not in phrases/{lang}.toml: {gone[:5]}", f"add those keys to phrases/{lang}.toml")


def check_secrets(c: Checker) -> None:
    """No seat hears or sees another seat's secret; the public view holds none."""
    players = c.decl.default_players
    seats = {seat_audience(s) for s in range(1, players + 1)}
    for ev in c.seeded(3)[1]:
        names = {ev["to"]} if ev["type"] == "say" else set(audiences_of(ev.get("private", TABLE)))
        if not names <= seats | {TABLE, REFEREE}:
            c.fail(f"event {ev['seq']} ({ev['type']}) is for {sorted(names)}, no audience of this table",
                   "address seat:N (1..players), 'table' or 'referee'")
            return
        for s in range(1, players + 1):
            if visible_to(ev, s) and TABLE not in names and seat_audience(s) not in names:
                c.fail(f"seat {s} may see event {ev['seq']} ({ev['type']}) meant for {sorted(names)}",
                       "mark a secret event private='seat:N' (or a list of them)")
                return
    script, log = c.seeded(3)
    pieces = c.decl.known_tags(players)
    look_alikes = _look_alikes(c.decl, players)
    by_line: dict[int, list[LogEvent]] = {}
    for ev in log:
        if isinstance(ev.get("in"), int):
            by_line.setdefault(ev["in"], []).append(ev)
    for n, events in sorted(by_line.items()):
        line = script[n - 1] if 1 < n <= len(script) else {}
        tag, reader = line.get("tag"), line.get("reader")
        if tag not in pieces or line.get("removed"):
            continue
        problem = _named_in_public(c.decl, line, tag, reader, events, look_alikes)
        if problem:
            c.fail(*problem)
            return
    public = public_view(c.seeded(3)[1])
    leaked = [ev for ev in public if "private" in ev or (ev["type"] == "say" and ev["to"] != TABLE)]
    if leaked:
        c.fail(f"the public view holds {leaked[0]['type']} {leaked[0].get('key', '')}",
               "a seat's fact goes only in a say to that seat or an event with private=")


def _look_alikes(decl: Declaration, players: int) -> frozenset[str]:
    """The kit's own set: look-alike pieces every player holds a copy of (seat tokens, command
    tags, labelled tokens).  Scanning one tells the seat's choice, not what it holds."""
    if decl.kit is None:
        return frozenset()
    try:
        own, _table = decl.kit(players, {})
    except Exception:  # a kit that needs options: no look-alikes known
        return frozenset()
    return frozenset(own)


def _named_in_public(decl: Declaration, line: Mapping[str, Any], tag: str, reader: Any,
                     events: Sequence[LogEvent], look_alikes: frozenset[str]) -> tuple[str, str] | None:
    """Why a scan's piece named in a public event of its own line is a leak (None: it is not).

    A hand piece (dealt, drawn: not a look-alike) is its seat's secret unless the game
    declares its scan a public act (`Declaration.public_scans`: a claim, a guess).  A look-alike
    is the seat's choice, the game's to make public, unless the game tells it to that seat in
    private in the same breath (then the act is secret and the public naming leaks it).  A
    piece laid face down on the field (`Declaration.face_down`) is never named in public."""
    def heard_by(ev: LogEvent) -> tuple[str, ...]:
        return (ev["to"],) if ev["type"] == "say" else audiences_of(ev.get("private", TABLE))

    def names(ev: LogEvent) -> bool:
        return tag in _strings({k: v for k, v in ev.items() if k != "text"})

    public = next((ev for ev in events if TABLE in heard_by(ev) and names(ev)), None)
    if public is None:
        return None
    what = f"{public['type']} {public.get('key', '')}".rstrip()
    if reader == "field":
        if tag in decl.face_down:
            return (f"the field scan of {tag}, laid face down, is named in a public {what}",
                    "a face-down piece is named only to its seat or the referee (Declaration.face_down)")
        return None
    if reader != "hand" or tag in decl.public_scans:
        return None
    seat = line.get("seat")
    mine = seat_audience(seat) if isinstance(seat, int) else ""
    if tag in look_alikes:
        told = any(mine in heard_by(ev) and TABLE not in heard_by(ev) and names(ev) for ev in events)
        if not told:
            return None
        return (f"seat {seat}'s secret choice {tag} (told to it in private) is named in a public {what}",
                "keep a secret act to its seat; a choice the rules make public is said only in public")
    return (f"seat {seat}'s hand scan of {tag} is named in a public {what}",
            "tell a hand's piece only to its seat: say(seat_audience(seat), ...); if the rules make this scan a "
            "public act (a claim, a guess), declare it: Declaration(public_scans=...)")


def check_replay(c: Checker) -> None:
    """The recorded script (as `sim --record` writes it) replays to the same log, byte for byte."""
    script, log = c.seeded(4)
    replayed = run_script([dumps(line) for line in script])
    if [log_line(e) for e in replayed] != [log_line(e) for e in log]:
        at = next((i for i, (a, b) in enumerate(zip(log, replayed)) if log_line(a) != log_line(b)),
                  min(len(log), len(replayed)))
        c.fail(f"the replay differs from the game at event {at + 1}",
               "decide only from inputs and options: no clock, random without the seed, or set order")
    if not any(ev["type"] == "game-over" for ev in log):
        c.fail("a bot game (seed 4) never ends", "the bots must finish the game: return a game-over event")
    internal = [ev for ev in log if ev["type"] == "error" and str(ev.get("message", "")).startswith("internal error")]
    reserved = [ev for ev in internal if "is the runtime's" in str(ev.get("message", ""))]
    if reserved:
        c.fail(str(reserved[0]["message"]).removeprefix("internal error: "),
               f"rename the game's own event, or make it with its helper; reserved: {', '.join(RESERVED_EVENTS)}")
    elif internal:
        c.fail(f"the game raised: {internal[0]['message']}", "a refusal is an error() event, never an exception")


def _accepted(script: Sequence[Mapping[str, Any]], log: Sequence[LogEvent]) -> list[int]:
    """Script indexes of the player inputs the table accepted (an undo's possible targets)."""
    refused = {ev["in"] for ev in log if ev["type"] == "error"}
    return [i for i, line in enumerate(script) if i and ("reader" in line) and (i + 1) not in refused]


def _run(header: Header, lines: Sequence[Mapping[str, Any]]) -> ScriptRun:
    run = ScriptRun(header, tagmap=tagmap_for(header))
    for number, item in enumerate(lines, start=2):
        run.feed(number, dict(item))
    return run


def check_undo(c: Checker) -> None:
    """An undo takes the last accepted input back: the play is as if it never came."""
    script, log = c.seeded(4)
    header = Header.parse(script[0])
    accepted = _accepted(script, log)
    if len(accepted) < 2:
        return
    k = accepted[len(accepted) // 2]
    before, undone = _run(header, script[1:k]), _run(header, [*script[1:k + 1], {"t": script[k]["t"], "console": "undo"}])
    try:
        took = [ev for ev in undone.log if ev.get("in") == k + 2]
        if not any(ev["type"] == "undo" for ev in took):
            if not any(ev["type"] == "error" for ev in took):  # refused in one line is fine: a timer was heard
                c.fail("an undo after an accepted input logs no undo", "let the runtime rebuild the play")
            return
        if before.table.game.snapshot() != undone.table.game.snapshot():
            c.fail(f"after undoing line {k + 1} the play differs from the play before it",
                   "keep all state in the play, built only from its inputs (an undo replays them)")
    finally:
        before.close()
        undone.close()


def check_resume(c: Checker) -> None:
    """A resumed table replays its journal: the play is a function of its inputs, and where it
    stands is said on the speaker in public words."""
    script, log = c.seeded(4)
    header = Header.parse(script[0])
    half = max(1, len(script) // 2)
    one, two = _run(header, script[1:half]), _run(header, script[1:half])
    try:
        if [log_line(e) for e in one.log] != [log_line(e) for e in two.log] \
                or one.table.game.snapshot() != two.table.game.snapshot():
            c.fail("two plays fed the same journal differ", "decide only from inputs, options and the seed")
        said = two.table.game.situation()
        for ev in said:
            if ev.type != "say" or ev.fields.get("to") != TABLE:
                c.fail(f"situation() returns a {ev.type} to {ev.fields.get('to', ev.fields.get('private'))}",
                       "situation() says public lines on the speaker only (kikimimi.contract.hints.situation)")
                return
        for lang in LANGUAGES:
            book = c.book(lang, ("core", c.decl.name))
            gone = sorted({str(ev.fields.get("key")) for ev in said} - set(book.phrases)) if book else []
            if gone:
                c.fail(f"situation() says {gone[:3]}, not in phrases/{lang}.toml", "add those keys")
    finally:
        one.close()
        two.close()


def check_ear(c: Checker) -> None:
    """Ear bots (docs/ear.md) finish a game hearing only the speaker and their own earphone; and
    `kikimimi sim GAME` plays with the default bots."""
    decl = c.decl
    if EAR not in decl.bots or decl.ear_table is None:
        c.fail("the game declares no ear bots", "add bots=(..., 'ear') and an ear.py with ear_simulation (docs/ear.md)")
        return
    if decl.bot_table is None:
        c.fail(f"`kikimimi sim {decl.name}` (no --bot) has no simulator",
               "set bot_table; a game with only ear bots points it at its ear table, as High card does")
    with _spying_on_ears(decl.name) as heard:
        script, log = c.seeded(2, EAR)
    figures = game_figures(script, log)
    if not figures["finished"] or figures["internal"]:
        c.fail(f"the ear bots did not finish a game: {figures}", "ear bots must play to a game-over (docs/ear.md)")
    wrong = [(s, h) for s, h in heard if h.to not in ((TABLE, seat_audience(s)) if s else (TABLE,))]
    if not heard:
        c.fail("the ear bots heard nothing", "ear bots hear the table through EarTable (docs/ear.md)")
    elif wrong:
        c.fail(f"seat {wrong[0][0]}'s ear bot heard {wrong[0][1].to}'s line", "an ear hears its own earphone only")


@contextlib.contextmanager
def _spying_on_ears(game: str) -> Iterator[list[tuple[int | None, Heard]]]:
    """What each ear bot of `game` hears while inside (the runtime's one way to its bots)."""
    heard: list[tuple[int | None, Heard]] = []
    original = declared.simulation

    def simulation(decl: Declaration, seed: int, players: int, options: Mapping[str, Any],
                   bot: str | None = None) -> Any:
        table = original(decl, seed, players, options, bot)
        if decl.name == game and bot == EAR and isinstance(table, EarTable):
            for b in table.bots:
                def hear(h: Heard, _seat: int | None = b.seat, _hear: Callable[[Heard], None] = b.hear) -> None:
                    heard.append((_seat, h))
                    _hear(h)
                setattr(b, "hear", hear)  # this table's bot only, for this check
        return table

    declared.simulation = simulation
    try:
        yield heard
    finally:
        declared.simulation = original


def check_options(c: Checker) -> None:
    """The options are declared once (a schema) and each bad value is refused in one line."""
    decl, players = c.decl, c.decl.default_players
    if decl.options is None:
        c.fail("the game declares no options", "give Declaration(options=Options(...)); Options() if it has none")
        return
    decl.check_options(players, decl.options.defaults)
    for option in decl.options.options:
        if option.kind == "any":
            continue
        try:
            decl.check_options(players, {option.name: "no such value!"})
        except ValueError as exc:
            if not str(exc).startswith(option.name) or "\n" in str(exc):
                c.fail(f"option {option.name}'s refusal is {str(exc)!r}", "one line, starting with the option's name")
        else:
            c.fail(f"option {option.name} takes 'no such value!'", "declare its kind or choices in the schema")
    try:
        decl.check_options(players, {"colour": 1})
        c.fail("an unknown option 'colour' is taken", "declare the options in a schema")
    except ValueError as exc:
        if "unknown option 'colour'" not in str(exc) or "\n" in str(exc):
            c.fail(f"an unknown option is refused as {str(exc)!r}", "let the schema refuse it")


def check_diagram(c: Checker) -> None:
    """`kikimimi diagram GAME` draws the phases as Mermaid."""
    if c.decl.diagram is None:
        c.fail("the game draws no diagram", "give Declaration(diagram='.module:function') returning Mermaid text")
        return
    text = declared.diagram(c.decl)
    if "stateDiagram-v2" not in text.split("\n")[:4] or "[*]" not in text:
        c.fail("the diagram is not a Mermaid stateDiagram-v2 with a start [*]", "return 'stateDiagram-v2\\n  [*] --> ...'")


def check_report(c: Checker) -> None:
    """`kikimimi sim GAME --games N` prints the designer's report."""
    from kikimimi.design.tuning import tune

    if c.decl.report is None:
        c.fail("the game has no report", "give Declaration(report='.tuning:YourReport'), a kikimimi.design.tuning.Report")
        return
    report = tune(c.decl, 2, 1, c.decl.default_players, {}, progress=False)
    if not report.strip() or "Traceback" in report:
        c.fail("the report is empty or holds a traceback", "the Report's lines must say what the games showed")


def check_console(c: Checker) -> None:
    """The referee's commands are a table holding hint and stop, each refusal one private line."""
    decl = c.decl
    table = decl.commands
    names = {cmd.name for cmd in table}
    if not {"hint", "stop"} <= names:
        c.fail(f"the console commands lack {sorted({'hint', 'stop'} - names)}",
               "commands=(hint_command(), stop_command('console_stop'), ...) (kikimimi.contract.commands)")
        return
    for cmd in table:
        if isinstance(cmd.run, str) and not callable(getattr(decl.play, cmd.run, None)):
            c.fail(f"command {cmd.name!r} runs {cmd.run!r}, which the play lacks", f"define {cmd.run}(self, t, ...)")
    players = decl.default_players
    header = {"game": decl.name, "players": players, "options": {}, "lang": "en"}
    lines = [header, {"t": 1.0, "console": "fly away"}, {"t": 2.0, "console": f"hint {players + 1}"},
             {"t": 3.0, "console": "hint 1"}, {"t": 4.0, "console": "stop"}]
    log = run_script(lines)
    errors = [ev for ev in log if ev["type"] == "error"]
    internal = [e for e in errors if str(e["message"]).startswith("internal error")]
    if internal:
        c.fail(f"{lines[internal[0]['in'] - 1].get('console')!r} raised: {internal[0]['message']}",
               "answer every command with events; hint needs sight(seat) (kikimimi.contract.hints)")
        return
    if [e["in"] for e in errors[:2]] != [2, 3]:
        c.fail("an unknown command or a seat out of range was not refused", "dispatch() by the command table")
    if any("\n" in e["message"] or e.get("private") != REFEREE for e in errors):
        c.fail("a console refusal is not one line for the referee", "refuse with error(...) in one line")
    if not any(ev["type"] == "say" and ev["to"] == seat_audience(1) and ev["in"] == 4 for ev in log):
        c.fail("'hint 1' says nothing in seat 1's earphone", "hint_command(), answered by sight(seat) (kikimimi.contract.hints)")
    if not any(ev["type"] == "game-over" and ev["in"] == 5 for ev in log) and log[-1]["type"] != "game-over":
        c.fail("'stop' does not end the game", "stop_command(run) returns a game-over with reason 'stopped'")


def check_fairness(c: Checker) -> None:
    """The null experiment (kikimimi/design/fairness.py): identical bots in every chair, who begins
    rotated, and no chair's edge beyond noise; a turn-order edge is the rules' and not failed."""
    from kikimimi.design.fairness import ALL, CHECK_GAMES, experiment, identical_kinds

    kinds = identical_kinds(c.decl)
    asked = list(kinds) if ALL in c.fair_bots else list(c.fair_bots) or kinds[:1]
    unknown = [k for k in asked if k not in kinds]
    if unknown:
        c.fail(f"bot {unknown[0]!r} does not seat identical bots (have: {', '.join(kinds) or 'none'})",
               "name a kind the game declares that is not a duel's contender nor seated by chair")
        return
    if not asked:
        c.fail("no bot kind seats identical bots in every chair", "declare bots and a bot_table (docs/authoring.md)")
    for kind in asked:
        verdict = experiment(c.decl.name, kind, c.fair_games or CHECK_GAMES)
        if verdict.biased:
            c.fail(verdict.line(), "break ties by a seeded draw, never toward the lowest seat; ask seats in a "
                                   "seeded fresh order (kikimimi.bots.ear.EarTable does); docs/report.md, The null experiment")


#: The failure's part when the game cannot even be loaded: no part was checked.
LOAD = "load"
#: Every part, in the order `kikimimi check` runs them.
PARTS: dict[str, Check] = {
    "declaration": check_declaration, "phrases": check_phrases, "secrets": check_secrets, "replay": check_replay,
    "undo": check_undo, "resume": check_resume, "ear": check_ear, "options": check_options,
    "diagram": check_diagram, "report": check_report, "console": check_console, "fairness": check_fairness,
}


def check(game: str | Declaration, parts: Sequence[str] | None = None, fair_bots: Sequence[str] = (),
          fair_games: int | None = None) -> list[Failure]:
    """Every failure of `game` (a name found by entry point, or a declaration) against the
    contract, or the named parts of it; empty when it keeps it all."""
    name = game.name if isinstance(game, Declaration) else game
    try:
        decl = game if isinstance(game, Declaration) else declaration(game)
    except Exception as exc:
        return [Failure(name, LOAD, _one_line(str(exc) or type(exc).__name__),
                        "install the game's package; its entry point names a Declaration")]
    checker = Checker(decl, fair_bots, fair_games)
    for part in parts or PARTS:
        if part not in PARTS:
            raise ValueError(f"no part {part!r} (have: {', '.join(PARTS)})")
        checker.part = part
        try:  # the engine prints a game's traceback; the check says it in its one line instead
            with contextlib.redirect_stderr(io.StringIO()):
                PARTS[part](checker)
        except NotImplementedError as exc:  # the runtime's word for a part the game lacks (no bots)
            checker.fail(str(exc), "set bot_table (a game with only ear bots: its ear table, docs/ear.md)")
        except Exception as exc:
            checker.fail(f"raised {type(exc).__name__}: {exc}",
                         "a game answers every input and hook with events, never an exception")
    return checker.failures


def _strings(value: Any) -> set[str]:
    """Every string inside an event's fields (nested lists and tables included)."""
    if isinstance(value, str):
        return {value}
    items = value.values() if isinstance(value, Mapping) else value if isinstance(value, (list, tuple)) else ()
    return set().union(*(_strings(v) for v in items)) if items else set()


def _one_line(text: str) -> str:
    return " ".join(str(text).split())[:300]


def as_json(failures: Sequence[Failure]) -> str:
    return json.dumps([f.__dict__ for f in failures], ensure_ascii=False)


__all__ = ["DECLARED_ON_THE_PLAY", "LOAD", "PARTS", "Failure", "as_json", "check"]
