"""Child of test_mixer_stall.py: one DeviceMixer whose sound server stops answering for a while.

Runs in its own interpreter because PortAudio lists devices once, at import,
from the ALSA configuration the test's environment names.  Talks to the test
line by line on stdin/stdout; prints one JSON line at the end.
"""
import json
import sys
import time

import numpy as np

from kikimimi.voice.devices import find_device
from kikimimi.voice.mixer import DeviceMixer, Item, Lane

STALL_S = 0.5
GUARD_S = 30.0  # a hang guard only: each wait below ends on its condition


def until(pred, timeout=GUARD_S):
    end = time.monotonic() + timeout
    while not pred() and time.monotonic() < end:
        time.sleep(0.005)
    return pred()


def say(line: str) -> None:
    print(line, flush=True)
    sys.stdin.readline()


def main() -> None:
    dev = find_device(sys.argv[1])
    lane = Lane("seat-1", (0, 1), 1.0)
    mixer = DeviceMixer(dev.index, dev.name, dev.samplerate, 2, [lane], pause_after_s=0)
    out: dict = {}
    try:
        out["running"] = until(lambda: mixer.callbacks > 5)
        say("stop the server")  # the test SIGSTOPs PulseAudio: the callbacks starve
        # no callback for STALL_S, seen by the mixer's own check (as the table's loop calls it)
        out["stalled_problem"] = None
        out["noticed"] = until(lambda: mixer.check(stall_after=STALL_S) is not None
                               or getattr(mixer, "recoveries", 0) > 0)
        out["stalled_problem"] = mixer.problem
        out["recoveries"] = getattr(mixer, "recoveries", 0)  # (so that without the fix the test says why)
        out["notes"] = list(getattr(mixer, "notes", []))
        tone = (0.5 * np.sin(np.arange(9600) * 2 * np.pi * 440 / dev.samplerate)).astype(np.float32)
        lane.push(Item("tone", time.perf_counter(), tone))  # a phrase said while the device is stalled
        say("go on")  # the test SIGCONTs PulseAudio
        out["played"] = until(lambda: "tone" in lane.played or mixer.check(stall_after=STALL_S) is not None)
        out["played"] = "tone" in lane.played
        out["recovered"] = until(lambda: not getattr(mixer, "stalled", False) and mixer.stream.active)
        c1 = mixer.callbacks
        out["callbacks_after"] = until(lambda: mixer.callbacks > c1 + 5)
        out["problem"] = mixer.check(stall_after=STALL_S)
    finally:
        mixer.close()
    print(json.dumps(out), flush=True)


if __name__ == "__main__":
    main()
