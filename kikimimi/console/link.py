"""The console's line to the table: connect, and reconnect by itself when the table restarts.

Why here and not in the API client: the client is one connection; a referee
console outlives many (a table restarted between games, a crash), and must
say what it is doing instead of sitting on "not connected" until relaunched.
A restarted table writes a fresh secret, so it is read again on every try.
"""
from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from kikimimi.api import paths
from kikimimi.api.client import ApiClient, ApiClientError, Refused, read_secret

#: Seconds between tries, then the last one again: quick after a restart, gentle after that.
BACKOFF = (0.5, 1.0, 2.0, 4.0, 8.0)
#: The status line of a link made again (a console that prints its welcome too says it once).
RECONNECTED = "connected to the table again"

Welcome = Callable[[dict[str, Any], bool], None]  # (welcome, is a reconnection)
Push = Callable[[dict[str, Any]], None]
Status = Callable[[str], None]


class Link:
    """Keeps one `ApiClient` to the table alive; `client` is None while there is none."""

    def __init__(self, socket_path: str | Path, *, spectator: bool = False, secret: str | None = None,
                 secret_file: str | Path | None = None, on_welcome: Welcome, on_push: Push,
                 on_status: Status, backoff: Sequence[float] = BACKOFF):
        self.socket_path = Path(socket_path)
        self.spectator = spectator
        self.secret = secret
        self.secret_file = Path(secret_file) if secret_file else paths.secret_for_socket(self.socket_path)
        self.on_welcome, self.on_push, self.on_status = on_welcome, on_push, on_status
        self.backoff = tuple(backoff) or BACKOFF
        self.client: ApiClient | None = None
        self._dead: ApiClient | None = None
        self._lost = asyncio.Event()
        self._stopped = False

    async def first(self) -> None:
        """The first connection: refusals and a missing table are the caller's to report."""
        await self._connect(self.secret, again=False)

    async def keep(self) -> None:
        """After `first()`: whenever the connection drops, try again with backoff, saying so."""
        while not self._stopped:
            await self._lost.wait()
            if self._stopped:
                return
            if self._dead is not None:
                await self._dead.close()
                self._dead = None
            tries = 0
            while not self._stopped:
                delay = self.backoff[min(tries, len(self.backoff) - 1)]
                self.on_status(f"connection to the table lost: trying again in {delay:g} s"
                               + (f" (try {tries + 1})" if tries else ""))
                await asyncio.sleep(delay)
                tries += 1
                try:
                    await self._connect(None, again=True)
                except Refused as exc:
                    self.on_status(f"the table refused the console: {exc}")
                    continue
                except (ApiClientError, OSError, ValueError):
                    continue
                self.on_status(RECONNECTED)
                break

    async def close(self) -> None:
        self._stopped = True
        self._lost.set()
        if self.client is not None:
            await self.client.close()
            self.client = None

    async def _connect(self, secret: str | None, *, again: bool) -> None:
        if not self.spectator and secret is None:
            secret = read_secret(self.secret_file)
        client = await ApiClient.connect(self.socket_path, secret=secret, spectator=self.spectator)
        self._lost.clear()
        self.client = client
        self.on_welcome(client.welcome, again)
        client.on_push = self._pushed

    def _pushed(self, push: dict[str, Any] | None) -> None:
        if push is None:
            self._dead, self.client = self.client, None
            self._lost.set()
            return
        self.on_push(push)
