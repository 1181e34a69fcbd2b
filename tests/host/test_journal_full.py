"""A journal that cannot be written (a full disk) pauses the game; nothing is lost, nothing torn.

The disk fills up by an injected ``OSError`` on the journal's writes (ENOSPC), sometimes after
half a line went out, as a full disk does.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any

import pytest

from narrator.engine import Game
from narrator.engine import waits as w
from narrator.host import journal as journal_module
from narrator.host.faults import RETRY_EVERY, watch_journal
from narrator.host.journal import Journal, load_journal
from narrator.inputs import Input
from narrator.testing import TableRig
from tests.helpers import ROLES


class Disk:
    """``os.write`` for the journal: full while ``full`` (after writing ``half`` of a line)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.full = False
        self.half = False
        self.real = os.write
        monkeypatch.setattr(journal_module.os, "write", self.write)

    def write(self, fd: int, data: Any) -> int:
        if not self.full:
            return self.real(fd, data)
        if self.half and len(data) > 4:
            self.real(fd, bytes(data)[: len(data) // 2])  # a torn half, then the error
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_a_failed_write_keeps_the_journal_whole_and_the_lines_wait_in_order(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "j.jsonl"
    journal = Journal.for_game(path, Game(roles=ROLES), fsync=False)
    disk = Disk(monkeypatch)
    told: list[str] = []
    journal.on_failure.append(told.append)
    journal.write(Input("action", 1.0, {"action": "timeup dealing"}))
    disk.full = disk.half = True
    journal.write(Input("action", 2.0, {"action": "foul 4"}))
    journal.write(Input("action", 3.0, {"action": "foul 5"}))
    assert told == [f"{path}: cannot write the journal (No space left on device)"]  # once
    assert journal.failure is not None and len(journal.pending) == 2
    # the half line went away again: the file is a whole journal up to the failure
    assert path.read_text().endswith('"timeup dealing"}\n')
    assert [str(a) for _, a in load_journal(path).entries] == ["timeup dealing"]
    assert not journal.retry()  # still full
    disk.full = False
    assert journal.retry() and journal.failure is None and journal.pending == []
    assert [str(a) for _, a in load_journal(path).entries] == [
        "timeup dealing", "foul 4", "foul 5"]
    journal.close()


def test_close_never_raises_and_leaves_the_journal_whole(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "j.jsonl"
    journal = Journal.for_game(path, Game(roles=ROLES), fsync=False)
    disk = Disk(monkeypatch)
    disk.full = disk.half = True
    journal.write(Input("action", 2.0, {"action": "foul 4"}))
    journal.close()  # a last try fails: no traceback, the file as it was
    assert load_journal(path).entries == []


def test_a_full_disk_pauses_a_console_game_and_it_goes_on_when_written_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "j.jsonl"
    game = Game(roles=ROLES)
    journal = Journal.for_game(path, game, mode="play", fsync=False)
    rig = TableRig(game, journal=journal, start=False)
    host, driver, press, views = rig.host, rig.driver, rig.press, rig.views
    said: list[str] = []
    watch_journal(host, journal, driver.call, said.append)
    rig.session.begin()
    rig.until(w.Deal)
    for seat in range(1, 11):
        assert press(seat, "seen").ok
    rig.until(w.Speech)
    disk = Disk(monkeypatch)
    disk.full = True
    assert press(1, "nominate", target=5).ok  # its line waits in memory: nothing lost
    driver.take()  # the pause, after the press in progress
    assert host.paused and said[0].startswith(f"{path}: cannot write the journal")
    left = host.time_left
    assert left is None  # the clock stands still: the speech keeps its time
    assert press(1, "end").reason == "paused"  # nothing is taken meanwhile
    reason = "the journal cannot be written (No space left on device)"
    assert all(v["paused"] == reason for v in views.values())  # every screen says why
    assert str(path) not in str(views)  # (no path on a phone)
    driver.run_until(driver.now() + 3 * RETRY_EVERY)  # tried, still full
    assert host.paused and isinstance(game.expect, w.Speech) and game.expect.seat == 1
    disk.full = False
    driver.run_until(driver.now() + RETRY_EVERY + 0.01)
    assert not host.paused and said[-1] == f"{path}: written again: the game goes on"
    assert host.time_left is not None and host.time_left > 50
    assert press(1, "end").ok
    journal.close()
    assert [str(a) for _, a in load_journal(path).entries][-2:] == ["nominate 5", "end"]
