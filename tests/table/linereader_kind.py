"""A reader kind from outside kikimimi, in one module: a serial reader that prints a line per
tag ("+04A1B2C3D4E5F6" put down, "-04A1B2C3D4E5F6" lifted), as many cheap USB CDC readers do.

It is what docs/readers.md ("A new reader kind") tells an author to write: one `ReaderKind`
with its name, keys, driver, discovery, probe, doctor checks and device classes, made known
by one entry point (`linereader = "linereader_kind:KIND"` in the `kikimimi.readers` group).
`test_a_new_reader_kind.py` installs it that way and runs `table setup`, `doctor`, `serve`
and `service install` with it, none of them edited for it (its device, on a pseudo-terminal,
is the test's own).
"""
from __future__ import annotations

import os
import select
import threading
import time
from collections.abc import Collection, Mapping
from typing import Any

from kikimimi.contract.finding import Check
from kikimimi.readers import device_nodes
from kikimimi.readers.base import Emit, RawEvent
from kikimimi.readers.kind import MILLISECONDS, ReaderKind, Where, device_path, retry_ms, whole

MAX_LINE = 64  # a longer line is noise: dropped


class LineReaderDriver:
    """Opens the line, says `connected`, turns each +UID / -UID line into `placed` / `removed`;
    a line that fails is `lost`, and it is opened again every `retry_ms`."""

    def __init__(self, reader: str, path: str, retry_ms: int, settle_ms: int) -> None:
        self.reader, self.path = reader, path
        self.retry_s, self.settle_s = retry_ms / 1000, settle_ms / 1000

    def run(self, emit: Emit, stop: threading.Event) -> None:
        while not stop.is_set():
            try:
                fd = os.open(self.path, os.O_RDONLY | os.O_NOCTTY | os.O_NONBLOCK)
            except OSError as exc:
                emit(RawEvent(self.reader, "lost", time.monotonic(),
                              detail=f"cannot open {self.path}: {exc.strerror or exc}"))
                stop.wait(self.retry_s)
                continue
            emit(RawEvent(self.reader, "connected", time.monotonic()))
            try:
                self._read(fd, emit, stop)
            except OSError as exc:
                emit(RawEvent(self.reader, "lost", time.monotonic(), detail=f"{self.path}: {exc.strerror or exc}"))
                stop.wait(self.retry_s)
            finally:
                os.close(fd)

    def _read(self, fd: int, emit: Emit, stop: threading.Event) -> None:
        pending = b""
        while not stop.is_set():
            ready, _, _ = select.select([fd], [], [], self.settle_s)
            if not ready:
                continue
            pending += os.read(fd, 256)
            *lines, pending = pending.split(b"\n")
            pending = pending[-MAX_LINE:]
            for line in lines:
                text = line.strip().decode("ascii", "replace").lower()
                if len(text) > 1 and text[0] in "+-" and all(c in "0123456789abcdef" for c in text[1:]):
                    emit(RawEvent(self.reader, "placed" if text[0] == "+" else "removed", time.monotonic(),
                                  uid=text[1:]))


def _open(reader_id: str, section: Mapping[str, Any], known: Collection[str]) -> LineReaderDriver:
    path = device_path(reader_id, section)
    return LineReaderDriver(reader_id, path, retry_ms(reader_id, section),
                            whole(reader_id, section, "settle_ms", 50, 5, 1000))


def _probe(name: str, section: Mapping[str, Any], where: Where) -> Check:
    path = str(section.get("path", ""))
    held = device_nodes.held(name, path, where.proc)
    if held:
        return held
    try:
        os.close(os.open(path, os.O_RDONLY | os.O_NOCTTY | os.O_NONBLOCK))
    except OSError as exc:
        return Check(name, False, f"{path} does not open ({exc.strerror or exc})", "plug the line reader in")
    return Check(name, True, f"a line reader opens at {path} (it speaks only when a tag is put down)")


KIND = ReaderKind(
    name="linereader",
    summary="line readers (one +UID line per tag) on USB CDC",
    keys={"settle_ms": MILLISECONDS},
    open=_open,
    discover=lambda where: device_nodes.serial_by_port(where.serial_dir),
    looked=lambda where: f"line readers found in {where.serial_dir}",
    tty=True,
    present=lambda name, section, where: device_nodes.present(name, str(section.get("path", ""))),
    probe=_probe,
    checks=lambda sections, where: [Check("line readers", True, f"{len(sections)} configured: "
                                          + ", ".join(sorted(sections)))],
    renumbered=device_nodes.SERIAL_RENUMBERED,
    # a USB CDC device: ttyACM only (never a ttyUSB adapter), and the class of the node it is now
    device_classes=lambda section: ["char-ttyACM", *[c for c in [device_nodes.device_class(
        str(section.get("path", "")))] if c and c != "char-ttyACM"]],
)

