"""Every handler of the narrator's web apps answers bad input with a 4xx and a JSON error,
never a 500: the director's tables' API, its pages, the broadcast's feed, the console's
pages and its socket's messages, each given what a careless or hostile client sends (numbers
of thousands of digits — Python's own reader raises a bare ValueError past its digit limit —,
wrong types, bodies that are not JSON, nesting 100,000 deep, a body too large)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from narrator.broadcast.app import build_app as broadcast_app
from narrator.broadcast.feed import DelayedFeed
from narrator.clock import VirtualClock
from narrator.console.app import build_app as console_app
from narrator.console.hub import Hub
from narrator.console.requests import SHOWN
from narrator.console.sockets import parse_message
from narrator.console.tokens import Tokens
from narrator.tournament.director import Director
from narrator.tournament.web import MAX_BODY
from narrator.tournament.web import build_app as director_app
from tests.console.conftest import make_rig
from tests.tournament.director_helpers import FakeClock, body, make_director, write_plan

DEEP = "[" * 100_000 + "]" * 100_000
DEEP_OBJECT = '{"a":' * 50_000 + "1" + "}" * 50_000
CAST_TOKEN = "c" * 32


def _huge(field: str) -> Callable[[dict[str, Any]], bytes]:
    """The body with ``field`` a 5,000-digit number (written by hand: json.dumps cannot)."""
    def make(good: dict[str, Any]) -> bytes:
        text = json.dumps({**good, field: 0}, ensure_ascii=False)
        return text.replace(f'"{field}": 0', f'"{field}": {"9" * 5000}').encode()
    return make


def _with(**change: Any) -> Callable[[dict[str, Any]], bytes]:
    return lambda good: json.dumps({**good, **change}, ensure_ascii=False).encode()


def _raw(data: bytes) -> Callable[[dict[str, Any]], bytes]:
    return lambda good: data


BOTH = ("games", "status")
#: what a hostile client posts, made from a good body of the endpoint: (the endpoints it is
#: bad input for, the body)
BODIES: dict[str, tuple[tuple[str, ...], Callable[[dict[str, Any]], bytes]]] = {
    "round of 5,000 digits": (BOTH, _huge("round")),
    "ended of 5,000 digits": (("games",), _huge("ended")),
    "game of 5,000 digits": (BOTH, _huge("game")),
    "living of 5,000 digits": (("status",), _huge("living")),
    "number of 5,000 digits": (("status",), _huge("number")),
    "a float past range": (BOTH, lambda good: json.dumps(good).replace(
        "{", '{"x": 1e999, ', 1).encode()),
    "NaN": (BOTH, lambda good: json.dumps(good).replace("{", '{"x": NaN, ', 1).encode()),
    "round as text": (BOTH, _with(round="1")),
    "round as a list": (BOTH, _with(round=[1])),
    "round true": (BOTH, _with(round=True)),
    "living as text": (("status",), _with(living="5")),
    "console of 100,000 characters": (("status",), _with(console="http://" + "h" * 100_000)),
    "seating a list": (("games",), _with(seating=["a"])),
    "seat of 5,000 digits": (("games",), _with(seating={"9" * 5000: "x"})),
    "a long text where a number goes": (BOTH, _with(round="x" * 100_000, game="x" * 100_000)),
    "a key twice": (BOTH, lambda good: json.dumps(good).replace(
        "{", '{"round": 1, ', 1).encode()),
    "not JSON": (BOTH, _raw(b"{not json")),
    "not UTF-8": (BOTH, _raw(b'{"round": "\xff\xfe"}')),
    "empty": (BOTH, _raw(b"")),
    "a list": (BOTH, _raw(b"[1, 2, 3]")),
    "a number": (BOTH, _raw(b"9" * 5000)),
    "nested 100,000 deep": (BOTH, _raw(DEEP.encode())),
    "objects nested 50,000 deep": (BOTH, _raw(DEEP_OBJECT.encode())),
    "over the size limit": (BOTH, _raw(b'{"x": "' + b"y" * (MAX_BODY + 10) + b'"}')),
}
CASES = [(endpoint, case) for case, (endpoints, _) in BODIES.items() for endpoint in endpoints]


def _assert_json_4xx(answer: Any) -> str:
    """A 4xx whose body is ``{"error": one short line}``; the error."""
    assert 400 <= answer.status_code < 500, (answer.status_code, answer.text[:300])
    assert answer.headers["content-type"].startswith("application/json")
    error = answer.json()["error"]
    assert isinstance(error, str) and "\n" not in error and len(error) < 300, error
    return error


@pytest.fixture(scope="module")
def tournament(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[
        Director, TestClient, dict[str, dict[str, Any]]]]:
    folder = tmp_path_factory.mktemp("hostile")
    write_plan(folder)
    director = make_director(folder, FakeClock())
    good = {"games": body(folder, 1, 1),
            "status": {"console": "http://10.0.0.7:8765", "game": 1, "round": 1,
                       "playing": True, "time": "day", "number": 1, "living": 10}}
    with TestClient(director_app(director), raise_server_exceptions=False) as client:
        yield director, client, good
    director.store.close()


@pytest.mark.parametrize(("endpoint", "case"), CASES)
def test_a_tables_post_of_bad_input_is_a_4xx_json_error(
        tournament: tuple[Director, TestClient, dict[str, dict[str, Any]]],
        endpoint: str, case: str) -> None:
    director, client, good = tournament
    token = director.store.tables()[0].token
    data = BODIES[case][1](good[endpoint])
    answer = client.post(f"/join/{token}/{endpoint}", content=data,
                         headers={"content-type": "application/json"})
    error = _assert_json_4xx(answer)
    if case == "over the size limit":
        assert answer.status_code == 413
    assert "9" * 50 not in error and "x" * (SHOWN + 1) not in error  # a short excerpt at most
    assert director.store.games() == [] and director.store.tables()[0].status is None


@pytest.mark.parametrize(("length", "status"), [("9" * 5000, 400), ("abc", 400), ("-1", 400),
                                               ("1e3", 400), (str(MAX_BODY + 1), 413)])
def test_a_content_length_that_is_no_size_or_too_large_is_a_4xx_json_error(
        tournament: tuple[Director, TestClient, dict[str, dict[str, Any]]],
        length: str, status: int) -> None:
    """(Checked before a byte of the body is read: ``int()`` of 5,000 digits was a 500.)"""
    director, client, good = tournament
    for endpoint in ("games", "status"):
        answer = client.post(f"/join/{director.store.tables()[0].token}/{endpoint}",
                             content=json.dumps(good[endpoint]).encode(),
                             headers={"content-type": "application/json",
                                      "content-length": length})
        _assert_json_4xx(answer)
        assert answer.status_code == status
    assert director.store.games() == [] and director.store.tables()[0].status is None


def test_the_good_bodies_are_taken(
        tournament: tuple[Director, TestClient, dict[str, dict[str, Any]]]) -> None:
    """(The cases above are refused for what they change, not for the body they start from.)"""
    director, client, good = tournament
    token = director.store.tables()[1].token  # (table 2: the module's table 1 stays empty)
    status = client.post(f"/join/{token}/status", json=good["status"])
    # (the answer carries the tournament's standings too, for the table's pads)
    assert (status.status_code, status.json()["ok"]) == (200, True)
    assert "standings" in status.json()
    folder = director.folder.parent
    answer = client.post(f"/join/{token}/games", json=body(folder, 1, 2))
    assert (answer.status_code, answer.json()) == (200, {"stored": True})


@pytest.mark.parametrize("path", [
    "/join/{token}/games", "/join/{token}/status",  # a GET where a POST goes: 405
    "/join/" + "x" * 10_000 + "/plan", "/join/%00%ff/plan", "/join/токен/plan",
    "/p/" + "9" * 5000 + "/state.json", "/director/%ff%fe/state.json", "/p/%F0%9F%98%80",
    "/join/{token}/plan/more", "/nowhere?after=" + "9" * 5000,
])
def test_a_bad_path_or_method_is_a_4xx_json_error(
        tournament: tuple[Director, TestClient, dict[str, dict[str, Any]]], path: str) -> None:
    director, client, _ = tournament
    _assert_json_4xx(client.get(path.replace("{token}", director.store.tables()[0].token)))


@pytest.fixture(scope="module")
def cast() -> Iterator[TestClient]:
    feed = DelayedFeed(VirtualClock(10_000), 0)
    with TestClient(broadcast_app(feed, CAST_TOKEN), raise_server_exceptions=False) as client:
        yield client


@pytest.mark.parametrize("after", ["9" * 5000, "9" * 20, "-1", "abc", "1e3", "1.5", "",
                                   "١٢", "0x10", " 1", "%00"])
def test_the_broadcasts_feed_after_a_bad_number_is_a_4xx_json_error(
        cast: TestClient, after: str) -> None:
    error = _assert_json_4xx(cast.get(f"/broadcast/{CAST_TOKEN}/feed.json?after={after}"))
    assert error.startswith("after:")


def test_the_broadcasts_feed_takes_a_number_and_no_number(cast: TestClient) -> None:
    for query in ("", "?after=0", "?after=12"):
        answer = cast.get(f"/broadcast/{CAST_TOKEN}/feed.json{query}")
        assert answer.status_code == 200 and "scenes" in answer.json(), query
    # another token says nothing of the feed, whatever it asks
    wrong = cast.get("/broadcast/" + "d" * 32 + "/feed.json?after=" + "9" * 5000)
    assert wrong.status_code == 404


@pytest.mark.parametrize("path", [
    "/pad/" + "9" * 5000, "/op/%ff%fe", "/op/токен/protocol.json", "/pad/%00",
    "/op/x/protocol.json?after=" + "9" * 5000, "/static/%2e%2e/app.py", "/ws/x",
])
def test_the_consoles_pages_refuse_bad_links_without_a_500(path: str) -> None:
    rig = make_rig()
    hub = Hub(rig.table, lambda fn: fn())
    with TestClient(console_app(hub, Tokens.new(rig.game.seats)),
                    raise_server_exceptions=False) as client:
        answer = client.get(path)
    assert 400 <= answer.status_code < 500, (answer.status_code, answer.text[:200])


@pytest.mark.parametrize("raw", [
    '{"do": "vote", "candidate": ' + "9" * 1000 + "}",
    '{"do": "vote", "id": ' + "9" * 1000 + "}",
    '{"do": "vote", "candidate": 1e999}', '{"do": "vote", "do": "nominate"}',
    '{"do": "vote", "x": ' + "[" * 400 + "]" * 400 + "}", "[" * 1000, '{"do": NaN}',
    '{"do": "vote", "candidate": ' + "9" * 5000 + "}",
])
def test_a_sockets_message_of_bad_json_is_refused(raw: str) -> None:
    """(The hub answers it ``bad_request``; the press never reaches the game.)"""
    assert parse_message(raw) is None
