"""A table's side of the players' pads and of its word to the director: the director's pad
tokens (its plan's ``pads``) open the planned player's own pad at this table — those of the
round last started and of the next, no other round's, no other table's; the table tells the
director where its console is and where its game stands, once per change, and again once
the director is back."""

from __future__ import annotations

from pathlib import Path

import pytest

from narrator.clock import VirtualClock
from narrator.errors import NarratorError
from narrator.evening.book import EveningBook
from narrator.evening.director import read_plan
from narrator.evening.join import forward
from narrator.evening.plan import planned
from narrator.evening.status import table_status
from tests.tournament.joining import finish_game, forwarder, joined_book
from tests.tournament.standin_director import StandInDirector
from tests.tournament.test_join_forward import games_of

WAIT = 20.0


def _who(book: EveningBook, site: StandInDirector, rnd: int, seat: int, table: int = 1
         ) -> object:
    return book.who(site.pads[table][rnd - 1][seat - 1])


def _planned(book: EveningBook, site: StandInDirector, rnd: int, seat: int) -> str:
    name = site.rounds[1][rnd - 1][seat - 1]
    player = next(p for p in book.players if p.name == name)
    return player.who


def test_a_rounds_pad_token_opens_its_players_pad_from_the_round_before_to_the_round_after(
        tmp_path: Path, director: StandInDirector) -> None:
    book = joined_book(tmp_path / "ev", director)
    assert book.plan is not None and book.plan.pads == tuple(map(tuple, director.pads[1]))
    # the pads' tokens are kept: a table killed and started again takes them still
    assert EveningBook.load(book.folder).plan == book.plan
    # before game 1: round 1's tokens (the next game) only
    assert all(_who(book, director, 1, s) == _planned(book, director, 1, s) for s in range(1, 11))
    assert _who(book, director, 2, 1) is None
    finish_game(book)  # game 1 (round 1) started and over: rounds 1 and 2 open
    assert _who(book, director, 1, 4) == _planned(book, director, 1, 4)
    assert _who(book, director, 2, 4) == _planned(book, director, 2, 4)
    finish_game(book)  # round 2 started: round 1's tokens open nobody's pad now
    assert _who(book, director, 1, 4) is None
    assert _who(book, director, 3, 4) == _planned(book, director, 3, 4)
    # another table's token is nobody's here, in any round
    assert all(_who(book, director, r, s, table=2) is None for r in (1, 2, 3)
               for s in range(1, 11))


def test_the_token_follows_the_player_when_the_operator_moves_him(
        tmp_path: Path, director: StandInDirector) -> None:
    book = joined_book(tmp_path / "ev", director)
    plan = planned(book)
    assert plan is not None
    book.seating = dict(plan.seating)  # (as the evening opens: seated by the plan)
    first, fifth = book.seating[1], book.seating[5]
    book.seat(1, fifth)  # (a swap: the planned seat-1 player sits on 5 now)
    assert book.seating[5] == first
    assert _who(book, director, 1, 1) == book.player(first).who  # type: ignore[union-attr]


def test_a_plan_with_bad_pads_is_one_line(director: StandInDirector) -> None:
    raw = {"tournament": 1, "table": 1, "tables": 2, "rounds": director.rounds[1],
           "pads": [["short"] * 10] * 3}
    with pytest.raises(NarratorError) as bad:
        read_plan(raw, "the director at 127.0.0.1:1")
    assert str(bad.value) == ("the director at 127.0.0.1:1: its plan's pads: expected a pad "
                              "token for each of the 10 seats of each round")
    assert read_plan({**raw, "pads": None}, "x").pads == []  # (a director that gives none)


def test_the_table_says_where_it_is_once_per_change_and_again_when_the_director_is_back(
        tmp_path: Path, director: StandInDirector) -> None:
    book = joined_book(tmp_path / "ev", director)
    said: list[str] = []
    sender = forwarder(book, director, said, reachable=True)
    lobby = table_status(book, None, None, "http://127.0.0.1:9")
    assert lobby == {"console": "http://127.0.0.1:9", "game": 1, "round": 1, "playing": False,
                     "time": None, "number": None, "living": None}
    sender.report(lobby)
    assert sender.wait(WAIT) and director.statuses == [(1, lobby)]
    sender.report(dict(lobby))  # the same word is not said twice
    assert sender.wait(WAIT) and len(director.statuses) == 1
    director.stop()
    moved = {**lobby, "game": 2, "round": 2}
    sender.report(moved)
    assert sender.wait(WAIT) and sender.reachable is False
    director.start()
    clock = VirtualClock(0.0)
    sender.tick(clock.now())
    clock.advance(31.0)
    sender.tick(clock.now())  # (the timer: the word not said yet goes again)
    assert sender.wait(WAIT) and director.statuses[-1] == (1, moved)


def test_a_director_without_the_status_request_is_not_asked_again(
        tmp_path: Path, director: StandInDirector) -> None:
    book = joined_book(tmp_path / "ev", director)
    director.no_status = True
    said: list[str] = []
    sender = forwarder(book, director, said, reachable=True)
    sender.report(table_status(book, None, None, ""))
    assert sender.wait(WAIT) and said == [] and sender.reachable is True
    entry = finish_game(book)  # a game still goes (the word is not in its way)
    forward(book, games_of(book), sender, said.append)
    assert sender.wait(WAIT) and f"{book.id}-{entry.number}" in director.stored
