"""A reader's device node, as every kind of reader sees it: whether it is there and usable, who
else holds it, which device class `service install` must let through, and the serial adapters
udev names by the USB port they are plugged into.

The kinds (`kikimimi.readers.kinds`) build their hooks from these; the layers above them
(`readers.checks`, `readers.probe`) only gather what the kinds say.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

from kikimimi.contract.finding import Check
from kikimimi.readers.kind import Discovered, Renumbered

RULES = "99-kikimimi.rules"
ADD_GROUP = "sudo usermod -aG plugdev $USER, then log in again"
INSTALL_RULES = (f"sudo cp udev/{RULES} /etc/udev/rules.d/ && sudo udevadm control --reload "
                 "&& sudo udevadm trigger (the rules are complete as shipped: nothing to fill in; "
                 "kikimimi table setup finds each seat's reader by its USB port, docs/table.md)")
#: Device classes (/proc/devices) a serial reader may be behind: USB adapters and USB CDC-ACM.
SERIAL_CLASSES = ("char-ttyUSB", "char-ttyACM")
#: /dev/ttyUSB0, /dev/ttyACM1: numbered in the order adapters were found, which a reboot changes.
SERIAL_RENUMBERED = Renumbered(
    re.compile(r"/dev/tty(USB|ACM)[0-9]+"),
    "numbered in the order the adapters were found, which a reboot or a replug changes (two seats could swap readers)",
    "name each by its port: /dev/serial/by-path/... (kikimimi table setup writes them)")
_PORT = re.compile(r"-usb-[0-9]+:([0-9.]+):[0-9]+\.[0-9]+")


def named_by_rules(path: str) -> bool:
    """A /dev/kikimimi-* name exists only once the project's udev rules are installed."""
    return path.startswith("/dev/kikimimi-")


def present(name: str, path: str) -> Check | str:
    """The node itself when it exists, or the finding why it does not (and what to do)."""
    if os.path.exists(path):
        return path
    if named_by_rules(path):
        return Check(name, False, f"{path} does not exist", f"plug the reader in; if it is, {INSTALL_RULES}")
    return Check(name, False, f"{path} does not exist",
                 "plug the reader in, or correct the path (ls /dev/ttyUSB* /dev/ttyACM* lists serial devices)")


def process_named(name: str, proc: str = "/proc") -> int | None:
    """The pid of a running process called `name`, if any."""
    for entry in os.scandir(proc):
        if entry.name.isdigit():
            try:
                if Path(entry.path, "comm").read_text().strip() == name:
                    return int(entry.name)
            except OSError:
                continue
    return None


def holders(path: str, proc: str = "/proc") -> list[int]:
    """Pids (other than ours) with `path` open."""
    try:
        target = os.path.realpath(path)
    except OSError:
        return []
    found = []
    for entry in os.scandir(proc):
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            fds = os.scandir(os.path.join(entry.path, "fd"))
        except OSError:
            continue
        with fds:
            for fd in fds:
                try:
                    if os.readlink(fd.path) == target:
                        found.append(int(entry.name))
                        break
                except OSError:
                    continue
    return found


def held(name: str, path: str, proc: str) -> Check | None:
    """The finding that another process holds the node (two readers of one serial line steal each
    other's bytes, so it is not probed), or None."""
    pids = holders(path, proc)
    if not pids:
        return None
    who = ", ".join(f"{pid} ({_comm(pid, proc)})" for pid in pids)
    return Check(name, True, f"{path} is open in process {who}: not probed (a running serve holds its readers)")


def _comm(pid: int, proc: str) -> str:
    try:
        return Path(proc, str(pid), "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()[:60]
    except OSError:
        return "?"


def device_class(path: str) -> str | None:
    """The /proc/devices class of the character device a path names now, if any."""
    try:
        st = os.stat(path)
        text = Path("/proc/devices").read_text()
    except OSError:
        return None
    if not (st.st_mode & 0o170000 == 0o020000):
        return None
    major = os.major(st.st_rdev)
    block = text.split("Block devices:")[0]
    for line in block.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == str(major):
            return f"char-{parts[1]}"
    return None


def serial_classes(path: str) -> list[str]:
    """A serial reader's classes: USB adapters and CDC-ACM (a replugged adapter comes back as
    another number), and a UART's own (/dev/ttyAMA0, /dev/ttyS0) when the path is one."""
    own = device_class(path)
    return [*SERIAL_CLASSES, *([own] if own and own not in SERIAL_CLASSES else [])]


def serial_by_port(folder: Path) -> list[Discovered]:
    """Every serial adapter udev named by USB port (sorted by name: the port, not the order found).

    Taken from `/dev/serial/by-path`, where udev names each adapter by the port it is plugged
    into (`pci-0000:00:14.0-usb-0:1.2:1.0-port0`), so the path a table file writes stays right
    after a reboot or a replug, also for adapters with no serial number (the common CH340s)."""
    try:
        names = sorted(p for p in os.listdir(folder) if _PORT.search(p))
    except OSError:
        return []
    out = []
    for name in names:
        m = _PORT.search(name)
        assert m is not None
        out.append(Discovered(str(folder / name), m.group(1)))
    return out
