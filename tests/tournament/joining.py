"""What the tests of a table joining its director share: the tournament (20 players, two
tables, three rounds), the stand-in director serving it, a joined evening's book, a finished
game's journal and an evening run on a virtual clock."""

from __future__ import annotations

import io
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from narrator.clock import VirtualClock
from narrator.console.table import Press
from narrator.console.tokens import OPERATOR
from narrator.engine import Remove, TimeUp
from narrator.evening.book import EveningBook, GameEntry
from narrator.evening.forward import Forwarder
from narrator.evening.front import Finished
from narrator.evening.join import take_join
from narrator.evening.outbox import Outbox
from tests.evening.test_evening import journal_game, new_book
from tests.helpers import ROLES
from tests.tournament.standin_director import StandInDirector

NAMES = [f"Игрок{i}" for i in range(1, 21)]
#: MafiaRatings ids of some of the players
IDS: dict[str, int | None] = {"Игрок3": 4242, "Игрок12": 12}


def tournament_rounds() -> dict[int, list[list[str]]]:
    """Round r's table 1 is players r+1 … r+10 (mod 20), seat by seat; table 2 the rest."""
    tables: dict[int, list[list[str]]] = {1: [], 2: []}
    for r in range(3):
        first = [(r + i) % 20 for i in range(10)]
        tables[1].append([NAMES[p] for p in first])
        tables[2].append([NAMES[p] for p in range(20) if p not in first])
    return tables


@pytest.fixture
def director() -> Iterator[StandInDirector]:
    with StandInDirector(tournament_rounds(), IDS) as site:
        yield site


def joined_book(folder: Path, site: StandInDirector, table: int = 1) -> EveningBook:
    """A new evening that joined ``site`` as ``table`` (saved)."""
    book = new_book(folder, [])
    assert take_join(book, site.link(table), table, lambda line: None) is True
    book.save()
    return book


def finish_game(book: EveningBook) -> GameEntry:
    """The next game, seated by the plan's round, played to its end (the civilians win) in
    its journal."""
    from narrator.evening.plan import planned

    plan = planned(book)
    assert plan is not None
    book.seating = dict(plan.seating)
    entry = book.new_game("crime-time")
    journal_game(book.journal(entry), "crime-time", ROLES, book.names_of(entry.seating),
                 TimeUp("dealing"), Remove(3), Remove(5), Remove(9))
    book.save()
    return entry


def forwarder(book: EveningBook, site: StandInDirector, said: list[str],
              **kw: Any) -> Forwarder:
    return Forwarder(Outbox(book.folder), book.join.url, say=said.append, **kw)


class EveningRun:
    """``narrator evening`` over ``book`` on a virtual clock with the test's own thread: each
    game the operator removes the three black seats (the civilians win); after each game
    ``between(number)`` runs (on the evening's loop) and says whether to play on."""

    def __init__(self, book: EveningBook, director: Forwarder,
                 between: Callable[[int], bool]) -> None:
        from narrator.console.serve import ConsoleOptions
        from narrator.evening.cli import Evening
        from narrator.play.cli import TableOptions

        opts = TableOptions(lang="ru", listen=False,
                            console=ConsoleOptions("127.0.0.1:0", None, False, True))
        self.clock = VirtualClock(1000.0)
        self.evening = Evening(book, opts, None, wav=True, rng=random.Random(5),
                               clock=self.clock, terminal=io.StringIO(""), director=director)
        self.seatings: list[dict[int, int]] = []
        front = self.evening.front
        attach, detach = front.attach, front.detach

        def game_on(table: Any, entry: GameEntry) -> None:
            attach(table, entry)
            self.seatings.append(dict(entry.seating))
            for seat in sorted(table.host.game.black):
                self.operator("remove", seat=seat)

        def lobby(finished: Finished | None, results: Any) -> None:
            detach(finished, results)
            assert finished is not None
            self.operator("start" if between(finished.entry.number) else "close")

        front.attach, front.detach = game_on, lobby  # type: ignore[method-assign]

    def operator(self, do: str, **data: Any) -> None:
        front = self.evening.front
        self.evening.driver.call(lambda: front.handle(Press(OPERATOR, do, data,
                                                            self.clock.now())))

    def run(self, first: str = "start") -> int:
        self.operator(first)
        return self.evening.run()
