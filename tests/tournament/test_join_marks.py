"""The host's marks given between games after the game went to the director: the game's
longer journal is owed again under the same key — its outbox entry replaced, or its sent copy
moved back — and sent; a kill between the two steps keeps one of the versions; an older
version in flight does not take the newer one's place. Then for real on loopback: the
director's box, a table's evening, a game sent and marked, and the director's standings
moved by the mark's points."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from narrator.console.presses import MarkPress
from narrator.console.server import ConsoleServer
from narrator.console.table import Press
from narrator.console.tokens import OPERATOR
from narrator.evening.book import EveningBook, GameEntry
from narrator.evening.director import Answer, post_game
from narrator.evening.join import body_of, forward, key_of, take_join
from narrator.evening.marks import mark_over
from narrator.evening.outbox import Outbox
from narrator.host.journal import load_journal
from narrator.tournament.web import build_app
from tests.evening.test_evening import new_book
from tests.tournament.director_helpers import bonus_scoring, make_director, write_plan
from tests.tournament.joining import EveningRun, finish_game, forwarder, joined_book
from tests.tournament.standin_director import StandInDirector

WAIT = 20.0  # the longest a test waits for the sending thread (it takes milliseconds)


def games_of(book: EveningBook) -> dict[int, Any]:
    return {e.number: load_journal(book.journal(e)).game() for e in book.games}


def mark(book: EveningBook, entry: GameEntry, seat: int = 4, points: float = 0.3) -> None:
    """The host's mark of ``seat`` for the game over, into its journal (as between games)."""
    path = book.journal(entry)
    press = MarkPress(seat=seat, points=points, comment="за игру")
    assert mark_over(load_journal(path).game(), path, press, 900.0) is None


def entry_of(folder: Path, key: str) -> dict[str, Any]:
    return dict(json.loads((folder / f"{key}.json").read_text(encoding="utf-8")))


def test_a_mark_after_the_game_was_sent_sends_its_longer_journal_again(
        tmp_path: Path, director: StandInDirector) -> None:
    book = joined_book(tmp_path / "ev", director)
    entry = finish_game(book)
    said: list[str] = []
    sender = forwarder(book, director, said, reachable=True)
    forward(book, games_of(book), sender, said.append)
    assert sender.wait(WAIT)
    key = key_of(book, entry)
    first = director.stored[key]["journal"]
    mark(book, entry)
    forward(book, games_of(book), sender, said.append)
    assert sender.wait(WAIT)
    journal = book.journal(entry).read_text(encoding="utf-8")
    assert journal.startswith(first) and journal != first
    assert director.stored[key]["journal"] == journal and director.posts == [key, key]
    assert said[-1] == "game 1: sent to the director again, with the marks given since"
    assert entry_of(book.folder / "sent", key)["journal"] == journal  # what it has now
    assert not list((book.folder / "outbox").iterdir())
    forward(book, games_of(book), sender, said.append)  # nothing new: nothing sent
    assert sender.wait(WAIT) and director.posts == [key, key]


def test_a_mark_while_the_game_waits_replaces_the_waiting_entry(
        tmp_path: Path, director: StandInDirector) -> None:
    book = joined_book(tmp_path / "ev", director)
    entry = finish_game(book)
    said: list[str] = []
    sender = forwarder(book, director, said, reachable=True)
    director.busy = True
    forward(book, games_of(book), sender, said.append)
    assert sender.wait(WAIT) and sender.state()["unsent"] == 1
    mark(book, entry)
    director.busy = False
    forward(book, games_of(book), sender, said.append)
    assert sender.wait(WAIT)
    key = key_of(book, entry)
    assert director.stored[key]["journal"] == book.journal(entry).read_text(encoding="utf-8")
    assert len(director.stored) == 1 and sender.state()["unsent"] == 0


def test_a_kill_between_the_two_steps_keeps_a_version_and_the_next_start_sends_the_new(
        tmp_path: Path, director: StandInDirector) -> None:
    book = joined_book(tmp_path / "ev", director)
    entry = finish_game(book)
    sender = forwarder(book, director, [], reachable=True)
    forward(book, games_of(book), sender, lambda line: None)
    assert sender.wait(WAIT)
    key = key_of(book, entry)
    old = entry_of(book.folder / "sent", key)
    mark(book, entry)
    # killed before the new entry was written: only the sent copy, older than the game
    outbox = Outbox(book.folder)
    assert outbox.journal_of(key) == old["journal"]
    again = forwarder(book, director, [], reachable=True)  # the box started again
    forward(book, games_of(book), again, lambda line: None)
    assert again.wait(WAIT)
    new = book.journal(entry).read_text(encoding="utf-8")
    assert director.stored[key]["journal"] == new
    assert entry_of(book.folder / "sent", key)["journal"] == new
    # killed after the new entry was written, before the sent copy went: both are there,
    # the outbox's the newer; it is sent and its move replaces the sent copy
    mark(book, entry, seat=7, points=-0.2)
    newer = body_of(book, entry)
    assert newer is not None
    (book.folder / "outbox" / f"{key}.json").write_text(json.dumps(newer, ensure_ascii=False),
                                                        encoding="utf-8")
    assert outbox.journal_of(key) == newer["journal"]  # the outbox's first
    forward(book, games_of(book), again, lambda line: None)
    assert again.wait(WAIT)
    assert director.stored[key]["journal"] == newer["journal"]
    assert entry_of(book.folder / "sent", key) == newer
    assert not list((book.folder / "outbox").iterdir())


