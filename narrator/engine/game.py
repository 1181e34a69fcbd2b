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
from dataclasses import replace
from typing import Any, Literal, assert_never, get_args

from narrator.engine import events as ev
from narrator.engine import waits as w
from narrator.engine.actions import (
    Action,
    BestMove,
    Check,
    EndSpeech,
    Extra,
    Floor,
    Foul,
    HandCount,
    Hands,
    Kill,
    Malformed,
    Nominate,
    PutUp,
    Remove,
    Save,
    Shot,
    TimeUp,
    Withdraw,
)
from narrator.engine.errors import IllegalActionError, InvalidActionError
from narrator.engine.rules import Rules, VoteState, find_rules
from narrator.engine.steps import Announce, Hunt, NightStep, Speeches, Vote, Wake
from narrator.engine.steps import Extra as ExtraStep
from narrator.engine.types import NightAct, Role, SpeechKind, Team, Timer
from narrator.engine.waits import Expect

__all__ = ["Expect", "Game", "SpeechKind"]

_LENGTHS: dict[type[Rules], dict[SpeechKind, tuple[float, float | None]]] = {}


def _speech_lengths(rules: Rules) -> dict[SpeechKind, tuple[float, float | None]]:
    """Each kind of speech's length and warning under ``rules`` (asked once per ruleset)."""
    lengths = _LENGTHS.get(type(rules))
    if lengths is None:
        lengths = _LENGTHS[type(rules)] = {
            kind: rules.speech_timer(kind) for kind in get_args(SpeechKind)}
    return lengths


#: a night act's verb, by its action
_VERBS: dict[type, str] = {Check: "check", Kill: "kill", Save: "save"}

Flow = Generator[Expect, Action, Any]


#: actions taken in a speech, and those taken at any moment (tuples: faster than X | Y)
_SPOKEN = (Nominate, Withdraw, EndSpeech, Malformed)
_ASIDE = (Foul, Remove)
_NIGHT_ACTS = (Check, Kill, Save)
_ENDS = (TimeUp, EndSpeech)  # what ends a speech (besides the speaker's removal)

#: what a step does with each action it gets while it waits (its own kind of wait); True when
#: the step is over
Take = Callable[[Action, Any], bool]


def _is_time_up(action: Action, expect: Expect) -> bool:
    return isinstance(action, TimeUp)


def _is_floor_or_time_up(action: Action, expect: Expect) -> bool:
    return isinstance(action, Floor | TimeUp)


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
        #: what only some rulesets record (put_up, extra, justified, stays)
        self.extra: dict[str, Any] = {}

    def to_json(self) -> dict[str, Any]:
        out = {"day": self.number, "opened_by": self.opened_by,
               "nominations": list(self.nominations), "rounds": self.rounds,
               "crash": self.crash, "out": list(self.out)}
        if self.extra:
            out.update(self.extra)
        return out


