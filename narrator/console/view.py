"""A screen's view as a typed value, serialised once.

A view is what one identity's page shows — the operator's (:class:`OperatorView`), a seat's pad
(:class:`PadView`), or an evening's page made from them — built on the loop's thread and sent
over the websocket as ``{"view": …}``. Each is a frozen value whose fields are its JSON's keys,
in order (:class:`Part`); its JSON and its message are made the first time they are asked for
and kept (:attr:`View.json`, :attr:`View.message`), so a view sent to every socket of its
identity, or kept to compare with the next one, is serialised once. The part every screen shares
(:class:`Common`) is built once a publication and serialised once for all of them.

A view also reads as the JSON the page gets (``view["phase"]``): a test, or the evening adding
its own keys, looks at it as the page would.

Which of the game's secrets a view may hold is decided where views are built
(:mod:`narrator.console.views`), not here.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, ClassVar

from narrator.bidi import neutral
from narrator.console.tokens import OPERATOR, Who
from narrator.engine import Act, Actor, Exit, Role, Team

#: a field's metadata: left out of the JSON when None (a key the page tests for)
OMIT_NONE: Mapping[str, bool] = {"omit_none": True}

#: per class: its fields as (name, left out when None) — read once, not at every view
_SHAPES: dict[type, tuple[tuple[str, bool], ...]] = {}


def _shape(cls: type) -> tuple[tuple[str, bool], ...]:
    shape = _SHAPES.get(cls)
    if shape is None:
        shape = tuple((f.name, bool(f.metadata.get("omit_none")))
                      for f in dataclasses.fields(cls))
        _SHAPES[cls] = shape
    return shape


#: the JSON scalars, compared by exact type (``isinstance`` on the ABCs is what costs)
_SCALARS = frozenset({str, int, float, bool, type(None)})


def to_json(value: Any) -> Any:
    """``value`` as JSON values: a part's own JSON, tuples as lists, keys as strings."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is tuple or kind is list:
        return [v if type(v) in _SCALARS else to_json(v) for v in value]
    if kind is dict:
        return {str(k): v if type(v) in _SCALARS else to_json(v) for k, v in value.items()}
    if isinstance(value, Part):
        return value.to_json()
    if isinstance(value, Serialised):
        return value.json
    if isinstance(value, Mapping):
        return {str(k): to_json(v) for k, v in value.items()}
    return value


def dumps(value: Any) -> str:
    """JSON text as the pages get it (UTF-8 kept readable), without bidirectional controls:
    a nickname's U+202E would turn the rest of its line on a screen backwards."""
    return neutral(json.dumps(value, ensure_ascii=False))


def extended(text: str, more: Mapping[str, Any]) -> str:
    """The JSON object ``text`` with the keys of ``more`` after its own, without reading
    ``text`` again."""
    if not more:
        return text
    tail = dumps(more)
    return tail if text == "{}" else f"{text[:-1]}, {tail[1:]}"


class Part:
    """A typed part of a view (a dataclass): its JSON is its fields in order, each made JSON,
    one marked :data:`OMIT_NONE` left out when None; ``TYPE``, when a class has one, first, as
    ``type`` (the pad's step says which it is)."""

    __slots__ = ()

    TYPE: ClassVar[str | None] = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {} if self.TYPE is None else {"type": self.TYPE}
        for name, omit_none in _shape(type(self)):
            value = getattr(self, name)
            if value is None and omit_none:
                continue
            out[name] = value if type(value) in _SCALARS else to_json(value)
        return out


class Serialised:
    """Something whose JSON (``json``) and JSON text (``text``) are made once and kept: a
    view, and the part every screen shares (a frozen dataclass without slots)."""

    def to_json(self) -> dict[str, Any]:
        raise NotImplementedError

    def to_text(self) -> str:
        return dumps(self.json)

    @cached_property
    def json(self) -> dict[str, Any]:
        """The JSON, made once (never change it: it is what every socket gets)."""
        return self.to_json()

    @cached_property
    def text(self) -> str:
        """The JSON text, made once."""
        return self.to_text()


class View(Serialised, Mapping[str, Any]):
    """A whole screen's view: the part it begins with (:meth:`head`: what it shares with other
    screens, serialised once for all of them), then its own keys (:meth:`body`). Its message
    is the head's text extended with its own keys: what every screen shares is never
    serialised again for each."""

    def head(self) -> Serialised | None:
        """The part the view begins with (None: none)."""
        return None

    def body(self) -> dict[str, Any]:
        """The view's own keys, as JSON."""
        raise NotImplementedError

    def to_json(self) -> dict[str, Any]:
        head = self.head()
        return self.body() if head is None else {**head.json, **self.body()}

    def to_text(self) -> str:
        head = self.head()
        return dumps(self.body()) if head is None else extended(head.text, self.body())

    @cached_property
    def message(self) -> str:
        """The websocket's message, ``{"view": …}``, made once."""
        return f'{{"view": {self.text}}}'

    def __getitem__(self, key: str) -> Any:
        return self.json[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.json)

    def __len__(self) -> int:
        return len(self.json)


