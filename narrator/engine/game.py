"""The game: a pure state machine over the rules. No I/O, no clock, no global state.

``Game.apply(action)`` validates the action against what the game is waiting for
(:attr:`Game.expect`), feeds it to the flow and returns the events it caused. The flow itself is a
generator that reads like the rule text: it yields what it waits for and receives actions.
Undo (:meth:`Game.pop`) replays the history from the deal, as python-chess does with its move
stack; the engine is cheap enough for that.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Generator, Iterable
from dataclasses import dataclass
from typing import Any, Literal

from narrator.engine import events as ev
from narrator.engine.actions import (
    Action,
    BestMove,
    Check,
    EndSpeech,
    Foul,
    HandCount,
    Hands,
    Malformed,
    Nominate,
    Remove,
    Shot,
    TimeUp,
    Withdraw,
)
from narrator.engine.errors import IllegalActionError, InvalidActionError
from narrator.engine.rules import Rules, find_rules
from narrator.engine.types import Role, Team, Timer

#: what the game can wait for (see :class:`Expect`)
ExpectKind = Literal["timer", "speech", "hands", "hunt", "check", "over"]
#: a day speech (2.3), a last word (2.2, 2.4) or a tie speech (2.4.1)
SpeechKind = Literal["day", "last", "tie"]


@dataclass(frozen=True, slots=True)
class Expect:
    """What the game is waiting for.

    ``kind``: "timer" (only the timer's end), "speech" (``seat`` speaks; ``speech`` is day, last
    or tie), "hands" (a voting window for ``candidate``, or the car-crash question when
    ``candidate`` is None), "hunt" (shots during the count), "check" (``role``'s check) or "over".
    Fouls and removals are taken at any moment before the game is over.
    """

    kind: ExpectKind
    timer: Timer | None = None
    seat: int | None = None
    speech: SpeechKind | None = None
    candidate: int | None = None
    role: str | None = None

    def __str__(self) -> str:
        if self.kind == "speech":
            return f"the {self.speech} speech of seat {self.seat}"
        if self.kind == "hands":
            if self.candidate is None:
                return "hands for the car crash"
            return f"hands for candidate {self.candidate}"
        if self.kind == "check":
            return f"the {self.role}'s check"
        if self.kind == "hunt":
            return "shots during the hunt"
        if self.kind == "timer" and self.timer is not None:
            return f"the end of the {self.timer.name} timer"
        return "nothing: the game is over"


OVER = Expect("over")

Flow = Generator[Expect, Action, Any]


#: actions taken in a speech, and those taken at any moment (tuples: faster than X | Y)
_SPOKEN = (Nominate, Withdraw, EndSpeech, Malformed)
_ASIDE = (Foul, Remove)
_ENDS = (TimeUp, EndSpeech)  # what ends a speech (besides the speaker's removal)

#: what a step does with each action it gets while it waits; True when the step is over
Take = Callable[[Action, Expect], bool]


def _is_time_up(action: Action, expect: Expect) -> bool:
    return isinstance(action, TimeUp)


class _GameOver(Exception):
    pass


class _Day:
    """Protocol record of one day (docs/protocol.md)."""

    def __init__(self, number: int, opened_by: int | None) -> None:
        self.number = number
        self.opened_by = opened_by
        self.nominations: list[int] = []
        self.rounds: list[dict[str, Any]] = []
        self.crash: dict[str, Any] | None = None
        self.out: list[int] = []

    def to_json(self) -> dict[str, Any]:
        return {"day": self.number, "opened_by": self.opened_by,
                "nominations": list(self.nominations), "rounds": self.rounds,
                "crash": self.crash, "out": list(self.out)}


class Game:
    """One game of Mafia under ``rules``.

    ``roles`` maps seats to their cards; seats it does not name are civilians. Without it the
    cards are dealt by the ruleset from ``rng`` (reproducible with a seeded ``random.Random``).
    Call :meth:`start` once, then :meth:`apply` for every action.
    """

    def __init__(self, rules: Rules | str = "crime-time", *, seats: int | None = None,
                 roles: dict[int, Role] | None = None, rng: random.Random | None = None,
                 names: dict[int, str] | None = None) -> None:
        self.rules = find_rules(rules) if isinstance(rules, str) else rules
        self.seats = self.rules.check_seats(seats or self.rules.seats)
        if roles is None:
            roles = self.rules.deal(self.seats, rng or random.Random())
        else:
            for seat in roles:
                self._check_seat(seat, "role")
            roles = {s: roles.get(s, Role.CIVILIAN) for s in range(1, self.seats + 1)}
        self.roles: dict[int, Role] = roles
        self.black = frozenset(s for s, r in roles.items() if r.team is Team.BLACK)
        for seat in names or {}:
            self._check_seat(seat, "name")
        #: nicknames per seat (public: shown on screen, in the transcript and the protocol)
        self.names: dict[int, str] = dict(names or {})
        self.history: list[Action] = []
        self._reset()

    # -- state ---------------------------------------------------------------------------

    def _reset(self) -> None:
        self.out: dict[int, dict[str, Any]] = {}
        self._living: list[int] | None = None  # cache of ``living``, reset when a seat leaves
        self.fouls: dict[int, int] = {}
        self.refused: list[dict[str, Any]] = []
        self.days: list[_Day] = []
        self.nights: list[dict[str, Any]] = []
        self.winner: Team | None = None
        self.phase = "n1"  # "nN" or "dN": the night or day in progress
        self.nominations: list[tuple[int, int]] = []  # standing (nominator, target), in order
        self._removal_pending = False  # 2.4.3: a removal since the last completed vote
        #: seats out of the game but still at the table: shot in the hunt, voted out, or in the
        #: car crash, until their last word ends (1.4; 2.1.2: the result is told at day)
        self._last_word_due: set[int] = set()
        self._muted: set[int] = set()  # sport fouls: a 3rd foul costs the next speech
        self.best_move: dict[str, Any] | None = None
        self._voted: set[int] = set()
        self._anonymous = 0  # hands counted without seats (HandCount) in this round
        self._round_counts: dict[int, int] = {}
        self._round_candidates: tuple[int, ...] = ()
        # the state of the step in progress (see _wait)
        self._standing: int | None = None  # the speaker's standing nomination (2.3)
        self._shots: dict[int, set[int]] = {}  # the hunt's shots, by shooter (2.1.2)
        self._crash_hands: set[int] = set()  # the seats for the car crash (2.4.2)
        self._events: list[ev.Event] = []
        self._flow: Flow = self._game()
        self.expect: Expect = OVER
        self.started = False

    @property
    def living(self) -> list[int]:
        """Seats still at the table, in seat order."""
        if self._living is None:
            self._living = [s for s in range(1, self.seats + 1) if s not in self.out]
        return self._living

    def is_alive(self, seat: int) -> bool:
        return 1 <= seat <= self.seats and seat not in self.out

    def seat_of(self, role: Role) -> int | None:
        return next((s for s, r in self.roles.items() if r is role), None)

    @property
    def candidates(self) -> tuple[int, ...]:
        """Standing candidates in order of first nomination (2.4)."""
        seen: dict[int, None] = {}
        for _, target in self.nominations:
            seen.setdefault(target, None)
        return tuple(seen)

    @property
    def voting_candidates(self) -> tuple[int, ...]:
        """The candidates of the round being voted on (2.4)."""
        return self._round_candidates

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    # -- driving ---------------------------------------------------------------------------

    def start(self) -> list[ev.Event]:
        """Begin the first night; returns its first events."""
        if self.started:
            raise IllegalActionError("the game has already started")
        self.started = True
        events: list[ev.Event] = []
        self._events = events  # the flow appends to it; the next input gets a new one
        self.expect = next(self._flow)
        return events

    def apply(self, action: Action, *,
              accepted: Callable[[Action], None] | None = None) -> list[ev.Event]:
        """Apply ``action``; returns the events it caused.

        Raises :class:`InvalidActionError` for a malformed action and
        :class:`IllegalActionError` for one the game is not waiting for; the state is then
        unchanged. Refusals that the rules foresee (a nomination of a seat that is out, …) are
        not errors but :class:`~narrator.engine.events.Refused` events. ``accepted`` is called
        once the action has passed the checks and before it is acted on (the host's journal).
        """
        if not self.started:
            raise IllegalActionError(f"{action}: the game has not started")
        self.check(action)
        if accepted is not None:
            accepted(action)
        self.history.append(action)
        events: list[ev.Event] = []
        self._events = events
        self.expect = self._flow.send(action)
        return events

    def pop(self) -> Action:
        """Undo the last action (replaying the history from the deal)."""
        if not self.history:
            raise IllegalActionError("nothing to undo")
        actions = self.history[:-1]
        last = self.history[-1]
        self.history = []
        self._reset()
        self.start()
        for a in actions:
            self.apply(a)
        return last

    # -- validation (before the flow sees an action) --------------------------------------

    def _check_seat(self, seat: int, what: object) -> None:
        if not isinstance(seat, int) or not 1 <= seat <= self.seats:
            raise InvalidActionError(f"{what}: seat {seat!r} does not exist (seats 1..{self.seats})")

    def _illegal(self, action: Action, why: str) -> IllegalActionError:
        # the public notation: the message is shown to the operator, and may be logged
        return IllegalActionError(
            f"{action}: {why} (waiting for {self.expect}; {self.notation(secret=False)})")

    def at_table(self, seat: int) -> bool:
        """Still at the table: in the game, or out but not yet past the last word (1.4) — a
        seat shot in the hunt sits at the table until the day (2.1.2)."""
        return self.is_alive(seat) or (seat in self._last_word_due and self.winner is None)

    def check(self, action: Action) -> None:
        """Raise InvalidActionError / IllegalActionError unless ``apply(action)`` would take it."""
        exp = self.expect
        if exp.kind == "speech" and isinstance(action, _SPOKEN):
            return  # the common case first: the engine checks targets itself (refusals)
        if exp.kind == "over":
            raise self._illegal(action, "the game is over")
        if isinstance(action, _ASIDE):
            self._check_seat(action.seat, action)
            # 1.4: a foul counts while the player is at the table, last word included; a
            # removal has nothing to take from a seat that is out already
            if action.seat in self.out and not (isinstance(action, Foul)
                                                and action.seat in self._last_word_due):
                raise self._illegal(action, f"seat {action.seat} is out of the game")
            return
        if isinstance(action, TimeUp):
            if exp.timer is None or action.name != exp.timer.name:
                raise self._illegal(action, "no such timer is running")
            return
        if isinstance(action, _SPOKEN):
            if exp.kind != "speech":
                raise self._illegal(action, "nobody is speaking")
            return
        if isinstance(action, HandCount):
            if exp.kind != "hands" or exp.candidate is None:
                raise self._illegal(action, "no vote on a candidate is open")
            free = len(self.living) - len(self._voted) - self._anonymous
            if not 0 <= action.n <= free:
                raise self._illegal(action, f"only {free} seat(s) have not voted in this round")
            return
        if isinstance(action, Hands):
            if exp.kind != "hands":
                raise self._illegal(action, "no vote is open")
            for seat in action.seats:
                self._check_seat(seat, action)
                if seat in self.out:
                    raise self._illegal(action, f"seat {seat} is out of the game and cannot vote")
            return
        if isinstance(action, Shot):
            if exp.kind != "hunt":
                raise self._illegal(action, "the mafia is not hunting")
            self._check_seat(action.shooter, action)
            self._check_seat(action.target, action)
            if action.shooter not in self.black:
                raise self._illegal(action, f"seat {action.shooter} is not mafia")
            if action.shooter in self.out:
                raise self._illegal(action, f"seat {action.shooter} is out of the game")
            return
        if isinstance(action, Check):
            if exp.kind != "check" or action.role != exp.role:
                raise self._illegal(action, f"it is not the {action.role}'s check")
            self._check_seat(action.target, action)
            checker = self.seat_of(Role(action.role))
            # 2.1.2: shot in this night's hunt, the checker is still at the table and checks
            if checker is None or not self.at_table(checker):
                raise self._illegal(action, f"the {action.role} is out of the game")
            return
        if isinstance(action, BestMove):
            self._check_best_move(action)
            return
        raise InvalidActionError(f"unknown action {action!r}")

    def _first_victim(self) -> int | None:
        """The seat shot in the first hunt (night 2), if it was a hit."""
        return self.nights[0]["shot"] if self.nights else None

    def _check_best_move(self, action: BestMove) -> None:
        exp = self.expect
        if not self.rules.best_move:
            raise self._illegal(action, "the best_move option is off")
        victim = self._first_victim()
        if not (exp.kind == "speech" and exp.speech == "last" and self.phase == "d2"
                and victim is not None and exp.seat == victim):
            raise self._illegal(action, "only the first-night victim names a best move, at "
                                        "the last word")
        if self.best_move is not None:
            raise self._illegal(action, "the best move is named already")
        for seat in action.seats:
            self._check_seat(seat, action)
        if len(action.seats) != 3 or len(set(action.seats)) != 3:
            raise self._illegal(action, "a best move names three different seats")
        if victim in action.seats:
            raise self._illegal(action, f"it names seat {victim}, the victim")

    # -- the flow ----------------------------------------------------------------------------

    def _game(self) -> Flow:
        try:
            yield from self._first_night()
            n = 1
            while True:
                yield from self._day(n)
                n += 1
                yield from self._night(n)
        except _GameOver:
            pass
        while True:
            yield OVER

    def _wait(self, expect: Expect, take: Take) -> Flow:
        """Wait at ``expect`` until ``take`` ends the step; returns the action that ended it.

        Every step waits here. Fouls and removals come at any moment: a foul is recorded and
        the step waits on; a removal (2.4.3) is applied, then ``take`` sees it like any other
        action, acts on it and returns True when the step is over.

        The engine's speed is in this loop (see ``scripts/bench_engine.py``): a step keeps
        its state on the game and its ``take`` is a method, not a closure made per step; a
        step with nothing to do after its wait (a timer, a speech, a check, a voting window)
        is a plain method that sets up and returns this generator, so that each action passes
        one generator fewer on its way down the flow."""
        while True:
            action = yield expect
            if isinstance(action, Foul):
                if not self._foul(action.seat):
                    continue
                action = Remove(action.seat)  # sport fouls: the 4th removes by itself (2.4.3)
            if isinstance(action, Remove):
                self._remove(action.seat)
            if take(action, expect):
                return action

    def _foul(self, seat: int) -> bool:
        """Count a foul; True when it removes the player (the 4th, with sport fouls)."""
        count = self.fouls[seat] = self.fouls.get(seat, 0) + 1
        self._events.append(ev.Fouled(seat, count))
        if self.rules.fouls != "sport" or seat in self.out:
            return False
        if count == 3:
            self._muted.add(seat)  # the next discussion speech is lost
        return count == 4

    def _timer(self, timer: Timer) -> Flow:
        """A step that only waits for its timer."""
        self._events.append(ev.TimerStarted(timer))
        return self._wait(Expect("timer", timer), _is_time_up)

    def _phase(self, name: str, number: int) -> None:
        self._events.append(ev.PhaseStarted(name, number))

    def _first_night(self) -> Flow:
        """2.1.1: the ruleset's first night, step by step (crime-time: cards, the don noted,
        the mafia's agreement, the sheriff noted); no hunt, no checks."""
        r = self.rules
        for step in r.first_night:
            self._phase(step, 1)
            timer = r.first_night_timer(step, self.seats)
            if timer is not None:
                yield from self._timer(timer)

    def _night(self, n: int) -> Flow:
        """2.1: the hunt (2.1.2), then the don's and the sheriff's checks (2.1.3)."""
        r = self.rules
        self.phase = f"n{n}"
        self.nominations = []
        record: dict[str, Any] = {"night": n, "shot": None}
        record.update((f"{checker.value}_check", None) for checker in r.checkers)
        self.nights.append(record)
        self._phase("night", n)
        self._phase("hunt", n)
        hunt = Timer("hunt", r.count_pace * self.seats, tick=r.count_pace)
        self._events.append(ev.TimerStarted(hunt))
        self._shots = {}
        yield from self._wait(Expect("hunt", hunt), self._take_shot)
        black = [s for s in self.living if s in self.black]
        target = r.hunt_target(black, self._shots, set(self.living))
        record["shot"] = target
        self._events.append(ev.ShotsResolved(n, target))
        if target is not None:
            self._put_out(target, "shot", announce_day=n)
        for checker in r.checkers:
            yield from self._check_step(n, checker)
        self._phase("sheriff_sleeps", n)

    def _take_shot(self, action: Action, expect: Expect) -> bool:
        if isinstance(action, Shot):
            if action.shooter not in self.out:  # not removed during the count
                self._shots.setdefault(action.shooter, set()).add(action.target)
            return False
        return isinstance(action, TimeUp)

    def _check_step(self, n: int, checker: Role) -> Flow:
        """2.1.3: ``checker`` points at a seat (living or not) and the host's nod answers; the
        time runs out in full, whether or not the checker is still at the table."""
        key = f"{checker.value}_check"
        self._phase(key, n)
        timer = Timer(key, self.rules.check_seconds)
        self._events.append(ev.TimerStarted(timer))
        return self._wait(Expect("check", timer, role=checker.value), self._take_check)

    def _take_check(self, action: Action, expect: Expect) -> bool:
        if isinstance(action, Check):
            record = self.nights[-1]
            key = f"{action.role}_check"
            if record[key] is not None:
                self._refuse(None, "check", action.target, "already_checked")
                return False
            result = self.rules.check_answer(Role(action.role), self.roles[action.target])
            record[key] = {"target": action.target, "result": result}
            self._events.append(ev.Checked(action.role, action.target, result))
            return False
        return isinstance(action, TimeUp)

    def _day(self, n: int) -> Flow:
        self.phase = f"d{n}"
        previous = self.days[-1].opened_by if self.days else None
        day = _Day(n, None)
        self.days.append(day)
        self._phase("day", n)
        killed: int | None = None
        if n > 1:
            killed = self.nights[-1]["shot"]
            self._events.append(ev.NightResult(n, killed))
        if killed is not None:
            if self.rules.best_move and n == 2:
                self._events.append(ev.BestMoveAsked(killed))
            yield from self._speech(killed, "last")
        order = self._circle_from(self.rules.day_opener(n, previous, self.seats))
        day.opened_by = order[0] if order else None
        self.nominations = []
        for seat in order:
            if seat in self.out:  # removed during the discussion
                continue
            if seat in self._muted:  # sport fouls: the 3rd foul costs this speech
                self._muted.discard(seat)
                self._events.append(ev.SpeechSkipped(seat))
                continue
            yield from self._speech(seat, "day")
        day.nominations = list(self.candidates)
        yield from self._voting(n, day)

    def _circle_from(self, start: int) -> list[int]:
        seats = [(start - 1 + i) % self.seats + 1 for i in range(self.seats)]
        return [s for s in seats if s not in self.out]

    def _speech(self, seat: int, kind: SpeechKind) -> Flow:
        r = self.rules
        seconds = {"day": r.speech_seconds, "last": r.last_word_seconds,
                   "tie": r.tie_speech_seconds}[kind]
        warning = r.speech_warning if kind == "day" else None
        timer = Timer("speech", seconds, warning)
        self._events.append(ev.SpeechStarted(seat, kind))
        self._events.append(ev.TimerStarted(timer))
        self._standing = None
        return self._wait(Expect("speech", timer, seat=seat, speech=kind), self._take_speech)

    def _take_speech(self, action: Action, expect: Expect) -> bool:
        seat = expect.seat
        assert seat is not None and expect.speech is not None
        if isinstance(action, _ENDS) or (isinstance(action, Remove) and action.seat == seat):
            # 2.4.3: a removal ends the removed player's own speech, nobody else's
            self._events.append(ev.SpeechEnded(seat, early=not isinstance(action, TimeUp)))
            if expect.speech == "last":
                self._last_word_due.discard(seat)  # 1.4: now a spectator
            return True
        if isinstance(action, Malformed):
            self._refuse(seat, action.kind, action.target, action.reason)
        elif isinstance(action, Nominate):
            reason = self._nomination_refusal(expect.speech, action.target, self._standing)
            if reason:
                self._refuse(seat, "nominate", action.target, reason)
            else:
                self._standing = action.target
                self.nominations.append((seat, action.target))
                self._events.append(ev.Nominated(seat, action.target))
        elif isinstance(action, Withdraw):
            if expect.speech != "day":
                self._refuse(seat, "withdraw", action.target, "not_discussion")
            elif self._standing is None or self._standing != action.target:
                self._refuse(seat, "withdraw", action.target, "not_own_nomination")
            else:
                # 2.3.2: only the speaker's own; another's earlier nomination stands
                self.nominations.remove((seat, action.target))
                self._standing = None
                self._events.append(ev.Withdrawn(seat, action.target))
        elif isinstance(action, BestMove):
            self._best_move(seat, action.seats)
        return False

    def _best_move(self, seat: int, named: tuple[int, ...]) -> None:
        black = sum(1 for s in named if s in self.black)
        self.best_move = {"seat": seat, "named": list(named), "black_named": black}
        self._events.append(ev.BestMoveNamed(seat, named, black))

    def _nomination_refusal(self, kind: SpeechKind, target: int, standing: int | None) -> str | None:
        if kind != "day":
            return "not_discussion"  # 2.3.1: nominations are made in the discussion
        if not 1 <= target <= self.seats:
            return "not_a_seat"
        if target in self.out:
            return "target_out"
        if standing is not None:
            return "already_nominated"  # 2.3: one candidate per speech
        return None

    def _refuse(self, seat: int | None, kind: str, target: int | None, reason: str) -> None:
        self.refused.append({"phase": self.phase, "seat": seat, "kind": kind,
                             "target": target, "reason": reason})
        self._events.append(ev.Refused(seat, kind, target, reason))

    # -- voting ----------------------------------------------------------------------------

    def _voting(self, n: int, day: _Day) -> Flow:
        candidates = tuple(c for c in self.candidates if c not in self.out)
        if self._removal_pending:
            self._removal_pending = False
            self._events.append(ev.VotingCancelled("monster"))  # 2.4.3
            return
        if not candidates:
            self._events.append(ev.VotingCancelled("no_candidates"))
            return
        reason = self.rules.no_vote(n, candidates)  # 2.2.1
        if reason is not None:
            self._events.append(ev.VotingCancelled(reason))
            return
        if len(candidates) == 1 and self.rules.lone_candidate_leaves(n):
            self._events.append(ev.Unopposed(candidates[0]))
            self._put_out(candidates[0], "vote")
            yield from self._speech(candidates[0], "last")
            return
        rnd = 1
        while True:
            counts = yield from self._round(rnd, candidates, day)
            if counts is None:
                return
            top = max(counts.values())
            leaders = tuple(c for c in candidates if counts[c] == top)
            if len(leaders) == 1:
                self._put_out(leaders[0], "vote")
                yield from self._speech(leaders[0], "last")
                return
            if self.rules.tie_stays(rnd, leaders, len(self.living)):
                self._events.append(ev.TieStays(leaders))
                return
            if self.rules.tie_goes_to_crash(rnd, leaders, candidates):
                yield from self._crash(leaders, day)
                return
            # 2.4.1: the tied speak 30 s in nomination order, then vote again among them
            self._events.append(ev.Tie(leaders))
            for seat in leaders:
                if seat not in self.out:
                    yield from self._speech(seat, "tie")
            if self._removal_pending:
                self._removal_pending = False
                self._events.append(ev.VotingCancelled("monster"))
                return
            candidates = tuple(c for c in leaders if c not in self.out)
            rnd += 1

    def _round(self, rnd: int, candidates: tuple[int, ...], day: _Day) -> Flow:
        """One round of 2.4; returns the counts, or None when 2.4.3 cancelled the vote."""
        self._events.append(ev.VotingStarted(rnd, candidates))
        self._voted = set()
        self._anonymous = 0
        self._round_candidates = candidates
        self._round_counts = dict.fromkeys(candidates, 0)
        last = len(candidates) - 1
        for i, cand in enumerate(candidates):
            ended = yield from self._window(cand)
            if isinstance(ended, Remove):
                self._removal_pending = False
                self._events.append(ev.VotingCancelled("monster"))
                return None
            if i == last:  # 2.4: abstainers count for the last candidate
                abstained = len([s for s in self.living if s not in self._voted]) - self._anonymous
                self._round_counts[cand] += max(0, abstained)
            self._events.append(ev.VoteCounted(cand, self._round_counts[cand]))
        counts = dict(self._round_counts)
        day.rounds.append({"candidates": list(candidates),
                           "votes": {str(c): counts[c] for c in candidates}})
        return counts

    def _window(self, cand: int) -> Flow:
        """The voting window of ``cand`` (2.4); it ends with a removal when that cancelled the
        vote (2.4.3)."""
        self._events.append(ev.VoteCall(cand))
        window = Timer("vote", self.rules.vote_window)
        self._events.append(ev.TimerStarted(window))
        return self._wait(Expect("hands", window, candidate=cand), self._take_hands)

    def _take_hands(self, action: Action, expect: Expect) -> bool:
        cand = expect.candidate
        assert cand is not None
        if isinstance(action, HandCount):
            self._anonymous += action.n
            self._round_counts[cand] += action.n
        elif isinstance(action, Hands):
            for seat in action.seats:
                if seat in self._voted:  # 2.4: a second hand is ignored
                    self._refuse(seat, "vote", cand, "already_voted")
                else:
                    self._voted.add(seat)
                    self._round_counts[cand] += 1
        elif isinstance(action, Remove):
            # 2.4.3: cancels the vote unless the round's result is fixed already; then it stays
            # pending and cancels the next vote
            index = self._round_candidates.index(cand)
            return self._removal_pending and not self._round_decided(index, extra=1)
        return isinstance(action, TimeUp)

    def _round_decided(self, current: int, extra: int) -> bool:
        """2.4.3: is the round's result already fixed whatever the remaining hands (counting
        ``extra`` removed voters' hands as still to come)?"""
        remaining = len([s for s in self.living if s not in self._voted]) - self._anonymous + extra
        if remaining == 0:
            return True
        counts = self._round_counts
        cands = self._round_candidates
        best = max(counts.values())
        leaders = [c for c in cands if counts[c] == best]
        if len(leaders) != 1:
            return False
        leader = leaders[0]
        for j, c in enumerate(cands):
            if c == leader:
                continue
            reach = counts[c] + (remaining if j >= current else 0)
            if reach >= best:
                return False
        return True

    def _crash(self, candidates: tuple[int, ...], day: _Day) -> Flow:
        """2.4.2: the car crash."""
        if self._removal_pending:
            self._removal_pending = False
            self._events.append(ev.VotingCancelled("monster"))
            return
        living = len(self.living)
        if self.rules.no_crash_at is not None and living == self.rules.no_crash_at:
            self._events.append(ev.CrashNotApplied(candidates))
            return
        self._events.append(ev.CrashStarted(candidates))
        window = Timer("vote", self.rules.vote_window)
        self._events.append(ev.TimerStarted(window))
        self._crash_hands = set()
        ended = yield from self._wait(Expect("hands", window), self._take_crash_hands)
        self._removal_pending = False
        if isinstance(ended, Remove):
            self._events.append(ev.VotingCancelled("monster"))
            return
        votes_for = len(self._crash_hands)
        living = len(self.living)
        passed = self.rules.crash_passes(votes_for, living)
        day.crash = {"for": votes_for, "against": living - votes_for, "passed": passed}
        self._events.append(ev.CrashResult(votes_for, living - votes_for, passed))
        if not passed:
            return
        for seat in candidates:
            self._put_out(seat, "crash", check_win=False)
        self._check_win()
        for seat in candidates:
            yield from self._speech(seat, "last")

    def _take_crash_hands(self, action: Action, expect: Expect) -> bool:
        if isinstance(action, Hands):
            self._crash_hands.update(action.seats)
            return False
        if isinstance(action, Remove):
            return self._removal_pending  # 2.4.3: the car crash is a vote too
        return isinstance(action, TimeUp)

    # -- leaving the table --------------------------------------------------------------------

    def _put_out(self, seat: int, how: str, *, check_win: bool = True,
                 announce_day: int | None = None) -> None:
        kind, number = self.phase[0], int(self.phase[1:])
        self.out[seat] = {"how": how, ("night" if kind == "n" else "day"): number}
        if how != "removed":
            self._last_word_due.add(seat)
        self._living = None
        if kind == "d":
            self.days[-1].out.append(seat)
        self._events.append(ev.SeatOut(seat, how))
        if check_win and self._winner() is not None and announce_day is not None:
            # The game is decided by the night's shot: the day breaks only to say so.
            self._phase("day", announce_day)
            self._events.append(ev.NightResult(announce_day, seat))
        if check_win:
            self._check_win()

    def _remove(self, seat: int) -> None:
        """2.4.3: removal for a violation; cancels the vote not yet completed."""
        self.nominations = [(a, t) for a, t in self.nominations if t != seat]
        if self.rules.monster_rule:
            self._removal_pending = True
        self._put_out(seat, "removed")

    def _winner(self) -> Team | None:
        living = self.living
        black = sum(1 for s in living if s in self.black)
        return self.rules.winner(black, len(living) - black)

    def _check_win(self) -> None:
        winner = self._winner()
        if winner is not None:
            self.winner = winner
            self._events.append(ev.GameOver(winner.value))
            raise _GameOver

    # -- views ---------------------------------------------------------------------------------

    def notation(self, *, secret: bool = True) -> str:
        """One line of state for tests and messages, e.g.
        ``crime-time d2:speech@4 SCCDcMCCCM noms=5,7``: phase, then one letter per seat
        (C civilian, S sheriff, M mafia, D don; lower case when out), then the candidates.

        ``secret=False`` is the public form, for everything shown to people: ``+`` for a seat
        at the table and ``-`` for one out, no roles (``crime-time d2:speech@4 ++++-+++++``).
        """
        if secret:
            seats = "".join(
                self.roles[s].letter.lower() if s in self.out else self.roles[s].letter
                for s in range(1, self.seats + 1)
            )
        else:
            # a seat shot tonight is at the table until the day tells it (2.1.2)
            seats = "".join("+" if self.at_table(s) else "-" for s in range(1, self.seats + 1))
        e = self.expect
        if e.kind == "over":
            phase = f"over:{self.winner.value}" if self.winner else "over"
        elif e.kind == "speech":
            phase = f"{self.phase}:{e.speech}@{e.seat}"
        elif e.kind == "hands":
            phase = f"{self.phase}:vote@{e.candidate}" if e.candidate else f"{self.phase}:crash"
        elif e.kind == "check":
            phase = f"{self.phase}:check-{e.role}"
        else:
            phase = f"{self.phase}:{e.timer.name if e.timer else e.kind}"
        noms = ",".join(map(str, self.candidates)) or "-"
        return f"{self.rules.name} {phase} {seats} noms={noms}"

    def protocol(self) -> dict[str, Any]:
        """The protocol (docs/protocol.md), without ``said`` (the host adds what it spoke)."""
        return {
            "rules": self.rules.name,
            "winner": self.winner.value if self.winner else None,
            "seats": {str(s): self._seat_record(s) for s in range(1, self.seats + 1)},
            **({"best_move": self.best_move} if self.rules.best_move else {}),
            "days": [d.to_json() for d in self.days],
            "nights": [dict(n) for n in self.nights],
            "refused": list(self.refused),
        }

    def _seat_record(self, seat: int) -> dict[str, Any]:
        record: dict[str, Any] = {"role": self.roles[seat].value, "out": self.out.get(seat),
                                  "fouls": self.fouls.get(seat, 0)}
        if seat in self.names:
            record["name"] = self.names[seat]
        return record

    def replay(self, actions: Iterable[Action]) -> list[ev.Event]:
        """Apply several actions; returns all their events."""
        out: list[ev.Event] = []
        for a in actions:
            out.extend(self.apply(a))
        return out
