"""Time from a game event (`AudioOutput.emit`) to the clip's first frame in the audio callback.

Runs on real-time virtual devices (a private PulseAudio server with null
sinks, reached through ALSA pulse PCMs, as in tests/voice), so PortAudio
paces the callbacks like a real card.  Each play answers a new hand scan
(`cause_hand_seat`), the path where a player waits for their earphone.

    .venv/bin/python bench/voice_latency.py [--plays 400]

Target: p95 under 5 ms.
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

TEXTS = ["Heart three.", "Spade king.", "Club seven.", "Not your turn."]


def child(args: argparse.Namespace) -> None:
    import numpy as np

    from kikimimi.voice import AudioOutput

    audio = {"outputs": {"seat-1": {"device": "kkone"}, "seat-2": {"device": "kktwo"}}}
    with AudioOutput.from_config(audio, 2, "en", cache_dir=Path(args.cache)) as out:
        out.prepare(TEXTS, progress=False)
        rng = random.Random(7)
        time.sleep(0.3)
        for n in range(args.plays):
            seat = 1 + n % 2
            out.emit([{"type": "say", "to": f"seat:{seat}", "key": "hand-piece",
                       "text": rng.choice(TEXTS), "in": n}], cause_hand_seat=seat)
            time.sleep(rng.uniform(0.01, 0.03))
        out.wait_idle(timeout=10)
        lat = np.array(out.latencies) * 1000
        blocks = {m.name: m.stream.blocksize or "variable" for m in out.mixers}
        print(json.dumps({"plays": int(lat.size), "median_ms": float(np.median(lat)),
                          "p95_ms": float(np.percentile(lat, 95)), "max_ms": float(lat.max()),
                          "device_latency_ms": {m.name: round(m.output_latency * 1000, 2) for m in out.mixers},
                          "blocksize": blocks, "health": out.health()}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plays", type=int, default=400)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--cache", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args)
        return
    from kikimimi.voice.virtual import PulseNullSinks, missing_tools

    gone = missing_tools("pulseaudio", "espeak-ng")
    if gone:
        sys.exit(f"needs {', '.join(gone)}: apt-get install pulseaudio espeak-ng libasound2-plugins")
    with tempfile.TemporaryDirectory() as tmp:
        with PulseNullSinks(Path(tmp) / "pulse", {"kkone": 2, "kktwo": 2}) as pulse:
            proc = subprocess.run([sys.executable, __file__, "--child", "--plays", str(args.plays),
                                   "--cache", str(Path(tmp) / "clips")],
                                  env=pulse.env(), capture_output=True, text=True, timeout=600)
        if proc.returncode != 0:
            sys.exit(proc.stderr[-2000:])
        r = json.loads(proc.stdout.strip().splitlines()[-1])
    print(f"emit -> first frame in callback, {r['plays']} plays on PulseAudio null sinks: "
          f"median {r['median_ms']:.2f} ms, p95 {r['p95_ms']:.2f} ms, max {r['max_ms']:.2f} ms "
          f"(target p95 < 5 ms)")
    print(f"device output latency: {r['device_latency_ms']}; blocksize: {r['blocksize']}")
    faults = {k: v for k, v in r["health"].items() if k != "speaker" and v != "ok"}
    if faults:
        print(f"faults during the run: {faults}")


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