#: where every identity's view goes after each change (the server's hub, the evening)
Publish = Callable[[dict[Who, View]], None]


# -- what every screen shows ----------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class PhaseView(Part):
    """The step the game is in, as everybody at the table hears it announced; ``serial``: a new
    step, a new number (a pad's answer to a press belongs to its step)."""

    time: str
    number: int
    label: str
    serial: int
    step: str


@dataclass(frozen=True, slots=True, kw_only=True)
class SpeechPhase(PhaseView):
    """A speech: whose, and which kind."""

    seat: int
    speech: str


@dataclass(frozen=True, slots=True, kw_only=True)
class VotePhase(PhaseView):
    """A voting window (``candidate`` None: the car crash) of the round's ``candidates``."""

    candidate: int | None
    candidates: tuple[int, ...]
    round: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class TimerView(Part):
    """The running timer as deadlines on the game's clock (see ``views.timer``)."""

    name: str
    total: float
    starts: float
    ends: float
    held: bool


@dataclass(frozen=True, kw_only=True)
class Common(Part, Serialised):
    """What every screen of the table shows; ``spoken`` … ``raised``: a day by raised hands'
    (each left out where it is not one)."""

    lang: str
    seats: int
    paused: str | None
    phase: PhaseView
    timer: TimerView | None
    living: tuple[int, ...]
    out: Mapping[str, Exit]
    candidates: tuple[int, ...]
    winner: Team | None
    declared: Mapping[str, str]
    spoken: tuple[int, ...] | None = field(default=None, metadata=OMIT_NONE)
    accused: int | None = field(default=None, metadata=OMIT_NONE)
    thumbs: int | None = field(default=None, metadata=OMIT_NONE)
    put_up: Mapping[str, int] | None = field(default=None, metadata=OMIT_NONE)
    raised: tuple[int, ...] | None = field(default=None, metadata=OMIT_NONE)


# -- the operator's view ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class Tally(Part):
    """The hands raised so far in a pad vote (the table sees them raised)."""

    candidate: int | None
    hands: tuple[int, ...]
    #: 2.4: the hands not raised that the last candidate's count adds (the narrator's «десять
    #: голосов» is ``hands`` + these): the page says «6 рук + 4 воздержавшихся»
    abstaining: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class CardsWaiting(Part):
    """While dealing: whose cards the deal waits for, whose the operator skipped."""

    waiting: tuple[int, ...]
    skipped: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Aside(Part):
    """The seats the operator's foul and removal buttons are for; ``tech_foul``: the
    technical foul's (9.6.2: none unless the club gives them)."""

    foul: tuple[int, ...]
    remove: tuple[int, ...]
    tech_foul: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class MarkView(Part):
    """One seat's marks the host gave after the game."""

    seat: int
    points: float
    titles: tuple[str, ...]
    comment: str


@dataclass(frozen=True, slots=True, kw_only=True)
class MarksForm(Part):
    """The host's marks, once the game is over: the club's bound and step for the points, the
    titles there are, and the marks given so far (in seat order)."""

    bonus_max: float
    bonus_step: float
    titles: tuple[str, ...]
    given: tuple[MarkView, ...]


@dataclass(frozen=True, eq=False, kw_only=True)
class OperatorView(View):
    """The operator's screen: the table as everybody knows it, and the operator's controls."""

    common: Common
    tally: Tally | None
    fouls: Mapping[str, int]
    nominations: tuple[tuple[int, int], ...]
    cards: CardsWaiting | None
    hand_votes: bool
    hands_max: int | None
    aside: Aside
    can_undo: bool
    said: tuple[str, ...]
    #: the host's marks' form (None until the game is over: the engine takes none before)
    marks: MarksForm | None = None
    #: the engine takes the step's time ending now (the «end the speech» button)
    can_end: bool = False
    #: the clock's button: "pause" (the timer runs), "resume" (the operator paused it), None
    clock: str | None = None
    #: a table that votes by hand, the last candidate's window where the ruleset counts the
    #: abstainers for him (2.4): the living players who have not voted in the round — every
    #: one of them counts for this candidate, the hands the operator types and the abstainers
    #: (the count the narrator says is this); 0 in any other window
    to_last: int = 0

    def head(self) -> Common:
        return self.common

    def body(self) -> dict[str, Any]:
        return {"who": OPERATOR, "tally": to_json(self.tally),
                "fouls": to_json(self.fouls), "nominations": to_json(self.nominations),
                "cards": to_json(self.cards), "hand_votes": self.hand_votes,
                "hands_max": self.hands_max, "aside": self.aside.to_json(),
                "can_undo": self.can_undo, "said": list(self.said),
                "marks": to_json(self.marks), "can_end": self.can_end, "clock": self.clock,
                "to_last": self.to_last}


