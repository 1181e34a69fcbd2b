"""The host's marks for a game already over, given between games.

Once a game of the evening is over its table is gone, but the operator may still mark it until
the next one starts. A mark is the engine's to take (:meth:`Game.refusal`); taken, it goes into
that game's journal as a game would have journaled it — the operator's press, then the action —
so the game read back from its journal (a resume of the evening, the export, ``narrator resume
--json``) has it, and the protocol with it.
"""

from __future__ import annotations

from pathlib import Path

from narrator.console.presses import MarkPress, press_input
from narrator.console.tokens import OPERATOR
from narrator.engine import Game, Mark
from narrator.errors import NarratorError
from narrator.host.journal import Journal, load_journal
from narrator.inputs import action
from narrator.reasons import Reason


def mark_of(press: MarkPress) -> Mark:
    """The engine's mark a press gives."""
    return Mark(press.seat, press.points, press.titles, press.comment.strip())


def mark_over(game: Game, path: Path, press: MarkPress, t: float) -> Reason | None:
    """Give ``press``'s mark to ``game`` (over, its journal at ``path``, closed); the reason
    the engine refuses it, or None once it is journaled and taken. A journal that cannot be
    written is a NarratorError in one line, and the game is left without the mark."""
    mark = mark_of(press)
    reason = game.refusal(mark)
    if reason is not None:
        return reason
    journal = Journal(path, load_journal(path).header)
    try:  # the press and the action written before the game takes it, as at the table
        journal.write(press_input(press, OPERATOR, t))
        if journal.failure is not None:
            raise NarratorError(journal.failure)
        game.apply(mark, accepted=lambda taken: journal.write(action(t, str(taken))))
    finally:
        journal.close()
    return None
