"""Start-up: `kikimimi --help` and `kikimimi replay` of one game, beside bare Python, in one run.

    .venv/bin/python bench/startup.py [--runs 20]

Each figure is the median (and p95) wall time of fresh processes; the anchor
`python -c pass` is measured interleaved with them, so a busy machine moves
both.  Target: `kikimimi --help` <= 100 ms.
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _time(cmd: list[str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - t0


def _fmt(xs: list[float]) -> str:
    ms = sorted(x * 1000 for x in xs)
    p95 = ms[min(len(ms) - 1, int(round(0.95 * len(ms))) - 1)]
    return f"median {statistics.median(ms):6.1f} ms, p95 {p95:6.1f} ms"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=20)
    a = ap.parse_args()
    from kikimimi.contract.script import dumps
    from kikimimi.design.sim import play

    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "game.jsonl"
        script.write_text("".join(dumps(line) + "\n" for line in play("trident", 1, 3)[0]))
        exe = Path(sys.executable).parent / "kikimimi"  # the installed entry script, as players run it
        cli = [str(exe)] if exe.exists() else [sys.executable, "-m", "kikimimi.cli"]
        cmds = {
            "python -c pass (anchor)": [sys.executable, "-c", "pass"],
            "kikimimi --help": cli + ["--help"],
            f"kikimimi replay (one game, {len(script.read_text().splitlines())} lines)":
                cli + ["replay", str(script)],
        }
        got: dict[str, list[float]] = {name: [] for name in cmds}
        for _ in range(a.runs):
            for name, cmd in cmds.items():
                got[name].append(_time(cmd))
    for name, xs in got.items():
        print(f"{name:40s} {_fmt(xs)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
