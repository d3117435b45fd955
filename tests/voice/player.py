"""Child process for the device tests: plays a job through AudioOutput.

ALSA reads its configuration once, when PortAudio starts, so the virtual
devices' ALSA_CONFIG_PATH must be in the environment before sounddevice is
imported: the tests run this file in a fresh interpreter with it set.

Usage: python player.py JOB.json  ->  prints one JSON line with what happened.
Job: {"audio": {...}, "players": N, "lang": "en", "cache_dir": "...",
      "steps": [{"emit": [events], "cause": N|null} | {"wait": seconds} |
                {"sleep": seconds} | {"run": [argv]}]}
"""
import json
import subprocess
import sys
import time
from pathlib import Path

from kikimimi.voice import AudioOutput, available


def main() -> None:
    job = json.loads(Path(sys.argv[1]).read_text())
    result = {"available": available(), "problems": [], "latencies": []}
    if job.get("default_device"):
        out = AudioOutput.default_device(job["players"], job["lang"], job.get("listen", ("table", "seat:1")),
                                         cache_dir=Path(job["cache_dir"]))
    else:
        out = AudioOutput.from_config(job["audio"], job["players"], job["lang"], cache_dir=Path(job["cache_dir"]))
    with out:
        result["health_before"] = out.health()
        result["rates"] = {name: out.lane_device[name].samplerate for name in out.lanes}
        texts = [e["text"] for s in job["steps"] for e in s.get("emit", []) if e.get("type") == "say"]
        out.prepare(texts, progress=False)
        for step in job["steps"]:
            if "emit" in step:
                result["problems"] += out.emit(step["emit"], cause_hand_seat=step.get("cause"))
            elif "wait" in step:
                out.wait_idle(timeout=step["wait"])
            elif "sleep" in step:
                time.sleep(step["sleep"])
            elif "run" in step:
                subprocess.run(step["run"], check=False, capture_output=True, timeout=10)
        result["health_after"] = out.health()
        result["problems"] += out.emit([])
        result["latencies"] = list(out.latencies)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
