"""A console game taken up again from its journal: the table's presses read back.

The journal holds each press (in the names of :mod:`narrator.console.presses`; an older
journal's are read too) before the actions it led to. On a resume the game is rebuilt from the
actions alone; what the presses add is read back here:

- a press the game acted on leaves what only the table keeps — the cards seen or skipped, the
  mafia's points, the one accused — as a typed note for the desk
  (:class:`~narrator.host.desk.Noted`), at its place in the game. Its shots, hands, thumbs and
  raised hands are the game's own already;
- a press after the journal's last action may never have been acted on (the process died
  between the press's line and its action's): it is pressed again, as it came, at the moment
  it came, once the host has run its timer again (and the console has held or stretched it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from narrator.console.presses import (
    AccusePress,
    ActPress,
    OperatorPress,
    PadPress,
    Press,
    PressError,
    SeenPress,
    SkipPress,
    UndoPress,
    journal_press,
    read_press,
)
from narrator.console.windows import Windows
from narrator.engine import Actor
from narrator.host.desk import Accusal, CardSeen, CardSkipped, Noted, Point, TableNote
from narrator.host.host import Host
from narrator.inputs import Input


def note_of(press: PadPress | OperatorPress, seat: int | None) -> TableNote | None:
    """What ``press`` (a pad's, ``seat``'s; the operator's, None) leaves on the desk, if
    anything: the engine keeps the rest of a step's presses."""
    match press:
        case SeenPress() if seat is not None:
            return CardSeen(seat)
        case SkipPress(seat=skipped):
            return CardSkipped(skipped)
        case ActPress(role=Actor.MAFIA, target=target) if seat is not None:
            return Point(seat, target)
        case AccusePress(target=target) if seat is not None:
            return Accusal(seat, target)
        case _:
            return None


def _typed(press: Press, seats: int) -> PadPress | OperatorPress | None:
    """The typed press of a journal's line (None: a line no console of this table wrote; it
    is passed over, as a press the console would refuse)."""
    try:
        return read_press(press, seats)
    except PressError:
        return None


class Restorer:
    """Reads a journal's presses back onto a console table: ``handle`` presses one again,
    ``publish`` sends the views."""

    def __init__(self, host: Host, windows: Windows, handle: Callable[[Press], object],
                 publish: Callable[[], None]) -> None:
        self.host = host
        self.windows = windows
        self.handle = handle
        self.publish = publish
        self._unfinished: list[Press] = []  # presses read back that may not have been acted on

    def restore(self, inputs: Sequence[Input], input_at: Sequence[int]) -> None:
        """A game rebuilt from its journal: its presses (``input_at``: how many of the game's
        actions came before each) read back in their places (see the module), so that every
        pad shows what it had done and a second press is refused as the first one would have
        made it."""
        history = len(self.host.game.history)
        placed = sorted(zip(input_at, range(len(inputs)), inputs, strict=True))
        done = [(at, event) for at, _, event in placed if at < history]
        self.host.desk.restore(self._notes(done))
        self._unfinished = [p for at, _, event in placed if at >= history
                            if (p := journal_press(event)) is not None]
        self.host.scheduler.call_at(self.host.now(), "console-resume", self._resumed)
        self.publish()

    def _notes(self, done: Sequence[tuple[int, Input]]) -> Iterator[Noted]:
        seats = self.host.game.seats
        for at, event in done:
            press = journal_press(event)
            typed = None if press is None else _typed(press, seats)
            if press is None or typed is None:
                continue
            note = note_of(typed, press.who if isinstance(press.who, int) else None)
            if note is not None:
                yield Noted(at, note)

    def _resumed(self) -> None:
        """Once the host has resumed its timer: held or stretched as the console holds it, and
        the presses the kill may have cut off pressed again."""
        timer = self.host.timer
        if timer is not None:  # (a host resumed before this table was made)
            self.windows.timer_started(timer)
        unfinished, self._unfinished = self._unfinished, []
        seats = self.host.game.seats
        for press in unfinished:  # as they came, at the moment they came
            if not isinstance(_typed(press, seats), UndoPress):  # (an undo is not repeated)
                self.handle(press)
        self.publish()
