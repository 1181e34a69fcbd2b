"""Clocks. The engine never reads one; the host loop and the scheduler take one injected."""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    """Seconds on a monotonic timeline."""

    def now(self) -> float: ...


class MonotonicClock:
    """The real clock: ``time.monotonic`` (no drift from wall-clock adjustments)."""

    def now(self) -> float:
        return time.monotonic()


class FakeClock:
    """A virtual clock for tests and replay: time moves only when told to."""

    def __init__(self, start: float = 0.0) -> None:
        self._now = start

    def now(self) -> float:
        return self._now

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError(f"cannot move a clock back by {seconds} s")
        self._now += seconds

    def set(self, when: float) -> None:
        if when < self._now:
            raise ValueError(f"cannot move a clock back from {self._now} to {when}")
        self._now = when
