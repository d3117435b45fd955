"""A table's first start speaks at once: the wait is said on the speaker, the phrases the
game says first are rendered first, the rest in the background; a warm start says
nothing of it.  Real `kikimimi serve`, real PortAudio on ALSA file devices, read back."""
from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "voice"))

from voice_needs import need  # noqa: E402
from voice_play import expected_clip, locate_clip  # noqa: E402

from kikimimi.voice.domains import first_and_rest, table_texts  # noqa: E402
from kikimimi.voice.render import Renderer  # noqa: E402
from support.virtual_sound import AlsaFileDevices  # noqa: E402

RATE = 48000
PREPARING = "Preparing the voice for this table. One moment, please."
READY = "The table is ready."


def _serve(tmp: Path, alsa: AlsaFileDevices, name: str) -> str:
    """Serve until the first phrases are ready and the table said so; its stderr."""
    cfg = tmp / "t.toml"
    cfg.write_text('[table]\ngame = "trident"\nplayers = 2\nlang = "en"\njournal = "j.jsonl"\n'
                   '[readers.hand-1]\nrole = "hand"\nseat = 1\ndriver = "sim"\n'
                   '[readers.hand-2]\nrole = "hand"\nseat = 2\ndriver = "sim"\n'
                   '[readers.field]\nrole = "field"\ndriver = "sim"\n'
                   '[audio.outputs.speaker]\ndevice = "kkspk"\n[audio.outputs.seat-1]\ndevice = "kkear1"\n'
                   '[audio.outputs.seat-2]\ndevice = "kkear2"\n')
    env = alsa.env()
    env["XDG_CACHE_HOME"] = str(tmp / "xdg")
    err = tmp / f"{name}.err"
    with open(err, "w") as out:
        proc = subprocess.Popen([sys.executable, "-m", "kikimimi.cli", "serve", str(cfg), "--quiet", "--fresh"],
                                stdin=subprocess.PIPE, stderr=out, stdout=subprocess.DEVNULL, env=env, cwd=tmp)
        end = time.monotonic() + 120
        while time.monotonic() < end and proc.poll() is None and not (tmp / "j.jsonl.secret").exists():
            time.sleep(0.05)
        time.sleep(1.0)  # the ready line plays out
        proc.stdin.close()  # the table stops, the background render with it
        assert proc.wait(timeout=60) == 0, err.read_text()
    return err.read_text()


def test_a_first_start_says_its_wait_first_and_a_warm_start_does_not(tmp_path):
    need("espeak-ng", "libportaudio2", "alsa")
    cache = tmp_path / "xdg" / "kikimimi" / "clips"
    alsa = AlsaFileDevices(tmp_path / "alsa", {"kkspk": 2, "kkear1": 2, "kkear2": 2}, rate=RATE)
    said = _serve(tmp_path, alsa, "cold")
    assert "Traceback" not in said and "the first phrases are ready" in said, said
    speaker = alsa.read("kkspk")[:, 0]
    preparing, ready = expected_clip(PREPARING, cache, RATE), expected_clip(READY, cache, RATE)
    at_preparing, at_ready = locate_clip(speaker, preparing), locate_clip(speaker, ready)
    assert 0 <= at_preparing < at_ready, (at_preparing, at_ready)
    assert int(np.flatnonzero(speaker)[0]) >= at_preparing  # the wait is the first thing said
    first, _ = first_and_rest("trident", 2, {}, "en")
    renderer = Renderer("en", cache)
    assert all(renderer.cached(t) for t in first)  # every phrase said first was ready before the table opened

    warm = AlsaFileDevices(tmp_path / "alsa2", {"kkspk": 2, "kkear1": 2, "kkear2": 2}, rate=RATE)
    said = _serve(tmp_path, warm, "warm")
    assert "the first phrases are ready" not in said and "Traceback" not in said, said
    speaker = warm.read("kkspk")[:, 0]
    assert locate_clip(speaker, preparing) == -1 and locate_clip(speaker, ready) >= 0


def test_a_background_render_reports_progress_and_stops_when_asked(tmp_path):
    need("espeak-ng")
    texts = [t for t in dict.fromkeys(table_texts("trident", 2, {}, "en").texts) if t.strip()][:60]
    seen: list[tuple[int, int]] = []
    stop = threading.Event()

    def progress(done: int, total: int) -> None:
        seen.append((done, total))
        if done == 25:
            stop.set()

    renderer = Renderer("en", tmp_path / "clips")
    made, failures = renderer.fill_cache(texts, progress=False, on_progress=progress, background=True, stop=stop)
    assert not failures and 25 <= made < len(texts)
    assert [d for d, _ in seen] == list(range(1, 26)) and {t for _, t in seen} == {len(texts)}
    kept = sum(renderer.cached(t) for t in texts)
    assert kept >= 25  # what was rendered stays; the rest renders when said, or at the next start
    again, _ = Renderer("en", tmp_path / "clips").fill_cache(texts, progress=False)
    assert again == len(texts) - kept
