"""The null experiment: identical bots in every chair, so any edge a chair shows is noise or a bias.

A designer reads "seat 1 wins 12 %" as a rule to change.  With the same bot kind in every
chair and the roles (or pieces) dealt by the seed, the rules give no chair an edge a bot did
not bring: a chair's edge that is not noise is the bots' or the harness's (a tie broken toward
the lowest seat, seats asked in a fixed order so seat 1 always answers first), and every
balance figure of the game carries it.  So the tools run the experiment themselves
(`kikimimi check GAME --part fairness`, `kikimimi report GAME --fairness`) and name the game,
the bot kind and the chair.

Two meanings, never one word: a *chair* is where a player sits (seat N of the ranking); a
*place* is the turn order (place 1 begins).  A game that declares who begins (the option
`first`, CONTRACT.md) has it rotated with the seed here, so a chair's edge and a place's edge
are told apart; a game that declares no first player has no turn order to report.

The test, per chair (and per place): in each game, the chair's win (1 or 0: `won`, else
place 1 in the ranking) less the mean over every chair of that game, averaged over the games
with its 95 % interval; a game's chairs are paired, so shared wins and one-winner games are
judged alike.  Holm's correction over every chair and place at `ALPHA`: the check runs in the
test suite and must not cry wolf.
"""
from __future__ import annotations

import functools
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from kikimimi.design.confidence import Estimate, holm, mean, p_value
from kikimimi.contract.declaration import Declaration
from kikimimi.contract.registry import declaration

#: The family-wise false alarm rate of one verdict (every chair and place of one bot kind).
ALPHA = 0.001
#: Games per bot kind in `kikimimi check` (a few seconds a kind: the check runs in the suite; a 24-point chair bias is caught at 120).
CHECK_GAMES = 120
#: Every bot kind that seats identical bots (`kikimimi check GAME --part fairness --bot all`).
ALL = "all"
#: The option a game names its first player by (CONTRACT.md: the 1st player's seat).
FIRST = "first"


@dataclass(frozen=True)
class Edge:
    """One chair's (or place's) edge over the average chair: its win rate, and the difference."""

    what: str  # "chair" or "place"
    number: int
    rate: Estimate
    edge: Estimate
    p: float
    biased: bool

    def line(self) -> str:
        return f"{self.what} {self.number} wins {100 * self.rate.value:.1f} % ({self.edge.points()} on the average {self.what})"


@dataclass(frozen=True)
class Verdict:
    """The null experiment of one game and bot kind."""

    game: str
    bot: str
    players: int
    games: int
    dealt: str  # how who begins was dealt
    edges: tuple[Edge, ...]

    @property
    def biased(self) -> list[Edge]:
        """The chairs whose edge is not noise: with who begins rotated (or none declared) and
        the deal seeded, only a bot or the harness gives a chair an edge."""
        return [e for e in self.edges if e.biased and e.what == "chair"]

    @property
    def turn_order(self) -> list[Edge]:
        """The turn-order places whose edge is not noise: the rules' (or the bots' play of
        them: compare another bot kind), a finding for the designer, never the harness's."""
        return [e for e in self.edges if e.biased and e.what == "place"]

    @property
    def fair(self) -> bool:
        return not self.biased

    def line(self) -> str:
        """One line: the game, the bot kind and the biased chair or place (or the largest edge)."""
        head = f"{self.game}, bot {self.bot}, {self.players} players, {self.games} games ({self.dealt})"
        order = ""
        if self.turn_order:
            worst = max(self.turn_order, key=lambda e: abs(e.edge.value))
            order = f"; turn order matters: {worst.line()} (the rules' edge or the bots' play of them, not a chair's)"
        if self.biased:
            worst = max(self.biased, key=lambda e: abs(e.edge.value))
            more = f" and {len(self.biased) - 1} more chairs" if len(self.biased) > 1 else ""
            return (f"{head}: biased: {worst.line()}{more}; identical bots must give every chair the same odds "
                    f"(a tie broken toward the lowest seat, seats asked in a fixed order){order}")
        chairs = [e for e in self.edges if e.what == "chair"]
        if not chairs:
            return f"{head}: no chair won a game"
        largest = max(chairs, key=lambda e: abs(e.edge.value))
        return f"{head}: chairs within noise (largest: {largest.line()}){order}"


def seat_wins(log: Sequence[Mapping[str, Any]], players: int) -> list[int]:
    """Each chair's win in one game (the ranking's `won`, else place 1): 1 or 0, chair 1 first."""
    over = next((e for e in reversed(log) if e.get("type") == "game-over"), None)
    rows = {int(r["seat"]): r for r in (over.get("ranking", []) if over else []) if "seat" in r}
    return [int(bool(rows[s].get("won", rows[s].get("place") == 1))) if s in rows else 0
            for s in range(1, players + 1)]


def rotates(decl: Declaration) -> bool:
    """Whether the game declares who begins (so the experiment rotates it)."""
    names = decl.options.names if decl.options is not None else decl.option_names or frozenset()
    return FIRST in names


def first_of(seed: int, players: int) -> int:
    """Who begins a seeded game of the experiment (and of `kikimimi report`): every chair in turn."""
    return seed % players + 1


