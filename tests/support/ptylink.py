"""A pseudo-terminal that stands in for a serial device node, and can vanish.

Real USB-serial readers appear as a device node and disappear when unplugged.
Here the node is a symlink we control (in a tmp dir, never a real /dev port),
pointing at the slave side of a pty.  `vanish()` closes the pty and removes the
link, so the driver's next read or ioctl fails as it would on unplug;
`appear()` makes a fresh pty and points the same link at it.
"""
from __future__ import annotations

import errno
import os
import select
import termios
import tty

# termios speed constants -> bits per second, for line-speed checks
SPEEDS = {getattr(termios, f"B{n}"): n for n in
          (9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600)}


class PtyLink:
    """The emulator's side of one emulated serial device."""

    def __init__(self, link: str) -> None:
        self.link = link
        self.master: int | None = None
        self._slave: int | None = None  # held so the pty survives host reopen

    @property
    def present(self) -> bool:
        return self.master is not None

    def appear(self) -> None:
        if self.master is not None:
            return
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no newline translation before the host opens it
        os.set_blocking(master, False)
        tmp = f"{self.link}.new"
        if os.path.lexists(tmp):
            os.unlink(tmp)
        os.symlink(os.ttyname(slave), tmp)
        os.replace(tmp, self.link)
        self.master, self._slave = master, slave

    def vanish(self) -> None:
        if os.path.lexists(self.link):
            os.unlink(self.link)
        for fd in (self.master, self._slave):
            if fd is not None:
                os.close(fd)
        self.master = self._slave = None

    def line_speed(self) -> int:
        """The speed the host last set on its side of the line (bits/s)."""
        if self.master is None:
            return 0
        return SPEEDS.get(termios.tcgetattr(self.master)[4], 0)

    def read(self, timeout: float) -> bytes:
        """Bytes the host wrote, or b'' after `timeout` seconds."""
        fd = self.master
        if fd is None:
            return b""
        ready, _, _ = select.select([fd], [], [], timeout)
        if not ready:
            return b""
        try:
            return os.read(fd, 4096)
        except BlockingIOError:
            return b""
        except OSError as exc:
            if exc.errno == errno.EIO:
                return b""
            raise

    def write(self, data: bytes) -> None:
        """Send to the host; dropped when nobody drains the line (like a real UART)."""
        if self.master is None:
            return
        try:
            os.write(self.master, data)
        except (BlockingIOError, OSError):
            pass
