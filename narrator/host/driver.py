"""The one loop every mode runs a game on: time moves here, inputs come in here.

:meth:`Driver.run_until` brings the game to a time: the scheduler's deadlines run in order,
each once the injected clock has reached it (a sleep on the monotonic clock, a jump on a virtual
one — the same code). Inputs are applied at the game's time when they are taken, stamped so.
Assist runs :meth:`Driver.step` on a thread (the next input or deadline, whichever comes
first); play's listening loop brings the game to each audio chunk's timestamp; replay to each
table-script line's moment. Inputs come from other threads through :meth:`Driver.submit`
(thread-safe: the keys, the operator's terminal, the table console) or from an
:class:`InputSource` (a recorded session, a test script).
"""

from __future__ import annotations

import contextlib
import math
import queue
import threading
from collections.abc import Callable
from typing import Protocol

from narrator.clock import Clock
from narrator.errors import NarratorError
from narrator.host.scheduler import Scheduler
from narrator.inputs import Input

Thunk = Callable[[], object]
#: where an input's error goes: the error itself, so each screen words it in its language
#: (:meth:`~narrator.errors.NarratorError.words`)
ErrorSink = Callable[[NarratorError], None]


class InputSource(Protocol):
    """Where inputs come from besides :meth:`Driver.submit`."""

    def take(self, now: float, *, block: bool) -> Input | None:
        """The next input due by the game's time ``now``; ``block``: wait for one (None: there
        will be none)."""
        ...


