"""The standings the director's pages show, by hand: FIIM's points of the games received, the
final's coefficient, the standings hidden while the final plays; a player's next seat; the
pages behind their tokens."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient

from narrator.tournament.director import Director
from narrator.tournament.web import build_app
from tests.tournament.director_helpers import (
    BLACK_WIN,
    NAMES,
    RED_WIN,
    FakeClock,
    body,
    make_director,
    write_plan,
)


def _send(director: Director, tmp_path: Path, rnd: int, table: int, win: str) -> None:
    game = body(tmp_path, rnd, table, RED_WIN if win == "red" else BLACK_WIN)
    assert director.receive(director.store.tables()[table - 1], game) == {"stored": True}


def _points(view: dict[str, object]) -> dict[str, float]:
    return {line["name"]: line["points"] for line in view["standings"]}  # type: ignore


#: FIIM today (version 7) gives 0.3 to every player of a game not given the worst move
AUTO = 0.3


def test_the_standings_are_fiims_points_by_hand(tmp_path: Path) -> None:
    """FIIM version 7: a win 1, a removal −0.5, and 0.3 to every player (nobody is given the
    worst move). Round 1. Table 1 (players 0–9 on seats 1–10): the reds win, the removed blacks (seats
    3, 5, 9: players 2, 4, 8) −0.5. Table 2 (players 10–19): the blacks (players 12, 14, 18)
    win 1, the removed reds (seats 2, 4, 6, 7: players 11, 13, 15, 16) −0.5, the other reds 0."""
    write_plan(tmp_path)
    director = make_director(tmp_path)
    _send(director, tmp_path, 1, 1, "red")
    _send(director, tmp_path, 1, 2, "black")
    expected = {n: AUTO for n in NAMES}
    for p in (0, 1, 3, 5, 6, 7, 9, 12, 14, 18):
        expected[NAMES[p]] = 1.0 + AUTO
    for p in (2, 4, 8, 11, 13, 15, 16):
        expected[NAMES[p]] = -0.5 + AUTO
    view = director.view()
    assert _points(view) == pytest.approx(expected)
    assert [line["place"] for line in view["standings"]] == list(range(1, 21))
    points = [line["points"] for line in view["standings"]]
    assert points == sorted(points, reverse=True)
    games = {line["name"]: line["games"] for line in view["standings"]}
    assert set(games.values()) == {1}
    assert view["note"] is None


def test_the_finals_coefficient_multiplies_its_games(tmp_path: Path) -> None:
    """The final from round 2, coefficient 1.5. Round 2 at table 1 seats player 20 − s on seat
    s (19 … 10): the reds win 1.5 each, the removed blacks (seats 3, 5, 9: players 17, 15, 11)
    −0.5 × 1.5; round 1's game at table 1 counts as it is."""
    write_plan(tmp_path)
    director = make_director(tmp_path, final_from=2, final_coefficient=1.5)
    _send(director, tmp_path, 1, 1, "red")
    _send(director, tmp_path, 2, 1, "red")
    expected = {n: 0.0 for n in NAMES}
    for p in (0, 1, 3, 5, 6, 7, 9):
        expected[NAMES[p]] = 1.0 + AUTO
    for p in (2, 4, 8):
        expected[NAMES[p]] = -0.5 + AUTO
    for p in (19, 18, 16, 14, 13, 12, 10):
        expected[NAMES[p]] = (1.0 + AUTO) * 1.5
    for p in (17, 15, 11):
        expected[NAMES[p]] = (-0.5 + AUTO) * 1.5
    assert _points(director.view()) == pytest.approx(expected)
    assert _points(director.director_view()) == pytest.approx(expected)


