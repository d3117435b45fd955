"""An emulated USB reader reached over a unix socket, so the processes a test starts
(`kikimimi table setup`, `doctor`, `serve`, each its own child) open one reader whose
chip lives in the test process and keeps its state (placed tag, command counts) from
child to child.

The test side is `UsbSocketServer`: it serves one or more `UsbReaderEmulator`s
(tests/support/usb_device.py) on a socket.  The child side is `SocketUsb`, an
`nfc.clf.transport.USB` whose bulk transfers cross that socket: `install(socket)`
puts it where nfcpy's drivers and `open_usb_reader` take their transport from.  Only
a test calls `install`: tests/table/usb_seam/sitecustomize.py does, in every Python
child started with that folder on PYTHONPATH and KIKIMIMI_TEST_USB set; production
code has no hook for it.

libusb opens a reader at /dev/bus/usb/BUS/DEV, which kikimimi checks for access
before it opens; in the box that node is a file under the server's folder, as the
reader's port is a folder under the box's sysfs ($KIKIMIMI_SYSFS).

One request, one answer, each `op(1) length(4, big-endian) payload`:
  O bus(2) dev(2)   open    -> manufacturer NUL product
  W frame           write   -> (empty)
  R timeout_ms(4)   read    -> the bulk IN transfer
  C                 close   -> (empty)
An answer's op byte is 0 for success, else the errno (ENODEV, ETIMEDOUT, EBUSY…), which
`SocketUsb` raises as the OSError libusb's transport raises.
"""
from __future__ import annotations

import errno
import os
import socket
import struct
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import nfc.clf.transport

from support.usb_device import UsbReaderEmulator

ENV = "KIKIMIMI_TEST_USB"  # the socket's path, for the children's sitecustomize
MAX_FRAME = 1 << 16


def _send(sock: socket.socket, op: int, payload: bytes = b"") -> None:
    sock.sendall(struct.pack(">BI", op, len(payload)) + payload)


def _recv_exact(sock: socket.socket, n: int) -> bytes:
    chunks = b""
    while len(chunks) < n:
        got = sock.recv(n - len(chunks))
        if not got:
            raise ConnectionError("the other end closed")
        chunks += got
    return chunks


def _recv(sock: socket.socket) -> tuple[int, bytes]:
    op, n = struct.unpack(">BI", _recv_exact(sock, 5))
    if n > MAX_FRAME:
        raise ConnectionError(f"a {n}-byte message")
    return op, _recv_exact(sock, n)


class _Line:
    """The emulator's view of one open transport (which plug-in it belongs to)."""

    generation = -1


