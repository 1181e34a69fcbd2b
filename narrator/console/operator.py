"""The operator's presses: a card skipped, a count of hands, a foul, a removal, an undo, and
the host's marks once the game is over.

The operator's entries go through the desk (:class:`~narrator.host.desk.Desk`), as assist's keys
and the terminal operator's lines do, so that one undo takes back the last of them whichever
screen made it.
"""

from __future__ import annotations

from typing import assert_never

from narrator.console.presses import (
    FoulPress,
    HandsPress,
    MarkPress,
    OperatorPress,
    PausePress,
    RemovePress,
    ResumePress,
    SkipPress,
    TechFoulPress,
    TimeUpPress,
    UndoPress,
)
from narrator.console.taking import OK, Reply, Taker, refused
from narrator.console.tokens import OPERATOR
from narrator.console.views import OPERATOR_PAUSE, PAUSE_WHY, vote_candidate
from narrator.engine import Action, Foul, HandCount, Mark, Remove, TechFoul, TimeUp
from narrator.engine import waits as w
from narrator.errors import NarratorError
from narrator.reasons import Reason


class OperatorPresses(Taker):
    """The operator view's presses (see the module)."""

    def handle(self, press: OperatorPress, t: float) -> Reply:
        """Take the operator's ``press``, made at ``t``."""
        match press:
            case SkipPress():
                return self._skip(press, t)
            case HandsPress():
                return self._hand_count(press, t)
            case FoulPress() | TechFoulPress() | RemovePress():
                return self._aside(press, t)
            case UndoPress():
                return self._undo(t)
            case MarkPress():
                return self._mark(press, t)
            case TimeUpPress():
                return self._time_up(press, t)
            case PausePress():
                return self._pause(press, t)
            case ResumePress():
                return self._resume(press, t)
            case _:
                assert_never(press)

    def _skip(self, press: SkipPress, t: float) -> Reply:
        """A card skipped while dealing (its phone is not ready: the card stays on the pad)."""
        if not self.windows.dealing:
            return refused(Reason.NOT_NOW)
        desk, seat = self.desk, press.seat
        if seat not in desk.seen and seat not in desk.skipped:
            self.take(press, OPERATOR, t)
            desk.card_skipped(seat)
            self.windows.deal_done()
        return OK

    def _hand_count(self, press: HandsPress, t: float) -> Reply:
        """The operator's count for the open window (tables that vote by hand)."""
        exp = self.game.expect
        if not isinstance(exp, w.Vote | w.Crash) or not self.settings.hand_votes:
            return refused(Reason.NOT_NOW)
        if press.candidate != vote_candidate(exp):
            return refused(Reason.NOT_NOW)
        if isinstance(exp, w.Vote) and press.count:  # the engine's word (7.16.4: by seat)
            reason = self.game.refusal(HandCount(press.count))
            if reason == Reason.SEATS_NEEDED:
                return refused(reason)
        try:  # (the engine's bound: the seats yet to vote in the round)
            actions = self.desk.hand_count(press.count)
        except NarratorError:
            return refused(Reason.TOO_MANY)
        self.take(press, OPERATOR, t)
        # (the count closes the window: the desk's entry)
        self.desk.enter(actions, shown=f"{press.count} hands", done=True)
        return OK

    def _aside(self, press: FoulPress | TechFoulPress | RemovePress, t: float) -> Reply:
        action: Action = (Foul(press.seat) if isinstance(press, FoulPress)
                          else TechFoul(press.seat) if isinstance(press, TechFoulPress)
                          else Remove(press.seat))
        # 1.4: a seat is at the table until its last word ends — a foul in it counts
        reason = self.game.refusal(action)
        if reason is not None:
            return refused(reason)
        self.take(press, OPERATOR, t)
        self.desk.enter((action,), shown=str(action))
        return OK

    def _mark(self, press: MarkPress, t: float) -> Reply:
        """The host's marks for a seat: the engine's to take (once the game is over, in the
        club's step and bound, with a comment); an entry the desk's undo takes back."""
        action = Mark(press.seat, press.points, press.titles, press.comment.strip())
        reason = self.game.refusal(action)
        if reason is not None:
            return refused(reason)
        self.take(press, OPERATOR, t)
        self.desk.enter((action,), shown=str(action))
        return OK

    def _time_up(self, press: TimeUpPress, t: float) -> Reply:
        """The step's time ends now (the terminal's ``t``): the engine's ``TimeUp`` of the
        running timer, an entry the desk's undo takes back."""
        timer = self.game.expect.timer
        if timer is None or self.windows.dealing:  # (the deal ends with its cards)
            return refused(Reason.NOT_NOW)
        action = TimeUp(timer.name)
        reason = self.game.refusal(action)
        if reason is not None:
            return refused(reason)
        self.take(press, OPERATOR, t)
        self.desk.enter((action,), shown="t")
        return OK

    def _pause(self, press: PausePress, t: float) -> Reply:
        """The game's clock stops (the host's pause: the timer keeps what it has left)."""
        if self.game.is_over or self.host.timer is None or OPERATOR_PAUSE in self.host.pauses:
            return refused(Reason.NOT_NOW)
        self.take(press, OPERATOR, t)
        self.host.pause(OPERATOR_PAUSE, PAUSE_WHY.get(self.settings.lang, PAUSE_WHY["ru"]))
        return OK

    def _resume(self, press: ResumePress, t: float) -> Reply:
        """The operator's pause ends (another cause — the sound gone — still holds it)."""
        if OPERATOR_PAUSE not in self.host.pauses:
            return refused(Reason.NOT_NOW)
        self.take(press, OPERATOR, t)
        self.host.unpause(OPERATOR_PAUSE)
        return OK

    def _undo(self, t: float) -> Reply:
        """Take back the operator's last entry (the desk's undo: what the timers did after it
        too, while no other input came since)."""
        last = self.desk.undoable()
        if last is None:
            return refused(Reason.TOO_LATE)
        self.take(UndoPress(actions=len(self.game.history) - last.history), OPERATOR, t)
        self.desk.undo()
        return OK
