"""How fast the records store commits games (WAL, synchronous=FULL): prints games/s.

Run: .venv/bin/python bench/records_bench.py [GAMES]
"""
import sys
import tempfile
import time
from pathlib import Path

from kikimimi.records import Club


def main(games: int = 300) -> None:
    with tempfile.TemporaryDirectory() as tmp, Club(Path(tmp) / "bench.sqlite") as club:
        for n in "ABC":
            club.add_player(n, n.lower())
        seats = {1: "A", 2: "B", 3: "C"}
        sid = club.start_session("full", seats).id
        start = time.perf_counter()
        for k in range(games):
            if k and k % 10 == 0:
                sid = club.start_session("full", seats).id
            ranking = [{"seat": 1 + (k + i) % 3, "place": i + 1, "pieces": i, "points": i, "crash": False}
                       for i in range(3)]
            club.record_game_over(sid, {"type": "game-over", "reason": "out", "ranking": ranking}, seats)
        elapsed = time.perf_counter() - start
    print(f"{games} games (with {games // 10} settlements) in {elapsed:.2f}s: "
          f"{games / elapsed:.0f} games/s, {1000 * elapsed / games:.1f} ms/game")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 300)
