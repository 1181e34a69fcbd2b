"""One vocabulary for a press: the envelope a page sends, the typed press it is read into, and
the journal's line it is written as — one name for each, wherever it is read.

As Wyoming pairs one event envelope with a typed wrapper per kind of event (``from_event`` /
``event()``):

- :class:`Press` is the envelope: who pressed (a seat or :data:`~narrator.console.tokens.
  OPERATOR`), ``do`` — the press's name — its other fields as sent, and the moment the server
  received it, on the game's clock (a page never says when);
- each name is one typed press, a frozen class with its fields typed (:data:`PadPress`,
  :data:`OperatorPress`); :func:`read_press` reads the envelope into it field by field, and a
  field that is not what the press takes is a :class:`PressError` naming it, with the reason
  code the page is answered with (a seat that is none: ``not_a_seat``; anything else the
  console does not understand: ``bad_request``);
- the journal writes a press as the input event the typed press makes
  (:func:`press_input`: ``{"type": "pad", "t": …, "seat": 3, "do": "shoot", "target": 7}``),
  with what the table decided filled in (the number a shot was taken on, whose check it was),
  and a resume reads the line back into the envelope (:func:`journal_press`). Journals written
  before the names were one (``card_seen``, ``card_skipped``, ``shot``, ``hand``,
  ``hand_count``) are read too: each typed press lists its older names.

The pages (``static/pad.js``, ``static/operator.js``) send these names; this module is the one
list of them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from narrator.console.press_fields import Fields, PressError, is_int
from narrator.console.tokens import OPERATOR, Who
from narrator.inputs import OPERATOR as OPERATOR_INPUT
from narrator.inputs import PAD, Input
from narrator.reasons import Reason

__all__ = [
    "OPERATOR_PRESSES", "PAD_PRESSES", "AccusePress", "ActPress", "BestMovePress", "CheckPress",
    "EndPress", "ExtraPress", "FloorPress", "FoulPress", "HandsPress", "MarkPress",
    "NominatePress", "OnRecordPress", "OperatorPress", "PadPress", "PausePress", "Press",
    "PressError", "RemovePress", "ResumePress", "SeenPress", "ShootPress", "SkipPress",
    "TechFoulPress", "ThumbPress", "TimeUpPress", "UndoPress", "VotePress", "WithdrawPress",
    "journal_press", "press_input",
    "read_operator_press", "read_pad_press", "read_press",
]


@dataclass(frozen=True)
class Press:
    """One message from a pad or the operator, stamped with the game clock on arrival: the
    envelope every press comes in (its fields as sent; :func:`read_press` types them)."""

    who: Who
    do: str
    data: Mapping[str, Any]
    t: float


@dataclass(frozen=True, slots=True, kw_only=True)
class _Typed:
    """What every typed press has: its name, its older names, its reading and its fields."""

    #: the press's name: what a page sends as ``do`` and the journal writes
    DO: ClassVar[str]
    #: the names older journals wrote it under (read, never written)
    OLD: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def read(cls, fields: Fields) -> Self:
        """The press from its fields as sent (a press with no fields takes none)."""
        return cls()

    def fields(self) -> dict[str, Any]:
        """Its fields as the journal writes them (JSON values)."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out


# -- a seat's pad -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class SeenPress(_Typed):
    """The seat saw its card (2.1.1)."""

    DO = "seen"
    OLD = ("card_seen",)


@dataclass(frozen=True, slots=True, kw_only=True)
class ShootPress(_Typed):
    """A mafioso's shot in the count (2.1.2); ``target``: the number it was taken on, which the
    table decides from the press's moment (the journal's; a page sends none)."""

    DO = "shoot"
    OLD = ("shot",)
    target: int | None = None

    @classmethod
    def read(cls, fields: Fields) -> Self:
        return cls(target=fields.maybe_seat("target"))


@dataclass(frozen=True, slots=True, kw_only=True)
class CheckPress(_Typed):
    """A check of ``target`` (2.1.3); ``role``: whose check the table took it for."""

    DO = "check"
    role: str | None = None
    target: int

    @classmethod
    def read(cls, fields: Fields) -> Self:
        return cls(role=fields.maybe_text("role"), target=fields.seat("target"))


@dataclass(frozen=True, slots=True, kw_only=True)
class VotePress(_Typed):
    """A hand in the voting window of ``candidate`` the pad showed (None: the car crash)."""

    DO = "vote"
    OLD = ("hand",)
    candidate: int | None = None

    @classmethod
    def read(cls, fields: Fields) -> Self:
        return cls(candidate=fields.maybe_number("candidate"))


@dataclass(frozen=True, slots=True, kw_only=True)
class NominatePress(_Typed):
    """The speaker nominates ``target`` (2.3.1)."""

    DO = "nominate"
    target: int

    @classmethod
    def read(cls, fields: Fields) -> Self:
        return cls(target=fields.seat("target"))


