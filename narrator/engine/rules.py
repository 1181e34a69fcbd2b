"""Rulesets: class-level settings and hook methods, found by name (python-chess's variants).

The game (:class:`~narrator.engine.game.Game`) runs one flow — nights, days, votes — and asks its
ruleset wherever the rule texts differ: who opens the day, when no vote is held, when a tie goes
to the car crash, what a night check answers, how many seats and which cards. A ruleset is a
subclass of :class:`Rules` overriding these settings and hooks; the game never branches on a
ruleset's name. Crime-time (the default) is here; every other is a module of
:mod:`narrator.engine.rulesets`, registered with :func:`register`. A ruleset also declares the
table-script lines it takes (:attr:`Rules.script_keys`, :attr:`Rules.night_keys`,
:attr:`Rules.header_keys`) and its own wording of the narrator's lines (:attr:`Rules.lines`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import ClassVar, Literal, TypeVar

from narrator.engine.errors import InvalidActionError
from narrator.engine.steps import (
    Announce,
    DayStep,
    HuntStep,
    NightStep,
    Resolve,
    Speeches,
    StepFigure,
    VoteStep,
    Wake,
)
from narrator.engine.types import Act, Actor, Exit, Role, SpeechKind, Team, Timer
from narrator.engine.verdict import Verdict, VoteState, first_day_verdict, no_crash
from narrator.errors import NarratorError
from narrator.reasons import Reason

#: the input lines of a table script that every ruleset of crime-time's shape takes
BASE_SCRIPT_KEYS = frozenset({
    "speech", "vote", "crash", "night", "foul", "remove", "best_move", "on_record", "mark"})


@dataclass(frozen=True, slots=True)
class NamedLength:
    """A voice line that names the length of its step in words («у вас тридцать секунд»):
    the ``figure`` it names, the ``seconds`` its words say, and the key said ``instead`` (the
    line without the length) when a club's figure is another."""

    figure: str
    seconds: float
    instead: str


