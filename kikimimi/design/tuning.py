"""The designer's table: `kikimimi sim GAME --games N`, one loop for every game.

Bot games run through the real engine (`kikimimi.design.sim.play`), so the figures
are those of the code that runs at a table.  A game says only what to play
and what to count, in a `Report` named by the declaration's `report`:

- `trials`: the games to play (by default seeds seed, seed+1, ... at the
  asked count with the asked options and bot); a game that spreads its
  games over counts, decks or bot kinds yields its own;
- `figures`: one game's figures, read from its script and event log;
- `text`: the report over every game's figures;
- `plot` (optional): a picture written to a file, its one-line caption returned;
- `measures` (optional): the numbers that compare ways of playing (below).

The loop, the progress bar and the plot's place in the text are here, and so
is the comparison of ways of playing (`--versus A,B`: bot kinds; `--variant
KEY=V1,V2`: rule variants; every combination is an "arm").  Each arm plays the
report's own trials for its bot and options, so the same seeds; its own text
is printed, then each `measures` figure of every arm with its 95 % interval
and its difference from the first arm, paired by seed (`kikimimi/design/versus.py`).
By default `measures` reads the game-over ranking (docs/contract.md): a seat's win,
or a team's in a hidden-role game, or, in a duel (a trial labelled with the
bot it plays, `kikimimi/design/duel.py`), the dueller's win and place; and the game's
length in table minutes (`kikimimi/design/report/minutes.py`: its timers, its talk and
a person's time per act; script lines would count every bribe tap).  A game adds its own by overriding `measures`.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
import functools
import itertools
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kikimimi.design import versus
from kikimimi.contract.parts import check_bot, part
from kikimimi.contract.declaration import Declaration
from kikimimi.contract.registry import declaration
from kikimimi.design.report.facts import moves_digest
from kikimimi.design.report.minutes import table_seconds
from kikimimi.design.report.run import run_all
from kikimimi.design.sim import play

#: A game's script lines and event log, as `kikimimi.design.sim.play` returns them.
Script = Sequence[Mapping[str, Any]]
Log = Sequence[Mapping[str, Any]]


@dataclass(frozen=True)
class Trial:
    """One bot game to play; `label` is what the report groups it under, if anything."""

    seed: int
    players: int
    options: Mapping[str, Any] = field(default_factory=dict)
    bot: str | None = None
    label: Any = None


@dataclass(frozen=True)
class Ask:
    """What the designer asked for on the command line."""

    games: int
    seed: int
    players: int
    options: Mapping[str, Any]
    bot: str | None


#: One played trial and its figures.
Row = tuple[Trial, Any]

#: The label of a duel's contender trials (`kikimimi/design/duel.py`); the baseline's label is its bot.
CONTENDER = "contender"


def focal_seat(seed: int, players: int) -> int:
    """The seat a duel's contender takes in a seeded game (rotated, so no seat's edge is skill)."""
    return seed % players + 1


def in_duel(trial: Trial) -> bool:
    """A duel's trial (`kikimimi/design/duel.py`): the contender's, or the baseline's (labelled
    with its own bot); any other label is the report's own grouping (a player count, a mix)."""
    return trial.label == CONTENDER or (trial.label is not None and trial.label == trial.bot)


def paired_trials(ask: Ask, contender: str, baseline: str) -> list[Trial]:
    """Each seed twice: with the contender (labelled CONTENDER), then with the baseline bot."""
    return [Trial(ask.seed + i, ask.players, dict(ask.options), bot, label)
            for i in range(ask.games) for bot, label in ((contender, CONTENDER), (baseline, baseline))]


