"""Clocks. The engine never reads one; the host loop and the scheduler take one injected.

One protocol for both: :class:`MonotonicClock` in a live game, :class:`VirtualClock` in replay
and tests (trio's MockClock idea). Whoever waits calls :meth:`Clock.wait_until`; on the virtual
clock that is a jump, so the same loop runs as fast as the CPU allows. A wait may be cut short
by a ``wake`` event (an input arrived from another thread): the one way a loop waits for "the
next deadline or the next input" on either clock.
"""

from __future__ import annotations

import threading
import time
from typing import Protocol


class Clock(Protocol):
    """Seconds on a monotonic timeline."""

    def now(self) -> float: ...

    def wait_until(self, deadline: float, wake: threading.Event | None = None) -> bool:
        """Return once ``now() >= deadline`` (a sleep, or a jump on a virtual clock), or
        earlier when ``wake`` is set; True when the deadline was reached."""
        ...


class MonotonicClock:
    """The real clock: ``time.monotonic`` (no drift from wall-clock adjustments)."""

    def now(self) -> float:
        return time.monotonic()

    def wait_until(self, deadline: float, wake: threading.Event | None = None) -> bool:
        while True:
            delay = deadline - time.monotonic()
            if delay <= 0:
                return True
            if wake is None:
                time.sleep(delay)
            elif wake.wait(delay):
                return False


class VirtualClock:
    """A virtual clock for replay and tests: time moves only when told to (or waited on)."""

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

    def wait_until(self, deadline: float, wake: threading.Event | None = None) -> bool:
        """Jump to ``deadline`` (never back); not at all when ``wake`` is set already (an input
        is waiting: nobody else can set it while virtual time stands still)."""
        if wake is not None and wake.is_set():
            return self._now >= deadline
        if deadline > self._now:
            self._now = deadline
        return True
