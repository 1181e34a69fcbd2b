"""``--scoring club.toml``: the club's TOML scores the tournament as it scores the club's
evenings — its ``[points]`` table when its ``[scoring]`` names no other system — and the
database keeps that table whole, so the tournament scores the same once the file is gone."""

from __future__ import annotations

from pathlib import Path

import pytest

from narrator.errors import NarratorError
from narrator.tournament.director import Director
from narrator.tournament.run_cli import open_store
from narrator.tournament.standings import scoring_of
from narrator.tournament.store import Store, Tournament
from tests.tournament.director_helpers import (
    BLACK_WIN,
    NAMES,
    RED_WIN,
    FakeClock,
    body,
    make_director,
    run_args,
    write_plan,
)

CLUB = """[points]
win = 3
loss = -1
removal = -2
"""
#: the club's table with the defaults filled in
KEPT = {"win": 3.0, "loss": -1.0, "best_move_black": 0.0, "foul": 0.0, "removal": -2.0}


def _points(director: Director) -> dict[str, float]:
    return {line["name"]: line["points"] for line in director.view()["standings"]}


def _club(tmp_path: Path, text: str = CLUB) -> Path:
    path = tmp_path / "club.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_club_toml_scores_by_its_points_and_the_database_keeps_them(tmp_path: Path) -> None:
    """Round 1 at table 1 (players 0–9): the reds win 3 each; the blacks (seats 3, 5, 9:
    players 2, 4, 8) lose −1 and were removed −2. At table 2 (players 10–19) the blacks
    (players 12, 14, 18) win 3; the reds lose −1, the removed ones (seats 2, 4, 6, 7: players
    11, 13, 15, 16) −2 more."""
    write_plan(tmp_path)
    club = _club(tmp_path)
    director = make_director(tmp_path, scoring=str(club))
    assert director.tournament.kept_scoring() == {"system": "points", "points": KEPT}
    for table, win in ((1, RED_WIN), (2, BLACK_WIN)):
        game = body(tmp_path, 1, table, win)
        assert director.receive(director.store.tables()[table - 1], game) == {"stored": True}
    expected = {n: -1.0 for n in NAMES}
    for p in (0, 1, 3, 5, 6, 7, 9, 12, 14, 18):
        expected[NAMES[p]] = 3.0
    for p in (2, 4, 8, 11, 13, 15, 16):
        expected[NAMES[p]] = -3.0
    assert _points(director) == expected
    assert director.view()["system"] == "points"
    director.store.close()
    club.unlink()  # the file moved away: the database scores the same
    store = Store.open(tmp_path / "t")
    again = Director(store, tmp_path / "t", FakeClock())
    assert _points(again) == expected
    store.close()


def test_the_same_toml_given_again_is_the_tournaments_and_another_differs(
        tmp_path: Path) -> None:
    write_plan(tmp_path)
    club = _club(tmp_path)
    for made in (True, False):
        store, was_made = open_store(run_args(tmp_path, scoring=str(club)), 0)
        store.close()
        assert was_made is made
    _club(tmp_path, CLUB.replace("win = 3", "win = 2"))
    with pytest.raises(NarratorError, match="--scoring differs"):
        open_store(run_args(tmp_path, scoring=str(club)), 0)


@pytest.mark.parametrize(("text", "kept"), [
    ("", {"system": "points", "points": {**KEPT, "win": 1.0, "loss": 0.0, "removal": 0.0}}),
    ('[scoring]\nsystem = "points"\n' + CLUB, {"system": "points", "points": KEPT}),
    ('[scoring]\nsystem = "fiim"\n' + CLUB, {"system": "fiim"}),  # its [points] not FIIM's
])
def test_what_the_database_keeps_of_a_club_toml(tmp_path: Path, text: str,
                                               kept: dict[str, object]) -> None:
    spec, points, _ = scoring_of(str(_club(tmp_path, text)))
    assert Tournament("t", None, spec, None, "x", points).kept_scoring() == kept


def test_a_points_table_that_does_not_read_is_one_line(tmp_path: Path) -> None:
    club = _club(tmp_path, "[points]\nwin = \"three\"\n")
    with pytest.raises(NarratorError) as raised:
        scoring_of(str(club))
    assert str(raised.value) == f"{club}: points.win: expected a number from -100 to 100, " \
                                "got 'three'"
