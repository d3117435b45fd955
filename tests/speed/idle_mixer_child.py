"""Child of test_idle_audio.py: one DeviceMixer on a virtual device, paused and woken.

Runs in its own interpreter because PortAudio lists devices once, at import,
from the ALSA configuration the test's environment names.  Prints one JSON line.
"""
import json
import sys
import time

import numpy as np

from kikimimi.voice.devices import find_device
from kikimimi.voice.mixer import DeviceMixer, Item, Lane


def until(pred, timeout=3.0):
    end = time.monotonic() + timeout
    while not pred() and time.monotonic() < end:
        time.sleep(0.005)
    return pred()


def main() -> None:
    device, unplug = sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else ""
    dev = find_device(device)
    lane = Lane("speaker", (0, 1), 1.0)
    mixer = DeviceMixer(dev.index, dev.name, dev.samplerate, 2, [lane], pause_after_s=0.3)
    out: dict = {}
    try:
        out["paused"] = until(lambda: mixer.paused)
        time.sleep(0.1)
        out["inactive"] = not mixer.stream.active
        out["problem_while_paused"] = mixer.check(stall_after=0.05)
        c1 = mixer.callbacks
        time.sleep(0.3)
        out["callbacks_while_paused"] = mixer.callbacks - c1
        if unplug:
            print("unplug", flush=True)
            sys.stdin.readline()
        tone = (0.5 * np.sin(np.arange(4800) * 2 * np.pi * 440 / dev.samplerate)).astype(np.float32)
        lane.push(Item("tone", time.perf_counter(), tone))
        t0 = time.monotonic()
        mixer.wake()
        out["played"] = until(lambda: "tone" in lane.played or mixer.check() is not None)
        out["played"] = "tone" in lane.played
        out["first_frame_ms"] = (time.monotonic() - t0) * 1000
        out["paused_again"] = until(lambda: mixer.paused or mixer.check() is not None)
        out["problem"] = mixer.check()
        out["pauses"] = mixer.pauses
    finally:
        mixer.close()
    print(json.dumps(out))


if __name__ == "__main__":
    main()
