"""Running a host in real time: the loop that waits for the next deadline or the next input.

Inputs arrive from other threads (the keyboard UI, the listener, the console) as thunks put in
an inbox; the loop runs them and the scheduler's due entries on its own thread, so the engine
and the host are only ever touched by one thread. On a VirtualClock the same loop can be stepped
by tests (:meth:`LiveLoop.step` with ``timeout=0`` advances the clock to the next deadline).
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable

from narrator.clock import VirtualClock
from narrator.engine import Action
from narrator.errors import NarratorError
from narrator.host.host import Host


class LiveLoop:
    """Drives ``host`` on its scheduler's clock; ``on_error`` gets refused inputs as text."""

    def __init__(self, host: Host, *, on_error: Callable[[str], None] | None = None) -> None:
        self.host = host
        self.scheduler = host.scheduler
        self.clock = host.clock
        self.on_error = on_error or (lambda message: None)
        self._inbox: queue.SimpleQueue[Callable[[], object]] = queue.SimpleQueue()
        self._stopping = threading.Event()

    def submit(self, fn: Callable[[], object]) -> None:
        """Run ``fn`` on the loop's thread (thread-safe)."""
        self._inbox.put(fn)

    def apply(self, action: Action) -> None:
        """Apply ``action`` on the loop's thread; an illegal one goes to ``on_error``."""
        self.submit(lambda: self.host.apply(action))

    def stop(self) -> None:
        self._stopping.set()
        self._inbox.put(lambda: None)  # wake the loop

    @property
    def stopping(self) -> bool:
        return self._stopping.is_set()

    def _run(self, fn: Callable[[], object]) -> None:
        try:
            fn()
        except NarratorError as e:
            self.on_error(str(e))

    def step(self, timeout: float = 0.25) -> None:
        """Wait up to ``timeout`` s for an input or the next deadline, then run what is due.

        On a VirtualClock nothing waits: pending inputs run, then the clock jumps to the next
        deadline if it is within ``timeout`` (tests pass ``timeout=float('inf')``).
        """
        now = self.clock.now()
        deadline = self.scheduler.next_deadline()
        wait = timeout if deadline is None else max(0.0, min(timeout, deadline - now))
        if isinstance(self.clock, VirtualClock):
            self._drain_inbox()
            if deadline is not None and deadline - now <= timeout:
                self.scheduler.advance_to_next()
            return
        try:
            fn = self._inbox.get(timeout=wait) if wait > 0 else self._inbox.get_nowait()
        except queue.Empty:
            pass
        else:
            self._run(fn)
        self._drain_inbox()
        self.scheduler.run_due()

    def _drain_inbox(self) -> None:
        while True:
            try:
                fn = self._inbox.get_nowait()
            except queue.Empty:
                return
            self._run(fn)

    def run(self) -> None:
        """Run until :meth:`stop` or the end of the game."""
        while not self._stopping.is_set() and not self.host.game.is_over:
            self.step()
        self._drain_inbox()
