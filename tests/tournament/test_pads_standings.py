"""A tournament's player sees one standings: his table's pads show the tournament's (the
director's answer to the table's word carries them), not the table's flat points — the same
lines as the board and his own page."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from narrator.clock import VirtualClock
from narrator.console.tokens import OPERATOR
from narrator.evening.director import Answer
from narrator.evening.forward import Forwarder
from narrator.evening.front import EveningFront
from narrator.evening.outbox import Outbox
from tests.evening.test_evening import new_book
from tests.tournament.director_helpers import BLACK_WIN, FakeClock, body, make_director

STATUS = {"console": "http://192.168.1.21:8765", "game": 2, "round": 2, "playing": False}


def test_the_directors_answer_to_a_table_holds_the_tournaments_standings(
        tmp_path: Path) -> None:
    director = make_director(tmp_path, FakeClock(), name="Кубок клуба")
    tables = director.store.tables()
    director.receive(tables[0], body(tmp_path, 1, 1))
    director.receive(tables[1], body(tmp_path, 1, 2, BLACK_WIN))
    answer = director.take_status(tables[0], STATUS)
    board = director.view()
    assert answer["standings"]["standings"] == board["standings"] != []
    assert answer["standings"]["system"] == board["system"]
    player = director.player_view(director.players[0])
    assert answer["standings"]["standings"] == player["standings"]


def test_a_tournament_tables_pages_show_the_tournaments_standings(tmp_path: Path) -> None:
    lines = [{"place": 1, "name": "Сова", "games": 2, "points": 3.4, "wins": 2},
             {"place": 2, "name": "Ника", "games": 2, "points": 1.0, "wins": 1}]
    given = {"name": "Кубок клуба", "system": "fiim", "standings": lines, "note": None}
    said: list[dict[str, Any]] = []

    def post_status(link: str, status: dict[str, Any]) -> Answer:
        said.append(status)
        return Answer(200, {"ok": True, "standings": given})

    forwarder = Forwarder(Outbox(tmp_path / "out"), "http://127.0.0.1:1/join/x",
                          say=lambda line: None, post_status=post_status)
    forwarder.report(STATUS)
    assert forwarder.wait(10) and said == [STATUS]
    assert forwarder.standings == given
    front = EveningFront(new_book(tmp_path / "evening"), VirtualClock())
    published: dict[Any, Any] = {}
    front.publish = published.update
    front.tournament = lambda: forwarder.standings
    front.publish_views()
    for who in (OPERATOR, front.book.players[0].who):
        results = json.loads(published[who].message)["view"]["lobby"]["results"]
        assert results["tournament"] == "Кубок клуба" and results["system"] == "fiim"
        assert results["players"] == lines  # the tournament's lines, not the table's points
    # no director's standings yet: the table's own, as before
    front.tournament = lambda: None
    front.publish_views()
    own = json.loads(published[OPERATOR].message)["view"]["lobby"]["results"]
    assert "tournament" not in own
