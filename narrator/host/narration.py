"""What the narrator says at each engine event: keys into the voice pack, never literal text.

The phrases themselves live in ``voices/<lang>/manifest.json``; this module only decides which
keys follow which event (rule clauses of crime-time cited per line). Another ruleset words some
of them its own way (:attr:`~narrator.engine.rules.Rules.lines`): :func:`lines_for` takes that
wording and says its keys instead.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import assert_never

from narrator.engine import Exit, Team
from narrator.engine import events as ev
from narrator.voice.keys import CANCELLED_KEYS, PHASE_KEYS


@dataclass(frozen=True, slots=True)
class Line:
    """One utterance: clips said one after another. ``urgent`` lines (Принято, Снято, Десять
    секунд) go ahead of anything queued. A ``prompt`` is a front end's word to the table (whose
    card the deal waits for): said, and written in the transcript, but no part of the game's
    record — the protocol's ``said`` leaves it out."""

    keys: tuple[str, ...]
    urgent: bool = False
    prompt: bool = False


# The keys themselves are listed with the voice packs, which must hold every one of them.
_PHASES = PHASE_KEYS
_CANCELLED = CANCELLED_KEYS
#: the key of each kind of speech's announcement («Слово игроку номер …»)
_SPEECHES = {"day": "speech", "last": "last_word", "tie": "tie_speech",
             "intro": "intro_speech", "extra": "extra_speech", "justify": "justify",
             # a first day's single leader speaks for a tie speech's length: said as one
             "leader": "tie_speech"}

TEN_SECONDS = Line(("ten_seconds",), urgent=True)


def count_line(n: int) -> Line:
    """One number of the hunt's count (2.1.2)."""
    return Line((f"count.{n}",))


def cards_awaited(seats: Sequence[int]) -> Line:
    """The console's prompt while the deal (2.1.1) waits for cards: whose cards it waits for
    («Ждём карту игрока номер семь», «Ждём карты игроков номер три и номер семь»), in the
    order given; a prompt, not the game's record."""
    if not seats:
        raise ValueError("cards_awaited needs at least one seat")
    if len(seats) == 1:
        return Line((f"card_awaited.{seats[0]}",), prompt=True)
    *first, last = seats
    return Line(("cards_awaited", *(f"number.{s}" for s in first), f"number.and.{last}"),
                prompt=True)


#: a ruleset's wording: a key → the keys said instead (see :func:`reworded`)
Wording = Mapping[str, tuple[str, ...]]


def lines_for(event: ev.Event, wording: Wording | None = None) -> list[Line]:
    """The lines the narrator says for ``event`` (often none), in the ruleset's ``wording``."""
    lines = _lines(event)
    return reworded(lines, wording) if wording and lines else lines


def reworded(lines: list[Line], wording: Wording) -> list[Line]:
    """``lines`` with each key the ``wording`` names replaced by its keys (a key ``x.7`` by
    those of ``x.{n}`` too); a line left with no key is not said."""
    out: list[Line] = []
    for line in lines:
        keys = tuple(k for key in line.keys for k in reword(key, wording))
        if keys:
            out.append(Line(keys, line.urgent, line.prompt))
    return out


def reword(key: str, wording: Wording) -> tuple[str, ...]:
    """What is said for ``key`` in ``wording``: its own keys, or the key itself."""
    said = wording.get(key)
    if said is not None:
        return said
    stem, _, number = key.rpartition(".")
    if stem and number.isdigit():
        family = wording.get(f"{stem}.{{n}}")
        if family is not None:
            return tuple(k.replace("{n}", number) for k in family)
    return (key,)


#: the events of each part of the game the narrator speaks in; the rest are in :func:`_lines`
_NightEvent = ev.PhaseStarted | ev.NightResult | ev.Declared | ev.Missed | ev.Victims
_SpeechEvent = (ev.SpeechesBegin | ev.SpeechStarted | ev.SpeechEnded | ev.SpeechSkipped
                | ev.SpeechCut | ev.Nominated | ev.Withdrawn | ev.Fouled | ev.TechFouled
                | ev.BestMoveAsked | ev.BestMoveNamed)
_VoteEvent = (ev.VotingCancelled | ev.VotingStarted | ev.VoteCall | ev.VoteCounted | ev.Tie
              | ev.TieStays | ev.Unopposed | ev.Stays | ev.PlaysOn)
_CrashEvent = ev.CrashStarted | ev.CrashResult | ev.CrashNotApplied


def _lines(event: ev.Event) -> list[Line]:
    if isinstance(event, _NightEvent):
        return _night_lines(event)
    if isinstance(event, _SpeechEvent):
        return _speech_lines(event)
    if isinstance(event, _VoteEvent):
        return _vote_lines(event)
    if isinstance(event, _CrashEvent):
        return _crash_lines(event)
    match event:
        case ev.CardShown(seat=seat, role=role):
            return [Line((f"open_card.{seat}", f"card.{role}"))]
        case ev.SeatOut(seat=seat, how=Exit.VOTE | Exit.CRASH):
            return [Line((f"leaves.{seat}",))]
        case ev.SeatOut(seat=seat, how=Exit.REMOVED):
            return [Line((f"removed.{seat}",))]
        case ev.SeatOut():
            return []  # a night's kill: the night's result tells it
        case ev.GameOver(winner=Team.DRAW):
            return [Line(("draw",))]  # 7.21.2 «объявляется ничья»
        case ev.GameOver(winner=winner, why=why):
            key = "win_civilians" if winner is Team.RED else "win_mafia"
            return [Line((f"{key}_{why}" if why else key,))]
        case (ev.TimerStarted() | ev.ShotsResolved() | ev.Checked() | ev.Acted() | ev.Saved()
              | ev.Refused() | ev.PutUpCounted() | ev.OnRecordLeft()
              | ev.Marked()):
            # not said: a timer's start, the night's secrets, what the table sees for itself,
            # the host's marks (his own, after the game)
            return []
        case _:
            assert_never(event)


