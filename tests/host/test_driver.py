"""The one driver: deadlines at their times on either clock, inputs at the game's time, holds."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from narrator.clock import MonotonicClock, VirtualClock
from narrator.engine import Game
from narrator.host.driver import Driver
from narrator.host.host import Host
from narrator.host.scheduler import Scheduler
from narrator.host.transcript import Transcript
from narrator.inputs import Input, entry
from narrator.voice.manifest import default_manifest
from tests.helpers import ROLES


def driver_on(clock: VirtualClock | MonotonicClock, taken: list[tuple[float, str]],
              hold: float | None = None) -> Driver:
    """A driver whose intake notes each input; the deadline at ``hold`` waits for a number."""
    host = Host(Game(roles=ROLES), Scheduler(clock), Transcript(default_manifest("ru")))

    def intake(event: Input) -> None:
        taken.append((event.t, str(event.get("text"))))

    def held(deadline: float) -> bool:
        return deadline == hold and not any(text.isdigit() for _, text in taken)

    return Driver(host.scheduler, intake, hold=held)


def test_deadlines_run_at_their_time_and_the_game_stands_at_the_target() -> None:
    clock = VirtualClock(100.0)
    d = driver_on(clock, [])
    ran: list[tuple[float, float]] = []
    for at in (103.0, 101.0, 102.5):
        d.scheduler.call_at(at, f"k{at}", lambda: ran.append((d.now(), clock.now())))
    d.run_until(102.6)
    assert ran == [(101.0, 101.0), (102.5, 102.5)]  # the game's time and the clock's: each mark
    assert d.now() == clock.now() == 102.6
    assert d.run_next() and ran[-1] == (103.0, 103.0)
    assert not d.run_next()


def test_the_games_time_follows_a_timeline_the_clock_has_passed() -> None:
    # play: the microphone stamps its chunks with the clock, a little in the past by the time
    # they are read; the game follows the chunks' times, never the clock's
    clock = VirtualClock(0.0)
    d = driver_on(clock, [])
    clock.set(1000.0)  # the clock is far ahead: nothing waits, nothing jumps
    ran: list[float] = []
    d.scheduler.call_at(0.5, "a", lambda: ran.append(d.now()))
    d.scheduler.call_at(1.0, "b", lambda: ran.append(d.now()))
    d.run_until(0.7)
    assert ran == [0.5] and d.now() == 0.7 and clock.now() == 1000.0
    d.scheduler.move_to(0.1)  # never back
    assert d.now() == 0.7


def test_inputs_are_taken_at_the_games_time_and_a_hold_waits_for_one() -> None:
    clock = VirtualClock()
    taken: list[tuple[float, str]] = []
    d = driver_on(clock, taken, hold=5.0)
    ran: list[float] = []
    d.scheduler.call_at(5.0, "window", lambda: ran.append(d.now()))
    d.submit(entry(999.0, "early"))  # made "later" on another clock: taken at the game's time
    d.take()
    assert taken == [(0.0, "early")]
    d.submit(entry(0.0, "-"))  # not the answer
    d.submit(entry(0.0, "6"))  # the answer
    d.call(lambda: taken.append((d.now(), "a thunk")))
    d.run_until(10.0)
    # the game waited at the window's end and took what came one at a time, there
    assert taken[1:] == [(5.0, "-"), (5.0, "6")] and ran == [5.0] and d.now() == 10.0
    d.take()
    assert taken[-1] == (10.0, "a thunk")


def test_step_takes_inputs_then_waits_for_the_next_deadline_or_input() -> None:
    clock = VirtualClock()
    taken: list[tuple[float, str]] = []
    d = driver_on(clock, taken)
    d.scheduler.call_at(60.0, "timer", lambda: taken.append((d.now(), "timer")))
    d.step(timeout=0)
    assert clock.now() == 0.0 and taken == []
    d.submit(entry(0.0, "f 4"))
    d.step(timeout=float("inf"))  # the input, then the jump to the deadline
    assert taken == [(0.0, "f 4"), (60.0, "timer")] and clock.now() == 60.0
    d.step(timeout=float("inf"))  # nothing scheduled: nothing to wait for
    assert clock.now() == 60.0


def test_a_wait_is_cut_short_by_an_input_on_either_clock() -> None:
    wake = threading.Event()
    wake.set()
    virtual = VirtualClock(1.0)
    assert virtual.wait_until(5.0, wake) is False and virtual.now() == 1.0
    assert virtual.wait_until(5.0) is True and virtual.now() == 5.0
    real = MonotonicClock()
    began = time.monotonic()
    assert real.wait_until(began + 30.0, wake) is False  # returns at once: wake is set
    assert real.wait_until(began - 1.0) is True
    assert time.monotonic() - began < 1.0


def test_the_recorder_writes_typed_lines_owner_only(tmp_path: Path) -> None:
    from narrator.host.recorder import Fanout, Recorder
    from narrator.replay.session import read_inputs

    kept: list[Input] = []
    rec = Recorder(tmp_path / "inputs.jsonl", header={"session": 2})
    out = Fanout(rec, type("Kept", (), {"write": lambda self, e: kept.append(e)})())
    out.write(entry(1.5, "f 6"))
    rec.close()
    assert (tmp_path / "inputs.jsonl").stat().st_mode & 0o777 == 0o600
    lines = (tmp_path / "inputs.jsonl").read_text().splitlines()
    assert lines == ['{"session": 2}', '{"type":"entry","t":1.5,"text":"f 6"}']
    assert read_inputs(tmp_path / "inputs.jsonl", skip=1) == kept == [entry(1.5, "f 6")]