def each_kind(ask: Ask, kinds: Sequence[str | None], counts: Sequence[int] | None = None,
              options: Callable[[int], Mapping[str, Any]] | None = None) -> Iterator[Trial]:
    """Every seed played by each bot kind in turn (the same deal, labelled by its kind), at each
    player count (the asked one unless given); `options` gives a count's options (the asked ones)."""
    for players in counts or (ask.players,):
        opts = dict(ask.options) if options is None else dict(options(players))
        for i in range(ask.games):
            for kind in kinds:
                yield Trial(ask.seed + i, players, opts, kind, label=kind)


def outcome_measures(trial: Trial, script: Script, log: Log) -> dict[str, float]:
    """The comparison's default numbers, read from the game-over ranking (docs/contract.md)."""
    over = next((e for e in reversed(log) if e.get("type") == "game-over"), None)
    out: dict[str, float] = {}
    ranking = over.get("ranking", []) if over else []
    if in_duel(trial):
        who = trial.bot if trial.label == CONTENDER else trial.label
        seat = focal_seat(trial.seed, trial.players)
        place = next((int(e["place"]) for e in ranking if e.get("seat") == seat), trial.players)
        out[f"{who} wins"] = float(place == 1)
        out[f"{who} place"] = float(place)
    elif over is not None and "winner" in over:
        # the teams seated in this game (a winner such as "void" that no seat plays counts as no team's win)
        teams = sorted({str(e["team"]) for e in ranking if "team" in e})
        out.update((f"{team} win", float(over["winner"] == team)) for team in teams)
    else:
        out.update((f"seat {e['seat']} wins", float(e["place"] == 1)) for e in sorted(ranking, key=lambda e: e["seat"]))
        first = trial.options.get("first")
        if isinstance(first, int) and not isinstance(first, bool) and ranking:  # the turn order, apart from the chairs
            won = {(int(e["seat"]) - first) % trial.players + 1 for e in ranking if e["place"] == 1}
            out.update((f"place {k} wins", float(k in won)) for k in range(1, trial.players + 1))
    out["game length (table minutes)"] = round(table_seconds(script, log) / 60.0, 4)  # not script lines (taps)
    return out


class Report(ABC):
    """A game's designer's report (see the module's docstring)."""

    #: Contender bot kinds and the baseline kind each duels (`kikimimi/design/duel.py`): asked for
    #: with `--bot CONTENDER`, every seed is played twice, so a game names the pair, not the loop.
    duels: Mapping[str, str] = {}
    #: Bot kinds that seat different bots by chair (イントリーゲ's `mixed`: greedy and random in
    #: turn), so the null experiment (kikimimi/design/fairness.py) leaves them out: a chair's edge is theirs.
    by_chair: frozenset[str] = frozenset()
    #: The game's bot kinds from the weakest to the strongest (`--versus ladder`): the same rules
    #: under each, so a designer sees which figures hang on skill (the page's skill section).
    ladder: tuple[str, ...] = ()
    #: Options the report reads itself (not the game's: 闇に笑う魔女's `counts` and `kinds`).
    own_options: frozenset[str] = frozenset()
    #: Every rule firing the page lists, at 0 when it never fired (kikimimi/design/report/facts.py
    #: counts what was sent: a rule no game sent would be left out without this).
    rules: tuple[str, ...] = ()
    #: The say keys that tell a job's ability at work (マフィア42's saves, checks, threats are
    #: only spoken): `{key: the firing's name}`, counted once per input (kikimimi/design/report/facts.py).
    abilities: Mapping[str, str] = {}

    def trials(self, ask: Ask) -> Iterable[Trial]:
        if ask.bot is not None and ask.bot in self.duels:
            return paired_trials(ask, ask.bot, self.duels[ask.bot])
        return (Trial(ask.seed + i, ask.players, dict(ask.options), ask.bot) for i in range(ask.games))

    @abstractmethod
    def figures(self, trial: Trial, script: Script, log: Log) -> Any:
        """One game's figures."""

    @abstractmethod
    def text(self, rows: Sequence[Row], ask: Ask) -> str:
        """The report over every game played."""

    def plot(self, rows: Sequence[Row], path: str) -> str:
        return "plot skipped: this report is a table"

    def deal(self, seed: int, players: int, options: Mapping[str, Any]) -> dict[str, Any]:
        """The options one game of `kikimimi report` plays with: a game whose seats
        differ by rule, not chance (the Trident's first player), rotates that
        seat with the seed, so a seat's edge is the rules' and not the seating's."""
        return dict(options)

    def margin_field(self, options: Mapping[str, Any]) -> str | None:
        """The ranking field the game ranks by under these options (the report's margin and its
        unit); None: the first score the ranking holds (kikimimi/design/report/facts.py)."""
        return None

    #: Whether the rules let seats share the first place (鬼探し's points, イントリーゲ's cash): the
    #: comparison then has a tie rate, `shared first place` (1 when more than one seat won).
    shares_first = False

    def measures(self, trial: Trial, script: Script, log: Log, figures: Any) -> Mapping[str, float]:
        """One game's numbers for comparing ways of playing (a win is 1 or 0)."""
        out = outcome_measures(trial, script, log)
        if self.shares_first and not in_duel(trial):
            over = next((e for e in reversed(log) if e.get("type") == "game-over"), None)
            firsts = [e for e in (over.get("ranking", []) if over else []) if e.get("place") == 1]
            out = {**out, "shared first place": float(len(firsts) > 1)}
        return out


