"""A sysfs and /dev/serial/by-path tree shaped like the kernel's, for a machine with no USB devices.

Only the layout is imitated: which ALSA card sits behind which USB port, and
which serial adapter udev names by which port.  `boot(order)` numbers the
cards in a given enumeration order, as a reboot or a replug does, while each
card stays in its port.  The sound itself goes through real PortAudio devices
(tests/support/virtual_sound.py): card number N's ALSA id is the name of the
virtual PCM that stands for "whatever card the kernel numbered N today".
"""
from __future__ import annotations

import os
import shutil
from collections.abc import Mapping, Sequence
from pathlib import Path

CONTROLLER = "pci0000:00/0000:00:14.0"


class FakeUsbTree:
    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.sys = self.root / "sys"
        self.by_path = self.root / "dev" / "serial" / "by-path"

    def boot(self, ports: Sequence[str], ids: Sequence[str], serials: Mapping[str, str] | None = None) -> None:
        """Cards in `ports` (USB port chains like "1-1.3"), enumerated in that order:
        the card in ports[k] becomes ALSA card k with id ids[k]."""
        serials = serials or {}
        shutil.rmtree(self.sys, ignore_errors=True)
        cls = self.sys / "class" / "sound"
        cls.mkdir(parents=True)
        for number, (port, card_id) in enumerate(zip(ports, ids)):
            bus = port.split("-")[0]
            usb = self.sys / "devices" / CONTROLLER / f"usb{bus}" / port
            card = usb / f"{port}:1.0" / "sound" / f"card{number}"
            card.mkdir(parents=True)
            (usb / "busnum").write_text(f"{bus}\n")
            (usb / "product").write_text("USB Audio Device\n")
            if port in serials:
                (usb / "serial").write_text(serials[port] + "\n")
            (card / "id").write_text(card_id + "\n")
            os.symlink("../..", card / "device")
            os.symlink(os.path.relpath(card, cls), cls / f"card{number}")

    def plug_serial(self, adapters: Mapping[str, str]) -> dict[str, str]:
        """Serial adapters by USB port ("1-1.2" -> the tty it is today); returns port -> by-path name."""
        shutil.rmtree(self.by_path, ignore_errors=True)
        self.by_path.mkdir(parents=True)
        names = {}
        for port, tty in adapters.items():
            chain = port.split("-", 1)[1]
            name = f"pci-0000:00:14.0-usb-0:{chain}:1.0-port0"
            os.symlink(tty, self.by_path / name)
            names[port] = str(self.by_path / name)
        return names

    def env(self, base: Mapping[str, str] | None = None) -> dict[str, str]:
        env = dict(os.environ if base is None else base)
        env["KIKIMIMI_SYSFS"] = str(self.sys)
        return env
