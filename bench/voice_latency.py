"""Time from a game event (`AudioOutput.emit`) to the clip's first frame in the audio callback.

Runs on real-time virtual devices (a private PulseAudio server with null
sinks, reached through ALSA pulse PCMs, as in tests/voice), so PortAudio
paces the callbacks like a real card.  Each play answers a new hand scan
(`cause_hand_seat`), the path where a player waits for their earphone.

Three kinds of phrase, in one run: fixed phrases (the anchor: any cached
clip), parametrised phrases of the Trident's catalogue ("Seat 2.", "Draw 4
more.", "heart 3."), all rendered at table start as `kikimimi serve` does,
and parametrised phrases rendered on first use (what every parametrised
phrase cost before the catalogue was expanded).

    .venv/bin/python bench/voice_latency.py [--plays 300]

Target: p95 under 5 ms, parametrised the same as cached.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the test harness (tests/support)

def phases(lang: str) -> dict[str, list[tuple[str, str]]]:
    """(phrase key, text) to play, per kind of phrase."""
    from kikimimi.contract.phrases import Phrasebook
    from kikimimi.voice.domains import placeholders, table_texts

    book = Phrasebook(lang, ("core", "trident"))
    fixed = [(k, t) for k, t in book.phrases.items() if not placeholders(t)]
    rng = random.Random(3)
    params = []
    for _ in range(200):
        key = rng.choice(["turn", "draw-more", "hand-piece", "passed", "pending"])
        value = {"turn": ("seat", rng.randint(1, 2)), "passed": ("seat", rng.randint(1, 2)),
                 "draw-more": ("count", rng.randint(1, 20)), "pending": ("total", rng.randint(2, 20)),
                 "hand-piece": ("piece", rng.choice(sorted(book.names)[:40]))}[key]
        params.append((key, book.render(key, dict([value]))))
    first_use = [("draw-more", book.render("draw-more", {"count": n})) for n in rng.sample(range(100, 100000), 400)]
    assert not set(t for _, t in first_use) & set(table_texts("trident", 2, {}, lang).texts)
    return {"cached fixed phrases": fixed, "parametrised, rendered at start": params,
            "parametrised, rendered on first use": first_use}


def child(args: argparse.Namespace) -> None:
    import numpy as np

    from kikimimi.voice import AudioOutput
    from kikimimi.voice.domains import table_texts

    audio = {"outputs": {"seat-1": {"device": "kkone"}, "seat-2": {"device": "kktwo"}}}
    results = {}
    with AudioOutput.from_config(audio, 2, "en", cache_dir=Path(args.cache)) as out:
        out.prepare(table_texts("trident", 2, {}, "en").texts, progress=False)
        time.sleep(0.3)
        for name, plays in phases("en").items():
            rng = random.Random(7)
            out.latencies.clear()
            for n in range(args.plays):
                seat = 1 + n % 2
                key, text = plays[n % len(plays)]
                out.emit([{"type": "say", "to": f"seat:{seat}", "key": key, "text": text, "in": n}],
                         cause_hand_seat=seat)
                    # long enough for a first-use render to finish before the next scan cuts it
                time.sleep(rng.uniform(0.08, 0.12))
            out.wait_idle(timeout=30)
            lat = np.array(out.latencies) * 1000
            results[name] = {"plays": int(lat.size), "median_ms": float(np.median(lat)),
                             "p95_ms": float(np.percentile(lat, 95)), "max_ms": float(lat.max())}
        print(json.dumps({"phases": results,
                          "device_latency_ms": {m.name: round(m.output_latency * 1000, 2) for m in out.mixers},
                          "blocksize": {m.name: m.stream.blocksize or "variable" for m in out.mixers},
                          "health": out.health()}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plays", type=int, default=300)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--cache", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args)
        return
    from support.virtual_sound import PulseNullSinks, missing_tools

    gone = missing_tools("pulseaudio", "espeak-ng")
    if gone:
        sys.exit(f"needs {', '.join(gone)}: apt-get install pulseaudio espeak-ng libasound2-plugins")
    with tempfile.TemporaryDirectory() as tmp:
        with PulseNullSinks(Path(tmp) / "pulse", {"kkone": 2, "kktwo": 2}) as pulse:
            proc = subprocess.run([sys.executable, __file__, "--child", "--plays", str(args.plays),
                                   "--cache", str(Path(tmp) / "clips")],
                                  env=pulse.env(), capture_output=True, text=True, timeout=1200)
        if proc.returncode != 0:
            sys.exit(proc.stderr[-2000:])
        r = json.loads(proc.stdout.strip().splitlines()[-1])
    print("emit -> first frame in callback, on PulseAudio null sinks (target p95 < 5 ms):")
    for name, p in r["phases"].items():
        print(f"  {name:38s} {p['plays']:4d} plays: median {p['median_ms']:.2f} ms, "
              f"p95 {p['p95_ms']:.2f} ms, max {p['max_ms']:.2f} ms")
    print(f"device output latency: {r['device_latency_ms']}; blocksize: {r['blocksize']}")
    faults = {k: v for k, v in r["health"].items() if k != "speaker" and v != "ok"}
    if faults:
        print(f"faults during the run: {faults}")


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
