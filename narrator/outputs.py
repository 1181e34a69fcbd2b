"""Checking where the narrator will write, before it writes anything.

A game writes several things (the journal, the roles file, a recorded session, a WAV). If the
last of them turns out to be unwritable, the first ones are already there, and the retry is
refused ("the journal holds a game already"). So every place is checked first, each failure one
line naming the option: the path must not be the wrong kind (a folder where a file goes, a file
where a folder goes), and the folder it goes into (or the nearest one that exists, for folders
yet to be made) must take a new file — tried, not guessed from permission bits, which say
nothing for root or a read-only mount.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from narrator.errors import NarratorError


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


def replace_whole(path: Path, text: str, what: str, *, mode: int = 0o644) -> None:
    """Write ``text`` to ``path`` whole: into ``PATH.new`` (created with ``mode``), synced, then
    renamed over ``path`` — a kill leaves the old file or the new one, never half of one. A
    failure is one NarratorError naming ``what``, with nothing left behind."""
    new = path.with_name(path.name + ".new")
    try:
        fd = os.open(new, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
        try:
            os.write(fd, text.encode("utf-8"))
            os.fsync(fd)
        finally:
            os.close(fd)
        os.chmod(new, mode)  # an old .new keeps its mode otherwise
        os.replace(new, path)
    except OSError as e:
        with contextlib.suppress(OSError):
            new.unlink()
        raise NarratorError(f"{path}: cannot write {what} ({e.strerror or e})") from None
