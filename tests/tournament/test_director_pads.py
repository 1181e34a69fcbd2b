"""A player's pad through the director: each seat of the plan has a pad token the director
gives its table alone (in the table's plan); a table says where its console is and where its
game stands (``POST /join/TOKEN/status``); a player's page links to his pad at his next table
once that table plays the round before his or his own, and the board shows which table is on
which day or night. A database of the version before pads gets them when opened."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from narrator.tournament.director import Director
from narrator.tournament.status import phase_text
from narrator.tournament.store import FILE, Store
from narrator.tournament.web import build_app
from tests.tournament.director_helpers import NAMES, ROUNDS, FakeClock, body, make_director

CONSOLE = "http://10.0.0.7:8765"


@pytest.fixture
def director(tmp_path: Path) -> Director:
    return make_director(tmp_path, FakeClock())


@pytest.fixture
def client(director: Director) -> TestClient:
    return TestClient(build_app(director))


def _join(director: Director, table: int) -> str:
    return f"/join/{director.store.tables()[table - 1].token}"


def _status(client: TestClient, director: Director, table: int, **state: object) -> int:
    answer = client.post(_join(director, table) + "/status", json={"console": CONSOLE, **state})
    return answer.status_code


def test_each_table_gets_its_own_seats_pad_tokens_and_no_others(
        client: TestClient, director: Director) -> None:
    one = client.get(_join(director, 1) + "/plan").json()["pads"]
    two = client.get(_join(director, 2) + "/plan").json()["pads"]
    assert [len(r) for r in one] == [10] * len(ROUNDS) and [len(r) for r in two] == [10, 10]
    tokens = [t for r in one + two for t in r]
    assert len(set(tokens)) == len(tokens) == 2 * 2 * 10  # one per round, table and seat
    players = {p.token for p in director.players}
    assert not players & set(tokens)  # (a pad token is not the player's page)
    assert director.store.tables()[0].token not in tokens


def test_a_players_page_links_to_his_pad_once_his_table_is_at_his_round(
        client: TestClient, director: Director) -> None:
    nika = director.players[0]  # round 1: table 1 seat 1; round 2: table 2 seat 10
    page = f"/p/{nika.token}/state.json"
    assert client.get(page).json()["next"]["pad"] is None  # (table 1 has said nothing yet)
    assert _status(client, director, 1, game=1, round=1, playing=True, time="night",
                   number=0, living=10) == 200
    pad = director.store.pad(1, 1, 1)
    assert client.get(page).json()["next"]["pad"] == f"{CONSOLE}/pad/{pad}"
    # round 1 in at table 1: his next is round 2 at table 2, which plays round 1 still —
    # the round before his: the table takes his token already (his seat for the next game)
    assert client.post(_join(director, 1) + "/games", json=body(director.folder, 1, 1)
                       ).status_code == 200
    assert client.get(page).json()["next"]["pad"] is None  # (table 2 has said nothing)
    assert _status(client, director, 2, game=1, round=1, playing=True) == 200
    assert client.get(page).json()["next"]["pad"] == \
        f"{CONSOLE}/pad/{director.store.pad(2, 2, 10)}"


def test_a_table_at_another_round_gives_no_link(client: TestClient,
                                               director: Director) -> None:
    """Ника's next is round 1 at table 1: a table 1 that says it is at round 2 (it played
    his round without him, or its operator went on) does not take round 1's tokens, nor does
    a table past its plan (no round)."""
    page = f"/p/{director.players[0].token}/state.json"
    assert _status(client, director, 1, game=2, round=2, playing=True) == 200
    assert client.get(page).json()["next"]["pad"] is None
    assert _status(client, director, 1, game=5, round=None, playing=False) == 200
    assert client.get(page).json()["next"]["pad"] is None


def test_the_board_shows_where_each_table_is(client: TestClient, director: Director) -> None:
    assert _status(client, director, 2, game=3, round=2, playing=True, time="day", number=2,
                   living=7) == 200
    now = client.get("/tv/state.json").json()["now"]
    assert now == [{"table": 1, "phase": "нет вестей", "playing": False},
                   {"table": 2, "phase": "игра 3 · день 2 · в игре 7", "playing": True}]
    assert CONSOLE not in str(client.get("/tv/state.json").json())  # (no address on the TV)
    assert phase_text({"playing": False, "round": 3}) == "между играми · дальше тур 3"


@pytest.mark.parametrize(("state", "field"), [
    ({"console": "http://h:1/pad/x"}, "console"), ({"console": "ftp://h:1"}, "console"),
    ({"console": "http://u:p@h:1"}, "console"), ({"console": "http://h:99999"}, "console"),
    ({"time": "dusk"}, "time"), ({"game": 0}, "game"), ({"round": True}, "round"),
    ({"playing": "yes"}, "playing"), ({"living": 101}, "living")])
def test_a_status_that_is_none_is_a_400_naming_the_field(
        client: TestClient, director: Director, state: dict[str, object], field: str) -> None:
    answer = client.post(_join(director, 1) + "/status", json=state)
    assert answer.status_code == 400 and answer.json()["error"].startswith(field)
    assert director.store.tables()[0].status is None


def test_an_unknown_token_says_nothing_of_a_status(client: TestClient) -> None:
    answer = client.post("/join/" + "x" * 32 + "/status", json={"console": CONSOLE})
    assert answer.status_code == 404


def test_a_database_from_before_pads_gets_them_on_open(tmp_path: Path) -> None:
    director = make_director(tmp_path)
    folder = director.folder
    director.store.close()
    db = sqlite3.connect(folder / FILE)
    db.executescript("ALTER TABLE plan DROP COLUMN pad; ALTER TABLE tables DROP COLUMN console;"
                     "ALTER TABLE tables DROP COLUMN status;")
    db.close()
    store = Store.open(folder)
    pads = store.pads(1)
    assert len(pads) == len(ROUNDS) and all(len(r) == 10 and all(r) for r in pads)
    assert store.tables()[0].console is None and len(NAMES) == 20
    store.close()


def test_the_directors_page_shows_each_tables_console_and_game(client: TestClient,
                                                             director: Director) -> None:
    assert _status(client, director, 1, game=2, round=2, playing=True, time="night",
                   number=2, living=9) == 200
    tables = client.get(f"/director/{director.tournament.token}/state.json").json()["tables"]
    assert [(t["table"], t["phase"], t["console"]) for t in tables] == [
        (1, "игра 2 · ночь 2 · в игре 9", CONSOLE), (2, "нет вестей", None)]
