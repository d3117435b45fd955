"""Lines the table says when its owner asks from a paired device: one output's test and
the web console certificate's fingerprint.

Why the daemon says them and not the web console: the daemon owns the sound
devices (the web console is a second process without any), so the owner's
"Seat 3." in that earphone, what `kikimimi doctor --listen` says output by
output, travels as an API request and comes out of the table's own outputs.
Only fixed lines are said, never text a client sent: the output is a name
checked against the table's seats, and the fingerprint is read by the
daemon from the certificate on disk beside the journal (so a client cannot
make the speaker say a fingerprint of its choosing).  Both are public: an
output's test names only its seat; a fingerprint is what every phone shows.
The lines carry no `seq` and `"evening": true`, like the evening's own, so a
game's event log still replays byte for byte from its journal.
"""
from __future__ import annotations

import hashlib
import re
import ssl
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kikimimi.contract.phrases import Phrasebook
from kikimimi.contract.protocol import TABLE
from kikimimi.table.engine import LogEvent

if TYPE_CHECKING:
    from kikimimi.table.daemon import Daemon

#: The request's kinds (`{"say": KIND, ...}` on the API).
OUTPUT, FINGERPRINT = "output", "fingerprint"
#: The web console's folder beside the journal (kikimimi/contract/pairing.py `folder_for`) and its certificate.
WEB_FOLDER_SUFFIX, CERT = ".web", "cert.pem"
#: How many bytes of the fingerprint are said (the rest is on the screen to compare).
SAID_BYTES = 8
_OUTPUT = re.compile(r"speaker|seat-([1-9][0-9]?)")


class SayRefused(ValueError):
    """A say request the table will not say (one line)."""


def said_line(daemon: Daemon, request: Mapping[str, Any]) -> LogEvent:
    """The one line a `say` request makes the table say, or `SayRefused` in one line."""
    kind = request.get("say")
    if kind == OUTPUT:
        return _output_test(daemon, request.get("output"))
    if kind == FINGERPRINT:
        return _fingerprint(daemon)
    raise SayRefused(f'say what? "{OUTPUT}" (with "output": speaker or seat-N) or "{FINGERPRINT}"')


def _output_test(daemon: Daemon, name: Any) -> LogEvent:
    players = daemon.header.players
    m = _OUTPUT.fullmatch(name) if isinstance(name, str) and len(name) <= 8 else None
    if m is None or (m.group(1) is not None and int(m.group(1)) > players):
        raise SayRefused(f"which output? speaker or seat-1 .. seat-{players}")
    if m.group(1) is None:
        return _say(daemon, TABLE, "listen-speaker", {})
    seat = int(m.group(1))
    return _say(daemon, f"seat:{seat}", "listen-seat", {"seat": seat})


def _fingerprint(daemon: Daemon) -> LogEvent:
    journal = Path(daemon.journal_path)
    cert = journal.with_name(journal.name + WEB_FOLDER_SUFFIX) / CERT
    try:
        der = ssl.PEM_cert_to_DER_cert(cert.read_text(encoding="ascii")[:20000])
    except (OSError, ValueError, UnicodeDecodeError):
        raise SayRefused("no web console certificate beside the journal yet (kikimimi web makes it)") from None
    digest = hashlib.sha256(der).hexdigest().upper()
    pairs = " ".join(digest[i:i + 2] for i in range(0, SAID_BYTES * 2, 2))
    return _say(daemon, TABLE, "web-fingerprint", {"digits": pairs})


def _say(daemon: Daemon, to: str, key: str, params: dict[str, Any]) -> LogEvent:
    book = Phrasebook(daemon.header.lang, ("core", "setup"))
    return {"seq": None, "t": daemon.table.t, "type": "say", "in": None, "to": to, "key": key,
            "text": book.render(key, params), "params": params, "evening": True}