@dataclass(frozen=True, slots=True, kw_only=True)
class WithdrawPress(_Typed):
    """The speaker withdraws his nomination of ``target`` (2.3.2)."""

    DO = "withdraw"
    target: int

    @classmethod
    def read(cls, fields: Fields) -> Self:
        return cls(target=fields.seat("target"))


@dataclass(frozen=True, slots=True, kw_only=True)
class EndPress(_Typed):
    """«Спасибо»: the speaker ends his speech."""

    DO = "end"


@dataclass(frozen=True, slots=True, kw_only=True)
class ActPress(_Typed):
    """A role's night act on ``target``: ``act`` one of the step's (None: its first), ``role``
    whose act the table took it for (a kill, a save, a check, the sheriff's shot; a mafioso's
    point)."""

    DO = "act"
    role: str | None = None
    act: str | None = None
    target: int

    @classmethod
    def read(cls, fields: Fields) -> Self:
        return cls(role=fields.maybe_text("role"), act=fields.maybe_text("act"),
                   target=fields.seat("target"))


@dataclass(frozen=True, slots=True, kw_only=True)
class FloorPress(_Typed):
    """A raised hand for the next speech (a day by raised hands)."""

    DO = "floor"


@dataclass(frozen=True, slots=True, kw_only=True)
class AccusePress(_Typed):
    """The speaker accuses ``target``: the one the thumbs after his speech would put up."""

    DO = "accuse"
    target: int

    @classmethod
    def read(cls, fields: Fields) -> Self:
        return cls(target=fields.seat("target"))


@dataclass(frozen=True, slots=True, kw_only=True)
class ThumbPress(_Typed):
    """A thumb to put up ``target``, the one accused the pad showed (another: its window has
    closed)."""

    DO = "thumb"
    target: int | None = None

    @classmethod
    def read(cls, fields: Fields) -> Self:
        return cls(target=fields.maybe_number("target"))


@dataclass(frozen=True, slots=True, kw_only=True)
class ExtraPress(_Typed):
    """A hand held up for 30 s more."""

    DO = "extra"


@dataclass(frozen=True, slots=True, kw_only=True)
class BestMovePress(_Typed):
    """The first night's victim names the club's best move: three ``seats``."""

    DO = "best_move"
    seats: tuple[int, ...]

    @classmethod
    def read(cls, fields: Fields) -> Self:
        return cls(seats=fields.seats_list("seats"))


@dataclass(frozen=True, slots=True, kw_only=True)
class OnRecordPress(_Typed):
    """The speaker leaves colours on record (6.7, the club's ``on_record``): the seats he
    calls ``red`` and those he calls ``black``."""

    DO = "on_record"
    red: tuple[int, ...]
    black: tuple[int, ...]

    @classmethod
    def read(cls, fields: Fields) -> Self:
        return cls(red=fields.seats_list("red"), black=fields.seats_list("black"))


# -- the operator's view ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class SkipPress(_Typed):
    """The operator skips ``seat``'s card (its phone is not ready)."""

    DO = "skip"
    OLD = ("card_skipped",)
    seat: int

    @classmethod
    def read(cls, fields: Fields) -> Self:
        return cls(seat=fields.seat("seat"))


@dataclass(frozen=True, slots=True, kw_only=True)
class HandsPress(_Typed):
    """The operator's ``count`` of hands in the window of ``candidate`` (None: the car crash),
    at a table that votes by hand."""

    DO = "hands"
    OLD = ("hand_count",)
    candidate: int | None = None
    count: int

    @classmethod
    def read(cls, fields: Fields) -> Self:
        return cls(candidate=fields.maybe_number("candidate"), count=fields.count("count"))


@dataclass(frozen=True, slots=True, kw_only=True)
class FoulPress(_Typed):
    """A foul on ``seat``."""

    DO = "foul"
    seat: int

    @classmethod
    def read(cls, fields: Fields) -> Self:
        return cls(seat=fields.seat("seat"))


@dataclass(frozen=True, slots=True, kw_only=True)
class TechFoulPress(_Typed):
    """A technical foul on ``seat`` (9.6.2: the club's ``tech_fouls = "yes"``)."""

    DO = "tech_foul"
    seat: int

    @classmethod
    def read(cls, fields: Fields) -> Self:
        return cls(seat=fields.seat("seat"))


@dataclass(frozen=True, slots=True, kw_only=True)
class RemovePress(_Typed):
    """``seat`` is removed from the game."""

    DO = "remove"
    seat: int

    @classmethod
    def read(cls, fields: Fields) -> Self:
        return cls(seat=fields.seat("seat"))


@dataclass(frozen=True, slots=True, kw_only=True)
class UndoPress(_Typed):
    """The operator's last entry taken back; ``actions``: how many actions that took back."""

    DO = "undo"
    actions: int | None = None

    @classmethod
    def read(cls, fields: Fields) -> Self:
        return cls(actions=fields.maybe_count("actions"))


