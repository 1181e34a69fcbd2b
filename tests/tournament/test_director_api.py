"""The tables' API of the director's box: a table's plan, a game stored once, and each refusal
(404 an unknown token, 400 a body that is no finished game, 409 a key with another journal,
413 a body too large)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from narrator.engine import Remove, TimeUp
from narrator.tournament.director import Director
from narrator.tournament.web import MAX_BODY, build_app
from tests.evening.test_evening import journal_game
from tests.helpers import ROLES
from tests.tournament.director_helpers import (
    BLACK_WIN,
    NAMES,
    RED_WIN,
    ROUNDS,
    FakeClock,
    body,
    make_director,
    write_plan,
)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def director(tmp_path: Path, clock: FakeClock) -> Director:
    write_plan(tmp_path)
    return make_director(tmp_path, clock, name="Кубок", rules="crime-time")


@pytest.fixture
def client(director: Director) -> TestClient:
    return TestClient(build_app(director))


def _token(director: Director, table: int) -> str:
    return director.store.tables()[table - 1].token


def test_a_table_gets_its_own_rounds_and_players(director: Director, client: TestClient,
                                                  clock: FakeClock) -> None:
    answer = client.get(f"/join/{_token(director, 2)}/plan")
    assert answer.status_code == 200
    doc = answer.json()
    assert {k: doc[k] for k in ("tournament", "table", "tables", "name", "rules")} == \
        {"tournament": 1, "table": 2, "tables": 2, "name": "Кубок", "rules": "crime-time"}
    assert doc["rounds"] == [[NAMES[p] for p in rnd[1]] for rnd in ROUNDS]
    assert sorted(p["name"] for p in doc["players"]) == sorted(NAMES)  # both halves sit here
    assert all(p["mafiaratings"] is None for p in doc["players"])
    assert [t.contact for t in director.store.tables()] == [None, clock.now]


def test_an_unknown_token_is_404_on_either_endpoint(director: Director,
                                                    client: TestClient, tmp_path: Path) -> None:
    wrong = _token(director, 1)[:-1] + ("A" if _token(director, 1)[-1] != "A" else "B")
    assert client.get(f"/join/{wrong}/plan").status_code == 404
    answer = client.post(f"/join/{wrong}/games", json=body(tmp_path, 1, 1))
    assert answer.status_code == 404 and "error" in answer.json()
    assert director.store.games() == []


def test_a_game_is_stored_once(director: Director, client: TestClient, tmp_path: Path,
                               clock: FakeClock) -> None:
    game = body(tmp_path, 1, 1)
    url = f"/join/{_token(director, 1)}/games"
    first = client.post(url, json=game)
    assert (first.status_code, first.json()) == (200, {"stored": True})
    clock.now += 30
    again = client.post(url, json=game)
    assert (again.status_code, again.json()) == (200, {"stored": False, "already": True})
    stored = director.store.games()
    assert len(stored) == 1
    got = stored[0]
    assert (got.key, got.round, got.table, got.game, got.journal) == \
        (game["key"], 1, 1, 1, game["journal"])
    assert got.seating == {int(s): n for s, n in game["seating"].items()}
    assert got.received == clock.now - 30
    assert director.store.tables()[0].contact == clock.now


def test_the_same_key_with_another_journal_is_409(director: Director, client: TestClient,
                                                   tmp_path: Path) -> None:
    url = f"/join/{_token(director, 1)}/games"
    assert client.post(url, json=body(tmp_path, 1, 1, key="k")).status_code == 200
    other = client.post(url, json=body(tmp_path, 1, 1, BLACK_WIN, key="k"))
    assert other.status_code == 409 and "another journal" in other.json()["error"]
    assert len(director.store.games()) == 1


@pytest.mark.parametrize(("change", "says"), [
    ({"key": ""}, "key"),
    ({"round": 0}, "round"),
    ({"game": "2"}, "game"),
    ({"journal": 5}, "journal"),
    ({"journal": '{"not": "a journal"}\n'}, "journal"),
    ({"seating": {"11": "Ника"}}, "seating"),
    ({"seating": ["Ника"]}, "seating"),
    ({"ended": "2027-01-15T21:00"}, "ended"),
])
def test_a_body_that_is_no_game_is_400(director: Director, client: TestClient,
                                       tmp_path: Path, change: dict[str, object],
                                       says: str) -> None:
    game = {**body(tmp_path, 1, 1), **change}
    answer = client.post(f"/join/{_token(director, 1)}/games", json=game)
    assert answer.status_code == 400
    assert answer.json()["error"].startswith(says)
    assert director.store.games() == []


def test_a_game_not_over_and_a_body_not_json_are_400(director: Director, client: TestClient,
                                                      tmp_path: Path) -> None:
    url = f"/join/{_token(director, 1)}/games"
    playing = body(tmp_path, 1, 1, (TimeUp("dealing"), Remove(3)))
    answer = client.post(url, json=playing)
    assert answer.status_code == 400 and "not ended" in answer.json()["error"]
    answer = client.post(url, content=b"{not json", headers={"content-type": "application/json"})
    assert answer.status_code == 400
    assert answer.json()["error"].startswith("the body is not JSON")
    assert director.store.games() == []


def test_a_body_over_two_megabytes_is_refused(director: Director, client: TestClient,
                                              tmp_path: Path) -> None:
    game = body(tmp_path, 1, 1)
    game["padding"] = "x" * MAX_BODY
    answer = client.post(f"/join/{_token(director, 1)}/games",
                         content=json.dumps(game).encode())
    assert answer.status_code == 413 and "error" in answer.json()
    assert director.store.games() == []


def test_an_absent_players_seat_may_be_left_empty(director: Director, client: TestClient,
                                                  tmp_path: Path) -> None:
    """As the table sends it: the seat empty in its seating and unnamed in its journal."""
    game = body(tmp_path, 1, 1)
    seated = {int(s): n for s, n in game["seating"].items() if s != "4"}
    journal = tmp_path / "absent.jsonl"
    journal_game(journal, "crime-time", ROLES, seated, *RED_WIN)
    game["journal"] = journal.read_text(encoding="utf-8")
    game["seating"] = {**game["seating"], "4": None}
    assert client.post(f"/join/{_token(director, 1)}/games", json=game).json() == \
        {"stored": True}
    assert 4 not in director.store.games()[0].seating


def test_a_seat_the_journal_names_and_the_seating_leaves_empty_is_400(
        director: Director, client: TestClient, tmp_path: Path) -> None:
    """(Else another table's journal with an empty seating would hold its round and table.)"""
    game = {**body(tmp_path, 1, 1), "seating": {}}
    answer = client.post(f"/join/{_token(director, 1)}/games", json=game)
    assert answer.status_code == 400
    assert answer.json()["error"] == f"seating.1: empty, but the journal seats {NAMES[0]!r} there"
    assert director.store.games() == []
