"""Child process: serves a game (the heard-claim game, or any registered one) through a
Daemon whose outputs are real PortAudio streams on virtual cards (ALSA's configuration must
be set before sounddevice is imported), on a clock the job moves; the job's `inputs` (script
lines) are submitted when the clock reaches their `t`.  Prints the live log as one JSON line."""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from heard_game import CLAIM  # noqa: E402

from kikimimi.contract import registry  # noqa: E402
from kikimimi.table.daemon import Daemon  # noqa: E402
from kikimimi.contract.script import Header  # noqa: E402
from kikimimi.voice import AudioOutput  # noqa: E402


def main() -> None:
    job = json.loads(Path(sys.argv[1]).read_text())
    registry.register(CLAIM)
    now = [0.0]
    daemon = Daemon(Header.parse(job["header"]), Path(job["journal"]), clock=lambda: now[0], heard_by_outputs=True)
    daemon.open()
    inputs = sorted(job.get("inputs", []), key=lambda line: line["t"])
    players = int(job["header"]["players"])
    with AudioOutput.from_config(job["audio"], players, "en", cache_dir=Path(job["cache_dir"])) as audio:
        daemon.clip_lengths(audio.clip_seconds)
        daemon.subscribe(lambda _item, events: audio.emit(events))
        daemon.announce(list(daemon.log))  # the game's opening, as the evening says it
        while now[0] < job["until"]:
            now[0] = round(now[0] + 0.05, 2)
            daemon.tick()
            while inputs and inputs[0]["t"] <= now[0]:
                daemon.submit(inputs.pop(0))
        audio.wait_idle(timeout=20)
        log = list(daemon.log)
    daemon.close()
    print(json.dumps(log))


if __name__ == "__main__":
    main()