def test_an_older_version_in_flight_leaves_the_newer_to_be_sent(
        tmp_path: Path, director: StandInDirector) -> None:
    """The evening writes the marked game while the sending thread waits for the director's
    answer to the first version: that answer moves nothing, the newer goes next."""
    book = joined_book(tmp_path / "ev", director)
    entry = finish_game(book)
    key = key_of(book, entry)
    said: list[str] = []
    sender = forwarder(book, director, said, reachable=True)

    def post(link: str, body: dict[str, Any]) -> Answer:
        answer = post_game(link, body)
        if len(director.posts) == 1:  # (the first version's answer is on its way back)
            mark(book, entry)
            forward(book, games_of(book), sender, said.append)
        return answer

    sender.post = post
    forward(book, games_of(book), sender, said.append)
    assert sender.wait(WAIT) and sender.wait(WAIT)
    journal = book.journal(entry).read_text(encoding="utf-8")
    assert director.posts == [key, key] and director.stored[key]["journal"] == journal
    assert entry_of(book.folder / "sent", key)["journal"] == journal
    assert sender.state() == {"reachable": True, "unsent": 0, "refused": 0, "refusals": []}


def test_a_refused_game_marked_since_is_tried_again(tmp_path: Path,
                                                    director: StandInDirector) -> None:
    book = joined_book(tmp_path / "ev", director)
    entry = finish_game(book)
    body = body_of(book, entry)
    assert body is not None
    key = str(body["key"])
    director.stored[key] = dict(body, journal="{}\n" + body["journal"])  # another journal
    sender = forwarder(book, director, [], reachable=True)
    forward(book, games_of(book), sender, lambda line: None)
    assert sender.wait(WAIT) and sender.outbox.refused() == [key]
    del director.stored[key]  # (the director's copy put right)
    mark(book, entry)
    forward(book, games_of(book), sender, lambda line: None)
    assert sender.wait(WAIT) and sender.outbox.refused() == []
    assert director.stored[key]["journal"] == book.journal(entry).read_text(encoding="utf-8")


def test_a_damaged_entry_is_written_again_whole(tmp_path: Path,
                                                director: StandInDirector) -> None:
    book = joined_book(tmp_path / "ev", director)
    entry = finish_game(book)
    key = key_of(book, entry)
    box = book.folder / "outbox"
    box.mkdir()
    (box / f"{key}.json").write_text("{", encoding="utf-8")
    sender = forwarder(book, director, [], reachable=True)
    forward(book, games_of(book), sender, lambda line: None)
    assert sender.wait(WAIT) and key in director.stored


def test_on_loopback_a_mark_moves_the_real_directors_standings(tmp_path: Path) -> None:
    """The director's box (in this process, on a port of its own) scoring the host's extra
    points; a table's evening joins it, plays round 1, sends it; the operator marks seat 1
    +0.3 between games: the director's standings give that player 0.3 more."""
    write_plan(tmp_path)
    box = make_director(tmp_path, scoring=str(bonus_scoring(tmp_path)))
    server = ConsoleServer(build_app(box), "127.0.0.1", 0).start()
    try:
        link = f"http://127.0.0.1:{server.port}/join/{box.store.tables()[0].token}"
        book = new_book(tmp_path / "table1", [])
        assert take_join(book, link, 1, lambda line: None) is True
        book.save()
        said: list[str] = []
        sender = forwarder(book, None, said, reachable=True)  # type: ignore[arg-type]
        seen: dict[str, dict[str, float]] = {}

        def between(number: int) -> bool:
            assert sender.wait(WAIT)
            seen["sent"] = _points(box.view())
            press = Press(OPERATOR, "mark", {"seat": 1, "points": 0.3, "comment": "за игру"},
                          run.clock.now())
            assert run.evening.front.handle(press).ok  # the operator view's marks form
            assert sender.wait(WAIT)
            seen["marked"] = _points(box.view())
            return False

        run = EveningRun(book, sender, between)
        assert run.run() == 0
        player = book.names_of(book.games[0].seating)[1]
        assert seen["marked"][player] == pytest.approx(seen["sent"][player] + 0.3)
        assert {n: p for n, p in seen["marked"].items() if n != player} == \
            {n: p for n, p in seen["sent"].items() if n != player}
        stored = box.store.games()
        assert len(stored) == 1 and stored[0].journal == \
            book.journal(book.games[0]).read_text(encoding="utf-8")
        assert said[-1] == "game 1: sent to the director again, with the marks given since"
    finally:
        server.stop()
        box.store.close()


def _points(view: dict[str, Any]) -> dict[str, float]:
    return {line["name"]: line["points"] for line in view["standings"]}



def test_a_journal_gone_after_its_game_was_sent_stops_no_other_game(
        tmp_path: Path, director: StandInDirector) -> None:
    book = joined_book(tmp_path / "ev", director)
    first = finish_game(book)
    sender = forwarder(book, director, [], reachable=True)
    games = games_of(book)
    forward(book, games, sender, lambda line: None)
    assert sender.wait(WAIT)
    second = finish_game(book)
    games = games_of(book)
    book.journal(first).unlink()  # (the file lost: the director has it)
    said: list[str] = []
    forward(book, games, sender, said.append)
    assert sender.wait(WAIT) and said == []
    assert sorted(director.stored) == sorted([key_of(book, first), key_of(book, second)])
