"""A deadline scheduler on an injected clock (in the manner of stdlib ``sched``).

Timers are deadlines, never sleeps: whoever drives the scheduler either waits on the real clock
until :meth:`Scheduler.next_deadline` or, on a :class:`~narrator.clock.VirtualClock`, jumps
straight to it. Entries due at the same moment run in the order they were scheduled.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable
from dataclasses import dataclass, field

from narrator.clock import Clock, VirtualClock


@dataclass(order=True)
class _Entry:
    deadline: float
    seq: int
    key: str = field(compare=False)
    callback: Callable[[], None] = field(compare=False)
    cancelled: bool = field(default=False, compare=False)


class Scheduler:
    """Runs callbacks at deadlines on ``clock``; entries can be cancelled by key."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._heap: list[_Entry] = []
        self._by_key: dict[str, list[_Entry]] = {}
        self._seq = itertools.count()

    def call_at(self, deadline: float, key: str, callback: Callable[[], None]) -> None:
        """Run ``callback`` once the clock reaches ``deadline``."""
        entry = _Entry(deadline, next(self._seq), key, callback)
        heapq.heappush(self._heap, entry)
        self._by_key.setdefault(key, []).append(entry)

    def call_later(self, delay: float, key: str, callback: Callable[[], None]) -> None:
        """Run ``callback`` ``delay`` seconds from now."""
        self.call_at(self.clock.now() + delay, key, callback)

    def cancel(self, key: str) -> int:
        """Cancel every pending entry with ``key``; returns how many were cancelled."""
        entries = self._by_key.pop(key, [])
        for e in entries:
            e.cancelled = True
        return len(entries)

    def _prune(self) -> None:
        while self._heap and self._heap[0].cancelled:
            heapq.heappop(self._heap)

    def next_deadline(self) -> float | None:
        """The earliest pending deadline, or ``None`` when nothing is scheduled."""
        self._prune()
        return self._heap[0].deadline if self._heap else None

    def pending(self) -> bool:
        return self.next_deadline() is not None

    def run_due(self) -> int:
        """Run every entry whose deadline has passed; returns how many ran."""
        ran = 0
        now = self.clock.now()
        while True:
            self._prune()
            if not self._heap or self._heap[0].deadline > now:
                return ran
            entry = heapq.heappop(self._heap)
            keyed = self._by_key.get(entry.key)
            if keyed is not None:
                keyed.remove(entry)
                if not keyed:
                    del self._by_key[entry.key]
            entry.callback()
            ran += 1

    def advance_to_next(self) -> bool:
        """On a fake clock: jump to the next deadline and run what is due there.

        Returns False when nothing is scheduled.
        """
        deadline = self.next_deadline()
        if deadline is None:
            return False
        clock = self.clock
        if not isinstance(clock, VirtualClock):
            raise TypeError("advance_to_next needs a VirtualClock")
        if deadline > clock.now():
            clock.set(deadline)
        self.run_due()
        return True

    def advance_until(self, when: float) -> None:
        """On a fake clock: run everything due up to ``when``, then stop the clock there."""
        clock = self.clock
        if not isinstance(clock, VirtualClock):
            raise TypeError("advance_until needs a VirtualClock")
        while True:
            deadline = self.next_deadline()
            if deadline is None or deadline > when:
                break
            if deadline > clock.now():
                clock.set(deadline)
            self.run_due()
        if when > clock.now():
            clock.set(when)
