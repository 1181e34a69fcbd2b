"""The evening's fair seating: the operator's «Справедливая рассадка», the default for the next
game, what the operator sees of it (and no player does), who sat a game out kept in the book,
and previous evenings' games from the folders beside the evening's."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from narrator.clock import VirtualClock
from narrator.console.table import Press
from narrator.console.tokens import OPERATOR
from narrator.evening.book import EveningBook, player_id
from narrator.evening.fair import evenings_beside, previous_games
from narrator.evening.front import EveningFront, Finished
from tests.console.conftest import make_rig
from tests.evening.test_evening import NAMES, new_book

TWELVE = [*NAMES, "Лев", "Рысь"]


def watched(book: EveningBook, **kw: Any) -> tuple[EveningFront, dict[Any, dict[str, Any]]]:
    """A front between games and every page's view as the page gets it."""
    front = EveningFront(book, VirtualClock(), rng=random.Random(2), **kw)
    views: dict[Any, dict[str, Any]] = {}
    front.publish = lambda vs: views.update(
        {who: json.loads(v.message)["view"] for who, v in vs.items()})
    return front, views


def test_fair_seats_ten_of_twelve_and_the_operator_sees_why(tmp_path: Path) -> None:
    book = new_book(tmp_path / "ev", TWELVE)
    front, views = watched(book)
    assert front.handle(Press(OPERATOR, "fair", {}, 0.0)).ok
    seating = book.seating
    assert sorted(seating) == list(range(1, 11)) and len(set(seating.values())) == 10
    fair = views[OPERATOR]["evening"]["fair"]
    assert [(p["seat"], p["number"]) for p in fair["players"]] == sorted(seating.items())
    assert all(p["seats"] == [0] * 10 for p in fair["players"])  # nobody has played yet
    out = sorted(set(range(1, 13)) - set(seating.values()))
    assert [o["number"] for o in fair["out"]] == out
    assert [(o["times_out"], o["played"]) for o in fair["out"]] == [(0, 0), (0, 0)]
    assert fair["draws"] == 200 and not fair["changed"]
    assert isinstance(fair["score"], float) and isinstance(fair["random"], float)
    # a player sees his own seat, nothing of the explanation
    for p in book.players:
        mine = views[player_id(p.number)]
        assert mine["player"]["seat"] == next((s for s, n in seating.items()
                                               if n == p.number), None)
        assert "evening" not in mine and "fair" not in json.dumps(mine)
    assert EveningBook.load(book.folder).seating == seating  # saved


def test_a_game_over_seats_the_next_one_fairly_and_who_sat_out_goes_first(
        tmp_path: Path) -> None:
    book = new_book(tmp_path / "ev", TWELVE)
    book.seating = {s: s for s in range(1, 11)}  # 11 and 12 sit game 1 out
    entry = book.new_game("crime-time")
    assert entry.out == [11, 12]
    rig = make_rig()
    front, views = watched(book)
    front.attach(rig.table, entry)
    assert views[OPERATOR].get("evening", {}).get("fair") is None  # (in play: none)
    for seat in (3, 5, 9):
        rig.op("remove", seat=seat)
    front.detach(Finished(entry, rig.game), [])
    seating = book.seating
    assert {11, 12} <= set(seating.values())  # those who sat out play now
    fair = views[OPERATOR]["evening"]["fair"]
    assert [(o["times_out"], o["played"]) for o in fair["out"]] == [(0, 1), (0, 1)]
    for row in fair["players"]:  # each seated player's one game so far, on its seat
        n = row["number"]
        assert row["seats"] == ([0] * 10 if n > 10 else [int(s == n) for s in range(1, 11)])
        assert row["seat"] != n
    assert fair["score"] < fair["random"]
    # the operator still seats by hand (the explanation says it is no longer the fair one)
    assert front.handle(Press(OPERATOR, "seat", {"seat": 1, "player": seating[2]}, 0.0)).ok
    assert views[OPERATOR]["evening"]["fair"]["changed"]
    assert front.handle(Press(OPERATOR, "draw", {}, 0.0)).ok
    assert front.handle(Press(OPERATOR, "fair", {}, 0.0)).ok
    assert not views[OPERATOR]["evening"]["fair"]["changed"]


def test_who_sat_out_is_kept_and_an_older_book_without_it_loads(tmp_path: Path) -> None:
    book = new_book(tmp_path / "ev", TWELVE)
    book.leave(12)
    book.seating = {s: 11 - s for s in range(1, 11)}
    book.new_game("crime-time")
    book.save()
    assert json.loads(book.path.read_text())["games"][0]["out"] == [11]  # 12 went home
    assert EveningBook.load(book.folder).games[0].out == [11]
    raw = json.loads(book.path.read_text())
    del raw["games"][0]["out"]
    book.path.write_text(json.dumps(raw), encoding="utf-8")
    again = EveningBook.load(book.folder)
    assert again.games[0].out == [] and again.games[0].seating == book.games[0].seating


def test_an_evening_opening_unseated_is_seated_fairly(tmp_path: Path) -> None:
    book = new_book(tmp_path / "ev")
    front, _ = watched(book)
    front.open()
    assert sorted(book.seating.values()) == list(range(1, 11))
    seated = dict(book.seating)
    front.open()  # (a seating there already stays)
    assert book.seating == seated


def test_previous_evenings_beside_count_by_id_or_nickname(tmp_path: Path) -> None:
    club = tmp_path / "club"
    last = new_book(club / "2026-11-26", ["НИКА", *NAMES[1:9], "Гость"])
    last.set_id(2, 902)
    for _ in range(5):  # «Ника» on seat 1, «Бублик» (id 902) on seat 2, every game
        last.seating = {s: s for s in range(1, 11)}
        last.new_game("crime-time")
    last.save()
    (club / "broken").mkdir()
    (club / "broken" / "evening.json").write_text("{", encoding="utf-8")
    tonight = new_book(club / "2026-12-03", ["Ника", "Боб", *NAMES[2:10]])
    tonight.set_id(2, 902)  # another nickname, the same MafiaRatings id
    others, notes = evenings_beside(tonight.folder)
    assert [b.folder.name for b in others] == ["2026-11-26"]
    assert len(notes) == 1 and "broken" in notes[0] and "bad JSON" in notes[0]
    before = previous_games(tonight, others)
    assert len(before) == 5
    assert before[0].seating[1] == 1 and before[0].seating[2] == 2  # tonight's numbers
    assert before[0].seating[10] < 0  # «Гость» is not here tonight
    for seed in range(6):
        front, views = watched(tonight, before=before)
        front.rng = random.Random(seed)
        assert front.handle(Press(OPERATOR, "fair", {}, 0.0)).ok
        assert tonight.seating[1] != 1 and tonight.seating[2] != 2
        rows = {p["number"]: p["seats"] for p in views[OPERATOR]["evening"]["fair"]["players"]}
        assert rows[1][0] == 5 and rows[2][1] == 5 and rows[10] == [0] * 10