# -- a seat's pad -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class CardView(Part):
    """The seat's own card: its role and the side it plays on."""

    role: Role
    team: Team


@dataclass(frozen=True, slots=True, kw_only=True)
class CheckAnswer(Part):
    """One of a checker's checks, with the answer as his pad words it."""

    night: int
    target: int
    says: str


@dataclass(frozen=True, slots=True, kw_only=True)
class ActDone(Part):
    """What a role did in its night step, as its own pad may see it (``says``: a check's
    answer; ``saved``: whom a save saved, where the rules show the victims)."""

    act: Act
    target: int | None
    says: str | None = field(default=None, metadata=OMIT_NONE)
    saved: int | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True, slots=True, kw_only=True)
class CheckDone(Part):
    """A check made in this step, with its answer."""

    target: int | None
    says: str


class PadStep(Part):
    """What a seat can do now on its pad (``type`` says which)."""

    __slots__ = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class CardPad(PadStep):
    TYPE = "card"
    seen: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class HuntPad(PadStep):
    """The count: when each number begins to count for a press, and when the count ends."""

    TYPE = "hunt"
    numbers: tuple[float, ...]
    ends: float
    pressed: tuple[int, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class CheckPad(PadStep):
    TYPE = "check"
    role: Actor
    checkable: tuple[int, ...]
    done: CheckDone | None


@dataclass(frozen=True, slots=True, kw_only=True)
class ActPad(PadStep):
    """A role's night act: the mafia's points (to the mafia alone), the stretcher (to the
    doctor alone), what was done."""

    TYPE = "act"
    role: Actor
    acts: tuple[Act, ...]
    done: ActDone | None
    checkable: tuple[int, ...] | None = field(default=None, metadata=OMIT_NONE)
    decides: bool | None = field(default=None, metadata=OMIT_NONE)
    together: bool | None = field(default=None, metadata=OMIT_NONE)
    points: Mapping[str, int] | None = field(default=None, metadata=OMIT_NONE)
    victims: tuple[int, ...] | None = field(default=None, metadata=OMIT_NONE)
    #: per act of the step, the seats the pad offers for it (the engine's, computed where
    #: the view is built: the pad decides none)
    targets: Mapping[str, tuple[int, ...]] | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True, slots=True, kw_only=True)
class VotePad(PadStep):
    TYPE = "vote"
    candidate: int | None
    voted: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class SpeechPad(PadStep):
    """The seat's own speech: the grid of the seats it may nominate or accuse, the best move."""

    TYPE = "speech"
    speech: str
    standing: int | None
    nominate: bool
    accuse: bool
    accused: int | None
    nominable: tuple[int, ...] | None = field(default=None, metadata=OMIT_NONE)
    #: False where the engine refuses the withdrawal of the standing nomination (7.5.3)
    withdraws: bool | None = field(default=None, metadata=OMIT_NONE)
    best_move: tuple[int, ...] | None = field(default=None, metadata=OMIT_NONE)
    #: the club's colours on record (6.7): the seats he may name, where the speech takes them
    on_record: tuple[int, ...] | None = field(default=None, metadata=OMIT_NONE)
    accusable: tuple[int, ...] | None = field(default=None, metadata=OMIT_NONE)


@dataclass(frozen=True, slots=True, kw_only=True)
class FloorPad(PadStep):
    TYPE = "floor"
    spoken: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class PutUpPad(PadStep):
    TYPE = "put_up"
    accused: int
    given: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class ExtraPad(PadStep):
    TYPE = "extra"
    raised: bool


@dataclass(frozen=True, eq=False, kw_only=True)
class PadView(View):
    """Seat ``seat``'s pad: the public table, and its own secrets while it is in the game
    (``gone``: out of it as the table knows it)."""

    common: Common
    seat: int
    gone: bool
    card: CardView | None
    checks: tuple[CheckAnswer, ...]
    step: PadStep | None

    def head(self) -> Common:
        return self.common

    def body(self) -> dict[str, Any]:
        return {"who": self.seat, "seat": self.seat, "gone": self.gone,
                "card": to_json(self.card), "checks": to_json(self.checks),
                "step": to_json(self.step)}