def test_a_hidden_final_shows_the_standings_before_it_until_it_is_over(tmp_path: Path) -> None:
    write_plan(tmp_path)
    director = make_director(tmp_path, final_from=2, final_coefficient=2.0, hide_final=True)
    _send(director, tmp_path, 1, 1, "red")
    _send(director, tmp_path, 1, 2, "black")
    before = _points(director.view())
    assert director.view()["note"] is None  # the final has not begun: nothing hidden
    _send(director, tmp_path, 2, 1, "red")
    playing = director.view()
    assert _points(playing) == before and "Финал" in playing["note"]
    assert _points(director.director_view()) != before  # the director sees it all
    assert director.director_view()["note"] is None
    _send(director, tmp_path, 2, 2, "red")
    over = director.view()
    assert over["note"] is None and _points(over) == _points(director.director_view())
    # round 1 a red who won; round 2, table 2, seat 10: a red who won, times 2
    assert _points(over)[NAMES[0]] == pytest.approx(1.0 + AUTO + (1.0 + AUTO) * 2.0)


def test_a_players_next_seat_is_his_first_round_not_in(tmp_path: Path) -> None:
    write_plan(tmp_path)
    director = make_director(tmp_path)
    nika, grom = director.players[0], director.players[10]
    assert director.player_view(nika)["next"] == {"round": 1, "table": 1, "seat": 1, "pad": None}
    _send(director, tmp_path, 1, 1, "red")
    # round 2 seats players 9 … 0 at table 2: Ника (0) on seat 10
    assert director.player_view(nika)["next"] == {"round": 2, "table": 2, "seat": 10, "pad": None}
    _send(director, tmp_path, 2, 1, "red")
    # table 1 has played round 2, but Гром's round 1 (table 2, seat 1) is not in yet
    assert director.player_view(grom)["next"] == {"round": 1, "table": 2, "seat": 1, "pad": None}
    _send(director, tmp_path, 2, 2, "red")
    assert director.player_view(nika)["next"] is None
    assert director.player_view(nika)["place"] == next(
        line["place"] for line in director.view()["standings"] if line["name"] == "Ника")


def test_the_board_shows_each_tables_next_round_and_the_games_in(tmp_path: Path) -> None:
    write_plan(tmp_path)
    director = make_director(tmp_path)
    _send(director, tmp_path, 1, 2, "red")
    view = director.view()
    assert view["next"] == [
        {"table": 1, "round": 1, "seats": NAMES[:10]},
        {"table": 2, "round": 2, "seats": NAMES[9::-1]}]
    assert view["games"] == [
        {"table": 1, "games": 0, "rounds": [{"round": 1, "in": False}, {"round": 2, "in": False}]},
        {"table": 2, "games": 1, "rounds": [{"round": 1, "in": True}, {"round": 2, "in": False}]}]


@pytest.mark.parametrize("page", ["tv", "player", "director"])
def test_each_page_and_its_state_are_behind_its_token(tmp_path: Path, page: str) -> None:
    write_plan(tmp_path)
    director = make_director(tmp_path)
    client = TestClient(build_app(director))
    path = {"tv": "/tv", "player": f"/p/{director.players[3].token}",
            "director": f"/director/{director.tournament.token}"}[page]
    html = client.get(path)
    assert html.status_code == 200 and f'data-page="{page}"' in html.text
    state = client.get(path + "/state.json")
    assert state.status_code == 200 and state.json()["name"] == "t"
    if page != "tv":
        assert client.get(path[:-3] + "xyz").status_code == 404
        assert client.get(path[:-3] + "xyz/state.json").status_code == 404
    for asset in ("/tournament/tournament.js", "/tournament/tournament.css",
                  "/static/console.css"):
        assert client.get(asset).status_code == 200


def test_the_director_sees_each_tables_last_contact(tmp_path: Path) -> None:
    clock = FakeClock()
    write_plan(tmp_path)
    director = make_director(tmp_path, clock)
    director.plan_for(director.store.tables()[1])
    clock.now += 42
    tables = director.director_view()["tables"]
    assert [(t["table"], t["ago"]) for t in tables] == [(1, None), (2, 42)]
    assert tables[0]["join"] == f"http://127.0.0.1:1/join/{director.store.tables()[0].token}"
