"""The steps of a night and of a day, as values a ruleset lists (python-chess's variants list
their moves; here a ruleset lists its steps, and the game runs them).

A night after the first begins with the phase "night" and goes on with
:meth:`Rules.night_steps <narrator.engine.rules.Rules.night_steps>`: crime-time's are
``HuntStep(), Resolve(), Wake("don", ("check",), …), Wake("sheriff", ("check",), …),
Announce("sheriff_sleeps")``. A day begins with the phase "day" and the night's result (the
victims, their last words), then :meth:`Rules.day_steps <narrator.engine.rules.Rules.day_steps>`:
crime-time's are ``Speeches("day"), VoteStep()``. The game runs the steps; it never asks which
ruleset it plays.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from narrator.engine.types import Act, Actor, SpeechKind

__all__ = ["Act", "Actor", "Announce", "DayStep", "ExtraStep", "HuntStep", "NightStep", "Resolve",
           "Speeches", "StepFigure", "VoteStep", "Wake"]


@dataclass(frozen=True, slots=True)
class Announce:
    """A phase begins and the narrator says its lines; nothing is waited for."""

    phase: str


@dataclass(frozen=True, slots=True)
class HuntStep:
    """The mafia's hunt during the count (crime-time 2.1.2): every living mafioso shoots as
    the narrator names the seats; a hit only when they all shot the same one."""


@dataclass(frozen=True, slots=True)
class Wake:
    """``role`` wakes for ``seconds`` and may do one of ``acts`` (the first is its usual one).

    ``role`` is the :class:`Actor`: a card, or the mafia as a team (the don's decision, the
    mafia pointing at their victim). The time runs out in full whether or not the role acts
    (and whether or not it is still at the table), so the length of a night tells nothing."""

    role: Actor
    acts: tuple[Act, ...]
    seconds: float
    phase: str


@dataclass(frozen=True, slots=True)
class Resolve:
    """The night's victims, but for the one saved, leave the table."""


NightStep = Announce | HuntStep | Wake | Resolve


@dataclass(frozen=True, slots=True)
class StepFigure:
    """The timer of a first-night step (2.1.1), as the ruleset's figures give it: ``seconds``
    names the setting of its length (times the seats at the table for ``per_seat``: the deal),
    ``warning`` the setting of its «Десять секунд», if any. Names, not numbers: a club's
    tuned figures (``--timer``) are read at the step."""

    seconds: str
    warning: str | None = None
    per_seat: bool = False


@dataclass(frozen=True, slots=True)
class Speeches:
    """A round of speeches of every living seat, once each.

    ``order`` "circle": from the ruleset's day opener round the table; "floor": whoever raises
    a hand first (each living seat once). ``put_up``: after each speech, thumbs may put the one
    just accused up for the vote. ``announce``: the narrator says who opens the round."""

    kind: SpeechKind = "day"
    order: Literal["circle", "floor"] = "circle"
    put_up: bool = False
    announce: bool = False


@dataclass(frozen=True, slots=True)
class ExtraStep:
    """After the discussion, the seats that held a hand up get 30 s more each, in its order."""


@dataclass(frozen=True, slots=True)
class VoteStep:
    """The day's vote (see the ruleset's ``ballot``, ``no_vote`` and ``verdict``);
    ``justify``: each candidate speaks (a justification) before the first round."""

    justify: bool = False


DayStep = Announce | Speeches | ExtraStep | VoteStep
