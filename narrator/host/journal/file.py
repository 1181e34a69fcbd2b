"""The journal's durable file: every line appended whole and synced before it is acted on.

The one writer of a journal (:class:`Journal`) holds an exclusive OS lock on it, so a second
process is refused in one line; it cuts a torn tail away before appending (keeping a copy of
the file as it was), and makes the file its owner's only (it holds the roles). A line is
written with the file's own calls and synced: once :meth:`Journal.write` returns, a kill loses
nothing acted on. A write that fails (a full disk, a pulled stick) leaves no half line: the
line waits in memory, with every line after it, until :meth:`Journal.retry` writes them.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

from narrator.engine import Game
from narrator.errors import NarratorError
from narrator.host.journal.header import JournalHeader
from narrator.host.journal.records import LIMITS
from narrator.host.recorder import Recorder
from narrator.inputs import STOP, Input
from narrator.reading import BadJSON, loads, open_regular

#: where the file as it was is kept when a torn tail is cut away
TORN_SUFFIX = ".torn"


def _lock(fd: int, path: Path) -> None:
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise NarratorError(f"{path} is in use by another narrator: only one process may "
                            "write a journal (stop the other one first)") from None


@contextlib.contextmanager
def locked(path: str | Path) -> Iterator[None]:
    """Hold the journal's lock for a moment (NarratorError when another process has it)."""
    p = Path(path)
    # a regular file only: a FIFO would wait for a writer, /dev/zero never end
    fd = open_regular(str(p), "the journal", LIMITS.max_bytes)
    try:
        _lock(fd, p)
        yield
    finally:
        os.close(fd)


def repair_torn_tail(path: str | Path) -> str | None:
    """Cut a torn last line (the process died while writing it) away, keeping a copy of the
    file as it was; returns what was done in one line, or None when there was nothing to do.

    The caller holds the lock (:func:`locked`, or an open :class:`Journal`). A last line that
    is complete but lacks only its newline is kept and given one. When the folder is full or
    read-only, a NarratorError names the journal and the cause, and nothing has changed: the
    journal is as it was, byte for byte, and no copy is left beside it.
    """
    p = Path(path)
    unended = _unended_tail(p)
    if unended is None:
        return None
    start, tail = unended
    if _is_whole_line(tail):
        try:
            _append_newline(p)
        except OSError as e:
            raise _cannot_repair(p, "give its last line its newline", e) from None
        return None
    copy = p.with_name(p.name + TORN_SUFFIX)
    try:
        _copy_whole(p, copy)
    except OSError as e:
        raise _cannot_repair(p, "keep a copy of it before cutting its torn last line away",
                             e) from None
    try:
        with p.open("r+b") as f:
            f.truncate(start)
            f.flush()
            os.fsync(f.fileno())
    except OSError as e:
        # A truncate that fails leaves the file as it was; so must the copy go, or a later
        # repair would find a copy of a journal that was never cut.
        with contextlib.suppress(OSError):
            copy.unlink()
        raise _cannot_repair(p, "cut its torn last line away", e) from None
    return (f"{p}: its last line was torn (the process stopped while writing it) and is cut "
            f"away; the file as it was is kept in {copy}")


def _unended_tail(p: Path) -> tuple[int, bytes] | None:
    """The journal's last line when no newline ends it: its offset, and its bytes up to one
    more than the longest line a reader takes; None when the file is empty or ends a line."""
    fd = open_regular(str(p), "the journal", LIMITS.max_bytes)  # as the reader will take it
    try:
        with os.fdopen(fd, "rb") as f:
            f.seek(0, os.SEEK_END)
            size = f.tell()
            if size == 0:
                return None
            f.seek(size - 1)
            if f.read(1) == b"\n":
                return None
            start = _last_line_start(f, size)
            f.seek(start)
            return start, f.read(LIMITS.max_line + 1)
    except OSError as e:
        raise NarratorError(f"{p}: cannot read the journal ({e.strerror or e})") from None


def _is_whole_line(tail: bytes) -> bool:
    """Whether ``tail``, a last line without its newline, is a whole one (a JSON object),
    which only its newline lacks; a tail longer than any line a reader takes is a torn one."""
    if len(tail) > LIMITS.max_line:
        return False
    try:
        return isinstance(loads(tail.decode("utf-8")), dict)
    except (BadJSON, UnicodeDecodeError):
        return False


def _last_line_start(f: IO[bytes], size: int) -> int:
    """The offset of the last line of the open file ``f`` of ``size`` bytes: after its last
    newline (read backwards a block at a time, so that no file is ever held whole)."""
    end = size
    while end > 0:
        begin = max(0, end - (1 << 16))
        f.seek(begin)
        at = f.read(end - begin).rfind(b"\n")
        if at >= 0:
            return begin + at + 1
        end = begin
    return 0


def _cannot_repair(p: Path, what: str, e: OSError) -> NarratorError:
    return NarratorError(f"{p}: cannot {what} ({e.strerror or e}); the journal is left as it "
                         f"was (free some space, or resume it from a folder it can be written in)")