class Game:
    """One game of Mafia under ``rules``.

    ``roles`` maps seats to their cards; seats it does not name are civilians. Without it the
    cards are dealt by the ruleset from ``rng`` (reproducible with a seeded ``random.Random``).
    ``dealt`` gives what the ruleset deals besides the cards (the maniac's side); what it does
    not give is drawn from ``rng`` too. Call :meth:`start` once, then :meth:`apply` for every
    action.
    """

    def __init__(self, rules: Rules | str = "crime-time", *, seats: int | None = None,
                 roles: dict[int, Role] | None = None, rng: random.Random | None = None,
                 dealt: dict[str, str] | None = None,
                 names: dict[int, str] | None = None) -> None:
        self.rules = find_rules(rules) if isinstance(rules, str) else rules
        # 0 seats is no table (not "the ruleset's"); the deal must be the ruleset's, and leave
        # the game open (1.3)
        self.seats = self.rules.check_seats(self.rules.seats if seats is None else seats)
        if roles is None:
            rng = rng or random.Random()
            roles = self.rules.deal(self.seats, rng)
        else:
            self.rules.check_deal(self.seats, roles)
            roles = {s: roles.get(s, Role.CIVILIAN) for s in range(1, self.seats + 1)}
        self.roles: dict[int, Role] = roles
        given = dict(dealt or {})
        for name, values in self.rules.dealt_choices.items():
            if name not in given:
                rng = rng or random.Random()
                given[name] = rng.choice(values)
            elif given[name] not in values:
                raise InvalidActionError(f"{name}: expected one of {', '.join(values)}, "
                                         f"not {given[name]!r}")
        unknown = sorted(set(given) - set(self.rules.dealt_choices))
        if unknown:
            raise InvalidActionError(f"{self.rules.name} deals no {', '.join(unknown)}")
        #: what was dealt besides the cards (the maniac's side)
        self.dealt: dict[str, str] = given
        #: each kind of speech's length and warning (asked once: a speech is the hot path)
        self._speech_lengths = _speech_lengths(self.rules)
        #: each night's record with its keys in order, by the night's steps (made once)
        self._templates: dict[int, tuple[tuple[NightStep, ...], dict[str, Any]]] = {}
        #: the mafia's cards: the seats that hunt (2.1.2)
        self.black = frozenset(s for s, r in roles.items() if r.team is Team.BLACK)
        #: the seats playing for the mafia (a maniac may): who counts as black for the end
        self.side_black = frozenset(
            s for s, r in roles.items() if self.rules.team(r, given) is Team.BLACK)
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
        #: the serial number of the step the game waits at (0: the first), and the index in
        #: the history of the step's first action: a new step is a new timer (or the end)
        self.step = 0
        self.step_start = 0
        #: every night act the game took, in order (typed: no front end reads them back from
        #: the protocol's keys)
        self.night_acts: list[NightAct] = []
        self._victims: list[tuple[int, str]] = []  # the night's kills: (seat, how), in order
        self._night_saved: set[int] = set()  # the night's saved seats
        self._acted = False  # the waking role has acted in this step
        self._last_victims: tuple[int, ...] = ()  # out at the last night's end
        self._last_saved = False  # a victim of the last night was saved
        self.saved_seats: set[int] = set()  # every seat saved so far (each at most once)
        self.justified: set[int] = set()  # the seats that have used their justification
        self._played_on = False  # PlaysOn was said
        self._spoken: set[int] = set()  # today's speakers, in raised-hand order
        self._order: list[int] = []  # today's speakers in order
        self._put_up: dict[int, int] = {}  # today's thumbs to put each seat up, in order
        self._thumbs: set[int] = set()  # the thumbs of the put-up window open now
        self._raised: list[int] = []  # the hands held up for 30 s more
        self._events: list[ev.Event] = []
        self._flow: Flow = self._game()
        self.expect: Expect = w.Over()
        self._serials = 0  # the waits so far: the next one's serial
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
    def victims(self) -> tuple[int, ...]:
        """The night's victims so far (shown to the doctor), each once, in the night's order."""
        return self._living_victims()

    @property
    def spoken(self) -> frozenset[int]:
        """The seats that have spoken today, when speeches go by raised hands."""
        return frozenset(self._spoken)

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
        if self.expect.serial != self.step:
            self.step = self.expect.serial
            self.step_start = len(self.history)
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

    # -- the presses of the step the game waits at (what every front end shows) ---------

    @property
    def step_hands(self) -> frozenset[int]:
        """The seats whose hand is in: this voting round's (2.4: one hand a round, a second
        is ignored) or the car crash's (2.4.2); empty at any other step."""
        exp = self.expect
        if isinstance(exp, w.Vote):
            return frozenset(self._voted)
        return frozenset(self._crash_hands) if isinstance(exp, w.Crash) else frozenset()

    @property
    def hunt_shots(self) -> dict[int, tuple[int, ...]]:
        """This hunt's shots by shooter (2.1.2), each shooter's targets in order; empty at any
        other step. Secret: for the shooters' own pads and the host."""
        if not isinstance(self.expect, w.Hunt):
            return {}
        return {s: tuple(sorted(t)) for s, t in self._shots.items()}

    @property
    def step_thumbs(self) -> frozenset[int]:
        """The seats whose thumb is in, in the put-up window open now; empty otherwise."""
        return frozenset(self._thumbs) if isinstance(self.expect, w.PutUp) else frozenset()

    @property
    def raised_hands(self) -> tuple[int, ...]:
        """The seats holding a hand up for 30 s more, in order, in the window open now."""
        return tuple(self._raised) if isinstance(self.expect, w.Extra) else ()

    def public_out(self) -> dict[int, str]:
        """The seats out as the table knows it, and how: a night's victim only from the day
        that announces it (2.1.2), and as "shot" — the morning names the victims, not who killed
        them (the mafia, the maniac, the sheriff's shot). Every screen the table sees shows
        this; who killed is the host's."""
        days = {d.number for d in self.days}
        night_kills = set(self.rules.kill_how.values())
        out: dict[int, str] = {}
        for seat, info in self.out.items():
            how = str(info["how"])
            if how in night_kills:
                if self.winner is None and info.get("night") not in days:
                    continue
                how = "shot"
            out[seat] = how
        return out

    def table_copy(self) -> Game:
        """A new game at this table — the ruleset with its figures, the seats, the cards,
        what else was dealt, the names — not started."""
        return Game(self.rules, seats=self.seats, roles=dict(self.roles), names=dict(self.names),
                    dealt=dict(self.dealt))

    def _note_act(self, role: str, act: Literal["check", "kill", "save"], target: int, *,
                  result: bool | None = None, saved: int | None = None) -> None:
        self.night_acts.append(NightAct(self.step, self.nights[-1]["night"], role, act, target,
                                        result, saved))

    def acted(self, role: str) -> NightAct | None:
        """What ``role`` did at the step the game waits at (None: nothing yet)."""
        for act in reversed(self.night_acts):
            if act.step != self.step:
                return None
            if act.role == role:
                return act
        return None

    def refusal(self, action: Action) -> str | None:
        """Why the rules refuse ``action`` at the step the game waits at — the reason code its
        :class:`~narrator.engine.events.Refused` event would carry — or None when the game
        takes it. For one seat's input of a step (a hand, a thumb, a raised hand, a check or a
        night act); every front end asks here instead of keeping its own copy of the rule."""
        exp = self.expect
        if isinstance(action, Check) and isinstance(exp, w.NightAct) and exp.checks:
            if self._checked(action.role):
                return "already_checked"
            return self.check_refusal(action)
        if isinstance(action, _NIGHT_ACTS) and isinstance(exp, w.NightAct):
            if self._acted:
                return "already_acted"
            if isinstance(action, Kill) and action.target in self.out:
                return "target_out"
            if isinstance(action, Check):
                return self.check_refusal(action)
            if isinstance(action, Save):
                return self.rules.save(action.target, self._living_victims(),
                                       frozenset(self.saved_seats))[1]
            return None
        if isinstance(action, Hands) and isinstance(exp, w.Vote | w.Crash):
            taken = self._voted if isinstance(exp, w.Vote) else self._crash_hands
            return "already_voted" if any(s in taken for s in action.seats) else None
        if isinstance(action, PutUp) and isinstance(exp, w.PutUp):
            reason = self.accusation_refusal(exp.seat, action.target)
            if reason is not None:
                return reason
            return "already_voted" if any(s in self._thumbs for s in action.seats) else None
        if isinstance(action, Extra) and isinstance(exp, w.Extra):
            return "already_raised" if any(s in self._raised for s in action.seats) else None
        return None

    def check_refusal(self, action: Check) -> str | None:
        """Why the ruleset refuses the seat ``action`` checks (e.g. amateur's commissar: not
        himself, not a seat the table knows is out); None when any seat may be checked."""
        return self.rules.check_refusal(self.seat_of(Role(action.role)), action.target,
                                        self.public_out())

    def accusation_refusal(self, speaker: int, target: int) -> str | None:
        """Why ``speaker`` may not accuse ``target`` for the thumbs after his speech (amateur;
        the text is silent): not himself (``own_seat``), not a seat out (``target_out``)."""
        if target == speaker:
            return "own_seat"
        if target in self.out:
            return "target_out"
        return None

    def _checked(self, role: str) -> bool:
        """``role`` has checked in this step (2.1.3: one check a night)."""
        done = self.acted(role)
        return done is not None and done.act == "check"

    def counted_seats(self, count: int) -> tuple[int, ...]:
        """The seats a count of hands stands for where the game counts hands by seat (the car
        crash, 2.4.2; the thumbs that put a seat up): the first ``count`` seats in the game —
        who they are does not matter, only how many. IllegalActionError when fewer play."""
        living = self.living
        if not 0 <= count <= len(living):
            raise IllegalActionError(f"a count of {count}: only {len(living)} players are at "
                                     f"the table")
        return tuple(living[:count])

    def at_table(self, seat: int) -> bool:
        """Still at the table: in the game, or out but not yet past the last word (1.4) — a
        seat shot in the hunt sits at the table until the day (2.1.2)."""
        return self.is_alive(seat) or (seat in self._last_word_due and self.winner is None)

    def check(self, action: Action) -> None:
        """Raise InvalidActionError / IllegalActionError unless ``apply(action)`` would take it."""
        exp = self.expect
        if isinstance(exp, w.Speech) and isinstance(action, _SPOKEN):
            return  # the common case first: the engine checks targets itself (refusals)
        if isinstance(exp, w.Over):
            raise self._illegal(action, "the game is over")
        # each kind of action has its own check (by exact type: one look-up, not a chain)
        checker = _CHECKS.get(type(action))
        if checker is None:
            raise InvalidActionError(f"unknown action {action!r}")
        checker(self, action, exp)

    def _check_aside(self, action: Foul | Remove, exp: Expect) -> None:
        self._check_seat(action.seat, action)
        # 1.4: a foul counts while the player is at the table, last word included; a
        # removal has nothing to take from a seat that is out already
        if action.seat in self.out and not (isinstance(action, Foul)
                                            and action.seat in self._last_word_due):
            raise self._illegal(action, f"seat {action.seat} is out of the game")

    def _check_time_up(self, action: TimeUp, exp: Expect) -> None:
        if exp.timer is None or action.name != exp.timer.name:
            raise self._illegal(action, "no such timer is running")

    def _check_spoken(self, action: Action, exp: Expect) -> None:
        raise self._illegal(action, "nobody is speaking")  # (in a speech: taken in check)

    def _check_hand_count(self, action: HandCount, exp: Expect) -> None:
        if not isinstance(exp, w.Vote):
            raise self._illegal(action, "no vote on a candidate is open")
        free = len(self.living) - len(self._voted) - self._anonymous
        if not 0 <= action.n <= free:
            raise self._illegal(action, f"only {free} seat(s) have not voted in this round")

    def _check_hands(self, action: Hands, exp: Expect) -> None:
        if not isinstance(exp, w.Vote | w.Crash):
            raise self._illegal(action, "no vote is open")
        for seat in action.seats:
            self._check_seat(seat, action)
            if seat in self.out:
                raise self._illegal(action, f"seat {seat} is out of the game and cannot vote")

    def _check_shot(self, action: Shot, exp: Expect) -> None:
        if not isinstance(exp, w.Hunt):
            raise self._illegal(action, "the mafia is not hunting")
        self._check_seat(action.shooter, action)
        self._check_seat(action.target, action)
        if action.shooter not in self.black:
            raise self._illegal(action, f"seat {action.shooter} is not mafia")
        if action.shooter in self.out:
            raise self._illegal(action, f"seat {action.shooter} is out of the game")

    def _check_night_act(self, action: Check | Kill | Save, exp: Expect) -> None:
        verb = _VERBS[type(action)]
        if not isinstance(exp, w.NightAct) or verb not in exp.acts or action.role != exp.role:
            raise self._illegal(action, f"it is not the {action.role}'s {verb}")
        self._check_seat(action.target, action)
        if not self.actor_alive(action.role):
            raise self._illegal(action, f"the {action.role} is out of the game")

    def _check_floor(self, action: Floor, exp: Expect) -> None:
        if not isinstance(exp, w.Floor):
            raise self._illegal(action, "nobody is asked to take the floor")
        self._check_seat(action.seat, action)
        if action.seat in self.out:
            raise self._illegal(action, f"seat {action.seat} is out of the game")
        if action.seat in self._spoken:
            raise self._illegal(action, f"seat {action.seat} has spoken today")

    def _check_thumbs(self, action: PutUp | Extra, exp: Expect) -> None:
        """The thumbs after a speech, or the hands held up through the discussion."""
        if not isinstance(exp, w.PutUp if isinstance(action, PutUp) else w.Extra):
            raise self._illegal(action, "it is not the time for it")
        if isinstance(action, PutUp):
            self._check_seat(action.target, action)
        for seat in action.seats:
            self._check_seat(seat, action)
            if seat in self.out:
                raise self._illegal(action, f"seat {seat} is out of the game")

    def _card_alive(self, role: Role) -> bool:
        return any(r is role and s not in self.out for s, r in self.roles.items())

    def actor_alive(self, role: str) -> bool:
        """Whether ``role`` (a card's name, or "mafia": any of the mafia's cards) is at the
        table. A seat killed this night still is (2.1.2: nobody knows the result until day):
        a checker shot in the hunt still checks."""
        if role == "mafia":
            return any(self.at_table(s) for s in self.black)
        try:
            seat = self.seat_of(Role(role))
        except ValueError:
            raise InvalidActionError(f"no role is called {role!r}") from None
        return seat is not None and self.at_table(seat)

    def _first_victim(self) -> int | None:
        """The seat shot in the first hunt (night 2), if it was a hit."""
        return self.nights[0]["shot"] if self.nights else None

    def _check_best_move(self, action: BestMove, exp: Expect) -> None:
        if not self.rules.best_move:
            raise self._illegal(action, "the best_move option is off")
        victim = self._first_victim()
        if not (isinstance(exp, w.Speech) and exp.speech == "last" and self.phase == "d2"
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
        over = w.Over(serial=self._serials)
        while True:
            yield over

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
        self._serials = expect.serial + 1  # (each wait is made with the next serial)
        while True:
            action = yield expect
            if isinstance(action, Foul):
                if not self._foul(action.seat):
                    continue
                action = Remove(action.seat)  # sport fouls: the 4th removes by itself (2.4.3)
            if isinstance(action, Remove):
                self._remove(action.seat)
                expect = self._reseat(expect)
            if take(action, expect):
                return action

    def _reseat(self, expect: Expect) -> Expect:
        """``expect`` with the seats whose answer it takes now, and whether the table waits for
        a human's answer, as the table stands (a wait is made, and a removal changes them)."""
        living = tuple(self.living)
        match expect:
            case w.Hunt():
                return replace(expect, seats=self._black_at_table())
            case w.NightAct(role=role):
                seats = self._actors(role)
                return replace(expect, seats=seats, waits_for_human=bool(seats))
            case w.Floor():
                return replace(expect, seats=tuple(s for s in living if s not in self._spoken))
            case w.Vote() | w.Crash() | w.PutUp() | w.Extra():
                return replace(expect, seats=living)
            case w.Pause() | w.Deal() | w.Speech() | w.Over():
                return expect
            case _:
                assert_never(expect)

    def _black_at_table(self) -> tuple[int, ...]:
        """The mafia in the game, in seat order: the hunt's shooters (2.1.2)."""
        return tuple(s for s in self.living if s in self.black)

    def _actors(self, role: str) -> tuple[int, ...]:
        """The seats that act for ``role`` at night: a seat shot tonight still does (2.1.2); a
        check by a checker out of the game is not waited for (its time runs out in full)."""
        if role == "mafia":
            return tuple(s for s in sorted(self.black) if self.at_table(s))
        seat = self.seat_of(Role(role))
        return (seat,) if seat is not None and self.at_table(seat) else ()

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
        if timer.name == "dealing":  # 2.1.1: every seat sees its card
            deal = w.Deal(timer, tuple(range(1, self.seats + 1)), False, self._serials)
            return self._wait(deal, _is_time_up)
        return self._wait(w.Pause(timer, (), False, self._serials), _is_time_up)

    def _phase(self, name: str, number: int) -> None:
        self._events.append(ev.PhaseStarted(name, number))

    def _first_night(self) -> Flow:
        """2.1.1: the ruleset's first night, step by step (crime-time: cards, the don noted,
        the mafia's agreement, the sheriff noted); no hunt, no checks. A step named after
        something dealt besides the cards (the maniac's side) announces it."""
        r = self.rules
        for step in r.first_night:
            self._phase(step, 1)
            if step in self.dealt:
                self._events.append(ev.Declared(step, self.dealt[step]))
            timer = r.first_night_timer(step, self.seats)
            if timer is not None:
                yield from self._timer(timer)

    def _night(self, n: int) -> Flow:
        """A night after the first: the ruleset's steps (crime-time 2.1: the hunt, 2.1.2, then
        the don's and the sheriff's checks, 2.1.3)."""
        self.phase = f"n{n}"
        self.nominations = []
        steps = self.rules.night_steps(n, self._card_alive)
        template = self._templates.get(id(steps))
        if template is None or template[0] is not steps:
            keys = {"night": None}
            for step in steps:
                keys.update(dict.fromkeys(self._record_keys(step)))
            template = self._templates[id(steps)] = (steps, keys)
        record: dict[str, Any] = dict(template[1])
        record["night"] = n
        self.nights.append(record)
        self._victims = []
        self._night_saved = set()
        self._phase("night", n)
        for step in steps:
            if isinstance(step, Wake):
                if step.acts == ("check",):
                    yield from self._check_step(n, step)
                else:
                    yield from self._wake(n, step)
            elif isinstance(step, Hunt):
                yield from self._hunt(n)
                self._hunted(n)
            elif isinstance(step, Announce):
                self._phase(step.phase, n)
            else:
                self._resolve(n)

    def _record_keys(self, step: NightStep) -> tuple[str, ...]:
        """The keys a step writes into the night's record (the protocol's ``nights``)."""
        if isinstance(step, Hunt):
            return ("shot",)
        if not isinstance(step, Wake):
            return ()
        keys = {"check": f"{step.role}_check", "save": f"{step.role}_save",
                "kill": self.rules.kill_how.get(step.role, f"{step.role}_kill")}
        return tuple(keys[act] for act in step.acts)

    def _hunt(self, n: int) -> Flow:
        """2.1.2: the count (then :meth:`_hunted`)."""
        r = self.rules
        self._phase("hunt", n)
        hunt = Timer("hunt", r.count_pace * self.seats, tick=r.count_pace)
        self._events.append(ev.TimerStarted(hunt))
        self._shots = {}
        return self._wait(w.Hunt(hunt, self._black_at_table(), True, self._serials),
                          self._take_shot)

    def _hunted(self, n: int) -> None:
        """2.1.2: the hunt's victim, known to the host only until day."""
        r = self.rules
        black = [s for s in self.living if s in self.black]
        target = r.hunt_target(black, self._shots, set(self.living))
        self.nights[-1]["shot"] = target
        self._events.append(ev.ShotsResolved(n, target))
        if target is not None:
            self._victims.append((target, r.kill_how["mafia"]))

    def _take_shot(self, action: Action, expect: w.Hunt) -> bool:
        if isinstance(action, Shot):
            if action.shooter not in self.out:  # not removed during the count
                self._shots.setdefault(action.shooter, set()).add(action.target)
            return False
        return isinstance(action, TimeUp)

    def _check_step(self, n: int, step: Wake) -> Flow:
        """2.1.3: the checker points at a seat (living or not) and the host's nod answers; the
        time runs out in full, whether or not the checker is still at the table."""
        self._phase(step.phase, n)
        timer = Timer(step.phase, step.seconds)
        self._events.append(ev.TimerStarted(timer))
        seats = self._actors(step.role)
        act = w.NightAct(timer, seats, bool(seats), self._serials, step.role, step.acts)
        return self._wait(act, self._take_check)

    def _take_check(self, action: Action, expect: w.NightAct) -> bool:
        if isinstance(action, Check):
            reason = self.refusal(action)
            if reason is not None:
                self._refuse(None, "check", action.target, reason)
                return False
            result = self.rules.check_answer(Role(action.role), self.roles[action.target])
            self.nights[-1][f"{action.role}_check"] = {"target": action.target,
                                                       "result": result}
            self._note_act(action.role, "check", action.target, result=result)
            self._events.append(ev.Checked(action.role, action.target, result))
            return False
        return isinstance(action, TimeUp)

    def _wake(self, n: int, step: Wake) -> Flow:
        """A role wakes for a kill, a save, or a check or a kill; its time runs out in full."""
        self._phase(step.phase, n)
        if "save" in step.acts and self.rules.shows_victims:
            self._events.append(ev.Victims(len(self._living_victims())))
        timer = Timer(step.phase, step.seconds)
        self._events.append(ev.TimerStarted(timer))
        self._acted = False
        seats = self._actors(step.role)
        act = w.NightAct(timer, seats, bool(seats), self._serials, step.role, step.acts)
        yield from self._wait(act, self._take_act)
        if not self._acted and step.acts[0] == "kill":
            self._events.append(ev.Missed(step.role))

    def _living_victims(self) -> tuple[int, ...]:
        """The night's victims so far, each once, in the night's order."""
        seen: dict[int, None] = {}
        for seat, _ in self._victims:
            if seat not in self.out:
                seen.setdefault(seat, None)
        return tuple(seen)

    def _take_act(self, action: Action, expect: w.NightAct) -> bool:
        if not isinstance(action, _NIGHT_ACTS):
            return isinstance(action, TimeUp)
        verb = _VERBS[type(action)]
        if self._acted or (isinstance(action, Kill) and action.target in self.out):
            self._refuse(None, verb, action.target, self.refusal(action) or "already_acted")
            return False
        refusal = self.check_refusal(action) if isinstance(action, Check) else None
        if refusal is not None:
            self._refuse(None, verb, action.target, refusal)
            return False
        record = self.nights[-1]
        if isinstance(action, Check):
            result = self.rules.check_answer(Role(action.role), self.roles[action.target])
            record[f"{action.role}_check"] = {"target": action.target, "result": result}
            self._note_act(action.role, "check", action.target, result=result)
            self._events.append(ev.Checked(action.role, action.target, result))
        elif isinstance(action, Kill):
            how = self.rules.kill_how.get(action.role, f"{action.role}_kill")
            record[how] = action.target
            self._victims.append((action.target, how))
            self._note_act(action.role, "kill", action.target)
            self._events.append(ev.Acted(action.role, verb, action.target))
        else:
            saved, reason = self.rules.save(action.target, self._living_victims(),
                                            frozenset(self.saved_seats))
            if reason is not None:
                self._refuse(None, verb, action.target, reason)
                return False
            record[f"{action.role}_save"] = {"target": action.target, "saved": saved}
            self._note_act(action.role, "save", action.target, saved=saved)
            if saved is not None:
                self._night_saved.add(saved)
                self.saved_seats.add(saved)
            self._events.append(ev.Saved(action.role, action.target, saved))
        self._acted = True
        return False

    def _resolve(self, n: int) -> None:
        """The night's victims but the saved leave the table; if that decides the game, the day
        breaks only to say so."""
        if not self._victims:  # nobody left the table: nothing is decided
            self._last_victims = ()
            self._last_saved = False
            return
        order = self._living_victims()
        how_of: dict[int, str] = {}
        for seat, how in self._victims:  # a seat killed twice: the first kill's
            how_of.setdefault(seat, how)
        victims = tuple(seat for seat in order if seat not in self._night_saved)
        for seat in victims:
            self._put_out(seat, how_of[seat], check_win=False)
        self._last_victims = victims
        self._last_saved = bool(self._night_saved & set(order))
        if self._winner() is not None:
            self._phase("day", n)
            self._report(n)
            self._check_win()

    def _report(self, n: int) -> None:
        """2.2: the night's result: each victim (their card shown where the ruleset shows
        it), or a night with none."""
        r = self.rules
        if r.morning_phase is not None:
            self._phase(r.morning_phase, n)
        if not self._last_victims:
            self._events.append(ev.NightResult(n, None, self._last_saved))
        for seat in self._last_victims:
            self._events.append(ev.NightResult(n, seat))
            if r.reveal_cards:
                self._events.append(ev.CardShown(seat, self.roles[seat].value))
        if self.winner is None and self._winner() is None:
            self._plays_on()

    # -- the day -------------------------------------------------------------------------------

    def _day(self, n: int) -> Flow:
        self.phase = f"d{n}"
        self._previous_opener = self.days[-1].opened_by if self.days else None
        day = _Day(n, None)
        self.days.append(day)
        self._phase("day", n)
        if self.nights and self.nights[-1]["night"] == n:
            self._report(n)
            for seat in self._last_victims:
                if self._has_last_word(seat):
                    if self.rules.best_move and n == 2:
                        self._events.append(ev.BestMoveAsked(seat))
                    yield from self._speech(seat, "last")
        for step in self.rules.day_steps(n):
            if isinstance(step, Speeches):
                if step.order == "circle":
                    # 2.3, inline: the discussion is the hot path of a game
                    order = self._circle_from(
                        self.rules.day_opener(n, self._previous_opener, self.seats))
                    if day.opened_by is None:
                        day.opened_by = order[0] if order else None
                    self._order = order
                    self.nominations = []
                    if step.announce:
                        self._events.append(ev.SpeechesBegin(step.kind, day.opened_by))
                    for seat in order:
                        if seat in self.out:  # removed during the discussion
                            continue
                        if seat in self._muted:  # sport fouls: the 3rd foul costs this speech
                            self._muted.discard(seat)
                            self._events.append(ev.SpeechSkipped(seat))
                            continue
                        yield from self._speech(seat, step.kind)
                        if step.put_up:
                            yield from self._put_up_window(seat)
                else:
                    yield from self._floor_round(n, day, step)
                day.nominations = list(self.candidates)
            elif isinstance(step, Vote):
                yield from self._voting(n, day, step)
            elif isinstance(step, ExtraStep):
                yield from self._extra(day)
            else:
                self._phase(step.phase, n)

    def _has_last_word(self, seat: int) -> bool:
        how = self.out[seat]["how"]
        return self.rules.last_word(self.roles[seat], self._team(seat), how)

    def _team(self, seat: int) -> Team:
        return Team.BLACK if seat in self.side_black else Team.RED

    def _circle_from(self, start: int) -> list[int]:
        seats = [(start - 1 + i) % self.seats + 1 for i in range(self.seats)]
        return [s for s in seats if s not in self.out]

    def _floor_round(self, n: int, day: _Day, step: Speeches) -> Flow:
        """Speeches in raised-hand order: whoever the host sees first, each living seat once;
        when nobody is named in time, the first seat (in seat order) yet to speak."""
        self._spoken = set()
        self._order = []
        self.nominations = []
        self._put_up = {}
        if step.announce:
            self._events.append(ev.SpeechesBegin(step.kind, None))
        while True:
            waiting = [s for s in self.living if s not in self._spoken]
            if not waiting:
                break
            timer = Timer("floor", self.rules.floor_seconds)
            self._events.append(ev.TimerStarted(timer))
            floor = w.Floor(timer, tuple(waiting), True, self._serials)
            ended = yield from self._wait(floor, _is_floor_or_time_up)
            if isinstance(ended, Floor):
                seat = ended.seat
            else:
                waiting = [s for s in self.living if s not in self._spoken]
                if not waiting:
                    break
                seat = waiting[0]
            self._spoken.add(seat)
            self._order.append(seat)
            if day.opened_by is None:
                day.opened_by = seat
            yield from self._speech(seat, step.kind)
            if step.put_up and seat not in self.out:
                yield from self._put_up_window(seat)
        self._spoken = set()

    def _put_up_window(self, speaker: int) -> Flow:
        """After ``speaker``'s speech: thumbs for putting the one accused up for the vote; a
        seat may give them after any number of speeches, once a window."""
        timer = Timer("put_up", self.rules.put_up_seconds)
        self._events.append(ev.TimerStarted(timer))
        self._thumbs = set()
        put_up = w.PutUp(timer, tuple(self.living), True, self._serials, speaker)
        return self._wait(put_up, self._take_put_up)

    def _take_put_up(self, action: Action, expect: w.PutUp) -> bool:
        if isinstance(action, PutUp):
            target = action.target
            refusal = self.accusation_refusal(expect.seat, target)
            if refusal is not None:
                self._refuse(expect.seat, "put_up", target, refusal)
                return False
            thumbs = 0
            for seat in action.seats:
                if seat in self._thumbs:
                    self._refuse(seat, "put_up", target, "already_voted")
                    continue
                self._thumbs.add(seat)
                thumbs += 1
            if thumbs:
                if target not in self._put_up:
                    self.nominations.append((expect.seat, target))
                self._put_up[target] = self._put_up.get(target, 0) + thumbs
                self.days[-1].extra["put_up"] = {str(s): c for s, c in self._put_up.items()}
                self._events.append(ev.PutUpCounted(target, thumbs, self._put_up[target]))
            return False
        return isinstance(action, TimeUp)

    def _extra(self, day: _Day) -> Flow:
        """After the discussion, the seats that held a hand up through it speak 30 s more, in
        the discussion's order."""
        timer = Timer("extra", self.rules.extra_window_seconds)
        self._events.append(ev.TimerStarted(timer))
        self._raised = []
        extra = w.Extra(timer, tuple(self.living), True, self._serials)
        yield from self._wait(extra, self._take_extra)
        raised = set(self._raised)
        order = [s for s in self._order if s in raised]
        if order:
            day.extra["extra"] = order
        for seat in order:
            if seat not in self.out:
                yield from self._speech(seat, "extra")

    def _take_extra(self, action: Action, expect: w.Extra) -> bool:
        if isinstance(action, Extra):
            self._raised.extend(s for s in action.seats if s not in self._raised)
            return False
        return isinstance(action, TimeUp)

    def _speech(self, seat: int, kind: SpeechKind) -> Flow:
        seconds, warning = self._speech_lengths[kind]
        timer = Timer("speech", seconds, warning)
        if kind == "justify":
            self.justified.add(seat)
            self.days[-1].extra.setdefault("justified", []).append(seat)
        self._events.append(ev.SpeechStarted(seat, kind))
        self._events.append(ev.TimerStarted(timer))
        self._standing = None
        return self._wait(w.Speech(timer, (seat,), False, self._serials, seat, kind),
                          self._take_speech)

    def _take_speech(self, action: Action, expect: w.Speech) -> bool:
        seat = expect.seat
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
            elif not self.rules.nominations:
                self._refuse(seat, "withdraw", action.target, "no_nominations")
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
        if not self.rules.nominations:
            return "no_nominations"  # the ruleset votes otherwise
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

    def _voting(self, n: int, day: _Day, step: Vote) -> Flow:
        r = self.rules
        if not r.vote_held(n):
            # the club's first day without a vote: said even with nobody nominated; a removal
            # today stays pending, as 2.4.3's vote "not yet completed" is the next day's
            self._events.append(ev.VotingCancelled("first_day"))
            return
        candidates = r.ballot(n, tuple(self.living),
                              tuple(c for c in self.candidates if c not in self.out),
                              self._put_up)
        if self._removal_pending:
            self._removal_pending = False
            self._events.append(ev.VotingCancelled("monster"))  # 2.4.3
            return
        if not candidates:
            self._events.append(ev.VotingCancelled("no_candidates"))
            return
        reason = r.no_vote(n, candidates)  # 2.2.1
        if reason is not None:
            self._events.append(ev.VotingCancelled(reason))
            return
        if len(candidates) == 1 and self.rules.lone_candidate_leaves(n):
            self._events.append(ev.Unopposed(candidates[0]))
            self._put_out(candidates[0], "vote")
            if self._has_last_word(candidates[0]):
                yield from self._speech(candidates[0], "last")
            return
        if step.justify:
            for seat in candidates:
                if seat not in self.out:
                    yield from self._speech(seat, "justify")
            candidates = tuple(c for c in candidates if c not in self.out)
        rnd = 1
        rounds: list[dict[int, int]] = []
        while candidates:
            counts = yield from self._round(rnd, candidates, day)
            if counts is None:
                return
            verdict = r.verdict(VoteState(n, rnd, candidates, counts, rounds, self.justified,
                                          len(self.living)))
            rounds.append(counts)
            if verdict.out:
                for seat in verdict.out:
                    self._put_out(seat, "vote")
                for seat in verdict.out:
                    if self._has_last_word(seat):
                        yield from self._speech(seat, "last")
                return
            if verdict.crash:
                yield from self._crash(verdict.crash, day)
                return
            if verdict.tie_stays:
                self._events.append(ev.TieStays(verdict.tie_stays))
                return
            if verdict.stays:
                self._events.append(ev.Stays(verdict.stays, verdict.why))
                for seat in verdict.speak:  # the first day's single leader: a speech, then night
                    if seat not in self.out:
                        yield from self._speech(seat, verdict.speech)
                return
            if verdict.tie:
                # 2.4.1: the tied speak 30 s in nomination order, then vote again among them
                self._events.append(ev.Tie(verdict.tie))
            for seat in verdict.speak:
                if seat not in self.out:
                    yield from self._speech(seat, verdict.speech)
            if self._removal_pending:
                self._removal_pending = False
                self._events.append(ev.VotingCancelled("monster"))
                return
            candidates = tuple(c for c in verdict.revote if c not in self.out)
            rnd += 1

    def _round(self, rnd: int, candidates: tuple[int, ...], day: _Day) -> Flow:
        """One round of 2.4; returns the counts, or None when 2.4.3 cancelled the vote."""
        self._events.append(ev.VotingStarted(rnd, candidates))
        self._voted = set()
        self._anonymous = 0
        self._round_candidates = candidates
        self._round_counts = dict.fromkeys(candidates, 0)
        last = len(candidates) - 1
        to_last = self.rules.abstainers_to_last(rnd, candidates)
        for i, cand in enumerate(candidates):
            ended = yield from self._window(cand)
            if isinstance(ended, Remove):
                self._removal_pending = False
                self._events.append(ev.VotingCancelled("monster"))
                return None
            if i == last and to_last:  # 2.4: abstainers count for the last candidate
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
        vote = w.Vote(window, tuple(self.living), True, self._serials, cand)
        return self._wait(vote, self._take_hands)

    def _take_hands(self, action: Action, expect: w.Vote) -> bool:
        cand = expect.candidate
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
        crash = w.Crash(window, tuple(self.living), True, self._serials)
        ended = yield from self._wait(crash, self._take_crash_hands)
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
            if self._has_last_word(seat):
                yield from self._speech(seat, "last")

    def _take_crash_hands(self, action: Action, expect: w.Crash) -> bool:
        if isinstance(action, Hands):
            self._crash_hands.update(action.seats)
            return False
        if isinstance(action, Remove):
            return self._removal_pending  # 2.4.3: the car crash is a vote too
        return isinstance(action, TimeUp)

    # -- leaving the table --------------------------------------------------------------------

    def _put_out(self, seat: int, how: str, *, check_win: bool = True) -> None:
        kind, number = self.phase[0], int(self.phase[1:])
        self.out[seat] = {"how": how, ("night" if kind == "n" else "day"): number}
        if how != "removed" and self.rules.last_word(self.roles[seat], self._team(seat), how):
            self._last_word_due.add(seat)  # at the table until the last word ends (1.4)
        self._living = None
        if kind == "d":
            self.days[-1].out.append(seat)
        self._events.append(ev.SeatOut(seat, how))
        if self.rules.reveal_cards and how not in self.rules.kill_how.values():
            # a night's victim shows the card with the night's result
            self._events.append(ev.CardShown(seat, self.roles[seat].value))
        if check_win:
            self._check_win()

    def _remove(self, seat: int) -> None:
        """2.4.3: removal for a violation; cancels the vote not yet completed."""
        self.nominations = [(a, t) for a, t in self.nominations if t != seat]
        if self._standing == seat:  # the speaker's nomination no longer stands (2.3)
            self._standing = None
        if self.rules.monster_rule:
            self._removal_pending = True
        self._put_out(seat, "removed")

    def _sides(self) -> tuple[int, int]:
        """The seats at the table playing for the mafia, and for the city."""
        living = self.living
        black = sum(1 for s in living if s in self.side_black)
        return black, len(living) - black

    def _winner(self) -> Team | None:
        return self.rules.winner(*self._sides())

    def _check_win(self) -> None:
        winner = self._winner()
        if winner is not None:
            self.winner = winner
            self._events.append(ev.GameOver(winner.value, self.rules.why_won(winner,
                                                                             *self._sides())))
            raise _GameOver
        self._plays_on()

    def _plays_on(self) -> None:
        """Said once, when the last of the mafia's cards has left and a seat playing for the
        mafia (the maniac) is still at the table."""
        if (not self._played_on and self.side_black != self.black
                and not any(s not in self.out for s in self.black)):
            self._played_on = True
            self._events.append(ev.PlaysOn())

    # -- views ---------------------------------------------------------------------------------

    def notation(self, *, secret: bool = True) -> str:
        """One line of state for tests and messages, e.g.
        ``crime-time d2:speech@4 SCCDcMCCCM noms=5,7``: phase, then one letter per seat
        (C civilian, S sheriff, M mafia, D don, H doctor, X maniac, K commissar, N nurse; lower
        case when out), then the candidates.

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
        match e:
            case w.Over():
                phase = f"over:{self.winner.value}" if self.winner else "over"
            case w.Speech(seat=seat, speech=speech):
                phase = f"{self.phase}:{speech}@{seat}"
            case w.Vote(candidate=cand):
                phase = f"{self.phase}:vote@{cand}"
            case w.Crash():
                phase = f"{self.phase}:crash"
            case w.NightAct(role=role) if e.checks:
                phase = f"{self.phase}:check-{role}"
            case w.PutUp(seat=seat):
                phase = f"{self.phase}:put_up@{seat}"
            case _:
                phase = f"{self.phase}:{e.timer.name if e.timer else e.tag}"
        noms = ",".join(map(str, self.candidates)) or "-"
        return f"{self.rules.name} {phase} {seats} noms={noms}"

    def protocol(self) -> dict[str, Any]:
        """The protocol (docs/protocol.md), without ``said`` (the host adds what it spoke)."""
        out: dict[str, Any] = {
            "rules": self.rules.name,
            "winner": self.winner.value if self.winner else None,
            "seats": {str(s): self._seat_record(s) for s in range(1, self.seats + 1)},
            **({"best_move": self.best_move} if self.rules.best_move else {}),
            "days": [d.to_json() for d in self.days],
            "nights": [dict(n) for n in self.nights],
            "refused": list(self.refused),
        }
        out.update(self.dealt)  # what was dealt besides the cards (the maniac's side)
        return out

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


#: each action's check, by its exact type (see :meth:`Game.check`)
_CHECKS: dict[type, Callable[[Game, Any, Expect], None]] = {
    Foul: Game._check_aside, Remove: Game._check_aside,
    TimeUp: Game._check_time_up,
    **dict.fromkeys(_SPOKEN, Game._check_spoken),
    HandCount: Game._check_hand_count,
    Hands: Game._check_hands,
    Shot: Game._check_shot,
    **dict.fromkeys(_NIGHT_ACTS, Game._check_night_act),
    Floor: Game._check_floor,
    PutUp: Game._check_thumbs, Extra: Game._check_thumbs,
    BestMove: Game._check_best_move,
}
