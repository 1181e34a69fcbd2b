"""How a table plays with the console: the figures and switches of :class:`ConsoleSettings`."""

from __future__ import annotations

from dataclasses import dataclass

#: a press on the hunt's count is taken for the number spoken this long before it arrived
HUNT_GRACE = 0.3
#: a window's end waits this long for a press already on its way (stamped before the end)
SETTLE = 0.05


@dataclass
class ConsoleSettings:
    """How the table plays with the console."""

    lang: str = "ru"  # the pages' language (the game's)
    wait_for_cards: bool = True  # dealing waits until every seat has seen its card
    hand_votes: bool = False  # the operator enters each vote's count (the window waits)
    hunt_grace: float = HUNT_GRACE
    settle: float = SETTLE
