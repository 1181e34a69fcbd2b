"""The evening's fair seating: the games it weighs, gathered from the book and from the
evenings beside it; the choice itself is :func:`narrator.seating.fair.fair_seating`'s.

Previous evenings are the other evening folders in the evening's parent folder (each with its
``evening.json``, as ``narrator standings`` reads them). Their games count with their seats and
meetings only (sit-outs are this evening's); a player there is tonight's by the MafiaRatings id,
else by the nickname, as in the standings.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from narrator.errors import NarratorError
from narrator.evening.book import BOOK, EveningBook
from narrator.evening.standings import nickname, player_key
from narrator.seating.fair import Choice, Past, fair_seating


def evenings_beside(folder: Path) -> tuple[list[EveningBook], list[str]]:
    """The other evenings in ``folder``'s parent, in their folders' name order, and a note for
    each that cannot be read (it is left out: tonight's evening goes on without it)."""
    books: list[EveningBook] = []
    notes: list[str] = []
    here = folder.resolve()
    try:
        beside = sorted(p for p in here.parent.iterdir() if p.is_dir() and p != here)
    except OSError as e:
        return [], [f"{here.parent}: previous evenings not read ({e.strerror})"]
    for other in beside:
        if not (other / BOOK).is_file():
            continue
        try:
            books.append(EveningBook.load(other))
        except NarratorError as e:
            notes.append(f"previous evening left out: {e}")
    return books, notes


def tonight_games(book: EveningBook) -> list[Past[int]]:
    """This evening's games: seat → player number, and who sat each out."""
    return [Past(dict(g.seating), list(g.out)) for g in book.games]


def previous_games(book: EveningBook, others: list[EveningBook]) -> list[Past[int]]:
    """The games of ``others`` in tonight's player numbers; a player not on tonight's roster
    gets a number of his own below 1 (his seats matter to nobody tonight, but he made the
    table as full as it was)."""
    ids = {nickname(p): p.mafiaratings for b in [book, *others] for p in b.players
           if p.mafiaratings is not None}
    tonight = {player_key(p, ids): p.number for p in book.players}
    stranger = 0
    games: list[Past[int]] = []
    for other in others:
        local: dict[int, int] = {}
        for p in other.players:
            number = tonight.get(player_key(p, ids))
            if number is None:
                stranger -= 1
                number = stranger
            local[p.number] = number
        for g in other.games:
            games.append(Past({s: local[n] for s, n in g.seating.items() if n in local},
                              [local[n] for n in g.out if n in local]))
    return games


def fair_choice(book: EveningBook, before: list[Past[int]], seed: int) -> Choice[int]:
    """The fair seating of the players present for the book's next game."""
    return fair_seating([p.number for p in book.present], book.seats, tonight_games(book),
                        before, seed=seed)


def explain(book: EveningBook, choice: Choice[int]) -> dict[str, Any]:
    """The operator's «Справедливая рассадка» as the page shows it: each seated player's seat
    counts so far (seats 1…N) and the seat chosen, who sits out and why, the choice's score
    against the random draws' mean; ``changed``: the seating is no longer the fair one."""
    def name(number: int) -> str:
        player = book.player(number)
        return player.name if player is not None else str(number)

    return {
        "players": [{"seat": s, "number": n, "name": name(n), "seats": choice.seats_so_far[n]}
                    for s, n in sorted(choice.seating.items())],
        "out": [{"number": o.player, "name": name(o.player), "times_out": o.times_out,
                 "played": o.played} for o in choice.out],
        "score": round(choice.cost, 1), "random": round(choice.random_cost, 1),
        "draws": choice.draws, "changed": book.seating != choice.seating,
    }