class UsbSocketServer:
    """Serves emulated USB readers to other processes, one connection per open transport."""

    def __init__(self, folder: Path | str, emulators: Iterable[UsbReaderEmulator]) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.path = str(self.folder / "usb.sock")
        self.emulators = list(emulators)
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._sock.bind(self.path)
        self._sock.listen(16)
        self._conns: list[socket.socket] = []
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._accept, name="usb-socket", daemon=True)
        self.nodes()

    def nodes(self) -> None:
        """Each plugged reader's /dev/bus/usb node, in the box (call again after a replug)."""
        for emu in self.emulators:
            if emu.plugged:
                node = self.folder / "dev" / "bus" / "usb" / f"{emu.bus:03d}" / f"{emu.devnum:03d}"
                node.parent.mkdir(parents=True, exist_ok=True)
                node.touch()

    def env(self) -> dict[str, str]:
        return {ENV: self.path}

    def start(self) -> UsbSocketServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._sock.close()
        with self._lock:
            for conn in self._conns:
                try:
                    conn.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
                conn.close()
        try:
            os.unlink(self.path)
        except OSError:
            pass

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self._sock.accept()
            except OSError:
                return
            with self._lock:
                self._conns.append(conn)
            threading.Thread(target=self._serve, args=(conn,), name="usb-socket-conn", daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        line, emu = _Line(), None
        try:
            while True:
                op, payload = _recv(conn)
                try:
                    if op == ord("O"):
                        bus, dev = struct.unpack(">HH", payload)
                        emu = self._open(line, bus, dev)
                        _send(conn, 0, f"{emu.manufacturer}\0{emu.product}".encode())
                    elif emu is None:
                        _send(conn, errno.EBADF)
                    elif op == ord("W"):
                        emu._write(line, payload)  # type: ignore[arg-type]
                        _send(conn, 0)
                    elif op == ord("R"):
                        (timeout_ms,) = struct.unpack(">I", payload)
                        _send(conn, 0, bytes(emu._read(line, timeout_ms)))  # type: ignore[arg-type]
                    elif op == ord("C"):
                        emu._release(line)  # type: ignore[arg-type]
                        emu = None
                        _send(conn, 0)
                    else:
                        _send(conn, errno.EINVAL)
                except OSError as exc:
                    _send(conn, exc.errno or errno.EIO)
        except (ConnectionError, OSError, struct.error):
            pass
        finally:
            if emu is not None:
                emu._release(line)  # type: ignore[arg-type]
            conn.close()

    def _open(self, line: _Line, bus: int, dev: int) -> UsbReaderEmulator:
        for emu in self.emulators:
            if emu.plugged and (emu.bus, emu.devnum) == (bus, dev):
                emu._open(line, bus, dev)  # type: ignore[arg-type]
                return emu
        raise OSError(errno.ENODEV, os.strerror(errno.ENODEV))


class SocketUsb(nfc.clf.transport.USB):
    """nfcpy's USB transport, its bulk transfers carried to a `UsbSocketServer`."""

    socket_path = ""  # set by install()

    def __init__(self, usb_bus: int, dev_adr: int) -> None:  # no libusb context
        self.context = None
        self.usb_dev = self.usb_out = self.usb_inp = None
        self._conn: socket.socket | None = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            self._conn.connect(self.socket_path)
            names = self._ask(ord("O"), struct.pack(">HH", usb_bus, dev_adr)).decode()
        except BaseException:
            self._conn.close()
            self._conn = None
            raise
        self._manufacturer_name, _, self._product_name = names.partition("\0")

    def __del__(self) -> None:
        self.close()

    def _ask(self, op: int, payload: bytes = b"") -> bytes:
        if self._conn is None:
            raise OSError(errno.EBADF, "transport closed")
        try:
            _send(self._conn, op, payload)
            status, answer = _recv(self._conn)
        except ConnectionError as exc:
            raise OSError(errno.ENODEV, f"the emulated reader's socket closed ({exc})") from None
        if status:
            raise OSError(status, os.strerror(status))
        return answer

    def open(self, usb_bus: int, dev_adr: int) -> None:
        raise OSError(errno.EINVAL, "a socket transport is opened by its constructor")

    def close(self) -> None:
        conn, self._conn = getattr(self, "_conn", None), None
        if conn is not None:
            try:
                _send(conn, ord("C"))
                _recv(conn)
            except (OSError, ConnectionError, struct.error):
                pass
            conn.close()

    def read(self, timeout: int = 0) -> bytearray:
        return bytearray(self._ask(ord("R"), struct.pack(">I", max(0, int(timeout)))))

    def write(self, frame: Any, timeout: int = 0) -> None:
        self._ask(ord("W"), bytes(frame))


def install(socket_path: str) -> None:
    """In a child process: every USB reader opens through the socket (nfcpy's transport
    replaced), and libusb's device nodes are the server's files beside it."""
    from kikimimi.readers import usb_readers

    SocketUsb.socket_path = socket_path
    nfc.clf.transport.USB = SocketUsb
    dev = Path(socket_path).parent / "dev"
    usb_readers.UsbReader.node = property(  # type: ignore[method-assign, assignment]
        lambda self: str(dev / "bus" / "usb" / f"{self.bus:03d}" / f"{self.dev:03d}"))