class Rules:
    """Base ruleset: crime-time's settings and hooks, which the other rulesets override.

    Figures are seconds unless named otherwise; clause numbers are crime-time's.
    """

    name: ClassVar[str] = "base"
    seats: ClassVar[int] = 10
    #: the table sizes the ruleset is played with
    min_seats: ClassVar[int] = 4
    max_seats: ClassVar[int] = 15
    #: roles dealt besides civilians (1.2, 1.3); :meth:`composition` may vary them with the seats
    roles: ClassVar[dict[Role, int]] = {Role.SHERIFF: 1, Role.DON: 1, Role.MAFIA: 2}
    #: the night's checks, in the order the checkers wake (2.1.3)
    checkers: ClassVar[tuple[Role, ...]] = (Role.DON, Role.SHERIFF)
    speech_seconds: ClassVar[float] = 60.0  # 2.3
    speech_warning: ClassVar[float | None] = 50.0  # 2.3: «Десять секунд»
    last_word_seconds: ClassVar[float] = 60.0  # 2.2, 2.4
    tie_speech_seconds: ClassVar[float] = 30.0  # 2.4.1
    vote_window: ClassVar[float] = 1.0  # 2.4: a pause of one second, then «Спасибо»
    check_seconds: ClassVar[float] = 15.0  # 2.1.3
    agreement_seconds: ClassVar[float] = 60.0  # 2.1.1
    agreement_warning: ClassVar[float | None] = 50.0  # 2.1.1
    #: club options (see :mod:`narrator.engine.options`), off in the rule texts themselves:
    #: "count" records fouls only; "sport" makes the 3rd cost a speech and the 4th remove
    fouls: ClassVar[str] = "count"
    #: the first-night victim names three seats («лучший ход») before the last word
    best_move: ClassVar[bool] = False
    #: the first day as a club plays it: "vote", as the rule texts (2.2.1, 2.4); "none", day 1
    #: has its discussion and no vote; "lift_only", day 1 votes, but only a question that
    #: passes (2.4.2) removes anyone — a round's single leader speaks and stays
    first_day: ClassVar[str] = "vote"
    #: why the ruleset plays its own first day and takes no other (the club option
    #: ``first_day`` is refused with it); None: it takes every value
    own_first_day: ClassVar[str | None] = None
    #: the catalogue's groups (:mod:`narrator.engine.catalogue`, club options of the same
    #: names): the variant the ruleset's text implies, else MafiaRatings' (docs/rulesets.md)
    rotation: ClassVar[str] = "first"  # 6.3.1; crime-time 2.3
    on_record: ClassVar[str] = "none"  # 6.7.1: the text keeps no colours on record
    on_record_count: ClassVar[int] = 0  # 6.8: 0, no limit (MafiaRatings' judge app)
    withdraw: ClassVar[str] = "allowed"  # 7.5.1; crime-time 2.3.2
    #: 2.3.1 «Допускается повторное выставление одной и той же кандидатуры разными игроками»:
    #: a seat nominated by another is the speaker's nomination too; False (a club's
    #: ``withdraw``, 7.5's examples): refused, and the speaker may nominate another
    repeat_nomination: ClassVar[bool] = True
    first_voting: ClassVar[str] = "standard"  # 7.16.1; crime-time 2.2.1
    split_order: ClassVar[str] = "same"  # 7.18.1
    kill_all: ClassVar[str] = "prohibited"  # 7.21.1
    split_on_four: ClassVar[str] = "prohibited"  # 7.22.2; crime-time 2.4.2
    split_on_nine: ClassVar[str] = "yes"  # 7.23.1
    game_end_speech: ClassVar[str] = "no"  # 8.19.2
    three_fouls: ClassVar[str] = "lose_speech"  # 9.5.1, played under ``fouls = "sport"``
    tech_fouls: ClassVar[str] = "no"  # 9.6.1
    #: 9.5.1: the window a player whose 3rd foul took his speech has to nominate at his turn
    #: («Выставляю номер пять» takes 2-3 s to say and 1 to be heard; 10 leave a second try)
    nomination_only_seconds: ClassVar[float] = 10.0
    #: the host's extra points after a game (:mod:`narrator.engine.marks`): step and bound
    bonus_step: ClassVar[float] = 0.1
    bonus_max: ClassVar[float] = 1.0
    #: the groups this ruleset plays its own way, each with why (a club's other variant is
    #: refused in one line naming it)
    fixed_groups: ClassVar[Mapping[str, str]] = {}
    sheriff_first_night_seconds: ClassVar[float] = 15.0  # 2.1.1
    don_noted_seconds: ClassVar[float] = 10.0
    deal_seconds_per_seat: ClassVar[float] = 3.0  # these two: no figure in the texts
    count_pace: ClassVar[float] = 1.5  # 2.1.2: the hunt's count, one number per this many s
    #: 2.4.3, the «monster» rule: a removal before the vote is complete cancels that vote
    monster_rule: ClassVar[bool] = True
    #: 2.1.1: the first night, step by step; each step is a phase the narrator announces, with
    #: the timer :meth:`first_night_timer` gives it (none: it is only announced)
    first_night: ClassVar[tuple[str, ...]] = (
        "night", "dealing", "don_noted", "agreement", "sheriff_noted", "sheriff_sleeps")
    #: the figures of each first-night step that has a timer (named after the step); a step
    #: not here is only announced
    first_night_figures: ClassVar[Mapping[str, StepFigure]] = {
        "dealing": StepFigure("deal_seconds_per_seat", per_seat=True),
        "don_noted": StepFigure("don_noted_seconds"),
        "agreement": StepFigure("agreement_seconds", "agreement_warning"),
        "sheriff_noted": StepFigure("sheriff_first_night_seconds"),
    }

    # -- the steps of the other texts (crime-time has none of them) ---------------------------

    #: figures of speeches crime-time does not have: an introduction, 30 s more for a raised
    #: hand, a justification before a re-vote
    intro_seconds: ClassVar[float] = 30.0
    extra_seconds: ClassVar[float] = 30.0
    justify_seconds: ClassVar[float] = 30.0
    #: the texts give no figures for these windows; the host looks at the table for them
    floor_seconds: ClassVar[float] = 5.0  # who raised a hand first
    put_up_seconds: ClassVar[float] = 5.0  # the thumbs after a speech
    extra_window_seconds: ClassVar[float] = 5.0  # the hands held up through the discussion
    #: the figures of this ruleset's own steps a club may change too (``--timer``), beside
    #: :data:`~narrator.engine.tuning.TUNABLE`
    own_figures: ClassVar[tuple[str, ...]] = ()
    #: a speech may nominate (2.3.1); without, a nomination is refused (``no_nominations``)
    nominations: ClassVar[bool] = True
    #: the eliminated open their card and the narrator names the role (the club option
    #: ``cards = "closed"`` turns it off where a ruleset has it)
    reveal_cards: ClassVar[bool] = False
    #: the one who saves at night is shown the night's victims (their number is said)
    shows_victims: ClassVar[bool] = False
    #: a phase said at day before the night's result (None: only "day")
    morning_phase: ClassVar[str | None] = None
    #: what a night's kill by each role is called in ``out.how`` (and in the night's record)
    kill_how: ClassVar[Mapping[Actor, Exit]] = {
        Actor.MAFIA: Exit.SHOT, Actor.SHERIFF: Exit.SHERIFF_SHOT, Actor.MANIAC: Exit.MANIAC}
    #: what is dealt besides the cards (a name → its values), drawn at random unless given;
    #: a first-night step of the same name announces it
    dealt_choices: ClassVar[Mapping[str, tuple[str, ...]]] = {}

    def kill_name(self, role: Actor) -> Exit:
        """What a night's kill by ``role`` is called (:attr:`kill_how`, which names each)."""
        return self.kill_how[role]

    # -- what the layers above need to know --------------------------------------------------

    #: the input lines a table script of this ruleset may hold; another key is an
    #: error naming the line and the ruleset
    script_keys: ClassVar[frozenset[str]] = BASE_SCRIPT_KEYS
    #: the keys of a script's ``night`` line: ``shots`` (the hunt), then one key per role that
    #: acts at night (a seat, or null when it did not act)
    night_keys: ClassVar[frozenset[str]] = frozenset({"shots", "don", "sheriff"})
    #: header keys beyond the common ones (rules, seats, roles, seed, lang)
    header_keys: ClassVar[frozenset[str]] = frozenset()
    #: the ruleset's own wording: a key the narration says (crime-time's words) → the keys said
    #: instead, in order (empty: nothing is said). A key ending in ``.{n}`` stands for every
    #: seat (``"last_word.{n}": ("x.testament.{n}",)``). A ruleset's own lines are keys of the
    #: voice packs' manifests prefixed with :attr:`voice_prefix` (``professional.morning``).
    lines: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    #: the keys of :attr:`lines` that hold only while the cards are opened (the opening of a
    #: card says the leaving too): with the cards closed they are said in crime-time's words
    open_card_lines: ClassVar[frozenset[str]] = frozenset()
    #: every voice line this ruleset may say that names a length (a key of the voice packs, as
    #: in the values of :attr:`lines`): with a club's own figure it is said without the length
    #: (:func:`~narrator.engine.tuning.fitted_lines`). A ruleset lists its own lines and those
    #: of crime-time it says
    named_lengths: ClassVar[Mapping[str, NamedLength]] = {
        "mafia_agreement": NamedLength("agreement_seconds", 60.0, "mafia_agreement_no_length"),
        "tie_speech.{n}": NamedLength("tie_speech_seconds", 30.0, "tie_speech_no_length.{n}"),
        "tie_speeches": NamedLength("tie_speech_seconds", 30.0, "tie_speeches_no_length"),
    }

    @property
    def voice_prefix(self) -> str:  # of its own keys in the voice packs (``vrn_closed.``)
        return self.name.replace("-", "_") + "."

    # -- the deal ------------------------------------------------------------------------------

    @property
    def table_sizes(self) -> str:
        """The table sizes as said in messages: ``"10"`` or ``"4..15"``."""
        low, high = self.min_seats, self.max_seats
        return str(low) if low == high else f"{low}..{high}"

    def composition(self, seats: int) -> dict[Role, int]:
        """The cards dealt besides civilians at a table of ``seats`` (1.2, 1.3)."""
        return dict(self.roles)

    def _decided_at_deal(self, seats: int) -> bool:
        comp = self.composition(seats)
        black = sum(n for role, n in comp.items() if role.team is Team.BLACK)
        return sum(comp.values()) > seats or self.winner(black, seats - black) is not None

    def smallest_table(self) -> int:
        """The smallest table whose deal leaves the game open (1.3: the mafia wins once it
        equals the town, so it must start outnumbered)."""
        for seats in range(self.min_seats, self.max_seats + 1):
            if not self._decided_at_deal(seats):
                return seats
        return self.max_seats + 1

    def check_seats(self, seats: object) -> int:
        """``seats`` if this ruleset is played at a table of that many and its deal there
        leaves the game open; InvalidActionError (one line naming the ruleset) if not."""
        if isinstance(seats, bool) or not isinstance(seats, int) or not (
                self.min_seats <= seats <= self.max_seats):
            raise InvalidActionError(f"{self.name} is played at {self.table_sizes} seats, "
                                     f"not {seats}")
        if self._decided_at_deal(seats):
            black = sum(n for role, n in self.composition(seats).items()
                        if role.team is Team.BLACK)
            raise InvalidActionError(
                f"{self.name} needs at least {self.smallest_table()} seats: at {seats} its "
                f"{black} mafia cards would win at the deal")
        return seats

    def check_deal(self, seats: int, roles: Mapping[int, Role]) -> None:
        """InvalidActionError unless ``roles`` (seats not named are civilians) is this ruleset's
        deal (1.2, 1.3) at a table of ``seats``."""
        self.check_seats(seats)
        for seat in roles:
            if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= seats:
                raise InvalidActionError(f"role: seat {seat!r} does not exist (seats 1..{seats})")
        comp = self.composition(seats)
        for role, count in comp.items():
            have = sum(1 for r in roles.values() if r is role)
            if have != count:
                raise InvalidActionError(
                    f"expected {count} {role.value} for {self.name}, got {have}")
        extra = sorted({r.value for r in roles.values()} - {r.value for r in comp}
                       - {Role.CIVILIAN.value})
        if extra:
            raise InvalidActionError(f"{self.name} deals no {', '.join(extra)}")

    def deal(self, seats: int, rng: random.Random) -> dict[int, Role]:
        """Deal the cards of :meth:`composition` at random from ``rng``."""
        deck = [role for role, n in self.composition(seats).items() for _ in range(n)]
        deck += [Role.CIVILIAN] * (seats - len(deck))
        rng.shuffle(deck)
        return {seat: role for seat, role in enumerate(deck, start=1)}

    def team(self, role: Role, dealt: Mapping[str, str]) -> Team:
        """The side a card plays on, given what else was ``dealt`` (1.2, 1.3: its team)."""
        return role.team

    # -- the night -----------------------------------------------------------------------------

    def first_night_timer(self, step: str, seats: int) -> Timer | None:
        """The timer of a step of :attr:`first_night` (2.1.1), from
        :attr:`first_night_figures`, or None for one only announced."""
        figure = self.first_night_figures.get(step)
        if figure is None:
            return None
        seconds = getattr(self, figure.seconds)
        if figure.per_seat:
            seconds *= seats
        warning = getattr(self, figure.warning) if figure.warning is not None else None
        return Timer(step, seconds, warning)

    def night_steps(self, night: int, alive: Callable[[Role], bool]) -> tuple[NightStep, ...]:
        """The steps of night ``night`` (from 2); ``alive(card)``: is that card at the table.

        2.1.2: the hunt, whose victim is out at once; 2.1.3: the don's check, the sheriff's."""
        steps = _NIGHTS.get(type(self))
        if steps is None:  # the same every night: made once per ruleset
            checks = tuple(Wake(Actor.of(c), (Act.CHECK,), self.check_seconds, f"{c.value}_check")
                           for c in self.checkers)
            steps = _NIGHTS[type(self)] = (HuntStep(), Resolve(), *checks, Announce("sheriff_sleeps"))
        return steps

    def check_refusal(self, checker: int | None, target: int,
                      known_out: Mapping[int, Exit]) -> Reason | None:
        """Why a check of ``target`` by the checker on seat ``checker`` is refused (None: it is
        taken); ``known_out``: the seats out as the table knows it. 2.1.3: the sheriff and the
        don check «живого или выбывшего» — any seat."""
        return None

    def save(self, pick: int, victims: tuple[int, ...],
             saved_before: frozenset[int]) -> tuple[int | None, Reason | None]:
        """The save of ``pick`` with the night's ``victims`` (in the night's order) and the
        seats ``saved_before`` on earlier nights: (the seat saved or None, a refusal reason or
        None — refused, the one who saves may pick again). By default the pick is a guess:
        the victim is saved when it is them."""
        return (pick if pick in victims else None), None

    def hunt_target(self, living_black: list[int], shots: dict[int, set[int]],
                    living: set[int]) -> int | None:
        """2.1.2: a hit only when every living mafioso shot the same living seat and no other."""
        target: int | None = None
        for shooter in living_black:
            aimed = shots.get(shooter)
            if not aimed or len(aimed) != 1:
                return None
            (seat,) = aimed
            if target is None:
                target = seat
            elif seat != target:
                return None
        return target if target in living else None

    def check_finds(self, checker: Role) -> Literal["sheriff", "black"]:
        """What ``checker``'s question is: 1.3.1, the don asks "is it the sheriff?"; 1.2.1,
        the sheriff asks "is it black?" (a check's answer is yes or no to it)."""
        return "sheriff" if checker is Role.DON else "black"

    def check_answer(self, checker: Role, target: Role) -> bool:
        """The host's nod to ``checker`` on a seat holding ``target``: :meth:`check_finds`."""
        if self.check_finds(checker) == "sheriff":
            return target is Role.SHERIFF
        return target.team is Team.BLACK

    # -- the day -------------------------------------------------------------------------------

    def day_steps(self, day: int) -> tuple[DayStep, ...]:
        """The steps of day ``day`` after its morning (the night's result, last words): 2.3,
        the discussion round the table; 2.4, the vote."""
        return _DISCUSSION_AND_VOTE

    def speech_timer(self, kind: SpeechKind) -> tuple[float, float | None]:
        """The length of a ``kind`` speech and when «Десять секунд» is said (2.3: day speeches
        only)."""
        if kind == "day":
            return self.speech_seconds, self.speech_warning
        return float(getattr(self, _SPEECH_SETTING[kind])), None

    def last_word(self, role: Role, team: Team, how: Exit) -> bool:
        """Whether a seat with card ``role`` (playing for ``team``) that left ``how`` has a last
        word: 2.2, the night's victim; 2.4, the voted out; 2.4.2, the car crash's."""
        return how in (Exit.SHOT, Exit.VOTE, Exit.CRASH)

    def day_opener(self, day: int, previous: int | None, seats: int) -> int:
        """The seat the day's discussion starts from (the first living seat from it speaks).

        2.3: day 1 from seat 1; every later day from the seat after the one who opened the
        previous day (``previous``)."""
        return 1 if previous is None else previous % seats + 1

    def ballot(self, day: int, living: tuple[int, ...], nominated: tuple[int, ...],
               put_up: Mapping[int, int]) -> tuple[int, ...]:
        """The candidates of day ``day``'s vote: 2.4, those nominated and at the table, in order
        of nomination (``put_up``: the thumbs each seat got to be put up, in order)."""
        return nominated

    def vote_held(self, day: int) -> bool:
        """Whether day ``day`` has a vote at all (its discussion's nominations are kept either
        way). Every day has one in the rule texts (2.2); with the club option ``first_day =
        "none"`` the first has none (the narrator says so, and the night follows)."""
        return not (day == 1 and self.first_day == "none")

    def no_vote(self, day: int, candidates: tuple[int, ...]) -> str | None:
        """Why no vote is held on the ``candidates`` standing after day ``day``'s discussion
        (a :class:`~narrator.engine.events.VotingCancelled` reason), or None: vote.

        2.2.1: on day 1 a single candidate is not voted on (7.16.1, .3, .4); under 7.16.2
        "to_talk" (``lift_only``) he is: js/src/game.js ``_gameCanStartVoting``."""
        if day == 1 and len(candidates) == 1 and self.first_day != "lift_only":
            return "single_candidate_day1"
        return None

    def lone_candidate_leaves(self, day: int) -> bool:
        """True when a single candidate standing after day ``day``'s discussion (and voted on,
        see :meth:`no_vote`) leaves without a vote. Crime-time votes on him (2.4)."""
        return False

    def tie_stays(self, rnd: int, leaders: tuple[int, ...], living: int) -> bool:
        """After round ``rnd``, ``leaders`` share the most votes with ``living`` seats at the
        table: True when the tie is not played out at all (no speeches, no other round, no car
        crash: everybody stays and night falls). Crime-time always plays a tie out (2.4.1)."""
        return False

    def candidates_by(self) -> Literal["words", "thumbs"] | None:
        """How a day makes its candidates: by words (2.3.1), by the thumbs after a speech (its
        usual day's discussion has them), or none (vrn votes on every seat)."""
        if self.nominations:
            return "words"
        put_up = any(isinstance(x, Speeches) and x.put_up for x in self.day_steps(2))
        return "thumbs" if put_up else None

    def kill_deciders(self, mafia: tuple[int, ...], roles: Mapping[int, Role]) -> tuple[int, ...]:
        """Whose points make a woken mafia's kill (``mafia``: its seats at the table): the
        don's at the table (vrn: «Остаточне рішення залишається за Доном»), else all agreeing."""
        return tuple(x for x in mafia if roles.get(x) is Role.DON) or mafia

    def abstainers_to_last(self, rnd: int, candidates: tuple[int, ...]) -> bool:
        """2.4: the hands not raised in round ``rnd`` count for the last candidate."""
        return True

    def verdict(self, vote: VoteState) -> Verdict:
        """What follows a round: 2.4, one leader leaves; 2.4.1, a tie speaks and is voted on
        again; 2.4.2, the car crash (:meth:`tie_goes_to_crash`)."""
        leaders = vote.leaders
        if len(leaders) == 1:
            # the club's first day (7.16; ``first_day = "lift_only"`` is its "to_talk")
            kept = first_day_verdict("to_talk" if self.first_day == "lift_only"
                                     else self.first_voting, vote) if vote.day == 1 else None
            return kept or Verdict(out=leaders)
        if self.tie_stays(vote.round, leaders, vote.living):
            return Verdict(tie_stays=leaders)
        if self.tie_goes_to_crash(vote.round, leaders, vote.candidates):
            return Verdict(crash=leaders)
        return Verdict(tie=leaders, speak=leaders, revote=leaders)

    def tie_goes_to_crash(self, rnd: int, leaders: tuple[int, ...],
                          candidates: tuple[int, ...]) -> bool:
        """After round ``rnd`` of a vote on ``candidates``, ``leaders`` share the most votes:
        True for the car crash, False for tie speeches and another round.

        2.4.1: the first tie is always voted again; from the second round on, a tie of every
        candidate goes to the car crash (2.4.2), a tie of some of them is voted again."""
        return rnd > 1 and len(leaders) == len(candidates)

    def no_crash(self, day: int, living: int, crash: tuple[int, ...]) -> str | None:
        """Why no car crash for ``crash`` (None: put it): 7.21-7.23, :func:`no_crash`."""
        return no_crash({g: getattr(self, g) for g in _CRASH_GROUPS}, day, living, crash)

    def crash_passes(self, votes_for: int, living: int) -> bool:
        """2.4.2: «большинство» of the seats at the table; exactly half is not a majority."""
        return 2 * votes_for > living

    # -- the end -------------------------------------------------------------------------------

    def why_won(self, winner: Team, black: int, red: int) -> str:
        """How ``winner`` won with ``black`` and ``red`` at the table, when the narrator says
        it its own way (``GameOver.why``); "" for the usual words."""
        return ""

    def winner(self, black: int, red: int) -> Team | None:
        """1.2/1.3: civilians win when no black seat remains; mafia when black ≥ red."""
        if black == 0:
            return Team.RED
        if black >= red:
            return Team.BLACK
        return None


