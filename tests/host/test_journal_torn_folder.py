"""A torn journal in a folder that cannot be written: one line, exit 2, nothing changed.

``narrator resume`` cuts a torn last line away, keeping a copy of the file as it was; when the
folder is full (ENOSPC) or read-only (EROFS, EACCES) neither can be done. The faults are
injected (the tests run as root, whom a read-only mode does not stop, and no small full
filesystem is at hand): the copy's write or its sync fails as on a full disk, and every open for
writing fails as on a read-only mount.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import IO, Any

import pytest

from narrator.cli import main
from narrator.errors import NarratorError
from narrator.host import journal as journal_module
from narrator.host.journal import repair_torn_tail
from tests.host.test_journal_hardening import day_one

TORN = '{"type":"action","t":12.0,"act'  # the process died while writing this line
WRITES = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND


def oserror(code: int) -> OSError:
    return OSError(code, os.strerror(code))


def torn_journal(tmp_path: Path, tail: str = TORN) -> tuple[Path, bytes]:
    """A journal of a game at its first speech with ``tail`` after its last line."""
    path = tmp_path / "j.jsonl"
    _, journal = day_one(path)
    journal.close()
    with path.open("a") as f:
        f.write(tail)
    return path, path.read_bytes()


def full_on_copy(monkeypatch: pytest.MonkeyPatch) -> None:
    """The disk fills up halfway through the copy."""
    def copy(src: IO[bytes], dst: IO[bytes], length: int = 0) -> None:
        data = src.read()
        dst.write(data[: len(data) // 2])
        dst.flush()
        raise oserror(errno.ENOSPC)

    monkeypatch.setattr(journal_module.shutil, "copyfileobj", copy)


def full_on_sync(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every write is taken, and the disk says it is full when they are synced."""
    def fsync(fd: int) -> None:
        raise oserror(errno.ENOSPC)

    monkeypatch.setattr(journal_module.os, "fsync", fsync)


def read_only(code: int) -> Any:
    def inject(monkeypatch: pytest.MonkeyPatch) -> None:
        real = os.open

        def open_(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
            if flags & WRITES:
                raise oserror(code)
            return real(path, flags, *args, **kwargs)

        monkeypatch.setattr(os, "open", open_)
    return inject


FAULTS = {"full, on the copy": (full_on_copy, "No space left on device"),
          "full, on the sync": (full_on_sync, "No space left on device"),
          "read-only": (read_only(errno.EROFS), "Read-only file system"),
          "not writable": (read_only(errno.EACCES), "Permission denied")}


@pytest.mark.parametrize("fault", FAULTS)
def test_resume_says_why_in_one_line_and_leaves_everything_as_it_was(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        fault: str) -> None:
    path, before = torn_journal(tmp_path)
    inject, cause = FAULTS[fault]
    inject(monkeypatch)
    assert main(["resume", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"narrator: {path}: ")
    assert cause in err and "torn" in err
    monkeypatch.undo()
    assert path.read_bytes() == before  # byte for byte
    assert sorted(p.name for p in tmp_path.iterdir()) == ["j.jsonl"]  # no .torn, no scrap


@pytest.mark.parametrize("fault", ["read-only", "not writable"])
def test_a_whole_last_line_without_its_newline_is_left_as_it_was(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fault: str) -> None:
    path, before = torn_journal(tmp_path, '{"type":"action","t":12.0,"action":"nominate 5"}')
    inject, cause = FAULTS[fault]
    inject(monkeypatch)
    with pytest.raises(NarratorError) as e:
        repair_torn_tail(path)
    assert str(e.value).startswith(f"{path}: ") and cause in str(e.value)
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["j.jsonl"]


def test_a_failed_copy_keeps_an_earlier_copy(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    path, _ = torn_journal(tmp_path)
    earlier = tmp_path / "j.jsonl.torn"
    earlier.write_bytes(b"the file as it was, the last time\n")
    full_on_copy(monkeypatch)
    with pytest.raises(NarratorError):
        repair_torn_tail(path)
    assert earlier.read_bytes() == b"the file as it was, the last time\n"


def test_a_truncate_that_fails_takes_its_copy_away(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    path, before = torn_journal(tmp_path)
    real = Path.open

    def open_(self: Path, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if mode == "r+b":
            raise oserror(errno.EIO)
        return real(self, mode, *args, **kwargs)

    monkeypatch.setattr(Path, "open", open_)
    with pytest.raises(NarratorError, match="Input/output error"):
        repair_torn_tail(path)
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["j.jsonl"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes in a folder without write rights")
def test_a_folder_without_write_rights(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    path, before = torn_journal(folder)
    folder.chmod(0o500)
    try:
        assert main(["resume", str(path)]) == 2
    finally:
        folder.chmod(0o700)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Permission denied" in err
    assert path.read_bytes() == before
    assert sorted(p.name for p in folder.iterdir()) == ["j.jsonl"]


def test_the_repair_still_works_where_it_can_write(tmp_path: Path) -> None:
    path, before = torn_journal(tmp_path)
    note = repair_torn_tail(path)
    assert note is not None and "torn" in note
    assert (tmp_path / "j.jsonl.torn").read_bytes() == before
    assert path.read_bytes() == before[: -len(TORN)]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["j.jsonl", "j.jsonl.torn"]
