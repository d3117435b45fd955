"""A reader kind is one module and one row: `linereader_kind.py` (this folder), installed as
an outside package installs it (an entry point in the `kikimimi.readers` group, in a
dist-info on the path), is taken by `table setup`, `doctor`, `serve` and `service install`,
none of them edited for it (docs/readers.md, "A new reader kind").

The set-up is the real spoken one (PulseAudio null sinks, test players who act on what their
own earphone plays), on line readers instead of PN532s; the table file it writes is then
checked by doctor, served (a scan on the field reader reaches the journal), and installed
as a boot service whose unit lets the kind's own device classes through.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
import tomllib
from pathlib import Path

import pytest

from kikimimi.testkit.script import journal_inputs
from linereader_kind import KIND
from support.ntag import Ntag213
from support.pty_device import PtyDevice
from support.usbtree import FakeUsbTree
from support.virtual_sound import PulseNullSinks
from listener import Person, Table
from test_service import Place, install, unprivileged_user, verify
from test_setup_by_ear import (EAR_ANN, EAR_BOB, FIELD_READER, IDS, RATE, READER_ANN, READER_BOB, SEATS,
                               SPEAKER_CARD, WPM, check_bound, phrase_clips)
from voice_needs import need

HERE = Path(__file__).resolve().parent


class LineReaderEmulator(PtyDevice):
    """A line reader on a pseudo-terminal: `place(tag)` prints +UID, `remove()` prints -UID."""

    kind = "linereader"

    def __init__(self, link: str) -> None:
        super().__init__(link)
        self._lock = threading.Lock()
        self.resting: Ntag213 | None = None

    def place(self, tag: Ntag213) -> None:
        with self._lock:
            self.resting = tag
            self.link.write(b"+" + tag.uid.hex().upper().encode() + b"\n")

    def remove(self, tag: Ntag213 | None = None) -> None:
        with self._lock:
            if self.resting is not None:
                self.link.write(b"-" + self.resting.uid.hex().upper().encode() + b"\n")
            self.resting = None

    def _serve(self) -> None:
        while not self._stop.is_set():
            self.link.read(0.05)  # the host writes nothing to a line reader; drained all the same


def installed(site: Path) -> dict[str, str]:
    """The kind installed as a package installs it: a dist-info naming its entry point (no
    kikimimi file touched), and the environment a child process finds it in."""
    info = site / "kikimimi_linereader-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: kikimimi-linereader\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[kikimimi.readers]\nlinereader = linereader_kind:KIND\n")
    return {"PYTHONPATH": os.pathsep.join([str(site), str(HERE), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)}


def test_the_kind_is_found_by_its_entry_point_and_only_then(tmp_path):
    probe = "from kikimimi.readers.registry import kind, names; print(kind('linereader') is not None, names())"
    without = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert without.stdout.startswith("False"), without.stderr
    env = {**os.environ, **installed(tmp_path / "site")}
    found = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, env=env)
    assert found.stdout.startswith("True") and "'sim', 'linereader')" in found.stdout, found.stderr
    # a table file naming it loads only where it is installed, its own key checked with the rest
    table = tmp_path / "t.toml"
    table.write_text('[table]\ngame = "trident"\nplayers = 3\n' + "".join(
        f'[readers.hand-{s}]\nrole = "hand"\nseat = {s}\ndriver = "linereader"\npath = "/dev/ttyACM{s}"\n'
        for s in (1, 2, 3)) + '[readers.field]\nrole = "field"\ndriver = "linereader"\npath = "/dev/ttyACM0"\n'
        'settle_ms = 0\n')
    load = f"from kikimimi.table.config import load_table_config as l; l({str(table)!r})"
    refused = subprocess.run([sys.executable, "-c", load], capture_output=True, text=True, timeout=60, env=env)
    assert "reader field: settle_ms must be a whole number from 5 to 1000, not 0" in refused.stderr
    bare = subprocess.run([sys.executable, "-c", load], capture_output=True, text=True, timeout=60)
    assert "readers.hand-1.driver: must be one of pn532, usb, rdm6300, sim, not 'linereader'" in bare.stderr


def test_register_makes_a_kind_known_in_this_process(tmp_path):
    from kikimimi.readers import registry
    from kikimimi.readers.factory import make_driver

    assert registry.kind("linereader") is None
    registry.register(KIND)
    try:
        driver = make_driver("field", {"driver": "linereader", "path": str(tmp_path / "line")})
        assert driver.path == str(tmp_path / "line") and registry.section_keys()["settle_ms"].check(50)
    finally:
        registry.unregister("linereader")
    assert registry.kind("linereader") is None


def _boot(root: Path, card_order, tty_order):
    tree = FakeUsbTree(root)
    tree.boot(card_order, IDS)
    sink_of = {port: IDS[k] for k, port in enumerate(card_order)}
    readers = {port: LineReaderEmulator(str(root / f"ttyACM{k}")).start() for k, port in enumerate(tty_order)}
    by_path = tree.plug_serial({port: emu.path for port, emu in readers.items()})
    pulse = PulseNullSinks(root / "pulse", {i: 2 for i in IDS}, rate=RATE)
    pulse.start()
    for i in IDS:
        pulse.record(i)
    return tree, pulse, readers, sink_of, by_path


def _wait(predicate, timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < end, "condition not reached"
        time.sleep(0.05)


@pytest.fixture(scope="module")
def clips(tmp_path_factory):
    need("espeak-ng", "libportaudio2", "alsa", "pulseaudio", "libasound2-plugins")
    cache = tmp_path_factory.mktemp("linereader-clips")
    return cache, phrase_clips(cache)


# the listeners hear phrases in PulseAudio recordings in real time (test_setup_by_ear.py says why it may rerun)
@pytest.mark.flaky(reruns=1)
def test_setup_doctor_serve_and_service_take_a_new_kind(tmp_path, clips):
    cache, templates = clips
    kind_env = installed(tmp_path / "site")
    tree, pulse, readers, sink_of, by_path = _boot(tmp_path / "box", [EAR_ANN, SPEAKER_CARD, EAR_BOB],
                                                   [READER_BOB, FIELD_READER, READER_ANN])
    spk, ear = sink_of[SPEAKER_CARD], {"ann": sink_of[EAR_ANN], "bob": sink_of[EAR_BOB]}
    people = [
        Person("helper", readers[FIELD_READER], {spk: {"setup-speaker-prompt"}}),
        Person("ann", readers[READER_ANN], {ear["ann"]: {"setup-earphone-prompt"}, spk: {f"seat-{SEATS['ann']}"}}),
        Person("bob", readers[READER_BOB], {ear["bob"]: {"setup-earphone-prompt"}, spk: {f"seat-{SEATS['bob']}"}}),
    ]
    table = Table({i: pulse.raw_path(i) for i in IDS}, {i: 2 for i in IDS}, templates, people, RATE).start()
    out = tmp_path / "box.toml"
    env = {**tree.env(pulse.env()), **kind_env}
    try:
        try:
            # 1. table setup: --driver names the new kind, found by port, probed, bound by ear
            setup = subprocess.run(
                [sys.executable, "-m", "kikimimi.cli", "table", "setup", str(out), "--game", "trident",
                 "--players", "2", "--lang", "en", "--rate", str(WPM), "--answer-seconds", "3", "--no-enrol",
                 "--driver", "linereader", "--serial-dir", str(tree.by_path), "--cache-dir", str(cache),
                 "--udev", str(tmp_path / "box.rules")],
                env=env, capture_output=True, text=True, timeout=240)
            _wait(lambda: all(any(ph.startswith("you-are") for _, ph in p.heard) for p in people[1:]), 90.0)
        finally:
            table.stop()
            pulse.stop()
        check_bound(setup, out, people, by_path, table)
        written = tomllib.loads(out.read_text())["readers"]
        assert {s["driver"] for s in written.values()} == {"linereader"}
        assert setup.stdout.count("[ok ] reader at USB 2.") == 3  # each probed by the kind's own probe
        assert 'SYMLINK+="kikimimi-field"' in (tmp_path / "box.rules").read_text()  # a tty: udev names it

        # 2. doctor: each reader there and answering, and the kind's own check, through the kind
        doctor = subprocess.run([sys.executable, "-m", "kikimimi.cli", "doctor", str(out)],
                                env=env, capture_output=True, text=True, timeout=120)
        for rid in written:
            assert f"[ok ] reader {rid}: linereader at {written[rid]['path']}" in doctor.stdout, doctor.stdout
            assert f"reader {rid} answers" in doctor.stdout
        assert "[ok ] line readers: 3 configured: field, hand-1, hand-2" in doctor.stdout
        assert "reader identity: every reader is named by something a reboot keeps" in doctor.stdout

        # 3. serve: the kind's driver opens each reader; a piece on the field reader is a journal input
        piece = Ntag213("04c0ffee000042")
        serve = subprocess.Popen([sys.executable, "-m", "kikimimi.cli", "serve", str(out), "--voice", "text",
                                  "--quiet"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        journal = tmp_path / "var" / "box.jsonl"
        try:
            readers[FIELD_READER].place(piece)
            _wait(lambda: journal.exists() and any(i.get("uid") == piece.uid_hex for i in journal_inputs(journal)))
        finally:
            serve.send_signal(signal.SIGTERM)
            assert serve.wait(timeout=60) == 0, serve.stderr.read() if serve.stderr else ""
        got = [i for i in journal_inputs(journal) if i.get("uid") == piece.uid_hex]
        assert got[0]["reader"] == "field" and "seat" not in got[0]
    finally:
        for emu in readers.values():
            emu.stop()

    # 4. service install: the unit lets through the classes the kind declares, and systemd accepts it
    place = Place()
    try:
        site = place.dir / "site"
        installed(site)
        next(Path(place.python).parent.parent.glob("lib/python*/site-packages")).joinpath(
            "linereader.pth").write_text(f"{site}\n{HERE}\n")  # the service's interpreter has it installed too
        copy = place.table(out, "box.toml")
        proc = subprocess.run([sys.executable, "-m", "kikimimi.cli", "service", "install", str(copy), "--user",
                               unprivileged_user(), "--unit-dir", str(place.dir), "--python", place.python],
                              capture_output=True, text=True, timeout=120, cwd="/", env={**os.environ, **kind_env})
        assert proc.returncode == 0, proc.stderr
        text = (place.dir / "kikimimi-box.service").read_text()
        allowed = [line for line in text.splitlines() if line.startswith("DeviceAllow")]
        assert allowed[0] == "DeviceAllow=char-ttyACM rw" and "DeviceAllow=char-ttyUSB rw" not in allowed
        assert "DeviceAllow=char-alsa rw" in allowed and "AF_NETLINK" not in text
        assert verify(place.dir / "kikimimi-box.service") == []
        sees = subprocess.run([place.python, "-c", "from kikimimi.readers.registry import kind; "
                               "print(kind('linereader').summary)"], capture_output=True, text=True, timeout=60)
        assert sees.stdout.strip() == KIND.summary, sees.stderr  # what the unit runs finds the kind
    finally:
        import shutil

        shutil.rmtree(place.dir, ignore_errors=True)