def _append_newline(p: Path) -> None:
    """Give the journal's whole last line its newline (with the file's own calls: a failed
    write leaves no half of anything)."""
    fd = os.open(p, os.O_WRONLY | os.O_APPEND)
    try:
        end = os.lseek(fd, 0, os.SEEK_END)
        try:
            if os.write(fd, b"\n") != 1:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            os.fsync(fd)
        except OSError:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, end)
            raise
    finally:
        os.close(fd)


def _copy_whole(p: Path, copy: Path) -> None:
    """Copy ``p`` to ``copy`` (owner-only), or leave nothing: the copy is written to a new file
    beside it and renamed into place only once it is whole and synced, so that a full or
    read-only folder neither leaves an empty ``.torn`` nor overwrites an earlier one."""
    fd, name = tempfile.mkstemp(dir=p.parent, prefix=f".{p.name}.", suffix=TORN_SUFFIX)
    try:
        os.fchmod(fd, 0o600)
        with os.fdopen(fd, "wb") as out, p.open("rb") as src:
            shutil.copyfileobj(src, out)
            out.flush()
            os.fsync(out.fileno())
        os.replace(name, copy)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(name)
        raise


class Journal(Recorder):
    """The recorder of one game's journal: each line synced before the input is acted on.

    Opening takes an exclusive OS lock on the file (a second writer is refused in one line),
    cuts a torn tail away first (:attr:`note` says so) and makes the file its owner's only.
    """

    def __init__(self, path: str | Path, header: JournalHeader, *, fsync: bool = True) -> None:
        p = Path(path)
        try:
            self._lock_fd = os.open(p, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as e:
            raise NarratorError(f"{p}: cannot write the journal ({e.strerror or e})") from None
        try:
            _lock(self._lock_fd, p)
            os.fchmod(self._lock_fd, 0o600)  # a journal left readable is closed up
            #: what opening repaired, in one line (None: nothing)
            self.note = repair_torn_tail(p)
            #: why the journal cannot be written now (None: it can), and the lines that wait
            self.failure: str | None = None
            self.error = ""  # the system's words for it (No space left on device)
            self.pending: list[str] = []
            #: told when a write fails (with the line why), and when the lines are written
            self.on_failure: list[Callable[[str], None]] = []
            self.on_recovered: list[Callable[[], None]] = []
            super().__init__(p, header=header.to_json(), fsync=fsync)
        except OSError as e:
            os.close(self._lock_fd)
            raise NarratorError(f"{p}: cannot write the journal ({e.strerror or e})") from None
        except BaseException:
            os.close(self._lock_fd)
            raise

    @classmethod
    def for_game(cls, path: str | Path, game: Game, *, lang: str = "ru", mode: str = "assist",
                 fsync: bool = True) -> Journal:
        """A new journal of ``game`` as dealt (the header: :meth:`JournalHeader.of_game`)."""
        return cls(path, JournalHeader.of_game(game, lang=lang, mode=mode), fsync=fsync)

    def stop(self, at: float) -> None:
        """The host stopped the game here: a resume goes on with the time its timer had left."""
        self.write(Input(STOP, at, {"reason": "the host quit"}))

    # -- a write that fails (a full disk, a pulled stick) ------------------------------------
    #
    # A line is written whole or not at all: what a failed write left of it is cut away, so the
    # file stays a whole journal up to the failure. The line, and every line after it, then
    # waits in memory, in order (:attr:`pending`), until :meth:`retry` writes them; the game
    # is paused meanwhile (:func:`narrator.host.faults.watch_journal`).

    def _line(self, text: str) -> None:
        """The recorder's one way to write a line (the header and every event), made so: a
        line that cannot be written waits, with every line after it, and the listeners hear."""
        if self.failure is not None:
            self.pending.append(text)
            return
        try:
            self._whole(text)
        except OSError as e:
            self.pending.append(text)
            self.error = str(e.strerror or e)
            self.failure = f"{self.path}: cannot write the journal ({self.error})"
            for listener in self.on_failure:
                listener(self.failure)

    def _whole(self, text: str) -> None:
        """Append one line with the file's own calls (no buffer that could hold half of it)."""
        fd = self._file.fileno()
        end = os.lseek(fd, 0, os.SEEK_END)
        data = (text + "\n").encode("utf-8")
        try:
            done = 0
            while done < len(data):
                done += os.write(fd, data[done:])
            if self.fsync:
                os.fsync(fd)
        except OSError:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, end)  # the journal stays whole up to the failure
            raise

    def retry(self, *, tell: bool = True) -> bool:
        """Write the lines that wait; True once the journal is whole again (then the
        :attr:`on_recovered` listeners are told, unless not ``tell``)."""
        if self.failure is None:
            return True
        while self.pending:
            try:
                self._whole(self.pending[0])
            except OSError as e:
                self.error = str(e.strerror or e)
                self.failure = f"{self.path}: cannot write the journal ({self.error})"
                return False
            self.pending.pop(0)
        self.failure = None
        for listener in self.on_recovered if tell else ():
            listener()
        return True

    def close(self) -> None:
        """Close (a last try for the lines that wait; never raises: a journal that cannot be
        written is said by :attr:`failure`)."""
        try:
            self.retry(tell=False)
            with contextlib.suppress(OSError):
                super().close()
        finally:
            if self._lock_fd >= 0:
                os.close(self._lock_fd)  # the lock goes with it
                self._lock_fd = -1

