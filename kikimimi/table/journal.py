"""The journal file: one table's script on disk, held by one daemon at a time.

Everything that can go wrong with the file is handled here, once:

- **One holder.** The file itself is locked (`flock`), so a second `serve`
  of the same table, or a `--fresh` aimed at a table being served, is
  refused before it touches anything.
- **Private.** Journals hold every hand: created 0600, in folders created
  0700, never through a symlink.
- **All or nothing.** An append is written at the last good offset and
  fsynced; if any of it fails (a full disk), the file is cut back to that
  offset and the caller is told, so the journal never holds an input the
  table refused.  The next append tries again: when space returns, inputs
  are accepted again.
- **Torn tails.** A power cut can leave a last line without its newline,
  even cut inside a character; opening the journal cuts such a tail back
  to the last complete line and says what was dropped.
- **Nothing is renamed over.** A journal set aside gets a name nobody has
  (`link` fails rather than overwrite), and the new journal is created
  exclusively.
"""
from __future__ import annotations

import errno
import fcntl
import hashlib
import itertools
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from kikimimi.contract.script import ParsedScript, ScriptError, describe_bytes, dumps, open_regular, parse_bytes

FILE_MODE = 0o600
DIR_MODE = 0o700


class JournalError(ScriptError):
    """The journal cannot be used (one line, ready to print and speak)."""


class JournalBusy(JournalError):
    """Another daemon holds this journal."""


class JournalUnwritable(JournalError):
    """An append failed and was cut back: the input was not taken."""


def private_dir(folder: Path) -> None:
    """Create `folder` (and missing parents) 0700; an existing folder is left as it is."""
    if "\0" in str(folder):
        raise JournalError(f"{str(folder)!r}: not a usable folder name (it holds a NUL byte)")
    missing = []
    p = folder
    while not p.exists():
        missing.append(p)
        if p.parent == p:
            break
        p = p.parent
    for d in reversed(missing):
        try:
            os.mkdir(d, DIR_MODE)
        except FileExistsError:
            pass
        except OSError as exc:
            raise JournalError(f"{d}: cannot create the folder ({exc.strerror or exc})") from None


def open_private(path: Path, flags: int) -> int:
    """Open a private file (0600, never through a symlink); one-line error."""
    try:
        fd, info = open_regular(path, flags | os.O_NOFOLLOW, JournalError, mode=FILE_MODE)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise JournalError(f"{path}: is a symbolic link (refused: the file must be the table's own)") from None
        if isinstance(exc, FileExistsError):
            raise
        raise JournalError(f"{path}: cannot open ({exc.strerror or exc})") from None
    try:
        if info.st_uid == os.geteuid():
            os.fchmod(fd, FILE_MODE)
    except BaseException:
        os.close(fd)
        raise
    return fd


class Journal:
    """An open, locked journal.  Not thread-safe: the daemon's lock serialises it."""

    #: The write primitive (`os.pwrite`); tests put a failing one here to fill the disk.
    pwrite: Callable[[int, bytes, int], int] = staticmethod(os.pwrite)

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self.fd = fd
        self.size = os.fstat(fd).st_size
        self._torn = False  # bytes past `size` may be on disk (a cut-back failed)

    # -- opening -------------------------------------------------------------
    @classmethod
    def acquire(cls, path: Path) -> "Journal":
        """Open (creating it if need be) and lock the journal at `path`."""
        private_dir(path.parent)
        for _ in range(5):
            fd = open_private(path, os.O_RDWR | os.O_CREAT)
            try:
                _lock(fd, path)
                # a --fresh or `new` may have set the file aside while we waited for it
                if _same_file(fd, path):
                    return cls(path, fd)
            except BaseException:
                os.close(fd)
                raise
            os.close(fd)
        raise JournalBusy(f"{path}: the journal keeps being replaced (another kikimimi at this table?)")

    def repair(self) -> list[str]:
        """Cut a torn tail back to the last complete line; one warning naming what went."""
        data = self._read_all()
        cut = data.rfind(b"\n") + 1
        if cut == len(data):
            return []
        dropped = data[cut:]
        os.ftruncate(self.fd, cut)
        os.fsync(self.fd)
        self.size = cut
        line = data[:cut].count(b"\n") + 1
        return [f"{self.path}: line {line} was cut off (a crash or power cut mid-write): "
                f"dropped {describe_bytes(dropped)}"]

    def read(self) -> ParsedScript | None:
        """The script so far, or None if the journal is empty (call `repair` first)."""
        data = self._read_all()
        if not data:
            return None
        return parse_bytes(data, str(self.path))

    # -- writing ---------------------------------------------------------------
    def append(self, obj: Mapping[str, Any] | str) -> None:
        """Write one line (an object, or its `dumps` text) durably, or not at all
        (`JournalUnwritable`)."""
        try:
            data = ((obj if isinstance(obj, str) else dumps(obj)) + "\n").encode("utf-8")
        except (TypeError, ValueError) as exc:
            raise JournalUnwritable(f"{self.path}: not a line a journal can hold ({exc})") from None
        if b"\n" in data[:-1]:
            raise JournalUnwritable(f"{self.path}: not one line")
        try:
            if self._torn:
                os.ftruncate(self.fd, self.size)  # an earlier cut-back did not go through
                self._torn = False
            written = 0
            while written < len(data):
                written += self.pwrite(self.fd, data[written:], self.size + written)
            os.fsync(self.fd)
        except OSError as exc:
            self._cut_back()
            raise JournalUnwritable(
                f"{self.path}: cannot write the journal ({exc.strerror or exc}): input not taken") from None
        self.size += len(data)

    def set_aside(self, stem_suffix: str, numbered: bool = False) -> Path:
        """Keep this journal under a new name nobody has and start an empty one
        here, still locked.  Returns the name it was kept under."""
        path = self.path
        names = (f"{stem_suffix}{n}" for n in itertools.count(1)) if numbered else itertools.chain(
            [stem_suffix], (f"{stem_suffix}-{n}" for n in itertools.count(2)))
        for label in names:
            aside = path.with_name(f"{path.stem}.{label}{path.suffix}")
            try:
                os.link(path, aside, follow_symlinks=False)
            except FileExistsError:
                continue
            except OSError as exc:
                raise JournalError(f"{aside}: cannot keep the old journal ({exc.strerror or exc})") from None
            break
        os.unlink(path)
        try:
            fd = open_private(path, os.O_RDWR | os.O_CREAT | os.O_EXCL)
        except FileExistsError:
            raise JournalBusy(f"{path}: another kikimimi started this table meanwhile") from None
        try:
            _lock(fd, path)
        except BaseException:
            os.close(fd)
            raise
        os.close(self.fd)
        self.fd, self.size = fd, 0
        return aside

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)  # the lock goes with it
            self.fd = -1

    # -- internals -------------------------------------------------------------
    def _read_all(self) -> bytes:
        size = os.fstat(self.fd).st_size
        chunks, at = [], 0
        while at < size:
            chunk = os.pread(self.fd, min(1 << 20, size - at), at)
            if not chunk:
                break
            chunks.append(chunk)
            at += len(chunk)
        return b"".join(chunks)

    def _cut_back(self) -> None:
        try:
            os.ftruncate(self.fd, self.size)
            os.fsync(self.fd)
            self._torn = False
        except OSError:
            self._torn = True  # tried again before the next append