def _night_lines(event: _NightEvent) -> list[Line]:
    match event:
        case ev.PhaseStarted(name=name):
            # a step of another ruleset is said in its wording of ``phase.<name>``
            return [Line(_PHASES.get(name, (f"phase.{name}",)))]
        case ev.NightResult(killed=None, saved=True):
            return [Line(("night_saved",))]
        case ev.NightResult(killed=None):
            return [Line(("miss",))]
        case ev.NightResult(killed=seat):
            return [Line((f"killed.{seat}",))]
        case ev.Declared(name=name, value=value):
            return [Line((f"{name}.{value}",))]
        case ev.Missed(role=role):
            return [Line((f"missed.{role}",))]
        case ev.Victims(count=count):
            return [Line((f"stretcher.{count}",))]
        case _:
            assert_never(event)


def _speech_lines(event: _SpeechEvent) -> list[Line]:
    match event:
        case ev.SpeechesBegin(kind=kind, first=first):
            return [Line((f"{kind}_opens" if first is None else f"{kind}_opens.{first}",))]
        case ev.SpeechStarted(seat=seat, kind=kind):
            return [Line((f"{_SPEECHES[kind]}.{seat}",))]
        case ev.SpeechEnded(early=False):
            return [Line(("thanks",))]
        case ev.SpeechEnded():
            return []  # a speech ended early
        case ev.SpeechSkipped(seat=seat, nominates=True):
            return [Line((f"skips_speech_nominates.{seat}",))]  # 9.5.1
        case ev.SpeechSkipped(seat=seat):
            return [Line((f"skips_speech.{seat}",))]
        case ev.SpeechCut(seat=seat):
            return [Line((f"short_speech.{seat}",))]  # 9.5.2
        case ev.Nominated():
            return [Line(("accepted",), urgent=True)]  # 2.3.1 «Принято»
        case ev.Replaced():
            return []  # 7.5.2: the new nomination's «Принято» says it
        case ev.Withdrawn():
            return [Line(("withdrawn",), urgent=True)]  # 2.3.2 «Снято»
        case ev.Fouled(seat=seat):
            return [Line((f"foul.{seat}",))]
        case ev.TechFouled(seat=seat):
            return [Line((f"tech_foul.{seat}",))]  # 9.6.2
        case ev.BestMoveAsked(seat=seat):
            return [Line((f"best_move.{seat}",))]
        case ev.BestMoveNamed():
            return [Line(("accepted",), urgent=True)]  # taken, as a nomination is (2.3.1)
        case _:
            assert_never(event)


def _vote_lines(event: _VoteEvent) -> list[Line]:
    match event:
        case ev.VotingCancelled(reason=reason):
            # a reason of another ruleset is said in its wording of the reason itself
            return [Line((_CANCELLED.get(reason, reason),))]
        case ev.VotingStarted(round=rnd, candidates=cands, reverse=reverse):
            line = _candidates(rnd, cands)
            # 7.18.2: «Повторное голосование. В обратном порядке…»
            return [Line((line.keys[0], "reverse_order", *line.keys[1:]))] if reverse else [line]
        case ev.VoteCall(candidate=c):
            return [Line((f"who_for.{c}",))]
        case ev.VoteCounted(votes=n):
            return [Line(("thanks", f"votes.{n}"))]
        case ev.Tie():
            return [Line(("tie", "tie_speeches"))]
        case ev.TieStays():
            return [Line(("tie_stays",))]
        case ev.Unopposed():
            return [Line(("unopposed",))]
        case ev.Stays(seats=seats, reason="first_day"):
            # «В первый день одного игрока голосованием не выводят: номер … остается за столом»
            return [Line(tuple(f"first_day_stays.{s}" for s in seats))]
        case ev.Stays(seats=seats):
            return [Line(tuple(f"stays.{s}" for s in seats))]
        case ev.PlaysOn():
            return [Line(("plays_on",))]
        case _:
            assert_never(event)


def _candidates(rnd: int, cands: Sequence[int]) -> Line:
    """2.4: the host announces how many candidates stand and names them in order («На
    голосование выставлены две кандидатуры: номер четыре и номер пять»); a re-vote, how many
    are voted on again (2.4.1)."""
    count = len(cands)
    keys: tuple[str, ...] = (("revote", f"candidates.{count}") if rnd > 1
                             else (f"nominated.{count}",))
    *before, last = cands
    return Line((*keys, *(f"number.{c}" for c in before),
                 f"number.and.{last}" if before else f"number.{last}"))


def _crash_lines(event: _CrashEvent) -> list[Line]:
    match event:
        case ev.CrashStarted():
            return [Line(("crash", "crash_question"))]  # 2.4.2
        case ev.CrashResult(passed=passed):
            return [Line(("crash_passed",) if passed else ("crash_failed",))]
        case ev.CrashNotApplied(why=why):
            return [Line(("crash_not_applied" if why == "four" else f"crash_not_applied_{why}",))]
        case _:
            assert_never(event)
