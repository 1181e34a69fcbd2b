"""What an operator types: night actions, votes, fouls — read against what the game waits for.

One operator at the laptop (hostless play's terminal) enters the gestures of the table. A line is read against what the game is waiting for:

| the game waits for | the operator types | means |
| --- | --- | --- |
| the hunt (2.1.2) | ``7`` | every living mafioso shot 7 (the agreed target) |
| | ``3:7 5:7 9:2`` | shooter:target, per mafioso (a miss when they disagree) |
| | ``-`` | nobody shot |
| the don's / the sheriff's check | ``4`` / ``-`` | the seat checked / no check |
| hands for a candidate (2.4) | ``6`` | six hands (a count, seats not named) |
| | ``1 2 4`` or ``4,`` | the hands of these seats (a trailing comma: one seat) |
| | ``-`` | no hands |
| the car-crash question (2.4.2) | ``1 2 4`` / ``-`` | the seats voting «за» / nobody |
| at any moment | ``f 6`` / ``r 6`` | a warning to seat 6 / seat 6 removed (2.4.3) |
| | ``q`` | stop the game (the journal keeps it for ``narrator resume``) |

A night step or a vote does not end before the operator has answered it: the narrator waits
at the end of the count, of the check, of the voting window, so a slow typist loses nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from narrator.engine import Action, Check, Foul, Game, HandCount, Hands, Remove, Shot
from narrator.engine.game import Expect

#: the kinds of step the operator answers; the game waits at their timer's end for an answer
OPERATOR_STEPS = ("hunt", "check", "hands")


@dataclass(frozen=True)
class OperatorInput:
    """What one operator line means: actions to apply, and whether it answers the step."""

    actions: tuple[Action, ...] = ()
    done: bool = False  # answers the current night step / voting window
    quit: bool = False
    text: str = ""


class OperatorLineError(ValueError):
    """A line that means nothing now; the message says what was expected."""


_SEATS = re.compile(r"^\d+(\s*[, ]\s*\d+)*\s*,?$")


def _seat_list(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in re.split(r"[\s,]+", text.strip().strip(",")) if x)


def prompt_for(expect: Expect, game: Game) -> str | None:
    """The one-line prompt for an operator step (None when the step is not the operator's)."""
    if expect.kind == "hunt":
        return "hunt: the agreed target (7), per shooter (3:7 5:7), or - for no shot"
    if expect.kind == "check":
        return f"the {expect.role}'s check: the seat checked, or - for none"
    if expect.kind == "hands" and expect.candidate is not None:
        return (f"hands for {expect.candidate}: a count (6), the seats (1 2 4 or 4,), "
                "or - for none")
    if expect.kind == "hands":
        return "car crash: the seats voting for (1 2 4), or - for none"
    return None


def parse_operator_line(line: str, game: Game) -> OperatorInput:
    """Read one operator line against ``game.expect``; OperatorLineError when it means nothing."""
    text = line.strip()
    exp = game.expect
    if not text:
        raise OperatorLineError("empty line")
    if text.lower() in ("q", "quit"):
        return OperatorInput(quit=True, text=text)
    m = re.fullmatch(r"([frFR])\s*(\d+)", text)
    if m:
        seat = int(m.group(2))
        action: Action = Foul(seat) if m.group(1).lower() == "f" else Remove(seat)
        return OperatorInput((action,), text=text)
    kind = exp.kind
    if kind not in OPERATOR_STEPS:
        raise OperatorLineError(f"nothing to enter now (waiting for {exp})")
    if text == "-":
        return OperatorInput((), done=True, text=text)
    if kind == "hunt":
        pairs = re.findall(r"(\d+)\s*:\s*(\d+)", text)
        if pairs and re.fullmatch(r"(\s*\d+\s*:\s*\d+\s*,?)+", text):
            return OperatorInput(tuple(Shot(int(s), int(t)) for s, t in pairs), True, text=text)
        if text.isdigit():
            target = int(text)
            shooters = [s for s in game.living if s in game.black]
            return OperatorInput(tuple(Shot(s, target) for s in shooters), True, text=text)
        raise OperatorLineError("hunt: type the target (7), shooter:target pairs, or -")
    if kind == "check":
        if text.isdigit():
            assert exp.role is not None
            return OperatorInput((Check(exp.role, int(text)),), True, text=text)
        raise OperatorLineError(f"the {exp.role}'s check: type a seat number or -")
    # hands
    if not _SEATS.match(text):
        raise OperatorLineError("hands: type a count, the seats, or -")
    if exp.candidate is not None and text.isdigit():
        return OperatorInput((HandCount(int(text)),), True, text=text)
    seats = _seat_list(text)
    return OperatorInput((Hands(seats),) if seats else (), True, text=text)


def describe(actions: Sequence[Action]) -> str:
    """Actions as their text forms, comma-joined (for logs)."""
    return ", ".join(map(str, actions)) or "nothing"
