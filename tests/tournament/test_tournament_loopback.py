"""Both sides for real on loopback: ``narrator tournament run`` in a process of its own, a
table's evening joining it with the link it prints, a game of the plan played at the table and
forwarded, stored once, and on the board's standings; the director killed and started again
still holds it, and the table sending it again is told it has it."""

from __future__ import annotations

import signal
from pathlib import Path
from typing import Any

from narrator.evening.book import EveningBook
from narrator.evening.join import body_of, forward, take_join
from narrator.host.journal import load_journal
from tests.evening.test_evening import new_book
from tests.tournament.director_helpers import NAMES, write_plan
from tests.tournament.joining import finish_game, forwarder
from tests.tournament.test_director_cli import _http, _kill, _start


def test_a_table_joins_the_real_director_and_its_game_is_stored_once(tmp_path: Path) -> None:
    write_plan(tmp_path)
    box, links = _start(tmp_path)
    try:
        book = new_book(tmp_path / "table1", [])
        said: list[str] = []
        assert take_join(book, links["table 1"], 1, said.append) is True
        assert {p.name for p in book.players} == set(NAMES)  # (round 2 seats the other half)
        book.save()
        entry = finish_game(book)  # round 1, seated by the director's plan, over
        assert book.names_of(entry.seating) == dict(enumerate(NAMES[:10], start=1))
        game = load_journal(book.journal(entry)).game()
        sender = forwarder(book, None, said)  # type: ignore[arg-type]
        forward(book, {entry.number: game}, sender, said.append)
        assert sender.wait(10)
        assert sender.outbox.holds(f"{book.id}-{entry.number}")
        _, board = _http(links["board"] + "/state.json")
        assert board["games"][0]["rounds"][0] == {"round": 1, "in": True}
        names = {row["name"] for row in board["standings"]}
        assert set(NAMES[:10]) <= names
    finally:
        _kill(box)
    box, again = _start(tmp_path)  # the director's box killed and taken up
    try:
        status, answer = _http(again["table 1"] + "/games", _body_sent(book, entry.number))
        assert (status, answer) == (200, {"stored": False, "already": True})
    finally:
        box.send_signal(signal.SIGTERM)
        assert box.wait(timeout=20) == 0
        for stream in (box.stdout, box.stderr):
            if stream is not None:
                stream.close()


def _body_sent(book: EveningBook, number: int) -> dict[str, Any]:
    """The body the table sends for its game ``number`` (as it sent it the first time)."""
    entry = next(g for g in book.games if g.number == number)
    body = body_of(book, entry)
    assert body is not None
    return body
