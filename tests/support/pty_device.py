"""What every emulated serial reader shares: a pty behind a path, one serving
thread, and the ability to be unplugged.  Subclasses implement `_serve`."""
from __future__ import annotations

import threading
from typing import Self

from support.ptylink import PtyLink


class PtyDevice:
    kind = "device"
    #: Set by each device: its state's lock, also held while it vanishes.
    _lock: threading.Lock | threading.RLock

    def __init__(self, link: str) -> None:
        self.link = PtyLink(link)
        self.path = link
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> Self:
        self.link.appear()
        self._thread = threading.Thread(target=self._serve, name=f"{self.kind}-emu {self.path}", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread:
            self._thread.join(timeout=2)
        with self._lock:
            self.link.vanish()

    def _serve(self) -> None:
        raise NotImplementedError