class SaidMark:
    """How far the live log was told to the outputs (its highest `seq`), kept
    beside the journal (`NAME.said`) so that a resume speaks what was journaled
    and applied but never told (a kill between the two).

    It holds a fingerprint of the journal's bytes with the seq: the journal's size
    then, and a hash of its first and last `EDGE` bytes up to that size.  So a
    mark left by an earlier journal at the same name (a `new` game, `--fresh`) is
    known for what it is, and a journal copied or restored with its mark (another
    inode, the same bytes) is still known as told (keyed on the inode,
    a restored journal re-told its whole game on start).  Written in place,
    without fsync: a killed process leaves it in the page cache, and a power cut
    can only lose its last updates, so a line is then said twice, never lost."""

    WIDTH = 128
    #: Bytes hashed at each end of the journal's told part.
    EDGE = 4096

    def __init__(self, journal: Path) -> None:
        self.path = journal.with_name(journal.name + ".said")
        self.fd = open_private(self.path, os.O_RDWR | os.O_CREAT)

    @classmethod
    def fingerprint(cls, journal_fd: int, size: int) -> str:
        head = os.pread(journal_fd, min(size, cls.EDGE), 0)
        tail_at = max(0, size - cls.EDGE)
        tail = os.pread(journal_fd, size - tail_at, tail_at)
        return hashlib.sha256(head + b"|" + tail).hexdigest()[:32]

    def read(self, journal_fd: int) -> int | None:
        """The seq told of the journal open at `journal_fd`: None when there is no
        usable mark (a journal older than marks: take it all as told), 0 when
        the mark is another journal's (nothing of this one was told)."""
        try:
            words = os.pread(self.fd, self.WIDTH, 0).split()
            if words and words[0] == b"v2":
                size, digest, seq = int(words[1]), words[2].decode("ascii"), int(words[3])
                if seq < 0 or size < 0:
                    return None
                ours = size <= os.fstat(journal_fd).st_size and self.fingerprint(journal_fd, size) == digest
                return seq if ours else 0
            ino, seq = int(words[0]), int(words[1])  # a mark written before fingerprints
        except (OSError, ValueError, IndexError, UnicodeDecodeError):
            return None
        if seq < 0:
            return None
        return seq if ino == os.fstat(journal_fd).st_ino else 0

    def write(self, journal_fd: int, seq: int) -> None:
        """Best effort: a mark that cannot be written only means a line may be said twice."""
        try:
            size = os.fstat(journal_fd).st_size
            line = f"v2 {size} {self.fingerprint(journal_fd, size)} {seq}".ljust(self.WIDTH - 1) + "\n"
            os.pwrite(self.fd, line.encode("ascii"), 0)
        except OSError:
            pass

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


class EventsFile:
    """The `--events` copy of the live log: private like the journal, and each
    batch of lines written whole or not at all (cut back on a failed write),
    so a reader of it never meets a torn line.  Not fsynced: the journal is
    the record; this is a convenience copy."""

    def __init__(self, path: Path) -> None:
        private_dir(path.parent)
        self.path = path
        self.fd = open_private(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
        self.size = os.fstat(self.fd).st_size

    def write_lines(self, lines: list[str]) -> None:
        """Append lines (without their newlines); `OSError` if they could not all go."""
        data = "".join(line + "\n" for line in lines).encode("utf-8")
        try:
            written = 0
            while written < len(data):
                written += os.write(self.fd, data[written:])
        except OSError:
            try:
                os.ftruncate(self.fd, self.size)
            except OSError:
                pass
            raise
        self.size += len(data)

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


def _lock(fd: int, path: Path) -> None:
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise JournalBusy(f"{path}: another kikimimi is already serving this table") from None
    except OSError as exc:
        raise JournalError(f"{path}: cannot lock the journal ({exc.strerror or exc})") from None


def _same_file(fd: int, path: Path) -> bool:
    try:
        here = os.stat(path, follow_symlinks=False)
    except FileNotFoundError:
        return False
    mine = os.fstat(fd)
    return (here.st_dev, here.st_ino) == (mine.st_dev, mine.st_ino)
