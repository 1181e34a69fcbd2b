"""The operator's terminal: lines read on a thread into the driver's bounded inbox."""

from __future__ import annotations

from collections.abc import Iterator

from narrator.clock import VirtualClock
from narrator.host.driver import Driver
from narrator.host.scheduler import Scheduler
from narrator.inputs import Input
from narrator.play.operator import TerminalOperator


class Flood:
    """stdin that never ends (``yes f 6 | narrator play``): counts the lines read from it."""

    def __init__(self) -> None:
        self.read = 0

    def __iter__(self) -> Iterator[str]:
        while True:
            self.read += 1
            yield "f 6\n"


def test_a_flood_on_stdin_waits_for_the_game_instead_of_filling_memory() -> None:
    clock = VirtualClock()
    driver = Driver(Scheduler(clock), lambda event: None)
    flood = Flood()
    thread = TerminalOperator(flood, out=lambda text: None).start(driver.submit, clock)
    thread.join(timeout=1.0)  # the reader waits on the full inbox: it never ends
    assert thread.is_alive()
    assert flood.read <= Driver.MAX_INBOX + 2
    assert driver._inbox.full()
    first = driver._inbox.get_nowait()  # the game takes one; the reader goes on by one
    assert isinstance(first, Input) and first.get("text") == "f 6"
    driver.stop()
