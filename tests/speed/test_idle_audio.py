"""An idle output pauses its PortAudio stream and the next phrase restarts it,
on a real sound server (PulseAudio null sinks, real-time clocks), without
hiding a device that is gone."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from support.virtual_sound import PulseNullSinks
from tests.voice.voice_needs import need

CHILD = Path(__file__).with_name("idle_mixer_child.py")


@pytest.fixture
def pulse(tmp_path):
    need("libportaudio2", "alsa", "pulseaudio", "libasound2-plugins")
    with PulseNullSinks(tmp_path / "pulse", {"kkspk": 2}) as server:
        yield server


def _run(pulse: PulseNullSinks, unplug: bool = False) -> dict:
    args = [sys.executable, str(CHILD), "kkspk"] + (["unplug"] if unplug else [])
    proc = subprocess.Popen(args, env=pulse.env(), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    if unplug:
        assert proc.stdout.readline().strip() == "unplug"
        pulse.unload_sink("kkspk")
        proc.stdin.write("go\n")
        proc.stdin.flush()
    out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err[-2000:]
    return json.loads(out.strip().splitlines()[-1])


def test_an_idle_stream_pauses_and_the_next_phrase_plays(pulse):
    pulse.record("kkspk")
    got = _run(pulse)
    pulse.stop_recording()
    assert got["paused"] and got["inactive"]
    assert got["problem_while_paused"] is None  # a pause is not a stall nor an unplug
    assert got["callbacks_while_paused"] == 0
    assert got["played"] and got["problem"] is None
    assert got["paused_again"] and got["pauses"] == 2
    heard = pulse.read("kkspk")[:, 0]
    assert np.abs(heard).max() > 0.4  # the tone really reached the sink


def test_a_device_gone_while_paused_is_reported_at_the_next_phrase(pulse):
    got = _run(pulse, unplug=True)
    assert got["paused"]
    assert not got["played"]
    assert got["problem"] and "plug it back in" in got["problem"]
