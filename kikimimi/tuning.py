"""The designer's table: `kikimimi sim GAME --games N`, one loop for every game.

Bot games run through the real engine (`kikimimi.sim.play`), so the figures
are those of the code that runs at a table.  A game says only what to play
and what to count, in a `Report` named by the declaration's `report`:

- `trials`: the games to play (by default seeds seed, seed+1, ... at the
  asked count with the asked options and bot); a game that spreads its
  games over counts, decks or bot kinds yields its own;
- `figures`: one game's figures, read from its script and event log;
- `text`: the report over every game's figures;
- `plot` (optional): a picture written to a file, its one-line caption returned.

The loop, the progress bar and the plot's place in the text are here.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kikimimi.declared import check_bot, part
from kikimimi.declaration import Declaration
from kikimimi.sim import play

#: A game's script lines and event log, as `kikimimi.sim.play` returns them.
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


class Report(ABC):
    """A game's designer's report (see the module's docstring)."""

    def trials(self, ask: Ask) -> Iterable[Trial]:
        return (Trial(ask.seed + i, ask.players, dict(ask.options), ask.bot) for i in range(ask.games))

    @abstractmethod
    def figures(self, trial: Trial, script: Script, log: Log) -> Any:
        """One game's figures."""

    @abstractmethod
    def text(self, rows: Sequence[Row], ask: Ask) -> str:
        """The report over every game played."""

    def plot(self, rows: Sequence[Row], path: str) -> str:
        return "plot skipped: this report is a table"


def tune(decl: Declaration, games: int, seed: int, players: int, options: Mapping[str, Any] | None = None,
         bot: str | None = None, plot: str | None = None, progress: bool = True) -> str:
    """Play the report's trials and return its text (and the plot's caption)."""
    if decl.report is None:
        raise NotImplementedError(f"{decl.name} has no batch simulation")
    check_bot(decl, bot)
    report: Report = part(decl, decl.report)()
    ask = Ask(games, seed, players, dict(options or {}), bot)
    trials: Iterable[Trial] = report.trials(ask)
    if progress:
        from tqdm import tqdm

        trials = tqdm(list(trials), desc=decl.name, unit="game")
    rows: list[Row] = []
    for trial in trials:
        script, log = play(decl.name, trial.seed, trial.players, dict(trial.options), trial.bot)
        rows.append((trial, report.figures(trial, script, log)))
    text = report.text(rows, ask)
    if plot:
        text += "\n" + report.plot(rows, plot)
    return text
