"""`kikimimi serve` says "The table is ready." only once its readers are there: it waits (bounded by
`[table] ready_wait`) for each PN532's first connect, names a reader still missing on the speaker, and
then says the table starts anyway.  Real nfcpy drivers against emulated PN532s on pseudo-terminals; the
speaker read back from a real PortAudio device (an ALSA file device)."""
import signal
import subprocess
import sys
import time

import numpy as np

from support.pn532_emulator import PN532Emulator
from kikimimi.testkit.script import pn532_trident_table
from support.virtual_sound import AlsaFileDevices
from voice_needs import need
from voice_play import expected_clip, locate_clip

RATE = 48000
DEVICES = {"kkspk": 2, "kkear1": 2, "kkear2": 2, "kkear3": 2}
LINES = {
    "ready": "The table is ready.",
    "anyway": "The table starts anyway.",
    "hand-2 missing": "The hand reader of seat 2 is missing.",
    "hand-2 unopened": "The hand reader of seat 2 cannot be opened. The referee has the reason.",
    **{f"hand-{s} missing": f"The hand reader of seat {s} is missing." for s in (1, 3)},
    "field missing": "The field reader is missing.",
}


def heard(alsa) -> np.ndarray:
    """The speaker's channel so far, padded with silence so a line still playing is not yet found."""
    so_far = alsa.read("kkspk")[:, 0] if alsa.raw_path("kkspk").exists() else np.zeros(0, dtype=np.float32)
    return np.concatenate([so_far, np.zeros(RATE * 5, dtype=np.float32)])


def serve_until(tmp_path, xdg, present, last: str, wait_s: float):
    """Serve the table with emulators at `present` only, until the speaker has said `last`;
    the speaker's channel and each line's place in it (-1: never said)."""
    alsa = AlsaFileDevices(tmp_path / "alsa", DEVICES, rate=RATE)
    table = pn532_trident_table(tmp_path).replace('lang = "en"\n', f'lang = "en"\nready_wait = {wait_s}\n')
    table += "".join(f'[audio.outputs.{out}]\ndevice = "{dev}"\n'
                     for out, dev in zip(("speaker", "seat-1", "seat-2", "seat-3"), DEVICES))
    (tmp_path / "table.toml").write_text(table)
    env = alsa.env()
    env["XDG_CACHE_HOME"] = str(xdg)
    cache = xdg / "kikimimi" / "clips"
    clips = {name: expected_clip(text, cache, RATE) for name, text in LINES.items()}
    emus = [PN532Emulator(str(tmp_path / name)).start() for name in present]
    proc = subprocess.Popen([sys.executable, "-m", "kikimimi.cli", "serve", str(tmp_path / "table.toml"), "--quiet"],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        end = time.monotonic() + 60
        while locate_clip(heard(alsa), clips[last]) < 0:
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            assert time.monotonic() < end, f"{last!r} never said"
            time.sleep(0.2)
        time.sleep(0.3)
    finally:
        proc.send_signal(signal.SIGTERM)
        code = proc.wait(timeout=30)
        for emu in emus:
            emu.stop()
    err = proc.stderr.read() if proc.stderr else ""
    assert code == 0 and "Traceback" not in err, err
    speaker = alsa.read("kkspk")[:, 0]
    at = {name: locate_clip(speaker, clip) for name, clip in clips.items()}
    for name, clip in clips.items():  # each line said once at most
        if at[name] >= 0:
            assert locate_clip(speaker[at[name] + clip.size:], clip) == -1, f"{name!r} said twice"
    return at


def test_a_reader_absent_at_start_is_said_before_the_table_starts_anyway(tmp_path, xdg_cache):
    need("espeak-ng", "libportaudio2", "alsa")
    at = serve_until(tmp_path, xdg_cache, ("hand-1", "hand-3", "field"), "hand-2 unopened", wait_s=2)
    # the verdict first; the engine's line (the reason is the referee's) once the game has its inputs
    assert 0 <= at["hand-2 missing"] < at["anyway"] < at["hand-2 unopened"], at
    assert at["ready"] == -1, at  # "ready" is not said of a table missing a reader
    # the others had connected before the verdict: none of them is named
    assert at["hand-1 missing"] == at["hand-3 missing"] == at["field missing"] == -1, at


def test_all_readers_present_ready_and_nothing_named_missing(tmp_path, xdg_cache):
    need("espeak-ng", "libportaudio2", "alsa")
    at = serve_until(tmp_path, xdg_cache, ("hand-1", "hand-2", "hand-3", "field"), "ready", wait_s=30)
    assert at["ready"] >= 0 and at["anyway"] == -1, at
    assert all(v == -1 for k, v in at.items() if "missing" in k or "unopened" in k), at
