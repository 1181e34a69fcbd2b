"""The game: a pure state machine over the rules. No I/O, no clock, no global state.

``Game.apply(action)`` validates the action against what the game is waiting for
(:attr:`Game.expect`, :mod:`~narrator.engine.checks`), feeds it to the flow
(:mod:`~narrator.engine.flow`) and returns the events it caused. The flow is a generator
that reads like the rule text: it yields what it waits for and receives actions, on the
game's :class:`~narrator.engine.state.State`; the record of what happened is
:mod:`~narrator.engine.record`'s. Undo (:meth:`Game.pop`) replays the history from the deal
on a new state, as python-chess does with its move stack; the engine is cheap enough for that.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any, get_args

from narrator.engine import checks
from narrator.engine import events as ev
from narrator.engine import waits as w
from narrator.engine.actions import Action, Check, Mark
from narrator.engine.errors import IllegalActionError, InvalidActionError
from narrator.engine.flow import play
from narrator.engine.record import (
    BestMoveRecord,
    DayRecord,
    Departure,
    NightRecord,
    OnRecordRecord,
    Refusal,
    RoleAct,
    notation,
    protocol,
)
from narrator.engine.rules import Rules, find_rules
from narrator.engine.state import State
from narrator.engine.types import Actor, Exit, Phase, Role, SpeechKind, Team
from narrator.engine.waits import Expect
from narrator.reasons import Reason

__all__ = ["Expect", "Game", "SpeechKind"]

_LENGTHS: dict[type[Rules], dict[SpeechKind, tuple[float, float | None]]] = {}


def _speech_lengths(rules: Rules) -> dict[SpeechKind, tuple[float, float | None]]:
    """Each kind of speech's length and warning under ``rules`` (asked once per ruleset: a
    speech is the hot path)."""
    lengths = _LENGTHS.get(type(rules))
    if lengths is None:
        lengths = _LENGTHS[type(rules)] = {
            kind: rules.speech_timer(kind) for kind in get_args(SpeechKind)}
    return lengths


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
        #: what was dealt besides the cards (the maniac's side)
        self.dealt: dict[str, str] = self._deal_choices(dealt, rng)
        #: the mafia's cards: the seats that hunt (2.1.2)
        self.black = frozenset(s for s, r in roles.items() if r.team is Team.BLACK)
        #: the seats playing for the mafia (a maniac may): who counts as black for the end
        self.side_black = frozenset(
            s for s, r in roles.items() if self.rules.team(r, self.dealt) is Team.BLACK)
        for seat in names or {}:
            if not isinstance(seat, int) or not 1 <= seat <= self.seats:
                raise InvalidActionError(f"name: seat {seat!r} does not exist "
                                         f"(seats 1..{self.seats})")
        #: nicknames per seat (public: shown on screen, in the transcript and the protocol)
        self.names: dict[int, str] = dict(names or {})
        self.history: list[Action] = []
        self._reset()

    def _deal_choices(self, dealt: dict[str, str] | None,
                      rng: random.Random | None) -> dict[str, str]:
        """What the ruleset deals besides the cards: as given, the rest drawn from ``rng``."""
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
        return given

    def _reset(self) -> None:
        self._state = State(self.rules, self.seats, self.roles, self.dealt, self.black,
                            self.side_black, _speech_lengths(self.rules))
        self._flow = play(self._state)
        self.expect: Expect = w.Over()
        #: the serial number of the step the game waits at (0: the first), and the index in
        #: the history of the step's first action: a new step is a new timer (or the end)
        self.step = 0
        self.step_start = 0
        self.started = False

    # -- the state, as the front ends read it --------------------------------------------------

    @property
    def out(self) -> dict[int, Departure]:
        """The seats out of the game: how, and the night or day."""
        return self._state.out

    def how_out(self, seat: int) -> Exit | None:
        """How ``seat`` left the game (voted out, removed, a night's kill…); None: it is in."""
        left = self._state.out.get(seat)
        return left.how if left is not None else None

    @property
    def fouls(self) -> dict[int, int]:
        return self._state.fouls

    @property
    def tech_fouls(self) -> dict[int, int]:
        """9.6.2: the technical fouls by seat (the club option ``tech_fouls = "yes"``)."""
        return self._state.tech_fouls

    @property
    def refused(self) -> list[Refusal]:
        """Every refusal, in order (the protocol's ``refused``)."""
        return self._state.refused

    @property
    def days(self) -> list[DayRecord]:
        return self._state.days

    @property
    def nights(self) -> list[NightRecord]:
        """Each night's record after the first (the protocol's ``nights``)."""
        return self._state.nights

    @property
    def night_acts(self) -> list[RoleAct]:
        """Every night act the game took, in order (typed: no front end reads them back from
        the protocol's keys)."""
        return self._state.night_acts

    @property
    def best_move(self) -> BestMoveRecord | None:
        return self._state.best_move

    @property
    def marks(self) -> dict[int, Mark]:
        """The host's marks after the game (:mod:`~narrator.engine.marks`): seat → the seat's
        last :class:`~narrator.engine.actions.Mark`."""
        return self._state.marks

    @property
    def on_record(self) -> list[OnRecordRecord]:
        """The colours left on record (6.7), one record per speech that left any."""
        return self._state.on_record

    @property
    def winner(self) -> Team | None:
        return self._state.winner

    @property
    def phase(self) -> Phase:
        """The night or day in progress (``str()``: "n2", "d2")."""
        return self._state.phase

    @property
    def nominations(self) -> list[tuple[int, int]]:
        """The standing nominations, (nominator, target) in order."""
        return self._state.nominations

    @property
    def saved_seats(self) -> frozenset[int]:
        """Every seat saved so far (each at most once, where the ruleset says so)."""
        return self._state.saved_seats()

    @property
    def justified(self) -> frozenset[int]:
        """The seats that have used their justification."""
        return self._state.justified()

    @property
    def living(self) -> list[int]:
        """Seats still at the table, in seat order."""
        return self._state.living

    def team(self, seat: int) -> Team:
        """The side ``seat`` plays on (its card's team, or what was dealt: vrn's maniac may
        play for the mafia). Secret: for the seat's own pad and the host."""
        return self._state.team(seat)

    def check_says(self, role: Actor, result: bool) -> str:
        """What a check's answer means, for the checker's pad to word: ``"sheriff"`` or
        ``"not_sheriff"`` for the don (1.3.1), ``"black"`` or ``"red"`` for the sheriff
        (1.2.1) and every other checker."""
        finds = self.rules.check_finds(Actor(role).card)
        if finds == "sheriff":
            return "sheriff" if result else "not_sheriff"
        return "black" if result else "red"

    @property
    def standing(self) -> int | None:
        """The speaker's standing nomination in the speech in progress (2.3: one a speech)."""
        return self._state.presses.standing if isinstance(self.expect, w.Speech) else None

    @property
    def put_up(self) -> dict[int, int]:
        """Today's thumbs by seat put up, in order (a day by raised hands); empty at night."""
        s = self._state
        if s.winner is not None or not s.phase.is_day:
            return {}
        return dict(s.today.put_up)

    @property
    def declared(self) -> dict[str, str]:
        """What was dealt besides the cards, once the narrator has announced it (vrn: the
        maniac's side, at the end of the first night): public."""
        return {} if self._state.phase == Phase.night(1) else dict(self.dealt)

    def is_alive(self, seat: int) -> bool:
        return 1 <= seat <= self.seats and seat not in self._state.out

    def seat_of(self, role: Role) -> int | None:
        return self._state.seat_of(role)

    @property
    def candidates(self) -> tuple[int, ...]:
        """Standing candidates in order of first nomination (2.4)."""
        return self._state.candidates

    @property
    def victims(self) -> tuple[int, ...]:
        """The night's victims so far (shown to the doctor), each once, in the night's order."""
        return self._state.living_victims()

    @property
    def spoken(self) -> frozenset[int]:
        """The seats that have spoken today, when speeches go by raised hands."""
        return frozenset(self._state.today.spoken)

    @property
    def voting_candidates(self) -> tuple[int, ...]:
        """The candidates of the round being voted on (2.4)."""
        return self._state.round.candidates

    @property
    def is_over(self) -> bool:
        return self._state.winner is not None

    # -- driving -------------------------------------------------------------------------------

    def start(self) -> list[ev.Event]:
        """Begin the first night; returns its first events."""
        if self.started:
            raise IllegalActionError("the game has already started")
        self.started = True
        events: list[ev.Event] = []
        self._state.events = events  # the flow appends to it; the next input gets a new one
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
        checks.check(self._state, self.expect, action)
        if accepted is not None:
            accepted(action)
        self.history.append(action)
        events: list[ev.Event] = []
        self._state.events = events
        if isinstance(action, Mark):  # after the game: the flow is over and stays so
            return [self._mark(action)]
        self.expect = self._flow.send(action)
        if self.expect.serial != self.step:
            self.step = self.expect.serial
            self.step_start = len(self.history)
        return events

    def _mark(self, mark: Mark) -> ev.Marked:
        """A seat's later mark replaces its earlier one; an empty one takes it away."""
        if mark.empty:
            self._state.marks.pop(mark.seat, None)
        else:
            self._state.marks[mark.seat] = mark
        return ev.Marked(mark.seat, mark.points, mark.titles, mark.comment)

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

    def replay(self, actions: Iterable[Action]) -> list[ev.Event]:
        """Apply several actions; returns all their events."""
        out: list[ev.Event] = []
        for a in actions:
            out.extend(self.apply(a))
        return out

    def check(self, action: Action) -> None:
        """Raise InvalidActionError / IllegalActionError unless ``apply(action)`` would take it."""
        checks.check(self._state, self.expect, action)

    # -- the presses of the step the game waits at (what every front end shows) ---------------

    @property
    def step_hands(self) -> frozenset[int]:
        """The seats whose hand is in: this voting round's (2.4: one hand a round, a second
        is ignored) or the car crash's (2.4.2); empty at any other step."""
        exp = self.expect
        if isinstance(exp, w.Vote):
            return frozenset(self._state.round.voted)
        return frozenset(self._state.presses.hands) if isinstance(exp, w.Crash) else frozenset()

    @property
    def hunt_shots(self) -> dict[int, tuple[int, ...]]:
        """This hunt's shots by shooter (2.1.2), each shooter's targets in order; empty at any
        other step. Secret: for the shooters' own pads and the host."""
        if not isinstance(self.expect, w.Hunt):
            return {}
        return {s: tuple(sorted(t)) for s, t in self._state.presses.shots.items()}

    @property
    def step_thumbs(self) -> frozenset[int]:
        """The seats whose thumb is in, in the put-up window open now; empty otherwise."""
        if not isinstance(self.expect, w.PutUp):
            return frozenset()
        return frozenset(self._state.presses.thumbs)

    @property
    def raised_hands(self) -> tuple[int, ...]:
        """The seats holding a hand up for 30 s more, in order, in the window open now."""
        return tuple(self._state.presses.raised) if isinstance(self.expect, w.Extra) else ()

    def acted(self, role: Actor) -> RoleAct | None:
        """What ``role`` did at the step the game waits at (None: nothing yet)."""
        return checks.acted(self._state, self.step, role)

    # -- the rules' answers, for every front end ---------------------------------------------

    def refusal(self, action: Action) -> Reason | None:
        """Why the game does not take ``action`` now, or None when :meth:`apply` takes it
        without a refusal: for *every* action — one the step does not take at all (the reason
        :meth:`check` would raise with), and one the rules foresee and refuse in the protocol
        (the reason of its :class:`~narrator.engine.events.Refused` event: a nomination of a
        seat out, a second hand in a round, a second check). Every front end asks here
        instead of keeping its own copy of a rule."""
        return checks.refusal(self._state, self.expect, action)

    @property
    def asks_best_move(self) -> bool:
        """The club's best move is asked now (the first-night victim's last word, none named
        yet): a :class:`~narrator.engine.actions.BestMove` of three seats is taken."""
        return checks.best_move_due(self._state, self.expect)

    @property
    def takes_on_record(self) -> bool:
        """The speech in progress may leave colours on record (the club's ``on_record``,
        6.7): an :class:`~narrator.engine.actions.OnRecord` of its speaker is taken."""
        return checks.on_record_due(self._state, self.expect)

    def seats_taken(self, make: Callable[[int], Action]) -> list[int]:
        """The seats ``s`` whose ``make(s)`` the game takes now (a screen's grid: the seats a
        nomination, a foul, a raised hand… may name), in seat order."""
        return [s for s in range(1, self.seats + 1) if self.refusal(make(s)) is None]

    def check_refusal(self, action: Check) -> Reason | None:
        """Why the ruleset refuses the seat ``action`` checks (e.g. amateur's commissar: not
        himself, not a seat the table knows is out); None when any seat may be checked."""
        return checks.check_refusal(self._state, action)

    def accusation_refusal(self, speaker: int, target: int) -> Reason | None:
        """Why ``speaker`` may not accuse ``target`` for the thumbs after his speech (amateur;
        the text is silent): not himself (``own_seat``), not a seat out (``target_out``)."""
        return checks.accusation_refusal(self._state, speaker, target)

    def counted_seats(self, count: int) -> tuple[int, ...]:
        """The seats a count of hands stands for where the game counts hands by seat (the car
        crash, 2.4.2; the thumbs that put a seat up): the first ``count`` seats in the game —
        who they are does not matter, only how many. IllegalActionError when fewer play."""
        living = self.living
        if not 0 <= count <= len(living):
            raise IllegalActionError(f"a count of {count}: only {len(living)} players are at "
                                     f"the table", Reason.TOO_MANY)
        return tuple(living[:count])

    def at_table(self, seat: int) -> bool:
        """Still at the table: in the game, or out but not yet past the last word (1.4) — a
        seat shot in the hunt sits at the table until the day (2.1.2)."""
        return self._state.at_table(seat)

    def actor_alive(self, role: Actor) -> bool:
        """Whether ``role`` (a card, or the mafia: any of the mafia's cards) is at the
        table. A seat killed this night still is (2.1.2: nobody knows the result until day):
        a checker shot in the hunt still checks."""
        return checks.actor_alive(self._state, role)

    def public_out(self) -> dict[int, Exit]:
        """The seats out as the table knows it, and how: a night's victim only from the day
        that announces it (2.1.2), and as "shot" — the morning names the victims, not who killed
        them (the mafia, the maniac, the sheriff's shot). Every screen the table sees shows
        this; who killed is the host's."""
        return checks.public_out(self._state)

    def table_copy(self) -> Game:
        """A new game at this table — the ruleset with its figures, the seats, the cards,
        what else was dealt, the names — not started."""
        return Game(self.rules, seats=self.seats, roles=dict(self.roles), names=dict(self.names),
                    dealt=dict(self.dealt))

    # -- views ---------------------------------------------------------------------------------

    def notation(self, *, secret: bool = True) -> str:
        """One line of state for tests and messages (see :func:`~narrator.engine.record.
        notation`), e.g. ``crime-time d2:speech@4 SCCDcMCCCM noms=5,7``; ``secret=False`` is
        the public form, for everything shown to people (``crime-time d2:speech@4
        ++++-+++++``)."""
        return notation(self._state, self.expect, secret=secret)

    def protocol(self) -> dict[str, Any]:
        """The protocol (docs/protocol.md), without ``said`` (the host adds what it spoke)."""
        return protocol(self._state, self.names)