@dataclass(frozen=True, slots=True, kw_only=True)
class MarkPress(_Typed):
    """The host's marks for ``seat`` once the game is over: extra ``points``, ``titles``, the
    ``comment`` saying why (nothing but the seat: the seat's marks taken away)."""

    DO = "mark"
    seat: int
    points: float = 0.0
    titles: tuple[str, ...] = ()
    comment: str = ""

    @classmethod
    def read(cls, fields: Fields) -> Self:
        return cls(seat=fields.seat("seat"), points=fields.points("points"),
                   titles=fields.words("titles"), comment=fields.maybe_text("comment") or "")


@dataclass(frozen=True, slots=True, kw_only=True)
class TimeUpPress(_Typed):
    """The operator ends the step's time now, as the terminal's ``t``: a speech ends with
    «Спасибо», a window closes (the engine takes the ``TimeUp`` or refuses it)."""

    DO = "time_up"


@dataclass(frozen=True, slots=True, kw_only=True)
class PausePress(_Typed):
    """The operator stops the game's clock (a speaker's phone died, a dispute): the timer
    keeps the time it has left."""

    DO = "pause"


@dataclass(frozen=True, slots=True, kw_only=True)
class ResumePress(_Typed):
    """The operator's pause ends: the timer goes on with the time it had left."""

    DO = "resume"


PadPress = (SeenPress | ShootPress | CheckPress | VotePress | NominatePress | WithdrawPress
            | EndPress | ActPress | FloorPress | AccusePress | ThumbPress | ExtraPress
            | BestMovePress | OnRecordPress)
OperatorPress = (SkipPress | HandsPress | FoulPress | TechFoulPress | RemovePress | UndoPress
                 | MarkPress | TimeUpPress | PausePress | ResumePress)

_PAD_KINDS: tuple[type[PadPress], ...] = (
    SeenPress, ShootPress, CheckPress, VotePress, NominatePress, WithdrawPress, EndPress,
    ActPress, FloorPress, AccusePress, ThumbPress, ExtraPress, BestMovePress, OnRecordPress)
_OPERATOR_KINDS: tuple[type[OperatorPress], ...] = (
    SkipPress, HandsPress, FoulPress, TechFoulPress, RemovePress, UndoPress, MarkPress,
    TimeUpPress, PausePress, ResumePress)

#: a pad's presses by name, and the operator's
PAD_PRESSES: Mapping[str, type[PadPress]] = {k.DO: k for k in _PAD_KINDS}
OPERATOR_PRESSES: Mapping[str, type[OperatorPress]] = {k.DO: k for k in _OPERATOR_KINDS}
#: an older journal's name → the name
_RENAMED: Mapping[str, str] = {old: k.DO for k in (*_PAD_KINDS, *_OPERATOR_KINDS)
                               for old in k.OLD}


def read_press(press: Press, seats: int) -> PadPress | OperatorPress:
    """The typed press of ``press`` at a table of ``seats``: the operator's when the operator
    pressed, a pad's else (see :func:`read_pad_press`)."""
    if press.who == OPERATOR:
        return read_operator_press(press, seats)
    return read_pad_press(press, seats)


def read_pad_press(press: Press, seats: int) -> PadPress:
    """A seat's typed press; PressError names the first field that is not what the press
    takes (``do``: the name is none of a pad's presses)."""
    kind = PAD_PRESSES.get(press.do)
    if kind is None:
        raise _no_such(press.do, "a pad's", PAD_PRESSES)
    return kind.read(Fields(press.do, press.data, seats))


def read_operator_press(press: Press, seats: int) -> OperatorPress:
    """The operator's typed press (as :func:`read_pad_press`)."""
    kind = OPERATOR_PRESSES.get(press.do)
    if kind is None:
        raise _no_such(press.do, "the operator's", OPERATOR_PRESSES)
    return kind.read(Fields(press.do, press.data, seats))


def _no_such(do: str, screen: str, kinds: Mapping[str, type]) -> PressError:
    return PressError(do, "do", Reason.BAD_REQUEST,
                      f"must be one of {screen} presses ({', '.join(kinds)})")


def press_input(press: PadPress | OperatorPress, who: Who, t: float) -> Input:
    """The input event the journal writes for ``press``, pressed by ``who`` at ``t``."""
    if who == OPERATOR:
        return Input(OPERATOR_INPUT, t, {"do": press.DO, **press.fields()})
    return Input(PAD, t, {"seat": who, "do": press.DO, **press.fields()})


def journal_press(event: Input) -> Press | None:
    """The press a journal's ``pad`` or ``operator`` line wrote, under its name now (an older
    journal's names read too); None for any other line."""
    if event.type not in (PAD, OPERATOR_INPUT):
        return None
    data = dict(event.data)
    do = str(data.pop("do", ""))
    who: Who = OPERATOR
    if event.type == PAD:
        seat = data.pop("seat", None)
        if not is_int(seat):
            return None
        who = seat
    return Press(who, _RENAMED.get(do, do), data, event.t)
