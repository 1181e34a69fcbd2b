"""The operator's terminal of a hostless table: lines typed at stdin, handed in as entries.

A thread reads the lines and hands each to the table as an ``entry`` input event (the end of
input as a ``stop``); the table reads them against what the game waits for, on its own thread.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import TextIO

from narrator.clock import Clock
from narrator.inputs import STOP, Input, entry


class TerminalOperator:
    """Lines typed at the terminal; prompts and errors printed back."""

    def __init__(self, stream: TextIO | None = None, out: Callable[[str], None] | None = None,
                 *, assist: bool = False) -> None:
        self.stream = stream if stream is not None else sys.stdin
        self.out = out or (lambda text: print(text, flush=True))
        self.assist = assist

    def start(self, submit: Callable[[Input], None], clock: Clock) -> threading.Thread:
        """Read lines on a thread, each handed to ``submit`` (thread-safe) as it is typed."""

        def read() -> None:
            for line in self.stream:
                submit(entry(clock.now(), line.rstrip("\n")))
            submit(Input(STOP, clock.now(), {"reason": "end of input"}))

        thread = threading.Thread(target=read, name="narrator-operator", daemon=True)
        thread.start()
        return thread

    def prompt(self, text: str) -> None:
        self.out(f"> {text}")

    def error(self, text: str) -> None:
        self.out(f"!! {text}" if self.assist else f"   not taken: {text}")
