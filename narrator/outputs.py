"""Checking where the narrator will write, before it writes anything.

A game writes several things (the journal, the roles file, a recorded session, a WAV). If the
last of them turns out to be unwritable, the first ones are already there, and the retry is
refused ("the journal holds a game already"). So every place is checked first, each failure one
line naming the option: the path must not be the wrong kind (a folder where a file goes, a file
where a folder goes), and the folder it goes into (or the nearest one that exists, for folders
yet to be made) must take a new file — tried, not guessed from permission bits, which say
nothing for root or a read-only mount.

Everything the narrator writes is its owner's only — folders 0700, files 0600, whatever the
umask: an evening's folder, a journal, a recording, a results table, a tournament's database, a
review's page, an export all hold (or sit beside what holds) every card of a game. The one way
to make each is here: :func:`private_folder`, :func:`private_fd`, :func:`private_file`,
:func:`replace_whole`.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path
from typing import IO, BinaryIO

from narrator.errors import NarratorError

#: the mode of every file and folder the narrator writes
FILE_MODE = 0o600
FOLDER_MODE = 0o700


def private_folder(path: Path, *, parents: bool = False, exist_ok: bool = False) -> None:
    """Make the folder ``path`` (and with ``parents`` each missing one above it) its owner's
    only: ``mkdir``'s mode passes through the umask, so it is set again after. With
    ``exist_ok`` a folder there already is closed up too when it is its user's. OSError as
    ``mkdir`` raises it."""
    missing: list[Path] = []
    for folder in (path, *path.parents) if parents else (path,):
        if folder.exists() or folder == folder.parent:
            break
        missing.append(folder)
    if not missing and not exist_ok:
        raise FileExistsError(f"{path}: exists already")
    for folder in reversed(missing):
        try:
            folder.mkdir(mode=FOLDER_MODE)
        except FileExistsError:  # made meanwhile by another process
            if not folder.is_dir():
                raise
        os.chmod(folder, FOLDER_MODE)
    if not missing and path.is_dir() and path.stat().st_uid == os.getuid():
        os.chmod(path, FOLDER_MODE)
    elif not missing:
        raise NotADirectoryError(f"{path}: not a folder")


def private_fd(path: str | Path, flags: int = os.O_WRONLY | os.O_CREAT | os.O_TRUNC, *,
               mode: int = FILE_MODE) -> int:
    """A descriptor of ``path`` opened with ``flags``, the file its owner's only: made so, and
    a regular file there already closed up (its old mode stays otherwise; a device such as
    ``/dev/null`` is left as it is). OSError as ``os.open`` raises it."""
    fd = os.open(path, flags, mode)
    try:
        if stat.S_ISREG(os.fstat(fd).st_mode):
            os.fchmod(fd, mode)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _flags(append: bool) -> int:
    return os.O_WRONLY | os.O_CREAT | (os.O_APPEND if append else os.O_TRUNC)


def private_file(path: str | Path, *, append: bool = False) -> IO[str]:
    """``path`` open for writing UTF-8 text, as :func:`private_fd` makes it."""
    fd = private_fd(path, _flags(append))
    try:
        return os.fdopen(fd, "a" if append else "w", encoding="utf-8")
    except BaseException:
        os.close(fd)
        raise


def private_binary(path: str | Path, *, append: bool = False) -> BinaryIO:
    """``path`` open for writing bytes, as :func:`private_fd` makes it."""
    fd = private_fd(path, _flags(append))
    try:
        return os.fdopen(fd, "ab" if append else "wb")
    except BaseException:
        os.close(fd)
        raise


def write_private(path: str | Path, data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8) to ``path``, its owner's only (OSError as writing raises
    it). For a file that must never be half-written, :func:`replace_whole`."""
    fd = private_fd(path)
    with os.fdopen(fd, "wb") as f:
        f.write(data.encode("utf-8") if isinstance(data, str) else data)


def _existing_ancestor(path: Path) -> Path:
    for parent in (path, *path.parents):
        if parent.exists():
            return parent
    return Path(".")


def _try_writing_in(folder: Path, option: str) -> None:
    base = _existing_ancestor(folder)
    if not base.is_dir():
        raise NarratorError(f"{option}: cannot write in {folder} ({base} is not a folder)")
    try:
        fd, name = tempfile.mkstemp(dir=base, prefix=".narrator-check-")
    except OSError as e:
        raise NarratorError(f"{option}: cannot write in {base} ({e.strerror or e})") from None
    os.close(fd)
    os.unlink(name)


def check_new_file(path: str | Path, option: str) -> Path:
    """``path`` can be created or written as a file (``option`` names it in the error)."""
    p = Path(path)
    if p.is_dir():
        raise NarratorError(f"{option}: {p} is a folder, not a file")
    if p.exists() and not p.is_file() and not p.is_char_device():
        raise NarratorError(f"{option}: {p} is not a regular file")
    if p.exists() and not os.access(p, os.W_OK):
        raise NarratorError(f"{option}: cannot write {p} (permission denied)")
    _try_writing_in(p.parent, option)
    return p


#: the files of a recorded session (one of them present: the folder holds one)
SESSION_FILES = ("inputs.jsonl", "mic.wav", "session.json", "protocol.json")


def check_new_session_folder(path: str | Path, option: str) -> Path:
    """``path`` can be made (or is) a folder that holds no recorded session yet."""
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise NarratorError(f"{option}: {p} is a file, not a folder")
    if p.is_dir() and any((p / name).exists() for name in SESSION_FILES):
        raise NarratorError(f"{option}: {p} already holds a recorded session; give a new "
                            "folder (it is never overwritten)")
    _try_writing_in(p, option)
    return p


def replace_whole(path: Path, text: str, what: str, *, mode: int = FILE_MODE) -> None:
    """Write ``text`` to ``path`` whole, its owner's only: into ``PATH.new``, synced, then
    renamed over ``path`` — a kill leaves the old file or the new one, never half of one. A
    failure is one NarratorError naming ``what``, with nothing left behind."""
    new = path.with_name(path.name + ".new")
    try:
        fd = private_fd(new, mode=mode)  # (an old .new closed up too)
        try:
            os.write(fd, text.encode("utf-8"))
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(new, path)
    except OSError as e:
        with contextlib.suppress(OSError):
            new.unlink()
        raise NarratorError(f"{path}: cannot write {what} ({e.strerror or e})") from None