class Driver:
    """Drives a game's ``scheduler`` on its clock: ``intake`` applies an input (to the host; a
    NarratorError it raises goes to ``on_error``, as it is); ``hold(deadline)`` keeps the game at a
    deadline until an input answers it."""

    MAX_INBOX = 256

    def __init__(self, scheduler: Scheduler, intake: Callable[[Input], object], *,
                 source: InputSource | None = None, hold: Callable[[float], bool] | None = None,
                 on_error: ErrorSink | None = None) -> None:
        self.clock = scheduler.clock
        self.scheduler = scheduler
        self.intake = intake
        self.source = source
        self.hold = hold
        self.on_error = on_error or (lambda error: None)
        self._idle = (scheduler, intake, on_error)
        # Bounded: inputs faster than the game takes them (a pipe into the operator's
        # terminal, a flood of key presses) wait in their sender instead of filling memory.
        self._inbox: queue.Queue[Input | Thunk] = queue.Queue(self.MAX_INBOX)
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._loop_thread: int | None = None  # the thread that takes inputs (it never waits)

    @classmethod
    def between_games(cls, clock: Clock, intake: Callable[[Input], object], *,
                      on_error: ErrorSink | None = None) -> Driver:
        """A driver that outlives its games (an evening's): until a game is :meth:`attach`-ed
        it runs the functions handed in and gives inputs to ``intake``; after each game's
        :meth:`detach` it does so again. What waited in its inbox stays in order: a press made
        while one game ended and the next began is taken by whoever runs then."""
        return cls(Scheduler(clock), intake, on_error=on_error)

    def attach(self, scheduler: Scheduler, intake: Callable[[Input], object], *,
               source: InputSource | None = None, hold: Callable[[float], bool] | None = None,
               on_error: ErrorSink | None = None) -> None:
        """Drive a game from now on: its scheduler (on this driver's clock), its intake."""
        if scheduler.clock is not self.clock:
            raise ValueError("a game's scheduler must run on its driver's clock")
        self.scheduler, self.intake, self.source, self.hold = scheduler, intake, source, hold
        self.on_error = on_error or self._idle[2] or (lambda error: None)

    def detach(self) -> None:
        """The game is done with: back to what the driver did before :meth:`attach`; the
        functions still queued run there (the inputs queued go to its intake)."""
        scheduler, intake, on_error = self._idle
        scheduler.move_to(self.clock.now())  # its time went on meanwhile
        self.scheduler, self.intake, self.source, self.hold = scheduler, intake, None, None
        self.on_error = on_error or (lambda error: None)

    def now(self) -> float:
        """The game's time."""
        return self.scheduler.now()

    # -- from any thread ---------------------------------------------------------------------

    def _put(self, item: Input | Thunk) -> None:
        if threading.get_ident() == self._loop_thread:
            try:  # the loop's own thread must not wait for itself
                self._inbox.put_nowait(item)
            except queue.Full:
                raise NarratorError(f"more than {self.MAX_INBOX} inputs wait to be taken") from None
        else:
            self._inbox.put(item)  # waits while the inbox is full
        self._wake.set()

    def submit(self, event: Input) -> None:
        """Hand an input in (thread-safe; waits while the inbox is full); its ``t`` says when
        it was made, it is applied at the game's time when the loop takes it."""
        self._put(event)

    def call(self, fn: Thunk) -> None:
        """Run ``fn`` on the loop's thread, in turn with the inputs (thread-safe)."""
        self._put(fn)

    def stop(self) -> None:
        self._stopping.set()
        with contextlib.suppress(queue.Full):  # a full inbox wakes the loop anyway
            self._inbox.put_nowait(lambda: None)
        self._wake.set()

    def leftovers(self) -> list[Thunk]:
        """Take out the functions still waiting in the inbox (a stopped loop's: another loop
        runs them); the inputs waiting are dropped."""
        out: list[Thunk] = []
        with contextlib.suppress(queue.Empty):
            while True:
                item = self._inbox.get_nowait()
                if not isinstance(item, Input):
                    out.append(item)
        return out

    @property
    def stopping(self) -> bool:
        return self._stopping.is_set()

    # -- on the loop's thread ------------------------------------------------------------------

    def _to(self, t: float) -> None:
        if t > self.scheduler.now():
            self.clock.wait_until(t)
            self.scheduler.move_to(t)

    def run_until(self, t: float) -> None:
        """Run every deadline up to ``t`` in order (a held one once answered); stand at ``t``."""
        while not self.stopping:
            deadline = self.scheduler.next_deadline()
            if deadline is None or deadline > t:
                break
            if self.hold is not None and self.hold(deadline):
                self._to(deadline)  # the game waits there; what comes is taken there
                if not self.take(block=True):
                    self._stopping.set()  # no answer will ever come
                continue
            self._to(deadline)
            self.scheduler.run_due()
        if not self.stopping:
            self._to(t)

    def run_next(self) -> bool:
        """Run to the next deadline and what is due there; False when nothing is scheduled."""
        deadline = self.scheduler.next_deadline()
        if deadline is not None:
            self.run_until(deadline)
        return deadline is not None

    def feed(self, event: Input) -> None:
        """Bring the game to ``event.t`` and apply it there (a refusal raises)."""
        self.run_until(event.t)
        self.intake(event.at(self.now()))

    def _next(self, block: bool) -> Input | Thunk | None:
        try:
            return self._inbox.get_nowait()
        except queue.Empty:
            pass
        if self.source is not None:
            return self.source.take(self.now(), block=block)
        while block and not self.stopping:
            try:
                return self._inbox.get(timeout=0.25)
            except queue.Empty:
                continue
        return None

    def take(self, *, block: bool = False) -> bool:
        """Apply every input there is now; ``block``: wait for one and apply just it. Returns
        whether any was taken."""
        took = False
        self._loop_thread = threading.get_ident()
        self._wake.clear()  # before looking: what is submitted from now on wakes the next wait
        while not self.stopping and (item := self._next(block and not took)) is not None:
            took = True
            try:
                if isinstance(item, Input):
                    self.intake(item.at(self.now()))
                else:
                    item()
            except NarratorError as e:
                self.on_error(e)
            if block:
                break
        return took

    def step(self, timeout: float = 0.25) -> None:
        """Live: apply the inputs there are, wait for the next one or the next deadline (at
        most ``timeout`` s; ``inf``: only for a deadline), run what is due by the clock then.
        On a virtual clock the wait is a jump, unless an input is waiting."""
        self.take()
        deadline = self.scheduler.next_deadline()
        until = self.clock.now() + timeout
        if deadline is not None:
            until = min(until, deadline)
        if not math.isinf(until):
            self.clock.wait_until(until, self._wake)
        self.run_until(self.clock.now())