_DISCUSSION_AND_VOTE: tuple[DayStep, ...] = (Speeches(), VoteStep())
_CRASH_GROUPS = ("split_on_four", "kill_all", "split_on_nine")
_NIGHTS: dict[type[Rules], tuple[NightStep, ...]] = {}
#: the setting that gives each kind of speech (but the day's) its length
_SPEECH_SETTING = {"last": "last_word_seconds", "tie": "tie_speech_seconds",
                   "intro": "intro_seconds", "extra": "extra_seconds",
                   "justify": "justify_seconds", "leader": "tie_speech_seconds"}

RulesT = TypeVar("RulesT", bound=type[Rules])

#: the rulesets by name (:func:`register`), in order: crime-time here, then the modules of
#: :mod:`narrator.engine.rulesets` (importing :mod:`narrator.engine` registers them all)
RULESETS: dict[str, type[Rules]] = {}


def known() -> tuple[str, ...]:
    """Every ruleset's name, from the registry (the command line's choices): a new ruleset
    is known once its module registers it, and nowhere else."""
    return tuple(RULESETS)


def register(cls: RulesT) -> RulesT:
    """Class decorator: make ``cls`` a ruleset found by :func:`find_rules` under its name."""
    if cls.name in RULESETS:
        raise ValueError(f"a ruleset named {cls.name!r} is registered already")
    RULESETS[cls.name] = cls
    return cls


@register
class CrimeTime(Rules):
    """Club «Crime Time», edition of 11.12.2013: 6 civilians + sheriff, 2 mafia + don."""

    name = "crime-time"


def find_rules(name: str) -> Rules:
    """The ruleset called ``name`` (``"crime-time"``, …)."""
    try:
        return RULESETS[name]()
    except KeyError:
        raise NarratorError(f"unknown rules {name!r}; known: {', '.join(known())}") from None
