"""What a table of a tournament says of itself to its director (``POST LINK/status``): the
address of its console (the players' pad links on the director's pages lead there), the game
in play or the next one, the plan's round it is, day or night and its number, the players
still in. The director's board shows it; it holds no secret (no card, no seat's role).
"""

from __future__ import annotations

from typing import Any

from narrator.console.view import OperatorView, View
from narrator.evening.book import EveningBook, GameEntry
from narrator.evening.join import round_of
from narrator.evening.plan import planned


def table_status(book: EveningBook, entry: GameEntry | None, operator: View | None,
                 console: str) -> dict[str, Any]:
    """The table's state: ``entry`` the game in play (None: between games) with the operator's
    view of it; ``console`` the console's base URL ("" while it is not up)."""
    out: dict[str, Any] = {"console": console or None, "game": None, "round": None,
                           "playing": False, "time": None, "number": None, "living": None}
    if entry is None:
        coming = planned(book)
        out.update(game=len(book.games) + 1, round=coming.round if coming else None)
        return out
    out.update(game=entry.number, round=round_of(book, entry), playing=True)
    if isinstance(operator, OperatorView):  # (the game's own view, before the evening's)
        common = operator.common
        phase = common.phase
        time = str(getattr(phase.time, "value", phase.time))
        out.update(time=time if time in ("day", "night") else None,
                   number=phase.number, living=len(common.living))
    return out