@dataclass(frozen=True)
class Arm:
    """One way of playing: a bot kind and the options, and the name the report gives it."""

    name: str
    bot: str | None
    options: Mapping[str, Any]


@dataclass(frozen=True)
class Named:
    """A varied option's value with the name its arms are called by (`--variant
    jobs=doctor:[...],plain:[...]` gives the arms `jobs=doctor` and `jobs=plain`, not the
    deck's hundred characters); the game is given the value."""

    name: str
    value: Any


def plain(value: Any) -> Any:
    """A varied value as the game is given it (a Named one's value)."""
    return value.value if isinstance(value, Named) else value


def plain_variants(variants: Mapping[str, Sequence[Any]]) -> dict[str, list[Any]]:
    return {k: [plain(v) for v in vs] for k, vs in variants.items()}


#: The longest value an arm's name spells out (a longer one is numbered: `jobs=#2`).
LONG_VALUE = 24


def arms(bots: Sequence[str | None], variants: Mapping[str, Sequence[Any]], options: Mapping[str, Any]) -> list[Arm]:
    """Every combination of a bot kind and one value of each varied option, the first
    bot and the first values first (the reference the others are compared with)."""
    keys = list(variants)
    out = []

    def label(key: str, value: Any) -> str:
        """A value's name in an arm's: its own (Named), its text, or, past LONG_VALUE characters
        (a deck), its number among the values given (`jobs=#2`; the page's intro spells it out)."""
        if isinstance(value, Named):
            return value.name
        text = str(value)
        return text if len(text) <= LONG_VALUE else f"#{variants[key].index(value) + 1}"

    for bot, values in itertools.product(bots, itertools.product(*(variants[k] for k in keys))):
        parts = [str(bot or "default")] if len(bots) > 1 else []
        parts += [f"{k}={label(k, v)}" for k, v in zip(keys, values) if len(variants[k]) > 1]
        out.append(Arm(" ".join(parts) or str(bot or "default"), bot,
                       {**options, **{k: plain(v) for k, v in zip(keys, values)}}))
    names = [a.name for a in out]
    if len(set(names)) < len(names):
        raise ValueError("two arms have the same name: give each varied value its own name (NAME:VALUE)")
    return out


