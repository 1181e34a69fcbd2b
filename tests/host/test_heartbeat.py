"""The journal's heartbeat: a beat a second while a timer runs, read back by ``resume``; one that
cannot be written pauses the game like any other line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from narrator.clock import VirtualClock
from narrator.engine import Game
from narrator.engine import waits as w
from narrator.host.assembly import assemble_host
from narrator.host.driver import Driver
from narrator.host.faults import RETRY_EVERY, watch_journal
from narrator.host.heartbeat import keep_heartbeat
from narrator.host.host import Host
from narrator.host.intake import apply_input
from narrator.host.journal import Journal, load_journal
from narrator.testing import advance
from narrator.voice.manifest import default_manifest
from tests.helpers import ROLES
from tests.host.test_journal_full import Disk


def _table(path: Path) -> tuple[Host, Driver, Journal, list[str]]:
    game = Game(roles=ROLES)
    journal = Journal.for_game(path, game, mode="play", fsync=False)
    host = assemble_host(game, VirtualClock(), manifest=default_manifest("ru"),
                         journal=journal).host
    driver = Driver(host.scheduler, lambda event: apply_input(host, event))
    said: list[str] = []
    watch_journal(host, journal, driver.call, said.append)
    keep_heartbeat(host, journal)
    return host, driver, journal, said


def _beats(path: Path) -> list[float]:
    rows = [json.loads(line) for line in path.read_text().splitlines()[1:]]
    return [r["t"] for r in rows if r.get("type") == "beat"]


def test_a_beat_a_second_while_a_timer_runs_and_resume_counts_to_the_last(
        tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    host, driver, journal, _ = _table(path)
    host.start()
    advance(host.game, w.Speech, step=driver.run_next)
    started = host.timer_started
    driver.run_until(started + 20.4)  # a speech heard in silence: nothing else is written
    journal.close()
    beats = [t for t in _beats(path) if t >= started]
    assert beats == pytest.approx([started + k for k in range(1, 21)])
    contents = load_journal(path)
    game = contents.game()
    assert contents.last_t == pytest.approx(started + 20.0)
    # the speech comes back with what it had at the last beat, not with the full minute
    assert contents.time_left(game) == pytest.approx(60.0 - 20.0)


def test_no_beat_past_a_timer_nor_while_the_game_is_paused(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    host, driver, journal, _ = _table(path)
    host.start()
    advance(host.game, w.Speech, step=driver.run_next)
    host.pause("sound", "the sound is gone")
    before = len(_beats(path))
    driver.run_until(driver.now() + 30.0)
    assert len(_beats(path)) == before  # its clock stands still: nothing to count
    host.unpause("sound")
    driver.run_until(driver.now() + 2.5)
    assert len(_beats(path)) == before + 2
    journal.close()


def test_a_beat_that_cannot_be_written_pauses_the_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "j.jsonl"
    host, driver, journal, said = _table(path)
    host.start()
    advance(host.game, w.Speech, step=driver.run_next)
    disk = Disk(monkeypatch)
    disk.full = True
    driver.run_until(driver.now() + 1.5)  # the next beat fails
    driver.take()
    assert host.paused and said[0].startswith(f"{path}: cannot write the journal")
    assert isinstance(host.game.expect, w.Speech)
    disk.full = False
    driver.run_until(driver.now() + RETRY_EVERY + 0.01)
    assert not host.paused and host.time_left is not None and host.time_left > 57
    journal.close()
    assert len(_beats(path)) >= 1  # the beat that waited is in the journal now
