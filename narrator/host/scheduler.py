"""A deadline scheduler on the game's timeline (in the manner of stdlib ``sched``).

Timers are deadlines, never sleeps. The scheduler keeps the game's time — :meth:`now`, the
moment the game has been brought to — apart from the clock: only the
:class:`~narrator.host.driver.Driver` moves it, to each deadline in turn (waiting on the
injected clock for it) and to the time of each input. So a game heard live (the microphone's
timeline) and the same game replayed (a virtual clock) see the same times.
Entries due at the same moment run in the order they were scheduled.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable
from dataclasses import dataclass, field

from narrator.clock import Clock


@dataclass(order=True)
class _Entry:
    deadline: float
    seq: int
    key: str = field(compare=False)
    callback: Callable[[], None] = field(compare=False)
    cancelled: bool = field(default=False, compare=False)


class Scheduler:
    """Runs callbacks at deadlines; entries can be cancelled by key. The game's time starts at
    ``clock.now()``; the clock is the one the driver waits on."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._now = clock.now()
        self._heap: list[_Entry] = []
        self._by_key: dict[str, list[_Entry]] = {}
        self._seq = itertools.count()

    def now(self) -> float:
        """The game's time: the moment the game has been brought to."""
        return self._now

    def move_to(self, when: float) -> None:
        """Bring the game's time to ``when`` (never back); due entries are not run here."""
        self._now = max(self._now, when)

    def call_at(self, deadline: float, key: str, callback: Callable[[], None]) -> None:
        """Run ``callback`` once the game's time reaches ``deadline``."""
        entry = _Entry(deadline, next(self._seq), key, callback)
        heapq.heappush(self._heap, entry)
        self._by_key.setdefault(key, []).append(entry)

    def call_later(self, delay: float, key: str, callback: Callable[[], None]) -> None:
        """Run ``callback`` ``delay`` seconds from now."""
        self.call_at(self._now + delay, key, callback)

    def cancel(self, key: str) -> int:
        """Cancel every pending entry with ``key``; returns how many were cancelled."""
        entries = self._by_key.pop(key, [])
        for e in entries:
            e.cancelled = True
        return len(entries)

    def has(self, key: str) -> bool:
        """Whether an entry with ``key`` is pending."""
        return any(not e.cancelled for e in self._by_key.get(key, ()))

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
        """Run every entry due by the game's time (those added meanwhile too); how many ran."""
        ran = 0
        while True:
            self._prune()
            if not self._heap or self._heap[0].deadline > self._now:
                return ran
            entry = heapq.heappop(self._heap)
            keyed = self._by_key.get(entry.key)
            if keyed is not None:
                keyed.remove(entry)
                if not keyed:
                    del self._by_key[entry.key]
            entry.callback()
            ran += 1
