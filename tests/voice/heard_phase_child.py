"""Child process: serves a game whose phases are timed after heard (マフィア42) through a
Daemon whose outputs are real PortAudio streams on virtual cards (ALSA's configuration must
be set before sounddevice is imported), on a clock the job moves, feeding the job's lines at
their times.  Prints the live log as one JSON line."""
import json
import sys
from pathlib import Path

from kikimimi.table.daemon import Daemon
from kikimimi.contract.script import Header
from kikimimi.voice import AudioOutput


def main() -> None:
    job = json.loads(Path(sys.argv[1]).read_text())
    now = [0.0]
    header = Header.parse(job["header"])
    daemon = Daemon(header, Path(job["journal"]), clock=lambda: now[0], heard_by_outputs=True)
    daemon.open()
    pending = [(float(at), line) for at, line in job["lines"]]
    with AudioOutput.from_config(job["audio"], header.players, header.lang, cache_dir=Path(job["cache_dir"])) as audio:
        daemon.clip_lengths(audio.clip_seconds)
        daemon.subscribe(lambda _item, events: audio.emit(events))
        daemon.announce(list(daemon.log))  # the game's opening, as the evening says it
        while now[0] < job["until"]:
            while pending and pending[0][0] <= now[0]:
                daemon.submit(pending.pop(0)[1])
            now[0] = round(now[0] + 0.05, 2)
            daemon.tick()
        audio.wait_idle(timeout=30)
        log = list(daemon.log)
    daemon.close()
    print(json.dumps(log))


if __name__ == "__main__":
    main()
