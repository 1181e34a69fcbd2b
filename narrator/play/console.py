"""The pads in the terminal operator's place, for a listening game (``play --console``).

With ``--listen off`` the host runs in a :class:`~narrator.host.live.LiveLoop` and the console
submits to it (see :mod:`narrator.play.cli`); while listening, the microphone's thread drives
the game, and presses wait here until its next poll.
"""

from __future__ import annotations

import queue
from collections.abc import Callable

from narrator.engine import Game
from narrator.host.entries import Operator, OperatorInput


class ConsoleOperator(Operator):
    """The pads in the terminal operator's place, for a listening game: presses wait in a
    queue and run on the listening thread at each poll. A step never waits for them — a
    hunt, a check or a vote ends with its timer, as at a real table."""

    def __init__(self) -> None:
        self._inbox: queue.SimpleQueue[Callable[[], object]] = queue.SimpleQueue()
        self.quit = False

    def submit(self, fn: Callable[[], object]) -> None:
        """Run ``fn`` on the listening thread (thread-safe)."""
        self._inbox.put(fn)

    def poll(self, game: Game, index: int, *, block: bool) -> OperatorInput | None:
        while True:
            try:
                fn = self._inbox.get_nowait()
            except queue.Empty:
                break
            fn()
        if self.quit:
            return OperatorInput(quit=True, text="(stopped)")
        return OperatorInput(done=True) if block else None
