"""Per game and language: how many clips the full catalogue has, the cold render, the warm start.

    .venv/bin/python bench/voice_catalogue.py [--games trident,onisagashi] [--langs ja,en] [--sample N]

Cold: every text a table can say (`kikimimi.voice.domains.table_texts`),
rendered into an empty clip cache on every core.  Warm: what a restart does
with that cache (check every file, read every clip at a 48 kHz device's
rate; the first warm start resamples and keeps the result, the one timed
here is the second).  The anchor, measured in the same run: one clip rendered alone,
and one cached clip mapped at the device's rate alone (medians of 20).  `--sample N`
renders only N texts cold and scales the time up, marked as such.
"""
from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from kikimimi.contract.registry import declaration
from kikimimi.voice.domains import table_texts
from kikimimi.voice.render import Renderer

DEVICE_RATE = 48000


def warm_start(renderer: Renderer, texts: list[str]) -> float:
    started = time.perf_counter()
    renderer.fill_cache(texts, progress=False)
    for text in texts:
        assert renderer.load_at(text, None, DEVICE_RATE) is not None, text
    return time.perf_counter() - started


def anchor(renderer: Renderer, texts: list[str], folder: Path) -> tuple[float, float]:
    """(median s to render one clip alone, median s to map one cached clip at the device's rate)."""
    fresh = Renderer(renderer.lang, folder, engine=renderer.engine_name)
    cold, warm = [], []
    for n, text in enumerate(texts[:20]):
        t0 = time.perf_counter()
        fresh.render(text + " " * (n % 2))  # a text not cached yet
        cold.append(time.perf_counter() - t0)
        fresh.load_at(text + " " * (n % 2), None, DEVICE_RATE)  # the first start keeps it at 48 kHz
        t0 = time.perf_counter()
        fresh.load_at(text + " " * (n % 2), None, DEVICE_RATE)
        warm.append(time.perf_counter() - t0)
    return statistics.median(cold), statistics.median(warm)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="trident,onisagashi")
    parser.add_argument("--langs", default="ja,en")
    parser.add_argument("--sample", type=int, default=0, help="render only N texts cold (time scaled up)")
    args = parser.parse_args()
    for game in args.games.split(","):
        decl = declaration(game)
        players = decl.official_players or 5
        for lang in args.langs.split(","):
            got = table_texts(game, players, {}, lang)
            texts = got.texts
            with tempfile.TemporaryDirectory() as tmp:
                renderer = Renderer(lang, Path(tmp) / "clips")
                if renderer.problem:
                    print(f"{game}/{lang}: cannot render: {renderer.problem}")
                    continue
                cold_set = random.Random(1).sample(texts, args.sample) if 0 < args.sample < len(texts) else texts
                t0 = time.perf_counter()
                made, failures = renderer.fill_cache(cold_set, progress=False)
                cold = (time.perf_counter() - t0) * len(texts) / len(cold_set)
                if failures:
                    print(f"{game}/{lang}: {len(failures)} failures, first: {failures[0]}")
                warm_start(Renderer(lang, Path(tmp) / "clips"), cold_set)  # keeps the 48 kHz copies
                warm = warm_start(Renderer(lang, Path(tmp) / "clips"), cold_set) * len(texts) / len(cold_set)
                one_cold, one_warm = anchor(renderer, texts, Path(tmp) / "anchor")
            scaled = f" (scaled from {len(cold_set)})" if len(cold_set) < len(texts) else ""
            print(f"{game}/{lang} {players} players, {renderer.describe()}: {len(texts)} clips; "
                  f"cold render {cold:.1f} s{scaled}, warm start {warm:.2f} s{scaled}; "
                  f"anchor: one clip rendered alone {one_cold * 1000:.0f} ms, one cached clip "
                  f"{one_warm * 1000:.2f} ms (medians of 20); rendered when first said: "
                  f"{', '.join(got.on_demand) or 'none'}")


if __name__ == "__main__":
    main()
