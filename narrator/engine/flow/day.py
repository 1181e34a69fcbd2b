"""The day: the night's result and its last words (2.2), then the ruleset's steps — the
discussion round the table (2.3) or by raised hands with the thumbs after each speech
(amateur's), the hands held up for 30 s more (vrn's), the vote (2.4, :mod:`.vote`)."""

from __future__ import annotations

from typing import assert_never

from narrator.engine import events as ev
from narrator.engine import waits as w
from narrator.engine.actions import Action, HandsUp, TakeFloor, Thumbs, TimeUp
from narrator.engine.checks import accusation_refusal, legacy_lost
from narrator.engine.flow.night import report
from narrator.engine.flow.speech import nomination_only, speech
from narrator.engine.flow.vote import voting
from narrator.engine.flow.wait import Flow, is_floor_or_time_up, wait
from narrator.engine.record import DayRecord
from narrator.engine.state import State, Today
from narrator.engine.steps import Announce, ExtraStep, Speeches, VoteStep
from narrator.engine.types import Phase, Timer
from narrator.reasons import Reason

__all__ = ["day"]


def day(s: State, n: int) -> Flow:
    """Day ``n``: its morning, then the ruleset's day steps."""
    s.phase = Phase.day(n)
    previous = s.days[-1].opened_by if s.days else None  # who opened the day before
    record = DayRecord(n, None)
    s.days.append(record)
    s.today = Today()
    s.events.append(ev.PhaseStarted("day", n))
    if s.nights and s.nights[-1].number == n:
        yield from _morning(s, n)
    for step in s.rules.day_steps(n):
        match step:
            case Speeches(order="circle"):
                yield from _circle_round(s, n, record, step, previous)
                record.nominations = list(s.candidates)
            case Speeches():
                yield from _floor_round(s, record, step)
                record.nominations = list(s.candidates)
            case VoteStep():
                yield from voting(s, n, record, step)
            case ExtraStep():
                yield from _extra(s, record)
            case Announce(phase=phase):
                s.events.append(ev.PhaseStarted(phase, n))
            case _:
                assert_never(step)


def _circle_round(s: State, n: int, record: DayRecord, step: Speeches,
                  previous: int | None) -> Flow:
    """2.3: the discussion round the table, from the ruleset's day opener (``previous``: who
    opened the day before); the hot path of a game."""
    order = _circle_from(s, _opener(s, n, previous))
    if record.opened_by is None:
        record.opened_by = order[0] if order else None
    s.today.order = order
    s.nominations = []
    if step.announce:
        s.events.append(ev.SpeechesBegin(step.kind, record.opened_by))
    for seat in order:
        if seat in s.out:  # removed during the discussion
            continue
        if seat in s.muted:  # sport fouls: the 3rd foul costs this speech (9.5)
            yield from _fouled_turn(s, seat, step)
            continue
        record.closed_by = seat
        yield from speech(s, seat, step.kind, accuses=step.put_up)
        if step.put_up:
            yield from _put_up_window(s, seat)


def _fouled_turn(s: State, seat: int, step: Speeches) -> Flow:
    """The discussion turn a 3rd foul punishes, once (a last word, a tie speech are never
    taken: 9.5.1 «за исключением … последнее слово или оправдательное слово»). 9.5.2: cut
    to 30 s; 9.5.1: lost, but the seat may still nominate in a short window — with three or
    four players at the table, a 30-s speech instead."""
    s.muted.discard(seat)
    if s.rules.three_fouls == "short_speech" or len(s.living) <= 4:
        s.events.append(ev.SpeechCut(seat))
        yield from speech(s, seat, step.kind, accuses=step.put_up, seconds=_CUT_SECONDS)
        if step.put_up:
            yield from _put_up_window(s, seat)
        return
    nominates = s.rules.nominations and step.kind == "day"
    s.events.append(ev.SpeechSkipped(seat, nominates))
    if nominates:
        yield from nomination_only(s, seat)


#: 9.5.1, 9.5.2: «"укороченная" речь 30 секунд»
_CUT_SECONDS = 30.0


def _opener(s: State, n: int, previous: int | None) -> int:
    """The seat day ``n``'s circle starts from: the ruleset's :meth:`day_opener` (6.3.1,
    crime-time 2.3: the seat after the previous opener), or with ``rotation = "last"``
    (6.3.2) the seat after the one that closes: the first seat at the table after the
    previous day's closer («стол должен закрывать следующий по номеру игрок»)."""
    closer = s.days[-2].closed_by if len(s.days) > 1 else None
    if s.rules.rotation == "last" and closer is not None:
        closes = _circle_from(s, closer % s.seats + 1)
        if closes:
            return closes[0] % s.seats + 1
    return s.rules.day_opener(n, previous, s.seats)


