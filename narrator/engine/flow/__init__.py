"""The flow of a game: generators that read like the rule texts, run on a
:class:`~narrator.engine.state.State`.

Each step yields what it waits for (:data:`~narrator.engine.waits.Expect`) and receives the
actions (:mod:`.wait`); :func:`play` is the whole game: the first night (:mod:`.night`), then
day (:mod:`.day`, its vote in :mod:`.vote`, every speech in :mod:`.speech`) and night in turn
until a seat's leaving decides it. The flow asks the ruleset wherever the texts differ and
never asks which ruleset it plays.
"""

from __future__ import annotations

from narrator.engine import waits as w
from narrator.engine.flow.day import day
from narrator.engine.flow.night import first_night, night
from narrator.engine.flow.wait import Flow
from narrator.engine.state import GameDecided, State

__all__ = ["Flow", "play"]


def play(s: State) -> Flow:
    """The whole game on ``s``; once it is over, it waits at :class:`~narrator.engine.waits.
    Over` for good."""
    try:
        yield from first_night(s)
        n = 1
        while True:
            yield from day(s, n)
            n += 1
            yield from night(s, n)
    except GameDecided:
        pass
    over = w.Over(serial=s.serials)
    while True:
        yield over
