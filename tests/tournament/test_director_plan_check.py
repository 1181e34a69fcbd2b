"""The director stores only the plan's games: a round the plan has, from the table the plan
seats its players at, each player on one seat, the seating the journal's, and nothing it holds
already under another key — so nobody's game counts twice, nor for somebody else. Each
refusal is a 4xx naming the cause; the table keeps the game (its outbox, a ``.refused`` note)
and its operator's page shows which game and why."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from narrator.evening.director import Answer
from narrator.evening.forward import Forwarder
from narrator.evening.outbox import Outbox
from narrator.tournament.director import Director
from narrator.tournament.web import build_app
from tests.tournament.director_helpers import (
    BLACK_WIN,
    NAMES,
    RED_WIN,
    ROUNDS,
    FakeClock,
    body,
    journal_text,
    make_director,
    write_plan,
)

WAIT = 20.0


@pytest.fixture
def director(tmp_path: Path) -> Director:
    write_plan(tmp_path)
    return make_director(tmp_path, FakeClock())


@pytest.fixture
def client(director: Director) -> TestClient:
    return TestClient(build_app(director))


def _post(client: TestClient, director: Director, table: int,
          game: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    answer = client.post(f"/join/{director.store.tables()[table - 1].token}/games", json=game)
    return answer.status_code, answer.json()


def _games_of(director: Director, name: str) -> int:
    return int(next(line["games"] for line in director.view()["standings"]
                    if line["name"] == name))


def test_a_round_the_plan_does_not_have_is_400(director: Director, client: TestClient,
                                               tmp_path: Path) -> None:
    game = {**body(tmp_path, 1, 1), "round": 99, "key": "e1-99"}
    status, answer = _post(client, director, 1, game)
    assert status == 400
    assert answer["error"] == "round: the plan has rounds 1 to 2, not 99"
    assert director.store.games() == []


def test_another_tables_journal_under_a_new_key_is_refused_and_counts_once(
        director: Director, client: TestClient, tmp_path: Path) -> None:
    first = body(tmp_path, 1, 1, key="table1-1")
    assert _post(client, director, 1, first) == (200, {"stored": True})
    # table 2 sends table 1's game as its own: its seating says who played it
    status, answer = _post(client, director, 2, {**first, "key": "table2-1"})
    assert status == 400
    assert answer["error"] == (f"seating.1: {NAMES[0]!r} plays round 1 at table 1 by the plan, "
                               "not at table 2")
    # relabelled with table 2's players: the journal says who played it
    table2 = [NAMES[p] for p in ROUNDS[0][1]]
    relabelled = {**first, "key": "table2-1b",
                  "seating": {str(s): n for s, n in enumerate(table2, 1)}}
    status, answer = _post(client, director, 2, relabelled)
    assert status == 400
    assert answer["error"] == f"seating.1: {table2[0]!r}, but the journal seats {NAMES[0]!r} there"
    # table 1 itself sending it again under another key: it is in already
    status, answer = _post(client, director, 1, {**first, "key": "table1-1-again", "game": 7})
    assert status == 409
    assert answer["error"] == "journal: this game is in already, round 1 at table 1 " \
        "(key 'table1-1')"
    assert [g.key for g in director.store.games()] == ["table1-1"]
    assert all(_games_of(director, NAMES[p]) == 1 for p in ROUNDS[0][0])
    assert all(_games_of(director, NAMES[p]) == 0 for p in ROUNDS[0][1])


def test_a_second_game_of_a_round_from_one_table_is_409(director: Director, client: TestClient,
                                                        tmp_path: Path) -> None:
    assert _post(client, director, 1, body(tmp_path, 1, 1))[0] == 200
    another = body(tmp_path, 1, 1, BLACK_WIN, key="replayed-1", game=2)  # played again
    status, answer = _post(client, director, 1, another)
    assert status == 409
    assert answer["error"] == ("round 1: table 1's game of it is in already (key 'evening1-1'); "
                               "a table plays each round once")
    assert len(director.store.games()) == 1


def test_one_nickname_on_every_seat_is_400(director: Director, client: TestClient,
                                           tmp_path: Path) -> None:
    game = {**body(tmp_path, 1, 1), "seating": {str(s): NAMES[0] for s in range(1, 11)}}
    status, answer = _post(client, director, 1, game)
    assert status == 400
    assert answer["error"] == (f"seating: {NAMES[0]!r} on seats 1, 2, 3, 4, 5, 6, 7, 8, 9, 10: "
                               "a player has one seat")
    # letter case and spaces aside, as the standings match a nickname
    twice = body(tmp_path, 1, 1)
    twice["seating"] = {**twice["seating"], "2": f"  {NAMES[0].upper()} "}
    status, answer = _post(client, director, 1, twice)
    assert status == 400 and answer["error"].endswith("on seats 1, 2: a player has one seat")
    assert director.store.games() == []
    assert _games_of(director, NAMES[0]) == 0


def _seated(folder: Path, key: str, rnd: int, seated: list[str]) -> dict[str, Any]:
    return {"key": key, "round": rnd, "game": rnd,
            "journal": journal_text(folder, seated, RED_WIN),
            "seating": {str(s): n for s, n in enumerate(seated, 1)}}


def test_a_substitute_plays_once_a_round(director: Director, client: TestClient,
                                         tmp_path: Path) -> None:
    """A nickname the plan does not seat (a substitute) sits where the table seats him, and
    plays one game a round like anyone."""
    one = [NAMES[p] for p in ROUNDS[0][0]]
    one[3] = "Новичок"
    assert _post(client, director, 1, _seated(tmp_path, "t1", 1, one)) == (200, {"stored": True})
    two = [NAMES[p] for p in ROUNDS[0][1]]
    two[5] = "новичок"
    status, answer = _post(client, director, 2, _seated(tmp_path, "t2", 1, two))
    assert status == 409
    assert answer["error"] == "seating: 'новичок' played round 1 at table 1 already (key 't1')"
    assert _games_of(director, "Новичок") == 1
    two[5] = "Гость"  # another substitute: taken
    assert _post(client, director, 2, _seated(tmp_path, "t2", 1, two)) == (200, {"stored": True})


def test_two_tables_posting_one_journal_at_once_store_it_once(director: Director,
                                                               tmp_path: Path) -> None:
    game = body(tmp_path, 1, 1)
    tables = director.store.tables()
    got: list[object] = []

    def post(key: str) -> None:
        try:
            got.append(director.receive(tables[0], {**game, "key": key}))
        except Exception as e:
            got.append(type(e).__name__)

    threads = [threading.Thread(target=post, args=(f"k{i}",)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(WAIT)
    assert sorted(map(str, got)) == ["OtherJournal"] * 3 + ["{'stored': True}"]
    assert len(director.store.games()) == 1


def test_the_table_keeps_a_refused_game_and_its_operator_sees_why(
        director: Director, client: TestClient, tmp_path: Path) -> None:
    """Table 2's box, as it sends: the director's refusal keeps the game in its outbox with a
    note, said once, and on the operator's page (its state) with the director's reason."""
    token = director.store.tables()[1].token

    def post(link: str, sent: dict[str, Any]) -> Answer:
        answer = client.post(f"/join/{token}/games", json=sent)
        return Answer(answer.status_code, answer.json())

    def post_status(link: str, sent: dict[str, Any]) -> Answer:
        return Answer(200, {"ok": True})

    folder = tmp_path / "table2"
    folder.mkdir()
    said: list[str] = []
    sender = Forwarder(Outbox(folder), "http://127.0.0.1:1/join/" + token, say=said.append,
                       post=post, post_status=post_status, reachable=True)
    wrong = {**body(tmp_path, 1, 1), "key": "ev2-1", "round": 1, "game": 1}  # table 1's game
    late = {**body(tmp_path, 2, 2), "key": "ev2-3", "round": 3, "game": 3}  # no round 3
    good = {**body(tmp_path, 2, 2), "key": "ev2-2", "game": 2}
    for sent in (wrong, good, late):
        sender.owe(str(sent["key"]), sent)
    sender.kick()
    assert sender.wait(WAIT)
    assert [g.key for g in director.store.games()] == ["ev2-2"]
    why_wrong = (f"HTTP 400: seating.1: {NAMES[0]!r} plays round 1 at table 1 by the plan, "
                 "not at table 2")
    assert sender.state() == {"reachable": True, "unsent": 2, "refused": 2, "refusals": [
        {"game": 1, "why": why_wrong},
        {"game": 3, "why": "HTTP 400: round: the plan has rounds 1 to 2, not 3"}]}
    assert (folder / "outbox" / "ev2-1.json").is_file()  # kept, owed
    assert said[0].startswith("game 1: the director refused it (400: seating.1: ")
    assert sum("refused" in line for line in said) == 2
