"""An evening seated by a tournament's plan (``--plan FILE --plan-table N``): its table's
rounds kept in the book, its players on the roster with their ids, each game seated as its
round says, an absent player's seat left empty, the fair seating past the last round, the
operator's «По плану» after a change, and the one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from narrator.console.table import Press
from narrator.console.tokens import OPERATOR
from narrator.errors import NarratorError
from narrator.evening.book import EveningBook
from narrator.evening.front import Finished
from narrator.evening.plan import attach_plan, planned
from narrator.seating.ours import to_ours_json
from narrator.seating.value import seating
from tests.console.conftest import make_rig
from tests.evening.test_evening import new_book
from tests.evening.test_evening_fair import watched

NAMES = [f"Игрок{i}" for i in range(1, 21)]


def two_table_plan(tmp_path: Path) -> Path:
    """20 players, 2 tables, 3 rounds: round r's table 1 is players r … r+9 (mod 20), seat by
    seat; player 3 has a MafiaRatings id."""
    rounds = []
    for r in range(3):
        first = [(r + i) % 20 for i in range(10)]
        rounds.append([first, [p for p in range(20) if p not in first]])
    ids: list[int | None] = [None] * 20
    ids[2] = 4242
    path = tmp_path / "plan.json"
    path.write_text(to_ours_json(seating("plan", rounds, NAMES, ids)), encoding="utf-8")
    return path


def test_the_plan_seats_each_game_as_its_round_says(tmp_path: Path) -> None:
    book = new_book(tmp_path / "ev", NAMES[:4])  # four of the plan's players are there already
    attach_plan(book, str(two_table_plan(tmp_path)), 1)
    assert [p.name for p in book.players] == NAMES[:4] + NAMES[1:10][3:] + ["Игрок11", "Игрок12"]
    third = book.player(3)
    assert third is not None and third.mafiaratings == 4242
    book.save()
    book = EveningBook.load(book.folder)  # (the plan is in the book: a resume seats alike)
    number = {p.name: p.number for p in book.players}
    for r in range(3):
        plan = planned(book)
        assert plan is not None and (plan.round, plan.rounds, plan.table) == (r + 1, 3, 1)
        assert plan.seating == {s: number[NAMES[(r + s - 1) % 20]] for s in range(1, 11)}
        assert not plan.absent
        book.seating = dict(plan.seating)
        book.new_game("crime-time")
    assert planned(book) is None  # past the last round


def test_the_front_seats_by_the_plan_after_a_game_and_past_it_fairly(tmp_path: Path) -> None:
    book = new_book(tmp_path / "ev", [])
    attach_plan(book, str(two_table_plan(tmp_path)), 2)
    front, views = watched(book)
    front.open()
    front.publish_views()
    number = {p.name: p.number for p in book.players}
    assert book.seating == {s: number[NAMES[10 + s - 1]] for s in range(1, 11)}  # table 2
    shown = views[OPERATOR]["evening"]["plan"]
    assert (shown["round"], shown["rounds"], shown["table"], shown["file"]) == \
        (1, 3, 2, "plan.json")
    assert views[OPERATOR]["evening"]["fair"] is None
    for player in views:  # (a player's page shows his own seat only)
        if player != OPERATOR:
            assert "plan" not in json.dumps(views[player])
    # the operator changes a seat, then takes the plan's back
    book.seat(1, book.seating[2])
    assert front.handle(Press(OPERATOR, "seat", {"seat": 1, "player": book.seating[1]},
                              0.0)).ok
    assert views[OPERATOR]["evening"]["plan"]["changed"]
    assert front.handle(Press(OPERATOR, "plan", {}, 0.0)).ok
    assert not views[OPERATOR]["evening"]["plan"]["changed"]
    for r in range(3):  # each game over: the next round's table 2, then the fair seating
        entry = book.new_game("crime-time")
        rig = make_rig()
        front.attach(rig.table, entry)
        for seat in (3, 5, 9):
            rig.op("remove", seat=seat)
        front.detach(Finished(entry, rig.game), [])
        if r < 2:
            assert views[OPERATOR]["evening"]["plan"]["round"] == r + 2
        else:
            assert views[OPERATOR]["evening"]["plan"] is None
            assert views[OPERATOR]["evening"]["fair"] is not None
            assert not front.handle(Press(OPERATOR, "plan", {}, 0.0)).ok


def test_a_planned_player_who_left_leaves_his_seat_empty(tmp_path: Path) -> None:
    book = new_book(tmp_path / "ev", [])
    attach_plan(book, str(two_table_plan(tmp_path)), 1)
    gone = next(p for p in book.players if p.name == "Игрок5")
    book.leave(gone.number)
    plan = planned(book)
    assert plan is not None and plan.absent == {5: "Игрок5"} and 5 not in plan.seating
    front, views = watched(book)
    front.open()
    front.publish_views()
    assert 5 not in book.seating and views[OPERATOR]["evening"]["problem"]
    assert views[OPERATOR]["evening"]["plan"]["absent"] == [{"seat": 5, "name": "Игрок5"}]


def test_a_plan_that_cannot_seat_the_evening_is_one_line(tmp_path: Path) -> None:
    path = two_table_plan(tmp_path)
    book = new_book(tmp_path / "ev", [])
    with pytest.raises(NarratorError, match=r"--plan-table 3: .*plan.json has tables 1 to 2"):
        attach_plan(book, str(path), 3)
    (tmp_path / "bad.csv").write_text("round,table,seat,player\n1,1,1,A\n", encoding="utf-8")
    with pytest.raises(NarratorError, match=r"bad\.csv"):
        attach_plan(book, str(tmp_path / "bad.csv"), 1)
    book.seats = 12
    with pytest.raises(NarratorError, match="tables of 10; this evening's table has 12"):
        attach_plan(book, str(path), 1)
    assert not book.plan and not book.players  # nothing taken


def test_the_plan_given_again_on_a_resume_keeps_its_place(tmp_path: Path) -> None:
    from narrator.evening.cli import _take_plan

    path = two_table_plan(tmp_path)
    book = new_book(tmp_path / "ev", [])
    _take_plan(book, str(path), 1)
    book.seating = dict(planned(book).seating)  # type: ignore[union-attr]
    book.new_game("crime-time")
    _take_plan(book, str(path), 1)  # (the evening taken up with the same command line)
    assert planned(book).round == 2  # type: ignore[union-attr]
    _take_plan(book, str(path), 2)  # another table: its rounds from this game on
    plan = planned(book)
    assert plan is not None and (plan.round, plan.table) == (1, 2) and book.seating == {}
