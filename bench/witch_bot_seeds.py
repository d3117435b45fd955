"""闇に笑う魔女's reasoning bots before and after seats stopped holding the seed (seats no longer hold the seed), same run.

Before, every `BotSeat` held the table's seed, and its sampled worlds were
keyed by it (the seed deals the roles: any bot could rebuild the deal).  Now
the table hands each seat a key drawn from a stream of its own, and the
witches also keep clear of the seats a partner's story accused (a banished
accused seat gives the story away).  The deals are the same; the games after
the first sampled world differ.  Both arms play in this one process, on the
same seeds, and each deal's winner is paired:

    .venv/bin/python bench/witch_bot_seeds.py --deals 500 --players 8 10 [--split]

`--split` adds an arm for each change alone.
"""
from __future__ import annotations

import argparse
import time
from typing import Any

from kikimimi.design.confidence import paired, rate
from kikimimi.design.sim import play
from kikimimi_games.witch import bots, reasoning


def _before(monkeypatch: list[tuple[Any, str, Any]], key: bool = True, target: bool = True) -> None:
    """Seat the bots as they were before: the sampled worlds keyed by (table seed, seat)
    (`key`), the witches blind to a partner's accusations (`target`)."""
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

    for owner, name, new, wanted in ((bots.WitchSimulation, "__init__", keyed_by_the_seed, key),
                                     (reasoning.Reasoner, "_witch_target", own_story_only, target)):
        if not wanted:
            continue
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
    ap.add_argument("--split", action="store_true",
                    help="also each change alone: the new worlds key only, the witches' night choice only")
    a = ap.parse_args()
    arms = {"after": {}, "before": {"key": True, "target": True}}
    if a.split:
        arms.update({"key only": {"key": False, "target": True}, "night choice only": {"key": True, "target": False}})
    for players in a.players:
        t0 = time.process_time()
        played: dict[str, list[str]] = {}
        for name, old_parts in arms.items():
            undo: list[tuple[Any, str, Any]] = []
            if old_parts:
                _before(undo, **old_parts)
            try:
                played[name] = winners(a.deals, players)
            finally:
                for owner, attr, old in undo:
                    setattr(owner, attr, old)
        cpu = time.process_time() - t0
        before = played["before"]
        print(f"{players} players, seeds 1-{a.deals} ({cpu:.0f} s CPU, {len(arms)} arms):")
        for side in sorted({w for ws in played.values() for w in ws}):
            b = [float(w == side) for w in before]
            print(f"  {side}: before {rate(int(sum(b)), len(b)).percent()}")
            for name, ws in played.items():
                if name != "before":
                    f = [float(w == side) for w in ws]
                    print(f"    {name} {rate(int(sum(f)), len(f)).percent()}, {name} - before {paired(f, b).points()}")
        for name, ws in played.items():
            if name != "before":
                print(f"  {name}: same winner as before on {sum(x == y for x, y in zip(before, ws))} of {a.deals} deals")


if __name__ == "__main__":
    main()
