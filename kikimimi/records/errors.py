"""Errors of the records store: each message is the one line a user sees."""
from __future__ import annotations


class RecordsError(Exception):
    """A request the records refused; nothing was written."""


class NotCounted(RecordsError):
    """A game that official records do not count (not 3 players, or stopped).

    Separate so the daemon can log it quietly instead of alarming the table.
    """


class AlreadyRecorded(RecordsError):
    """A game whose identity is already in the records (a log recorded twice,
    a table recording again after a restart): refused, nothing written."""
