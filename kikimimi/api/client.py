"""The API client: asyncio, because the console (Textual) already runs an asyncio loop.

One reader task splits what the server sends into replies (they carry the
`id` of a request and resolve its future) and pushes (everything else, in
order, on `pushes` or to `on_push`).  The protocol is in `server.py`.
"""
from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from kikimimi.api import paths

#: The welcome carries the whole log so far; a long game is more than asyncio's 64 KiB default.
LINE_LIMIT = 64 << 20


class ApiClientError(Exception):
    """Cannot talk to the table (one line, ready to print)."""


class Refused(ApiClientError):
    """The table closed the door: wrong secret, wrong socket."""


class ApiClient:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, welcome: dict[str, Any]):
        self.reader = reader
        self.writer = writer
        self.welcome = welcome
        self.role: str = welcome["welcome"]
        self.pushes: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.on_push: Callable[[dict[str, Any] | None], None] | None = None
        self._closing = False
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._task = asyncio.create_task(self._read())

    # -- connecting ---------------------------------------------------------
    @classmethod
    async def connect(cls, socket_path: str | Path, *, secret: str | None = None,
                      spectator: bool = False) -> "ApiClient":
        """Referee (with the secret; read from the file next to the socket if
        not given) or spectator.  Raises `Refused` or `ApiClientError`."""
        path = Path(socket_path)
        if spectator:
            hello: dict[str, Any] = {"hello": "spectator"}
        else:
            if secret is None:
                secret = read_secret(paths.secret_for_socket(path))
            hello = {"hello": "referee", "secret": secret}
        try:
            reader, writer = await asyncio.open_unix_connection(str(path), limit=LINE_LIMIT)
        except FileNotFoundError:
            raise ApiClientError(f"{path}: no table is being served here (is `kikimimi serve` running?)") from None
        except OSError as exc:
            raise ApiClientError(f"{path}: cannot connect ({exc.strerror or exc})") from None
        writer.write((json.dumps(hello) + "\n").encode())
        await writer.drain()
        raw = await reader.readline()
        first = json.loads(raw) if raw.strip() else {"refused": "the table closed the connection"}
        if "welcome" not in first:
            writer.close()
            raise Refused(str(first.get("refused", first)))
        return cls(reader, writer, first)

    async def close(self) -> None:
        self.on_push = None  # whoever listened is going away: nothing more is delivered
        self._closing = True
        self._task.cancel()
        self.writer.close()
        try:
            await self.writer.wait_closed()
        except (OSError, asyncio.CancelledError):
            pass

    # -- requests -------------------------------------------------------------
    async def request(self, body: Mapping[str, Any], timeout: float = 30.0) -> dict[str, Any]:
        rid = next(self._ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[rid] = future
        self.writer.write((json.dumps({"id": rid, **body}) + "\n").encode())
        await self.writer.drain()
        try:
            return await asyncio.wait_for(future, timeout)
        finally:
            self._waiting.pop(rid, None)

    async def submit(self, line: Mapping[str, Any], expect_last: int | None = None) -> dict[str, Any]:
        body: dict[str, Any] = {"submit": dict(line)}
        if expect_last is not None:
            body["expect_last"] = expect_last
        return await self.request(body)

    async def say(self, what: str, **more: str) -> dict[str, Any]:
        """Have the table say one of its fixed lines (an output's test, the fingerprint)."""
        return await self.request({"say": what, **more})

    async def command(self, text: str) -> dict[str, Any]:
        """One console command line, exactly as a table script's `console` line."""
        return await self.submit({"console": text})

    async def undo(self, expect_last: int) -> dict[str, Any]:
        """Take back input `expect_last` (the line the referee was shown), and no other."""
        return await self.submit({"console": "undo"}, expect_last=expect_last)

    async def state(self) -> dict[str, Any]:
        """The referee's full state now: `snapshot` and `last_input`."""
        return await self.request({"get": "snapshot"})

    async def next_push(self, timeout: float = 10.0) -> dict[str, Any] | None:
        """The next push (None once the table has closed the connection)."""
        return await asyncio.wait_for(self.pushes.get(), timeout)

    # -- internals ---------------------------------------------------------------
    async def _read(self) -> None:
        try:
            while True:
                raw = await self.reader.readline()
                if not raw:
                    break
                message = json.loads(raw)
                rid = message.get("id")
                if rid in self._waiting:
                    future = self._waiting.pop(rid)
                    if not future.done():
                        future.set_result(message)
                    continue
                self._deliver(message)
        except (OSError, ValueError, asyncio.IncompleteReadError):
            pass
        finally:
            for future in self._waiting.values():
                if not future.done():
                    future.set_exception(ApiClientError("the table closed the connection"))
            self._deliver(None)

    def _deliver(self, message: dict[str, Any] | None) -> None:
        if self._closing:
            return
        if self.on_push is not None:
            self.on_push(message)
        else:
            self.pushes.put_nowait(message)


def read_secret(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        raise ApiClientError(f"{path}: no secret here (is `kikimimi serve` running for this table?)") from None
    except PermissionError:
        raise ApiClientError(f"{path}: not allowed to read the table's secret (run as the table's user, "
                             "or one of its group)") from None
    except OSError as exc:
        raise ApiClientError(f"{path}: cannot read the table's secret ({exc.strerror or exc})") from None
