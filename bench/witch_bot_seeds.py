"""闇に笑う魔女's reasoning bots before and after issue 33 (seats no longer hold the seed), same run.

Before, every `BotSeat` held the table's seed, and its sampled worlds were
keyed by it (the seed deals the roles: any bot could rebuild the deal).  Now
the table hands each seat a key drawn from a stream of its own, and the
witches also keep clear of the seats a partner's story accused (a banished
accused seat gives the story away).  The deals are the same; the games after
the first sampled world differ.  Both arms play in this one process, on the
same seeds, and each deal's winner is paired:

    .venv/bin/python bench/witch_bot_seeds.py --deals 500 --players 8 10
"""
from __future__ import annotations

import argparse
import time
from typing import Any

from kikimimi.confidence import paired, rate
from kikimimi.sim import play
from kikimimi_games.witch import bots, reasoning


def _before(monkeypatch: list[tuple[Any, str, Any]]) -> None:
    """Seat the bots as before issue 33: the sampled worlds keyed by (table seed, seat),
    the witches blind to a partner's accusations."""
    init = bots.WitchSimulation.__init__

    def keyed_by_the_seed(self: Any, seed: int, *args: Any, **kwargs: Any) -> None:
        init(self, seed, *args, **kwargs)
        for s, b in self.bots.items():
            b.worlds_key = (seed, s)

    def own_story_only(self: Any, others: list[int], by_day: bool) -> int:
        s = self.s
        pool = [x for x in others if x not in s.partners] or others
        roles = reasoning.NIGHT_FIRST if not by_day else ("mirror", "priest")
        ranked = [c for role in roles for c in self.rivals(role) if c in pool]
        accused = [t for t, f in self.story.items() if f == "witch" and t in pool]
        if by_day:
            ranked = accused + ranked
        else:
            ranked = [c for c in ranked if c not in accused]
            pool = [x for x in pool if x not in accused] or pool
        ranked = list(dict.fromkeys(ranked))
        if not ranked:
            return s.rng.choice(pool)
        if not by_day and len(ranked) > 1 and s.day >= 2 and s.rng.random() < 0.4:
            return ranked[1]
        return ranked[0]

    for owner, name, new in ((bots.WitchSimulation, "__init__", keyed_by_the_seed),
                             (reasoning.Reasoner, "_witch_target", own_story_only)):
        monkeypatch.append((owner, name, getattr(owner, name)))
        setattr(owner, name, new)


def winners(deals: int, players: int) -> list[str]:
    out = []
    for seed in range(1, deals + 1):
        _, log = play("witch", seed, players, {}, "reason")
        over = next((e for e in log if e["type"] == "game-over"), None)
        out.append(str(over["winner"]) if over else "unfinished")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=500)
    ap.add_argument("--players", type=int, nargs="+", default=[8, 10])
    a = ap.parse_args()
    for players in a.players:
        t0 = time.process_time()
        after = winners(a.deals, players)
        undo: list[tuple[Any, str, Any]] = []
        _before(undo)
        try:
            before = winners(a.deals, players)
        finally:
            for owner, name, old in undo:
                setattr(owner, name, old)
        cpu = time.process_time() - t0
        print(f"{players} players, seeds 1-{a.deals} ({cpu:.0f} s CPU, both arms):")
        for side in sorted(set(before) | set(after)):
            b = [float(w == side) for w in before]
            f = [float(w == side) for w in after]
            print(f"  {side}: before {rate(int(sum(b)), len(b)).percent()}, after {rate(int(sum(f)), len(f)).percent()},"
                  f" after - before {paired(f, b).points()}")
        print(f"  same winner on {sum(x == y for x, y in zip(before, after))} of {a.deals} deals")


if __name__ == "__main__":
    main()
