"""``narrator play --console``: the hostless table with seat pads and an operator view.

Two ways to run it:

- ``--listen off``: no microphone, no speech model. The host runs on the real clock in a
  :class:`~narrator.host.live.LiveLoop`; every speech is driven from its speaker's pad
  («Выставляю» by tapping a number, «Снимаю», «Спасибо») or runs to its time limit.
- listening (the default): the microphone drives the game as without the console; the pads
  take the terminal operator's place (:class:`ConsoleOperator`), their presses run on the
  listening thread at its polls.

Either way the presses go through :class:`~narrator.console.table.ConsoleTable` on the thread
that drives the host, each written to the journal as an input event before it is acted on.
"""

from __future__ import annotations

import queue
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from narrator.console.links import print_links, write_links
from narrator.console.server import Console, start_console
from narrator.console.settings import ConsoleSettings
from narrator.console.table import ConsoleTable
from narrator.engine import Game
from narrator.host.entries import Operator, OperatorInput
from narrator.host.host import Host
from narrator.host.journal import Journal
from narrator.host.transcript import Transcript


@dataclass
class ConsoleOptions:
    """``--console [HOST:]PORT``, ``--links FILE``, ``--votes pads|hands``."""

    address: str
    links: str | None = None
    hand_votes: bool = False
    wait_for_cards: bool = True


def console_options(args: Any) -> ConsoleOptions | None:
    address = getattr(args, "console", None)
    if address is None:
        return None
    return ConsoleOptions(address, getattr(args, "links", None),
                          getattr(args, "votes", "pads") == "hands")


def protocol_of(game: Game, transcript: Transcript) -> Callable[[], dict[str, Any]]:
    """The protocol with every phrase said (read on the loop's thread)."""

    def protocol() -> dict[str, Any]:
        out = game.protocol()
        out["said"] = list(transcript.said)
        return out

    return protocol


def open_console(host: Host, transcript: Transcript, journal: Journal, lang: str,
                 opts: ConsoleOptions, submit: Callable[[Callable[[], object]], None], *,
                 dealt: bool = False) -> Console:
    """The console's table on ``host``, served; its links printed (and written with
    ``--links``). ``dealt``: the cards were seen before (a resumed game)."""
    settings = ConsoleSettings(lang=lang, hand_votes=opts.hand_votes,
                               wait_for_cards=opts.wait_for_cards and not dealt)
    table = ConsoleTable(host, settings=settings, record=journal.append_input,
                         said=lambda: list(transcript.said),
                         protocol=protocol_of(host.game, transcript))
    console = start_console(table, submit, opts.address)
    print_links(console.links, sys.stdout)
    if opts.links:
        write_links(opts.links, console.links)
        print(f"links written to {opts.links} (readable by you only)", flush=True)
    return console


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
