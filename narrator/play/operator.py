"""The operator's terminal of a hostless table: lines typed at stdin, read on a thread."""

from __future__ import annotations

import queue
import sys
import threading
from collections.abc import Callable
from typing import TextIO

from narrator.engine import Game
from narrator.host.entries import Operator, OperatorInput, OperatorLineError, parse_operator_line


class TerminalOperator(Operator):
    """Lines typed at the terminal, read on a thread; parsed on the game's thread."""

    def __init__(self, stream: TextIO | None = None, out: Callable[[str], None] | None = None,
                 *, assist: bool = False) -> None:
        self.stream = stream if stream is not None else sys.stdin
        self.out = out or (lambda text: print(text, flush=True))
        self.assist = assist
        self._lines: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._read, name="narrator-operator",
                                        daemon=True)
        self._thread.start()

    def _read(self) -> None:
        for line in self.stream:
            self._lines.put(line)
        self._lines.put(None)  # end of input: stop the game

    def poll(self, game: Game, index: int, *, block: bool) -> OperatorInput | None:
        while True:
            try:
                line = self._lines.get(timeout=0.2) if block else self._lines.get_nowait()
            except queue.Empty:
                if block:
                    continue
                return None
            if line is None:
                return OperatorInput(quit=True, text="(end of input)")
            try:
                return parse_operator_line(line, game)
            except OperatorLineError as e:
                self.error(f"{line.strip()!r}: {e}")
                if not block:
                    return None

    def prompt(self, text: str) -> None:
        self.out(f"> {text}")

    def error(self, text: str) -> None:
        self.out(f"!! {text}" if self.assist else f"   not taken: {text}")
