"""The seam the box of parts puts its USB reader through: a child process started with
tests/table/usb_seam on PYTHONPATH opens `usb:PORT` with kikimimi's own opener and nfcpy's
own driver, and the chip it talks to is the emulator in this process (its counters and
the tag placed here are the ones the child sees; a second child finds the same chip)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from support.ntag import Ntag213
from support.usb_pn53x import Pn533Emulator
from support.usb_socket import UsbSocketServer

SEAM = Path(__file__).with_name("usb_seam")
CHILD = """
import sys
from kikimimi.readers.usb_readers import open_usb_reader
clf = open_usb_reader("usb:1-1.4")
tag = clf.sense(__import__("nfc.clf", fromlist=["RemoteTarget"]).RemoteTarget("106A"))
print(type(clf.device).__module__, tag.sdd_res.hex() if tag is not None else "-")
clf.close()
"""


def _child(tmp_path: Path, server: UsbSocketServer) -> subprocess.CompletedProcess:
    env = {**os.environ, **server.env(), "KIKIMIMI_SYSFS": str(tmp_path / "sys"),
           "PYTHONPATH": os.pathsep.join([str(SEAM), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, timeout=60)


def test_a_child_opens_the_reader_this_process_holds(tmp_path):
    emu = Pn533Emulator(tmp_path / "sys" / "bus" / "usb" / "devices", "1-1.4")
    server = UsbSocketServer(tmp_path / "usb", [emu]).start()
    try:
        first = _child(tmp_path, server)
        assert first.returncode == 0, first.stderr[-2000:]
        assert first.stdout.split() == ["nfc.clf.pn533", "-"]  # nfcpy's own PN533 driver; nothing placed
        asked = emu.commands["GetFirmwareVersion"]
        assert asked >= 1 and emu.opens == 1
        emu.place(Ntag213("04b00000000001"))
        second = _child(tmp_path, server)  # a second child: the same chip, the tag placed here
        assert second.returncode == 0, second.stderr[-2000:]
        assert second.stdout.split() == ["nfc.clf.pn533", "04b00000000001"]
        assert emu.opens == 2 and emu.commands["GetFirmwareVersion"] > asked
        emu.unplug()  # gone from its port: the child says so in one line
        gone = _child(tmp_path, server)
        assert gone.returncode != 0 and "nothing is plugged into USB port 1-1.4" in gone.stderr
    finally:
        server.stop()