def identical_kinds(decl: Declaration) -> list[str]:
    """The bot kinds that seat the same bot in every chair: not a duel's contender (one chair
    rotated with the seed, `kikimimi/design/duel.py`) nor a kind a game seats by chair (`Report.by_chair`)."""
    skip: set[str] = set()
    if decl.report is not None:
        from kikimimi.contract.parts import part

        report = part(decl, decl.report)
        skip |= set(getattr(report, "duels", {}) or {}) | set(getattr(report, "by_chair", ()) or ())
    if decl.bot_table is None:
        skip |= {b for b in decl.bots if b != "ear"}
    if decl.ear_table is None:
        skip.add("ear")
    return [b for b in decl.bots if b not in skip]


def _one(game: str, players: int, options: Mapping[str, Any], bot: str, rotate: bool,
         seed: int) -> tuple[list[int], int]:
    """One game's chairs' wins and who began (a worker process runs it as well as this one)."""
    from kikimimi.design.sim import play

    opts = dict(options)
    first = int(opts.get(FIRST, 1))
    if rotate:
        first = first_of(seed, players)
        opts[FIRST] = first
    _script, log = play(game, seed, players, opts, bot)
    return seat_wins(log, players), first


def experiment(game: str, bot: str, games: int = CHECK_GAMES, seed: int = 1, players: int | None = None,
               options: Mapping[str, Any] | None = None, workers: int = 1, progress: bool = False) -> Verdict:
    """Play `games` seeded games of `game` with `bot` in every chair; the verdict on every chair
    and place.  Who begins is rotated when the game declares it and `options` do not fix it."""
    from kikimimi.design.report.run import run_all

    decl = declaration(game)
    players = players or decl.default_players
    options = dict(options or {})
    rotate = rotates(decl) and FIRST not in options
    played = run_all(functools.partial(_one, decl.name, players, options, bot, rotate),
                     list(range(seed, seed + games)), workers, progress, f"{decl.name} null")
    wins = [w for w, _ in played]
    places = [w[first - 1:] + w[:first - 1] for w, first in played]  # place 1: who began
    if rotate:
        dealt = "who begins rotated with the seed: chair and turn-order place told apart"
    elif rotates(decl):
        dealt = f"chair {int(options[FIRST])} always begins: a place's edge is that chair's"
    else:
        dealt = "no first player declared: chairs only"
    groups = [("chair", wins)] + ([("place", places)] if rotate else [])
    found: list[tuple[str, int, Estimate, Estimate, float]] = []
    for what, rows in groups:
        if not rows or not any(map(any, rows)):
            continue
        for k in range(players):
            centred = [row[k] - statistics.fmean(row) for row in rows]
            edge = mean(centred)
            rate = mean([float(row[k]) for row in rows])
            found.append((what, k + 1, rate, edge, p_value(edge)))
    keep = holm([f[4] for f in found], ALPHA) if found else []
    edges = tuple(Edge(w, n, r, e, p, kept) for (w, n, r, e, p), kept in zip(found, keep))
    return Verdict(decl.name, bot, players, games, dealt, edges)


def every_kind(game: str, games: int = CHECK_GAMES, seed: int = 1, players: int | None = None,
               kinds: Sequence[str] | None = None, workers: int = 1) -> list[Verdict]:
    """The null experiment of each bot kind that seats identical bots (or the kinds given)."""
    decl = declaration(game)
    return [experiment(game, k, games, seed, players, workers=workers) for k in (kinds or identical_kinds(decl))]


def section(game: str, arms: Sequence[tuple[str | None, Mapping[str, Any]]], counts: Sequence[int], games: int,
            seed: int, workers: int = 1) -> Any:
    """The report's page section (`kikimimi report GAME --fairness`): the null experiment of each
    arm's bot kind at each player count, a chair's and a turn-order place's edge apart."""
    from kikimimi.design.report.page import Section, Table

    decl = declaration(game)
    kinds = identical_kinds(decl)
    s = Section("The null experiment: identical bots in every chair")
    s.paragraphs.append(
        "The same bot kind in every chair, roles or pieces dealt by the seed"
        + (", who begins rotated with the seed" if rotates(decl) else "") + ": the rules give no chair an edge, so "
        "a chair's edge beyond noise is the bots' or the harness's, and every figure above carries it. A turn-order "
        "place's edge is the rules' (or the bots' play of them). An edge is a chair's win rate less the mean of its "
        f"game's chairs, paired by game, with its 95 % interval; flagged after Holm's correction at {ALPHA:g}.")
    rows = []
    seen: set[str] = set()
    for asked, options in arms:
        bot = asked if asked is not None else (kinds[0] if kinds else None)
        label = f"{bot}" + "".join(f", {k}={v}" for k, v in sorted(options.items()))
        if label in seen:
            continue
        seen.add(label)
        if bot is None or bot not in kinds:
            s.paragraphs.append(f"Bot {bot or 'default'} does not seat identical bots in every chair: not run.")
            continue
        for k in counts:
            v = experiment(game, bot, games, seed, k, dict(options), workers)  # a fixed first player is kept, and said
            for e in v.edges:
                rows.append([f"{label}, {k} players, {e.what} {e.number}", f"{100 * e.rate.value:.1f} %",
                             e.edge.points(), "biased" if e.biased and e.what == "chair"
                             else "turn-order edge" if e.biased else "within noise"])
            s.paragraphs.append(v.line() + ".")
    s.parts.append(Table(f"Chairs' and turn-order places' edges on the average, {games} games a cell",
                         ["bot, player count, chair or place", "wins", "edge (95 % interval)", "verdict"], rows))
    return s


__all__ = ["ALL", "ALPHA", "CHECK_GAMES", "Edge", "Verdict", "every_kind", "experiment", "first_of", "identical_kinds",
           "rotates", "seat_wins", "section"]