def _units(rows: Sequence[tuple[Trial, Mapping[str, float]]]) -> dict[Any, dict[str, float]]:
    """One arm's measures by game: a seed's duel (both of its plays) is one unit, with the
    dueller's edge over the bot it replaces (`X − Y wins`, `X − Y place`) added."""
    units: dict[Any, dict[str, float]] = {}
    seen: dict[tuple[int, int, str], int] = {}
    duellers: dict[str, None] = {}
    for trial, figures in rows:
        who = str(trial.label)
        n = seen[(trial.seed, trial.players, who)] = seen.get((trial.seed, trial.players, who), -1) + 1
        if in_duel(trial):  # a seed's two plays are one unit
            duellers[str(trial.bot) if trial.label == CONTENDER else who] = None
            key: tuple[Any, ...] = (trial.seed, trial.players, n)
        else:  # a report's own groups (cells) of one seed are units of their own
            key = (trial.seed, trial.players, who, n)
        units.setdefault(key, {}).update(figures)
    if len(duellers) == 2:
        a, b = duellers
        for figures in units.values():
            for what in ("wins", "place"):
                if f"{a} {what}" in figures and f"{b} {what}" in figures:
                    figures[f"{a} − {b} {what}"] = figures[f"{a} {what}"] - figures[f"{b} {what}"]
    return units


def honoured(game: str, report: Report, ask: Ask, trials: Sequence[Trial], compared: bool) -> None:
    """Every asked option reaches every game as asked, or the run is refused in one line:
    a report that spreads its games over counts, decks or bot kinds must not drop, or
    quietly replace, what the designer gave (`--option`, `--variant`).  Its own options
    (`Report.own_options`: witch's `counts`, `kinds`) are its to read.  When ways of playing
    are compared, each arm plays its own bot kind (a duel's pair apart)."""
    for key, value in ask.options.items():
        if key in report.own_options:
            continue
        wrong = next((t for t in trials if key not in t.options or t.options[key] != value), None)
        if wrong is not None:
            got = "without it" if key not in wrong.options else f"with {key}={_short(wrong.options[key])}"
            raise ValueError(f"sim {game}: this report cannot play {key}={_short(value)} as asked (its game at "
                             f"seed {wrong.seed}, {wrong.players} players, would play {got}); "
                             f"kikimimi report {game} plays every option as given")
    if compared and ask.bot is not None:
        partner = report.duels.get(ask.bot)
        other = next((t for t in trials if t.bot not in (ask.bot, partner)), None)
        if other is not None:
            raise ValueError(f"sim {game} --versus: this report plays its own bot kinds ({other.bot} beside "
                             f"{ask.bot}) in every way of playing, so bot kinds cannot be compared here; "
                             f"kikimimi report {game} --versus compares them")


def _short(value: Any) -> str:
    text = str(value)
    return text if len(text) <= 40 else text[:37] + "..."


@functools.lru_cache(maxsize=8)
def _report_of(game: str) -> Report:
    decl = declaration(game)
    assert decl.report is not None
    report: Report = part(decl, decl.report)()
    return report


def _played(game: str, compare: bool, trial: Trial) -> tuple[Any, Mapping[str, float] | None, str | None]:
    """One trial's figures (and measures and its moves' digest, when ways are compared): run
    here or in a worker process."""
    report = _report_of(game)
    script, log = play(game, trial.seed, trial.players, dict(trial.options), trial.bot)
    figures = report.figures(trial, script, log)
    if not compare:
        return figures, None, None
    return figures, dict(report.measures(trial, script, log, figures)), moves_digest(script)


def unfelt_lines(ways: Sequence[Arm], variants: Mapping[str, Sequence[Any]], moves: Sequence[Sequence[Any]]) -> list[str]:
    """A warning for each pair of ways that differ in one varied option only and whose bots made
    the same moves in every game: no bot decision depends on it (the page's `analysis.unfelt`)."""
    out = []
    for key, values in variants.items():
        if len(values) < 2:
            continue
        for i, a in enumerate(ways):
            for j in range(i + 1, len(ways)):
                b = ways[j]
                if a.bot != b.bot or a.options.get(key) == b.options.get(key) or any(
                        a.options.get(k) != b.options.get(k) for k in set(a.options) | set(b.options) if k != key):
                    continue
                if moves[i] and len(moves[i]) == len(moves[j]) and list(moves[i]) == list(moves[j]):
                    out.append(f"warning: {a.name} and {b.name} ({key} varied): the bots made the same moves in all "
                               f"{len(moves[i])} games; no bot decision depends on {key}, so the differences are "
                               "the rule's own arithmetic, not how players would adapt to it")
    return out


