"""The operator's terminal: lines read on a thread into a bounded queue."""

from __future__ import annotations

from collections.abc import Iterator

from narrator.engine import Game, Role
from narrator.play.operator import TerminalOperator

ROLES = {1: Role.SHERIFF, 3: Role.DON, 5: Role.MAFIA, 9: Role.MAFIA}


class Flood:
    """stdin that never ends (``yes f 6 | narrator play``): counts the lines read from it."""

    def __init__(self) -> None:
        self.read = 0

    def __iter__(self) -> Iterator[str]:
        while True:
            self.read += 1
            yield "f 6\n"


def test_a_flood_on_stdin_waits_for_the_game_instead_of_filling_memory() -> None:
    flood = Flood()
    operator = TerminalOperator(flood, out=lambda text: None)
    operator._thread.join(timeout=1.0)  # the reader blocks on the full queue: it never ends
    assert operator._thread.is_alive()
    assert operator._lines.qsize() <= TerminalOperator.MAX_LINES
    assert flood.read <= TerminalOperator.MAX_LINES + 2
    game = Game(roles=ROLES)
    game.start()
    got = operator.poll(game, 1, block=False)
    assert got is not None and str(got.actions[0]) == "foul 6"
