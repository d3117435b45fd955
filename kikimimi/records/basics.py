"""What both the club and its contests rest on: the kinds of official session
and how a moment is written down.

It sits below `club` and `contest` so that neither has to import the other
for them (a contest is opened for a session kind; a session claims a contest's
table)."""
from __future__ import annotations

import os
from datetime import datetime, timezone

#: Where a club's records are: an SQLite file's path, a postgresql:// URL, or
#: None for the default ($KIKIMIMI_DB, else the user's club file).
Target = str | os.PathLike[str] | None

#: An official practice session's kind and the games it plans.
SESSION_KINDS = {"full": 10, "half": 5}


def now() -> str:
    """UTC to the second, ISO 8601: sorts as text and reads the same in SQLite and PostgreSQL."""
    return datetime.now(timezone.utc).isoformat(timespec="seconds")