def tune(decl: Declaration, games: int, seed: int, players: int, options: Mapping[str, Any] | None = None,
         bot: str | None = None, plot: str | None = None, progress: bool = True,
         versus_bots: Sequence[str] | None = None, variants: Mapping[str, Sequence[Any]] | None = None,
         workers: int = 1, baseline: str | None = None) -> str:
    """Play the report's trials and return its text (and the plot's caption).

    With `versus_bots` (two bot kinds or more) or `variants` (an option and the
    values to try), every way of playing plays the report's trials and the
    ways are compared (see the module's docstring).  `workers` > 1 plays the
    trials in that many processes; the text is the same (kikimimi/design/report/run.py)."""
    if decl.report is None:
        raise NotImplementedError(f"{decl.name} has no batch simulation")
    bots: list[str | None] = list(versus_bots) if versus_bots else [bot]
    if versus_bots and bot is not None:
        raise ValueError("give either --bot or --versus, not both")
    for b in bots:
        check_bot(decl, b)
    variants = {k: list(v) for k, v in (variants or {}).items()}
    if any(not v for v in variants.values()):
        raise ValueError("a varied option needs at least one value")
    report: Report = part(decl, decl.report)()
    ways = arms(bots, variants, dict(options or {}))
    if baseline is not None:
        if len(ways) < 2:
            raise ValueError("--baseline compares ways of playing: give --versus or --variant")
        if baseline != versus.ALL_PAIRS:
            versus.pairs_of([w.name for w in ways], baseline)  # names the ways when it is none of them
    asks = [Ask(games, seed, players, dict(arm.options), arm.bot) for arm in ways]
    planned = [(i, trial) for i, ask in enumerate(asks) for trial in report.trials(ask)]
    for i, ask in enumerate(asks):
        honoured(decl.name, report, ask, [t for j, t in planned if j == i], len(ways) > 1)
    rows: list[list[Row]] = [[] for _ in ways]
    numbers: list[list[tuple[Trial, Mapping[str, float]]]] = [[] for _ in ways]
    compare = len(ways) > 1
    played = run_all(functools.partial(_played, decl.name, compare), [t for _, t in planned], workers, progress,
                     decl.name)
    moves: list[list[str | None]] = [[] for _ in ways]
    for (i, trial), (figures, measures, digest) in zip(planned, played):
        rows[i].append((trial, figures))
        if measures is not None:
            numbers[i].append((trial, measures))
            moves[i].append(digest)
    if not compare:
        text = report.text(rows[0], asks[0])
        if plot:
            text += "\n" + report.plot(rows[0], plot)
        return text
    parts = [f"== {arm.name} ==\n{report.text(r, ask)}" for arm, r, ask in zip(ways, rows, asks)]
    units = {arm.name: _units(n) for arm, n in zip(ways, numbers)}
    counts = ",".join(map(str, sorted({t.players for _, t in planned})))
    parts.append(versus.text(f"{decl.name}: {games} seeds from {seed}, {counts} players", units, baseline))
    parts += unfelt_lines(ways, variants, moves)
    text = "\n\n".join(parts)
    if plot:
        from kikimimi.design.plot import intervals

        measures, estimates = versus.rates_plotted(units)
        text += "\n" + intervals(estimates, measures, plot, "rate (95 % interval)",
                                 f"{decl.name}: {games} seeds from {seed}, {counts} players, each way of playing "
                                 "(the full report: kikimimi report)")
    return text
