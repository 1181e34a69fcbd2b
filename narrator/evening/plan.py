"""An evening seated by a tournament's plan: ``narrator evening DIR --plan FILE --plan-table N``.

The plan (any format ``narrator tournament`` reads: ours, MafiaRatings', a web_schedule) says
who sits where at each table each round. The evening keeps its table's rounds in the book, by
nickname, so a resume seats alike; the evening's k-th game from then on is the plan's round k.
Its players join the roster (each with a link of his own; MafiaRatings ids from the plan or the
roster). A planned player who has left or is not at the club leaves his seat empty for the
operator to fill; past the plan's last round the fair seating takes over.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from narrator.errors import NarratorError
from narrator.evening.book import EveningBook, PlanLink
from narrator.replay.roster import key_of
from narrator.seating.formats import read_seating
from narrator.seating.score import SEATS


@dataclass(frozen=True)
class Planned:
    """The plan's seating of the next game: ``round`` of ``rounds`` (from 1) at ``table``,
    seat → player number, and the planned players not at the club (seat → nickname)."""

    round: int
    rounds: int
    table: int
    file: str
    seating: dict[int, int]
    absent: dict[int, str]

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "rounds": self.rounds, "table": self.table,
                "file": self.file,
                "absent": [{"seat": s, "name": n} for s, n in sorted(self.absent.items())]}


def attach_plan(book: EveningBook, path: str, table: int) -> None:
    """``--plan FILE --plan-table N``: table N's rounds kept in the book, its players on the
    roster; a one-line NarratorError when the plan cannot seat this evening's table."""
    check_seats(book, path)
    roster = [(p.name, p.mafiaratings) for p in book.players]
    plan, _ = read_seating(path, roster=roster)
    if not 1 <= table <= plan.tables:
        raise NarratorError(f"--plan-table {table}: {path} has tables 1 to {plan.tables}")
    rounds = [rnd[table - 1] for rnd in plan.named_rounds()]
    attach_rounds(book, path, table, rounds, dict(zip(plan.names, plan.ids, strict=True)),
                  label=Path(path).name)


def check_seats(book: EveningBook, where: str) -> None:
    """A plan seats tables of ten: an evening at another table size cannot follow one."""
    if book.seats != SEATS:
        raise NarratorError(f"{where}: a plan seats tables of {SEATS}; this evening's table "
                            f"has {book.seats} seats")


def attach_rounds(book: EveningBook, where: str, table: int, rounds: list[list[str]],
                  ids: dict[str, int | None], *, label: str, start: int | None = None,
                  pads: list[list[str]] | None = None) -> None:
    """Table ``table``'s ``rounds`` (nicknames seat by seat) kept in the book from game
    ``start`` on (default: the next game), labelled ``label`` on the operator's page; their
    players join the roster, each with his MafiaRatings id from ``ids`` when he has none yet.
    ``where`` (a file, a director's address) names the source in a one-line NarratorError;
    on one, the book's plan is left as it was. ``pads``: a director's pad tokens per round
    (:meth:`EveningBook.who` takes them for the rounds at hand)."""
    check_seats(book, where)
    for name in dict.fromkeys(n for rnd in rounds for n in rnd):
        player = next((p for p in book.players if key_of(p.name) == key_of(name)), None)
        try:
            if player is None:
                player = book.add_player(name)
            if player.mafiaratings is None and ids.get(name) is not None:
                book.set_id(player.number, ids[name])
        except NarratorError as e:  # (a nickname too long, the roster full, an id taken)
            raise NarratorError(f"{where}: {e}") from None
    book.plan = PlanLink(label, table, len(book.games) if start is None else start,
                         tuple(tuple(r) for r in rounds), tuple(tuple(p) for p in pads or ()))


def planned(book: EveningBook) -> Planned | None:
    """The plan's seating of the book's next game (None: no plan, or past its last round)."""
    plan = book.plan
    if plan is None:
        return None
    index = len(book.games) - plan.start
    rounds = plan.rounds
    if not 0 <= index < len(rounds):
        return None
    present = {key_of(p.name): p.number for p in book.present}
    seating: dict[int, int] = {}
    absent: dict[int, str] = {}
    for seat, name in enumerate(rounds[index], start=1):
        number = present.get(key_of(name))
        if number is None:
            absent[seat] = name
        else:
            seating[seat] = number
    return Planned(index + 1, len(rounds), plan.table, plan.file, seating,
                   absent)
