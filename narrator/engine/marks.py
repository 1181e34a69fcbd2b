"""The host's marks after a game: what a sport host gives once the game is over.

Extra points (positive or negative; the club's ``bonus_step`` and ``bonus_max`` say the step
and the bound), the titles best player, best move and worst move, and a comment. MafiaRatings
stores them per player (``bonus``, ``comment``) and asks for the comment whenever points or a
title are given («Please enter comment.», its ``set_bonus``): a mark that gives something and
says nothing is refused here, so no front end lets one through that the rating system drops.
The marks change nothing of the game: not the winner, not a seat, not a timer.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from narrator.engine.actions import MARK_TITLES, Mark
from narrator.engine.rules import Rules
from narrator.reasons import Reason

__all__ = ["COMMENT_LONGEST", "mark_problem", "marks_json", "on_step"]

#: a comment's length at most (a line of the journal; MafiaRatings' is a line of text too)
COMMENT_LONGEST = 300


def on_step(points: float, step: float) -> bool:
    """``points`` is a whole number of ``step``s (decimal: 0.3 is three steps of 0.1)."""
    if not step:
        return not points
    return Decimal(repr(points)) % Decimal(repr(step)) == 0


def mark_problem(rules: Rules, mark: Mark) -> tuple[str, Reason] | None:
    """Why the club's rules refuse ``mark`` (its seat aside), or None: it is taken."""
    if len(set(mark.titles)) != len(mark.titles) or not set(mark.titles) <= set(MARK_TITLES):
        return f"titles are {', '.join(MARK_TITLES)}, each once", Reason.BAD_REQUEST
    if abs(mark.points) > rules.bonus_max:
        return (f"extra points go from {-rules.bonus_max:g} to {rules.bonus_max:+g} "
                f"(the club's bonus_max)", Reason.BAD_POINTS)
    if not on_step(mark.points, rules.bonus_step):
        return (f"extra points go in steps of {rules.bonus_step:g} (the club's bonus_step)",
                Reason.BAD_POINTS)
    if len(mark.comment) > COMMENT_LONGEST or any(c < " " for c in mark.comment):
        return (f"a comment is one line of at most {COMMENT_LONGEST} characters",
                Reason.BAD_REQUEST)
    if (mark.points or mark.titles) and not mark.comment.strip():
        return "points or a title need a comment saying why", Reason.COMMENT_NEEDED
    return None


def marks_json(marks: dict[int, Mark]) -> list[dict[str, Any]]:
    """The protocol's ``marks``: one entry per seat marked, in seat order."""
    return [{"seat": m.seat, "points": m.points, "titles": list(m.titles),
             "comment": m.comment} for _, m in sorted(marks.items())]
