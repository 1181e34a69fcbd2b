"""A speech: a day speech (2.3) with its nomination (2.3.1, 2.3.2), a last word (2.2, 2.4),
a tie speech (2.4.1) or another ruleset's kind (an introduction, 30 s more, a justification);
the best move named at the first victim's last word (a club option)."""

from __future__ import annotations

from narrator.engine import events as ev
from narrator.engine import waits as w
from narrator.engine.actions import (
    Action,
    BestMove,
    EndSpeech,
    Malformed,
    Nominate,
    OnRecord,
    Remove,
    TimeUp,
    Withdraw,
)
from narrator.engine.checks import nomination_refusal, withdrawal_refusal
from narrator.engine.flow.wait import Flow, wait
from narrator.engine.record import BestMoveRecord, OnRecordRecord
from narrator.engine.state import State
from narrator.engine.types import Colour, SpeechKind, Timer

__all__ = ["nomination_only", "speech"]

_ENDS = (TimeUp, EndSpeech)  # what ends a speech (besides the speaker's removal)


def speech(s: State, seat: int, kind: SpeechKind, *, accuses: bool = False,
           seconds: float | None = None) -> Flow:
    """``seat`` speaks a ``kind`` speech for its ruleset's length, or for ``seconds`` (a
    speech cut by a 3rd foul, 9.5.2: no «Десять секунд»); ``accuses``: the thumbs after it
    may put up the one he names."""
    length, warning = s.speech_lengths[kind]
    t = Timer("speech", length, warning) if seconds is None else Timer("speech", seconds)
    if kind == "justify":  # a justification is used once (vrn: the next time, out)
        s.days[-1].justified.append(seat)
    s.events.append(ev.SpeechStarted(seat, kind))
    s.events.append(ev.TimerStarted(t))
    s.presses.standing = None
    nominates = kind == "day" and s.rules.nominations  # 2.3.1: in the discussion
    return wait(s, w.Speech(t, (seat,), False, s.serials, seat, kind, nominates, accuses),
                _take_speech)


def nomination_only(s: State, seat: int) -> Flow:
    """9.5.1: the turn of a seat whose 3rd foul took his discussion minute: «остается право
    выставить кандидатуру» — a window of ``nomination_only_seconds`` taken as a discussion
    speech (the same nominations, the same refusals), with no speech announced."""
    t = Timer("speech", s.rules.nomination_only_seconds)
    s.events.append(ev.TimerStarted(t))
    s.presses.standing = None
    return wait(s, w.Speech(t, (seat,), False, s.serials, seat, "day", True, False),
                _take_speech)


def _take_speech(s: State, action: Action, expect: w.Speech) -> bool:
    seat = expect.seat
    if isinstance(action, _ENDS) or (isinstance(action, Remove) and action.seat == seat):
        # 2.4.3: a removal ends the removed player's own speech, nobody else's
        s.events.append(ev.SpeechEnded(seat, early=not isinstance(action, TimeUp)))
        if expect.speech == "last":
            s.last_word_due.discard(seat)  # 1.4: now a spectator
            s.declare_final()  # 8.19.1: the result once the last word ends
        return True
    if isinstance(action, Malformed):
        s.refuse(seat, action.kind, action.target, action.reason)
    elif isinstance(action, Nominate):
        _nominate(s, seat, expect.speech, action.target)
    elif isinstance(action, Withdraw):
        _withdraw(s, seat, expect.speech, action.target)
    elif isinstance(action, BestMove):
        black = sum(1 for x in action.seats if x in s.black)
        s.best_move = BestMoveRecord(seat, action.seats, black)
        s.events.append(ev.BestMoveNamed(seat, action.seats, black))
    elif isinstance(action, OnRecord):
        _on_record(s, expect, action)
    return False


def _nominate(s: State, seat: int, kind: SpeechKind, target: int) -> None:
    """2.3.1: «Принято»; 7.5.2, the speaker's nomination standing is withdrawn by the new
    one («Оно происходит автоматически при следующем выставлении»)."""
    reason = nomination_refusal(s, kind, target)
    if reason:
        s.refuse(seat, "nominate", target, reason)
        return
    old = s.presses.standing
    if old is not None:  # (refused unless withdraw = "auto")
        s.nominations.remove((seat, old))
        s.events.append(ev.Replaced(seat, old))
    s.presses.standing = target
    s.nominations.append((seat, target))
    s.events.append(ev.Nominated(seat, target))


def _on_record(s: State, expect: w.Speech, action: OnRecord) -> None:
    """6.7: the colours join the speech's record (a seat named again takes its new one)."""
    last = s.on_record[-1] if s.on_record else None
    if last is None or last.serial != expect.serial:
        last = OnRecordRecord(expect.seat, s.phase.number, expect.speech, {}, expect.serial)
        s.on_record.append(last)
    for seats, colour in ((action.red, Colour.RED), (action.black, Colour.BLACK)):
        for x in seats:
            last.colours.pop(x, None)
            last.colours[x] = colour
    s.events.append(ev.OnRecordLeft(action.seat, action.red, action.black))


def _withdraw(s: State, seat: int, kind: SpeechKind, target: int) -> None:
    """2.3.2: the speaker withdraws his own nomination; another's earlier one stands."""
    reason = withdrawal_refusal(s, kind, target)
    if reason is not None:
        s.refuse(seat, "withdraw", target, reason)
    else:
        s.nominations.remove((seat, target))
        s.presses.standing = None
        s.events.append(ev.Withdrawn(seat, target))
