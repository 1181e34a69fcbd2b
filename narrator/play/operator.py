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
from narrator.host.texts import tx
from narrator.inputs import STOP, Input, entry


class TerminalOperator:
    """Lines typed at the terminal; prompts and errors printed back."""

    def __init__(self, stream: TextIO | None = None, out: Callable[[str], None] | None = None,
                 *, assist: bool = False, confirm: bool = False,
                 stop_at_end: bool = True, over: Callable[[], bool] | None = None,
                 marks: bool = False, lang: str = "en", ask: str | None = None) -> None:
        self.stream = stream if stream is not None else sys.stdin
        self.out = out or (lambda text: print(text, flush=True))
        self.assist = assist
        #: ``q`` asks first (``y`` stops; anything else goes on): the console's terminal, where
        #: the game is the pads' and a stray ``q`` would end it for the whole table
        self.confirm = confirm
        #: the table's language (``--lang``): the questions, the prompts and the errors in it
        self.lang = lang
        self.ask = ask if ask is not None else tx("t_ask_game", lang)  # the question ``q`` asks
        #: the end of input stops the game (a terminal closed); not where the terminal is only
        #: the operator's side door (the console: the pads play, stdin may be closed)
        self.stop_at_end = stop_at_end
        #: the input has ended
        self.done = threading.Event()
        #: whether the game is over (read on this thread): a line after it is no entry, it is
        #: the Enter that closes the console (:attr:`after`)
        self.over = over
        self.after = threading.Event()
        #: once the game is over, a line that begins with ``m`` is the host's marks (an
        #: entry, ``m 4 +0.3 bp -- why``), not the Enter that closes the console (none after
        #: that Enter: the table is closing)
        self.marks = marks

    def start(self, submit: Callable[[Input], None], clock: Clock) -> threading.Thread:
        """Read lines on a thread, each handed to ``submit`` (thread-safe) as it is typed."""

        def read() -> None:
            try:
                lines()
            finally:
                self.done.set()

        def lines() -> None:
            asking = False
            for line in self.stream:
                text = line.rstrip("\n")
                if self.over is not None and self.over():
                    if self.marks and not self.after.is_set() and \
                            text.strip()[:1].lower() == "m":
                        submit(entry(clock.now(), text))
                    else:
                        self.after.set()
                    continue
                if self.confirm and text.strip().lower() in ("q", "quit") and not asking:
                    asking = True
                    self.out(self.ask)
                    continue
                if asking:
                    asking = False
                    if text.strip().lower() != "y":
                        self.out(tx("t_going_on", self.lang))
                        continue
                    text = "q"
                submit(entry(clock.now(), text))
            if self.stop_at_end:
                submit(Input(STOP, clock.now(), {"reason": "end of input"}))

        thread = threading.Thread(target=read, name="narrator-operator", daemon=True)
        thread.start()
        return thread

    def prompt(self, text: str) -> None:
        self.out(f"> {text}")

    def error(self, text: str) -> None:
        self.out(f"!! {text}" if self.assist else "   " + tx("t_not_taken", self.lang, what=text))
