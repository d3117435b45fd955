"""Tag placed -> first audio frame of the right clip, through the real `kikimimi serve`.

The whole chain, as a table runs it: four PN532 readers emulated on
pseudo-terminals, each emulator in its own process (three hand readers and
the field reader), a `kikimimi serve` subprocess reading them through nfcpy,
the Trident engine and the journal, and four audio outputs (the speaker and
three earphones) on PulseAudio null sinks (real-time clocks, see
tests/support/virtual_sound.py).  The serve process writes one trace line per
clip's first frame in its audio callback (KIKIMIMI_TRACE); the emulator
process stamps the placement; both use CLOCK_MONOTONIC, shared by every
process.

    .venv/bin/python bench/end_to_end.py [--placements 300] [--idle-seconds 60] [--poll-ms 30]
                                         [--ndef-placements 30] [--several-trials 20]

Runs the chain twice, on the real-timing PN532 emulator (a real chip's time
per command, tests/support/chip_timing.py) and on the instant one, with
every piece enrolled in the tag map (one chip command a placement), then a
few placements of pieces read for their NDEF name.  Prints, for each, in one run: placement -> first frame (median, p95) on the hand
readers (earphones) and the field reader (speaker), and on hand readers whose
earphone had been silent long enough for its stream to pause; idle CPU of the serve
process with four readers and four outputs, beside `--voice text`; and the
nfcpy-only anchor (nfcpy's own `clf.sense` every poll and the NDEF read,
placed -> tag read, emulator in the same process: bench/reader_latency.py's
`nfcpy_latency`, the way the driver polled before it let the chip wait), on
both emulators, with nfcpy's chip commands per read (its full Type 2
activation); and the chip commands from placement to first frame.  Last,
several pieces on one reader (bench/reader_latency.py's `several_pieces`,
real-timing): two put down together both heard?  a piece put beside a
resting one: phantom lifts of the resting one, and its real lift heard;
beside nfcpy alone polling two resting pieces.
Targets: p95 <= 35 ms on the real-timing emulator, idle CPU <= 5 %
of a core; a piece not in the tag map read in <= 8 chip commands,
p95 <= 50 ms on the real-timing emulator; two pieces together both heard,
0 phantom lifts.
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the test harness (tests/support)

sys.path.insert(0, str(Path(__file__).resolve().parent))

SEATS = 3
HAND_PIECE = {1: "trident:heart-3", 2: "trident:spade-8", 3: "trident:clover-5"}
FIELD_PIECE = "trident:heart-4"  # in the deal: "finish the deal first" on the speaker
FIELD_UID = "04f1e1d0000001"
FIELD_GAP = 7.0  # s between field placements: the speaker's phrase (~5 s) is long and is not cut
QUIET_GAP = 4.5  # s between placements on one hand reader in the quiet phase (its phrase ~1 s, pause after 2 s)


def _emulator(path: str, conn, real: bool) -> None:
    """One reader, in its own process: place/remove on command, answer with the monotonic time."""
    from support.chip_timing import REAL
    from support.ntag import Ntag213
    from support.pn532_emulator import PN532Emulator

    emu = PN532Emulator(path, timing=REAL if real else None).start()
    conn.send("ready")
    placed_at = 0
    while True:
        msg = conn.recv()
        if msg[0] == "place":
            tag = Ntag213(msg[1], text=msg[2])
            placed_at = emu.command_count()
            emu.place(tag)
            conn.send(time.monotonic())
        elif msg[0] == "since":  # chip commands since the last placement
            conn.send(emu.command_count() - placed_at)
        elif msg[0] == "remove":
            emu.remove()
            conn.send(time.monotonic())
        elif msg[0] == "ready":  # opened by serve: waiting for a card, or polled a few times
            conn.send(emu.waiting_for_card or emu.commands["InListPassiveTarget"] >= 3)
        else:
            break
    emu.stop()
    conn.send("stopped")


class Reader:
    def __init__(self, path: str, real: bool) -> None:
        self.conn, child = multiprocessing.Pipe()
        self.proc = multiprocessing.Process(target=_emulator, args=(path, child, real), daemon=True)
        self.proc.start()
        if not self.conn.poll(15):
            raise SystemExit(f"emulator {path} did not start")
        self.conn.recv()
        self.free_at = 0.0

    def ask(self, *msg):
        self.conn.send(msg)
        return self.conn.recv()

    def stop(self) -> None:
        try:
            self.ask("stop")
        except (OSError, EOFError):
            pass
        self.proc.join(5)


def _config(tmp: Path, poll_ms: int | None, audio: bool, enrolled: bool = True) -> Path:
    poll = f"poll_ms = {poll_ms}\n" if poll_ms else ""
    tagmap = ""
    if enrolled:  # as `kikimimi tags enroll` leaves a table: every piece's uid in the tag map
        pieces = {**{f"04{s:012x}": HAND_PIECE[s] for s in HAND_PIECE}, FIELD_UID: FIELD_PIECE}
        (tmp / "tags.toml").write_text("[tags]\n" + "".join(f'"{u}" = "{p}"\n' for u, p in pieces.items()))
        tagmap = 'tagmap = "tags.toml"\n'
    text = ('[table]\ngame = "trident"\nplayers = 3\nlang = "en"\njournal = "journal.jsonl"\n' + tagmap)
    for s in range(1, SEATS + 1):
        text += f'[readers.hand-{s}]\nrole = "hand"\nseat = {s}\ndriver = "pn532"\npath = "{tmp}/hand-{s}"\n{poll}'
    text += f'[readers.field]\nrole = "field"\ndriver = "pn532"\npath = "{tmp}/field"\n{poll}'
    if audio:
        text += '[audio]\n[audio.outputs.speaker]\ndevice = "kkspk"\nchannels = [1, 2]\n'
        for s in range(1, SEATS + 1):
            text += f'[audio.outputs.seat-{s}]\ndevice = "kkear{s}"\nchannels = [1, 2]\n'
    path = tmp / "table.toml"
    path.write_text(text)
    return path


def _cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


def idle_cpu(pid: int, seconds: float) -> float:
    hz = os.sysconf("SC_CLK_TCK")
    c0, w0 = _cpu_ticks(pid), time.monotonic()
    time.sleep(seconds)
    return (_cpu_ticks(pid) - c0) / hz / (time.monotonic() - w0)


class Trace:
    def __init__(self, path: Path) -> None:
        self.path, self.pos, self.lines = path, 0, []

    def wait_for(self, output: str, key: str, after: float, timeout: float = 5.0) -> float:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.path.exists():
                with open(self.path) as fh:
                    fh.seek(self.pos)
                    chunk = fh.read()
                    done = chunk.rfind("\n") + 1
                    self.pos += len(chunk[:done].encode())
                for line in chunk[:done].splitlines():
                    t, out, k = line.split(" ", 2)
                    self.lines.append((float(t), out, k))
            for t, out, k in self.lines:
                if t >= after and out == output and k == key:
                    return t
            time.sleep(0.002)
        raise TimeoutError(f"no {key!r} on {output} within {timeout} s")


class Lifts:
    """The lifts the table heard, read from serve's journal, per reader ("hand-N", "field").

    A piece is put back on a reader only once its lift was heard: on a host starved by
    load a reader can be blind for a moment, and a piece lifted and put back within it
    is, rightly, a piece that never moved; the next placement would then never be heard
    and the bench would report a stall that is its own (docs/readers.md)."""

    def __init__(self, path: Path) -> None:
        self.path, self.pos, self.count = path, 0, {}

    def _read(self) -> None:
        if not self.path.exists():
            return
        with open(self.path, "rb") as fh:
            fh.seek(self.pos)
            chunk = fh.read()
        done = chunk.rfind(b"\n") + 1
        self.pos += done
        for line in chunk[:done].splitlines():
            if b'"removed": true' in line:
                obj = json.loads(line)
                name = f"hand-{obj['seat']}" if obj.get("reader") == "hand" else "field"
                self.count[name] = self.count.get(name, 0) + 1

    def heard(self, name: str) -> int:
        self._read()
        return self.count.get(name, 0)

    def wait_for(self, name: str, after: int, timeout: float = 5.0) -> None:
        end = time.monotonic() + timeout
        while self.heard(name) <= after:
            if time.monotonic() > end:
                raise TimeoutError(f"the lift on {name} not heard within {timeout} s")
            time.sleep(0.005)


SERVE_FROM = "KIKIMIMI_BENCH_SERVE_FROM"
# Runs `kikimimi.cli` from another checkout: the editable install's finder would
# otherwise import this worktree's code whatever sys.path says.
_FROM_LAUNCHER = ("import os, runpy, sys; d = os.environ['" + SERVE_FROM + "']; sys.path.insert(0, d); "
                  "sys.meta_path[:] = [f for f in sys.meta_path if 'editable' not in type(f).__module__]; "
                  "sys.argv[0] = 'kikimimi'; runpy.run_module('kikimimi.cli', run_name='__main__')")


def _serve(config: Path, env: dict, voice: str, trace: Path | None) -> subprocess.Popen:
    env = dict(env)
    if trace is not None:
        env["KIKIMIMI_TRACE"] = str(trace)
    launch = ["-c", _FROM_LAUNCHER] if env.get(SERVE_FROM) else ["-m", "kikimimi.cli"]
    # serve's stderr goes to a file, never to a pipe nobody reads while it runs (a full pipe
    # would block serve's next warning), and stays there to read after a stall
    with open(config.parent / "serve.err", "w") as err:
        return subprocess.Popen([sys.executable, *launch, "serve", str(config), "--voice", voice, "--quiet"],
                                env=env, cwd=config.parent, stdout=subprocess.DEVNULL, stderr=err, text=True)


def _stop(proc: subprocess.Popen, config: Path) -> str:
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    return _serve_err(config)


def _serve_err(config: Path) -> str:
    try:
        return (config.parent / "serve.err").read_text(errors="replace")
    except OSError:
        return ""


def _wait_polling(readers: dict[str, Reader], proc: subprocess.Popen, config: Path, timeout: float = 600) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise SystemExit(f"serve exited: {_serve_err(config)[-2000:]}")
        if all(r.ask("ready") for r in readers.values()):
            return
        time.sleep(0.1)
    raise SystemExit("readers not polling after {timeout:g} s (clips still rendering?)".format(timeout=timeout))


def chain(tmp: Path, env: dict, placements: int, poll_ms: int | None, idle_seconds: float, quiet: int,
          real: bool, enrolled: bool = True) -> dict:
    tmp.mkdir(parents=True, exist_ok=True)
    config = _config(tmp, poll_ms, audio=True, enrolled=enrolled)
    names = [f"hand-{s}" for s in range(1, SEATS + 1)] + ["field"]
    readers = {n: Reader(str(tmp / n), real) for n in names}
    trace = tmp / "trace.txt"
    proc = _serve(config, env, "audio", trace)
    hand, field, after_quiet, commands = [], [], [], []
    try:
        _wait_polling(readers, proc, config)
        time.sleep(1.0)
        cpu = idle_cpu(proc.pid, idle_seconds)
        tr = Trace(trace)
        lifts = Lifts(tmp / "journal.jsonl")
        for s in range(1, SEATS + 1):  # each seat draws its piece: later scans of it say "hand-piece"
            r = readers[f"hand-{s}"]
            t0 = r.ask("place", f"04{s:012x}", HAND_PIECE[s])
            tr.wait_for(f"seat-{s}", "drawn", t0, timeout=15)
            before = lifts.heard(f"hand-{s}")
            r.ask("remove")
            lifts.wait_for(f"hand-{s}", before)
            r.free_at = time.monotonic() + 0.5
        rng = random.Random(18)
        last_field = 0.0
        for k in range(placements):
            now = time.monotonic()
            if now - last_field >= FIELD_GAP:
                name, output, key, piece, uid = "field", "speaker", "deal-short", FIELD_PIECE, FIELD_UID
            else:
                s = 1 + k % SEATS
                name, output, key, piece, uid = f"hand-{s}", f"seat-{s}", "hand-piece", HAND_PIECE[s], f"04{s:012x}"
            r = readers[name]
            time.sleep(max(0.0, r.free_at - time.monotonic()) + rng.uniform(0, 0.04))  # any point of the poll cycle
            t0 = r.ask("place", uid, piece)
            t1 = tr.wait_for(output, key, t0)
            (field if name == "field" else hand).append(t1 - t0)
            commands.append(r.ask("since"))
            if name == "field":
                last_field = t0
            before = lifts.heard(name)
            r.ask("remove")
            lifts.wait_for(name, before)
            r.free_at = time.monotonic() + 0.4  # past the removal debounce
        for k in range(quiet):  # each earphone silent for > PAUSE_AFTER_S: its stream is paused
            s = 1 + k % SEATS
            r = readers[f"hand-{s}"]
            time.sleep(QUIET_GAP / SEATS + rng.uniform(0, 0.04))
            t0 = r.ask("place", f"04{s:012x}", HAND_PIECE[s])
            t1 = tr.wait_for(f"seat-{s}", "hand-piece", t0)
            after_quiet.append(t1 - t0)
            before = lifts.heard(f"hand-{s}")
            r.ask("remove")
            lifts.wait_for(f"hand-{s}", before)
    finally:
        err = _stop(proc, config)
        for r in readers.values():
            r.stop()
    if proc.returncode not in (0, -signal.SIGTERM):
        print(f"serve: {err[-1000:]}", file=sys.stderr)
    return {"hand": hand, "field": field, "quiet": after_quiet, "idle_cpu": cpu, "commands": commands,
            "lost": _lost(tmp / "journal.jsonl")}


def _lost(journal: Path) -> int:
    """Readers the table heard lost during the run (each one a reopen, and "reader lost" said)."""
    try:
        return sum(1 for line in journal.read_text().splitlines() if '"lost": true' in line)
    except OSError:
        return 0


def text_idle(tmp: Path, env: dict, poll_ms: int | None, idle_seconds: float) -> float:
    tmp.mkdir()
    config = _config(tmp, poll_ms, audio=False)
    readers = {n: Reader(str(tmp / n), True) for n in [f"hand-{s}" for s in range(1, SEATS + 1)] + ["field"]}
    proc = _serve(config, env, "text", None)
    try:
        _wait_polling(readers, proc, config)
        time.sleep(1.0)
        return idle_cpu(proc.pid, idle_seconds)
    finally:
        _stop(proc, config)
        for r in readers.values():
            r.stop()


def _fmt(xs: list[float]) -> str:
    if not xs:
        return "no placements"
    ms = sorted(x * 1000 for x in xs)
    p95 = ms[min(len(ms) - 1, int(round(0.95 * len(ms))) - 1)]
    return f"{len(ms)} placements: median {statistics.median(ms):.1f} ms, p95 {p95:.1f} ms, max {ms[-1]:.1f} ms"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--placements", type=int, default=300)
    ap.add_argument("--idle-seconds", type=float, default=60.0)
    ap.add_argument("--poll-ms", type=int, default=None, help="readers' poll_ms (default: the shipped default)")
    ap.add_argument("--serve-from", default=None, metavar="DIR",
                    help="run serve from another checkout (e.g. `git archive main | tar -x -C DIR`): a before figure")
    ap.add_argument("--ndef-placements", type=int, default=30,
                    help="placements of pieces not in the tag map (read for their NDEF name), real-timing; 0: none")
    ap.add_argument("--several-trials", type=int, default=20,
                    help="trials of two pieces on one reader (together; one beside a resting one); 0: none")
    ap.add_argument("--quiet-placements", type=int, default=30,
                    help="hand placements after each earphone was silent for %g s (its stream paused)" % QUIET_GAP)
    ap.add_argument("--keep", default=None, metavar="DIR",
                    help="work in DIR (made if missing) and leave it: each chain's journal, trace and serve.err")
    a = ap.parse_args()
    from support.virtual_sound import PulseNullSinks, missing_tools

    gone = missing_tools("pulseaudio", "espeak-ng")
    if gone:
        sys.exit(f"needs {', '.join(gone)}: apt-get install pulseaudio espeak-ng libasound2-plugins")
    import reader_latency
    from support.chip_timing import REAL

    load0 = f"{os.getloadavg()[0]:.1f}"
    base_env = dict(os.environ)
    if a.serve_from:
        base_env[SERVE_FROM] = str(Path(a.serve_from).resolve())
    runs: dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as td:
        tmp = Path(a.keep or td)
        tmp.mkdir(parents=True, exist_ok=True)
        devices = {"kkspk": 2, **{f"kkear{s}": 2 for s in range(1, SEATS + 1)}}
        plan = [("real-timing emulator", True, True, a.placements, a.quiet_placements),
                ("instant emulator", False, True, a.placements, a.quiet_placements)]
        if a.ndef_placements:
            plan.append(("real-timing, pieces not in the tag map (NDEF read)", True, False, a.ndef_placements, 0))
        for k, (label, real, enrolled, n, quiet) in enumerate(plan):
            with PulseNullSinks(tmp / f"pulse-{k}", devices) as pulse:
                env = {**pulse.env(), **{key: v for key, v in base_env.items() if key == SERVE_FROM}}
                idle = a.idle_seconds if enrolled else 1.0
                runs[label] = chain(tmp / f"chain-{k}", env, n, a.poll_ms, idle, quiet, real, enrolled)
                # kept at once (with --keep): a later stage that stops the run does not take them along
                (tmp / f"chain-{k}" / "result.json").write_text(json.dumps({"label": label, **runs[label]}))
        text_cpu = text_idle(tmp / "text", base_env, a.poll_ms, a.idle_seconds)
        anchor_poll = a.poll_ms or 30
        anchor_commands: dict[str, list[int]] = {"real-timing": [], "instant": []}
        anchor_faults: dict[str, list[str]] = {"real-timing": [], "instant": []}
        anchors = {label: reader_latency.nfcpy_latency(max(50, a.placements // 3), anchor_poll, str(tmp),
                                                       timing=REAL if real else None,
                                                       commands=anchor_commands[label],
                                                       faults=anchor_faults[label])
                   for label, real in (("real-timing", True), ("instant", False))}
        stage_commands: list[int] = []
        stage = reader_latency.latency(max(50, a.placements // 3), anchor_poll, str(tmp), timing=REAL,
                                       commands=stage_commands)
        several = (reader_latency.several_pieces(a.several_trials, anchor_poll, str(tmp), timing=REAL)
                   if a.several_trials else None)
    poll = f"poll {a.poll_ms} ms" if a.poll_ms else "default poll"
    print(f"load average (1 min) at the start {load0}, at the end {os.getloadavg()[0]:.1f}; {os.cpu_count()} CPUs")
    code = f"serve from {a.serve_from}" if a.serve_from else "serve from this checkout"
    print(f"placed -> first audio frame, real serve ({code}), 4 emulated PN532 (own processes), "
          f"4 outputs on null sinks, {poll}; pieces enrolled in the tag map unless said:")
    for label, got in runs.items():
        cmds = sorted(got["commands"])
        print(f"{label}:")
        print(f"  hand reader -> earphone  {_fmt(got['hand'])}")
        print(f"  field reader -> speaker  {_fmt(got['field'])}")
        if got["quiet"]:
            print(f"  hand reader -> earphone silent {QUIET_GAP:g} s before (now: stream paused)  "
                  f"{_fmt(got['quiet'])}")
        print(f"  all                      {_fmt(got['hand'] + got['field'] + got['quiet'])}")
        print(f"  readers lost during the run: {got['lost']}")
        if cmds:
            print(f"  chip commands, placement -> first audio frame: median {statistics.median(cmds):g}, "
                  f"max {cmds[-1]}")
        if "NDEF" not in label:
            print(f"  idle CPU of serve over {a.idle_seconds:g} s, 4 readers + 4 audio outputs: "
                  f"{got['idle_cpu'] * 100:.1f}% of a core")
    print(f"idle CPU of serve, 4 real-timing readers, text only: {text_cpu * 100:.1f}% of a core")
    for label, anchor in anchors.items():
        cmds = sorted(anchor_commands[label])
        print(f"anchor, same run: nfcpy alone + {label} emulator in one process, clf.sense every {anchor_poll} ms, "
              f"placed -> NDEF read: {_fmt(anchor)}; chip commands placed -> read: median "
              f"{statistics.median(cmds):g}, max {cmds[-1]}; nfcpy's own faults (a late ACK: EIO): "
              f"{len(anchor_faults[label])}")
    cmds = sorted(stage_commands)
    print(f"reader stage, same run, pieces not in the tag map (our driver + runner + real-timing emulator in one "
          f"process), placed -> input: {_fmt(stage)}; chip commands placed -> input: median "
          f"{statistics.median(cmds):g}, max {cmds[-1]} (+1: the InListPassiveTarget already waiting)")
    if several is not None:
        print(f"several pieces on one reader (driver + runner, real-timing emulator, poll {anchor_poll} ms), "
              f"{several['trials']} trials:")
        print(f"  two put down together: both heard in {several['both']} of {several['trials']}; "
              f"the second heard after {_fmt(several['second'])}")
        print(f"  one put beside a resting one (the newcomer wins the anticollision): "
              f"{several['phantoms']} phantom lifts over 10 checks each; the real lift heard after "
              f"{_fmt(several['lift'])} (debounce 150 ms)")
        print(f"  anchor, same run: nfcpy alone, clf.sense 20 times over two resting pieces: "
              f"{several['anchor_seen']} of 2 ever seen")
    return 0


if __name__ == "__main__":
    sys.exit(main())
