"""`kikimimi doctor` on a Raspberry Pi: the firmware's under-voltage and throttling flags.

A Pi fed by a weak supply, or carrying several readers and sound cards on its own USB
ports, drops its voltage: the firmware then slows the CPU, and USB devices reset, which at
a table is a reader lost in the middle of a game or an earphone that clicks.  The flags
say so long after it happened (bits 16-19 stay set until the next boot), so the owner
learns it before an evening, not during one (docs/pi.md, "Power").

Read from the firmware's sysfs file (…/soc:firmware/get_throttled, hexadecimal), else from
`vcgencmd get_throttled` ("throttled=0x50005"); sysfs is read under $KIKIMIMI_SYSFS (default
/sys), so a test points both at folders of its own.  Not a Pi: no finding at all.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

from kikimimi.contract.finding import Check

#: The firmware's bits (Raspberry Pi documentation, "get_throttled"; docs/pi.md cites it)
NOW = {0: "under-voltage now", 1: "CPU frequency capped now", 2: "throttled now",
       3: "soft temperature limit now"}
SINCE_BOOT = {16: "under-voltage", 17: "CPU frequency capping", 18: "throttling", 19: "soft temperature limit"}
UNDER_VOLTAGE = (1 << 0) | (1 << 16)
POWER_FIX = ("feed the Pi from its own supply (Pi 4: 5.1 V 3 A; Pi 5: 5.1 V 5 A) with a short thick cable, "
             "and put the readers and sound cards on a powered USB hub (docs/pi.md, \"Power\")")
HEAT_FIX = "cool the Pi: a heatsink or fan, a case with air (docs/pi.md, \"Power\")"
#: The most a flags file or vcgencmd's answer may be: one short line
MAX_BYTES = 64


def _root() -> Path:
    return Path(os.environ.get("KIKIMIMI_SYSFS", "/sys"))


def pi_model(root: Path | None = None) -> str | None:
    """The board's name from the device tree when it is a Raspberry Pi, else None."""
    path = (root or _root()) / "firmware" / "devicetree" / "base" / "model"
    try:
        with open(path, "rb") as f:
            model = f.read(MAX_BYTES * 2).rstrip(b"\0\n").decode("ascii", "replace")
    except OSError:
        return None
    return model if model.startswith("Raspberry Pi") else None


def _parse(text: str) -> int | None:
    """ "throttled=0x50005" (vcgencmd) or "50005" (sysfs): the flags, or None for anything else."""
    match = re.fullmatch(r"\s*(?:throttled=)?(?:0x)?([0-9a-fA-F]{1,8})\s*", text)
    return int(match.group(1), 16) if match else None


def read_flags(root: Path | None = None) -> tuple[int | None, str]:
    """The flags and where they were read (or None and why not)."""
    root = root or _root()
    for path in sorted((root / "devices" / "platform").glob("soc*/soc*:firmware/get_throttled")):
        try:
            with open(path, "rb") as f:
                raw = f.read(MAX_BYTES).decode("ascii", "replace")
        except OSError as exc:
            return None, f"{path}: {exc.strerror}"
        flags = _parse(raw)
        return (flags, str(path)) if flags is not None else (None, f"{path}: not a flags value ({raw.strip()[:20]!r})")
    program = shutil.which("vcgencmd")
    if program is None:
        return None, "neither the firmware's get_throttled file nor vcgencmd is here"
    try:
        proc = subprocess.run([program, "get_throttled"], capture_output=True, timeout=5)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return None, f"vcgencmd get_throttled did not answer ({exc})"
    answer = proc.stdout[:MAX_BYTES].decode("ascii", "replace")
    flags = _parse(answer) if proc.returncode == 0 else None
    if flags is None:
        return None, f"vcgencmd get_throttled: {(answer or proc.stderr[:MAX_BYTES].decode('ascii', 'replace')).strip()[:40]!r}"
    return flags, "vcgencmd get_throttled"


def describe(flags: int) -> str:
    now = [text for bit, text in NOW.items() if flags & (1 << bit)]
    since = [text for bit, text in SINCE_BOOT.items() if flags & (1 << bit)]
    parts = now + ([f"since boot: {', '.join(since)}"] if since else [])
    return f"0x{flags:x}: " + ("; ".join(parts) if parts else "no under-voltage or throttling since boot")


def doctor_checks(root: Path | None = None) -> list[Check]:
    """One finding on a Pi (power and throttling), none elsewhere."""
    model = pi_model(root)
    if model is None:
        return []
    flags, where = read_flags(root)
    if flags is None:
        return [Check("pi power", False, f"{model}: the flags could not be read ({where})",
                      "install vcgencmd (Raspberry Pi OS: apt-get install raspi-utils; older: libraspberrypi-bin) and add the user to group video")]
    detail = f"{model}: {describe(flags)} ({where})"
    if flags & UNDER_VOLTAGE:
        return [Check("pi power", False, detail, POWER_FIX)]
    if flags & 0x000F000F:
        return [Check("pi power", False, detail, HEAT_FIX)]
    return [Check("pi power", True, detail)]
