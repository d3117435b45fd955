"""A table's first start (a new box, language or voice: an empty clip cache): how long
until the speaker says its first word, until the game can begin, and until the
whole catalogue is rendered, beside today's way (everything rendered before the
first word), measured in the same run.

    .venv/bin/python bench/first_start.py [--game trident] [--lang ja] [--players 3] [--anchor REV]

Each side is a real `kikimimi serve` of a table whose speaker and earphones are
ALSA file devices (tests/support/virtual_sound.py), with a fresh clip cache
(XDG_CACHE_HOME in a new temporary folder).  The first spoken word is the first
non-silent sample the speaker's device receives; the game can begin when the
serve says "the first phrases are ready" (every phrase the game's start and its
first turns say); the whole catalogue is the serve's
own line "the whole catalogue is ready".  Today's side runs the code of
`--anchor` (default: main before this work) from a `git archive`
(bench/anchor_revision.py), where the catalogue is all rendered before the
table speaks, so its three figures are one.  The two sides run one after the
other on the same cores: the anchor first, then this tree.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from anchor_revision import Revision  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the test harness (tests/support)

from support.virtual_sound import AlsaFileDevices  # noqa: E402

#: main just before the first-start work of docs/speed.md: today's way.
ANCHOR = "ac07dd1"
SPEAKER = "kkfsspk"


def table_file(folder: Path, game: str, lang: str, players: int) -> Path:
    readers = "".join(f'[readers.hand-{s}]\nrole = "hand"\nseat = {s}\ndriver = "sim"\n' for s in range(1, players + 1))
    outputs = "".join(f'[audio.outputs.seat-{s}]\ndevice = "kkfsear{s}"\n' for s in range(1, players + 1))
    path = folder / "table.toml"
    path.write_text(f'[table]\ngame = "{game}"\nplayers = {players}\nlang = "{lang}"\njournal = "table.jsonl"\n'
                    f'{readers}[readers.field]\nrole = "field"\ndriver = "sim"\n'
                    f'[audio.outputs.speaker]\ndevice = "{SPEAKER}"\n{outputs}')
    return path


def heard(raw: Path, offset: int) -> tuple[bool, int]:
    """Whether the device received a non-silent sample past `offset` bytes, and the new offset."""
    try:
        with open(raw, "rb") as f:
            f.seek(offset)
            data = f.read()
    except FileNotFoundError:
        return False, offset
    usable = len(data) - len(data) % 4
    samples = np.frombuffer(data[:usable], dtype="<f4")
    return bool(samples.size and np.any(np.abs(samples) > 1e-4)), offset + usable


def one_start(game: str, lang: str, players: int, revision: Revision | None, timeout: float) -> dict[str, float]:
    """Seconds from `serve` started to: the first word, the table ready, the whole catalogue."""
    with tempfile.TemporaryDirectory(prefix="kikimimi-first-start-") as tmp:
        folder = Path(tmp)
        alsa = AlsaFileDevices(folder / "alsa", {SPEAKER: 2, **{f"kkfsear{s}": 2 for s in range(1, players + 1)}})
        config = table_file(folder, game, lang, players)
        env = revision.env() if revision is not None else alsa.env()
        env.update({k: v for k, v in alsa.env().items() if k == "ALSA_CONFIG_PATH"})
        env["XDG_CACHE_HOME"] = str(folder / "xdg")  # a fresh clip cache: a first start
        err = open(folder / "serve.err", "w")
        started = time.monotonic()
        proc = subprocess.Popen([sys.executable, "-m", "kikimimi.cli", "serve", str(config), "--quiet"],
                                stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=err, env=env, cwd=folder)
        got: dict[str, float] = {}
        offset = 0
        try:
            while time.monotonic() - started < timeout and proc.poll() is None:
                now = time.monotonic() - started
                if "first word" not in got:
                    said, offset = heard(alsa.raw_path(SPEAKER), offset)
                    if said:
                        got["first word"] = now
                text = (folder / "serve.err").read_text(errors="replace")
                if "first phrases are ready" in text and "game ready" not in got:
                    got["game ready"] = now
                if "whole catalogue is ready" in text and "whole catalogue" not in got:
                    got["whole catalogue"] = now
                if "first word" in got and ("whole catalogue" in got or revision is not None):
                    break
                time.sleep(0.05)
        finally:
            proc.stdin.close()
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
            err.close()
        if "first word" not in got:
            raise SystemExit(f"no word on the speaker within {timeout:.0f} s:\n{(folder / 'serve.err').read_text()}")
        if revision is not None:  # today: the whole catalogue is rendered before the table speaks at all
            got["whole catalogue"] = got["first word"]
        got.setdefault("game ready", got["first word"])
        return got


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="trident")
    parser.add_argument("--lang", default="ja")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--anchor", default=ANCHOR, help="the revision whose start is today's way")
    parser.add_argument("--timeout", type=float, default=900.0)
    args = parser.parse_args()
    from kikimimi.voice.domains import table_texts

    clips = len(table_texts(args.game, args.players, {}, args.lang).texts)
    print(f"{args.game}/{args.lang}, {args.players} players, {clips} clips, empty clip cache "
          f"(load average at start {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores):", flush=True)
    with Revision(args.anchor) as rev:
        before = one_start(args.game, args.lang, args.players, rev, args.timeout)
    show(f"today ({rev.commit})", before)
    after = one_start(args.game, args.lang, args.players, None, args.timeout)
    show("now", after)
    print(f"  first word {before['first word'] / after['first word']:.1f}x sooner; game can begin "
          f"{before['game ready'] / after['game ready']:.1f}x sooner", end="")
    whole = after.get("whole catalogue")
    print(f"; the whole catalogue (in the background) {whole / before['whole catalogue']:.2f}x today's time"
          if whole else f"; the whole catalogue not within {args.timeout:.0f} s")


def show(name: str, got: dict[str, float]) -> None:
    whole = f"{got['whole catalogue']:6.1f} s" if "whole catalogue" in got else "   not reached"
    print(f"  {name:<16} first word {got['first word']:6.1f} s   game can begin {got['game ready']:6.1f} s   "
          f"whole catalogue {whole}   (load average {os.getloadavg()[0]:.1f})", flush=True)


if __name__ == "__main__":
    main()