def _morning(s: State, n: int) -> Flow:
    """2.2: the night's result, then each victim's last word (the best move asked first)."""
    report(s, n)
    for seat in s.night.out:
        if s.has_last_word(seat):
            if s.rules.best_move and n == 2 and not legacy_lost(s):  # 8.17.1
                s.events.append(ev.BestMoveAsked(seat))
            yield from speech(s, seat, "last")


def _circle_from(s: State, start: int) -> list[int]:
    seats = [(start - 1 + i) % s.seats + 1 for i in range(s.seats)]
    return [x for x in seats if x not in s.out]


def _floor_round(s: State, record: DayRecord, step: Speeches) -> Flow:
    """Speeches in raised-hand order: whoever the host sees first, each living seat once;
    when nobody is named in time, the first seat (in seat order) yet to speak."""
    today = s.today
    today.spoken = set()
    today.order = []
    s.nominations = []
    today.put_up = {}
    if step.announce:
        s.events.append(ev.SpeechesBegin(step.kind, None))
    while True:
        waiting = [x for x in s.living if x not in today.spoken]
        if not waiting:
            break
        t = Timer("floor", s.rules.floor_seconds)
        s.events.append(ev.TimerStarted(t))
        floor = w.Floor(t, tuple(waiting), True, s.serials)
        ended = yield from wait(s, floor, is_floor_or_time_up)
        if isinstance(ended, TakeFloor):
            seat = ended.seat
        else:
            waiting = [x for x in s.living if x not in today.spoken]
            if not waiting:
                break
            seat = waiting[0]
        today.spoken.add(seat)
        today.order.append(seat)
        if record.opened_by is None:
            record.opened_by = seat
        if seat in s.muted:  # sport fouls: the 3rd foul costs this speech (9.5)
            yield from _fouled_turn(s, seat, step)
            continue
        yield from speech(s, seat, step.kind, accuses=step.put_up)
        if step.put_up and seat not in s.out:
            yield from _put_up_window(s, seat)
    today.spoken = set()


def _put_up_window(s: State, speaker: int) -> Flow:
    """After ``speaker``'s speech: thumbs for putting the one accused up for the vote; a
    seat may give them after any number of speeches, once a window."""
    t = Timer("put_up", s.rules.put_up_seconds)
    s.events.append(ev.TimerStarted(t))
    s.presses.thumbs = set()
    return wait(s, w.PutUp(t, tuple(s.living), True, s.serials, speaker), _take_put_up)


def _take_put_up(s: State, action: Action, expect: w.PutUp) -> bool:
    if not isinstance(action, Thumbs):
        return isinstance(action, TimeUp)
    target = action.target
    reason = accusation_refusal(s, expect.seat, target)
    if reason is not None:
        s.refuse(expect.seat, "put_up", target, reason)
        return False
    thumbs = 0
    for seat in action.seats:
        if seat in s.presses.thumbs:
            s.refuse(seat, "put_up", target, Reason.ALREADY_VOTED)
            continue
        s.presses.thumbs.add(seat)
        thumbs += 1
    if thumbs:
        put_up = s.today.put_up
        if target not in put_up:
            s.nominations.append((expect.seat, target))
        put_up[target] = put_up.get(target, 0) + thumbs
        s.days[-1].put_up = dict(put_up)
        s.events.append(ev.PutUpCounted(target, thumbs, put_up[target]))
    return False


def _extra(s: State, record: DayRecord) -> Flow:
    """After the discussion, the seats that held a hand up through it speak 30 s more, in
    the discussion's order."""
    t = Timer("extra", s.rules.extra_window_seconds)
    s.events.append(ev.TimerStarted(t))
    s.presses.raised = []
    yield from wait(s, w.Extra(t, tuple(s.living), True, s.serials), _take_extra)
    raised = set(s.presses.raised)
    order = [x for x in s.today.order if x in raised]
    if order:
        record.extra = tuple(order)
    for seat in order:
        if seat not in s.out:
            yield from speech(s, seat, "extra")


def _take_extra(s: State, action: Action, expect: w.Extra) -> bool:
    if isinstance(action, HandsUp):
        raised = s.presses.raised
        raised.extend(x for x in action.seats if x not in raised)
        return False
    return isinstance(action, TimeUp)
