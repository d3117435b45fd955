"""The watcher's bench: what a watching table learns from the motions.

Plays `--games` ear-bot games per game (闇に笑う魔女, マフィア42, イントリーゲ with hidden
bribes, 鬼探し), each at the official count and, like a served table, with a random
secret seed; keeps only what a watcher gets (`support.watcher.Watched`: seat,
reader, time and count of every scan, never a hand's piece, and the public view with the
speaker's lines), and runs adversaries that guess a secret from it.  Prints each
adversary's accuracy with its 95 % interval beside the base rate (a blind guess among the
same candidates); a kept secret's interval holds the base rate.

    .venv/bin/python bench/watcher.py --games 1000
    .venv/bin/python bench/watcher.py --games 200 --game witch
    .venv/bin/python bench/watcher.py --games 1000 --game witch --witch-day-acts acts   # the rule before
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the test harness (tests/support)

from kikimimi.contract.registry import declaration  # noqa: E402
from kikimimi.contract.script import Header  # noqa: E402
from kikimimi.table.secret_seed import with_secret_seed  # noqa: E402
from kikimimi.design.sim import play  # noqa: E402
from support.watcher import (ADVERSARIES, Score, TrainedGuess, Watched,  # noqa: E402
                                      intrigue_bribe_by_default_seed, intrigue_bribe_trials)

GAMES = ("witch", "mafia42", "intrigue", "onisagashi")


def served_options(game: str, players: int, options: dict) -> dict:
    """The options as a served table has them: a random secret seed where the game takes one."""
    return dict(with_secret_seed(Header(game, players, dict(options))).options)


def run(game: str, games: int, first_seed: int, witch_day_acts: str | None = None) -> list[Score]:
    decl = declaration(game)
    players = decl.default_players
    if game == "intrigue":
        guess = TrainedGuess()
        score = Score("bribe amount by taps (trained on half)", "a bribe's amount")
        recomputed = Score("first bribe's amount from the default seed", "a bribe's amount")
        rng = random.Random(first_seed)
        half = games // 2
        for n, seed in enumerate(range(first_seed, first_seed + games)):
            script, log = play(game, seed, players, served_options(game, players, {"bribes": "hidden"}), "ear")
            watched = Watched.of(script, log)
            pairs = intrigue_bribe_trials(watched, log)
            if n < half:
                guess.learn(pairs)
            else:
                score.add(guess.trials(pairs))
            recomputed.add(intrigue_bribe_by_default_seed(watched, log, rng))
        return [score, recomputed]
    options, adversaries = ADVERSARIES[game]
    if game == "witch" and witch_day_acts:  # an older rule, for the figure before a change
        options = {**options, "day_acts": witch_day_acts}
    scores = [Score(name, secret) for name, secret, _ in adversaries]
    rng = random.Random(first_seed)
    for seed in range(first_seed, first_seed + games):
        script, log = play(game, seed, players, served_options(game, players, options), "ear")
        watched = Watched.of(script, log)
        for score, (_, _, adversary) in zip(scores, adversaries):
            score.add(adversary(watched, log, rng))
    return scores


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000, help="ear-bot games per game (default 1000)")
    ap.add_argument("--seed", type=int, default=1, help="the first game's seed")
    ap.add_argument("--game", choices=GAMES, action="append", help="only these games (repeatable)")
    ap.add_argument("--witch-day-acts", choices=("together", "acts", "free"),
                    help="闇に笑う魔女's day_acts (default: the game's; acts or free: the older rules, docs/witch.md)")
    args = ap.parse_args(argv)
    held, leaked = True, False
    for game in args.game or GAMES:
        began = time.perf_counter()
        scores = run(game, args.games, args.seed, args.witch_day_acts)
        print(f"{game}: {args.games} ear-bot games, {declaration(game).default_players} players "
              f"({time.perf_counter() - began:.0f} s)")
        for score in scores:
            print("  " + score.line())
            held &= score.holds
            leaked |= score.leaks
    print("every interval holds its base rate" if held else
          "some adversary beats its base rate (LEAKS above)" if leaked else
          "no adversary beats its base rate (an interval below it is a guess worse than blind)")
    return 1 if leaked else 0


if __name__ == "__main__":
    sys.exit(main())
