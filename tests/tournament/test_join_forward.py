"""Store and forward: each finished game of the director's plan is kept in ``DIR/outbox`` and
sent on a thread of its own — stored once however often it is sent, kept while the director
is down (the evening goes on), sent on the evening's clock every 30 s between games, after
the next game, and when a stopped or killed table box starts again; a refusal is kept, said
and not sent again. Every wait is bounded; the clock is a virtual one."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest

from narrator.clock import VirtualClock
from narrator.evening.book import EveningBook
from narrator.evening.director import Answer, post_game
from narrator.evening.forward import RETRY
from narrator.evening.join import body_of, forward, key_of
from narrator.host.journal import load_journal
from tests.tournament.joining import EveningRun, finish_game, forwarder, joined_book
from tests.tournament.standin_director import StandInDirector

WAIT = 20.0  # the longest a test waits for the sending thread (it takes milliseconds)


def games_of(book: EveningBook) -> dict[int, Any]:
    return {e.number: load_journal(book.journal(e)).game() for e in book.games}


def counted(posted: list[str]) -> Any:
    """The real request, each try counted (a refused connection never reaches the site)."""

    def post(link: str, body: dict[str, Any]) -> Answer:
        posted.append(str(body["key"]))
        return post_game(link, body)

    return post


def test_a_finished_game_is_stored_once_however_often_it_is_sent(
        tmp_path: Path, director: StandInDirector) -> None:
    book = joined_book(tmp_path / "ev", director)
    entry = finish_game(book)
    said: list[str] = []
    sender = forwarder(book, director, said, reachable=True)
    forward(book, games_of(book), sender, said.append)
    assert sender.wait(WAIT)
    key = key_of(book, entry)
    assert list(director.stored) == [key] and key == f"{book.id}-1"
    stored = director.stored[key]
    assert (stored["round"], stored["game"]) == (1, 1)
    assert stored["journal"] == book.journal(entry).read_text(encoding="utf-8")
    assert stored["seating"] == {str(s): n for s, n in book.names_of(entry.seating).items()}
    sent = book.folder / "sent" / f"{key}.json"
    assert json.loads(sent.read_text(encoding="utf-8")) == stored  # kept as it was sent
    assert stat.S_IMODE(sent.stat().st_mode) == 0o600  # (it holds every card)
    assert not list((book.folder / "outbox").iterdir())
    assert said == ["game 1: sent to the director"]
    forward(book, games_of(book), sender, said.append)  # a game sent is not owed again
    assert sender.wait(WAIT) and director.posts == [key]
    # killed after the director stored it, before the entry moved: sent again at the start
    os.replace(sent, book.folder / "outbox" / f"{key}.json")
    sender.kick()
    assert sender.wait(WAIT)
    assert director.posts == [key, key] and len(director.stored) == 1
    assert said[-1] == "game 1: sent to the director (it had it already)"
    assert sender.state() == {"reachable": True, "unsent": 0, "refused": 0, "refusals": []}


def test_while_the_director_is_down_the_game_waits_and_the_timer_sends_it(
        tmp_path: Path, director: StandInDirector) -> None:
    book = joined_book(tmp_path / "ev", director)
    finish_game(book)
    said: list[str] = []
    posted: list[str] = []
    sender = forwarder(book, director, said, reachable=True, post=counted(posted))
    director.busy = True  # 503 first, then no answer at all
    forward(book, games_of(book), sender, said.append)
    assert sender.wait(WAIT)
    assert not director.stored and sender.state() == {"reachable": False, "unsent": 1,
                                                      "refused": 0, "refusals": []}
    assert said == [f"the director at 127.0.0.1:{director.port} answers HTTP 503: 1 game(s) "
                    f"wait in {book.folder / 'outbox'}, sent once it answers"]
    director.busy = False
    director.stop()
    clock = VirtualClock(500.0)
    sender.tick(clock.now())  # the timer counts from the last try
    clock.advance(RETRY - 0.25)
    sender.tick(clock.now())
    assert sender.wait(WAIT) and len(posted) == 1  # not yet
    clock.advance(0.25)
    sender.tick(clock.now())
    assert sender.wait(WAIT) and len(posted) == 2 and not director.stored  # tried: refused
    assert len(said) == 1  # (the director lost is said once, not at every try)
    director.start()
    clock.advance(RETRY)
    sender.tick(clock.now())
    assert sender.wait(WAIT) and len(posted) == 3
    assert list(director.stored) == [f"{book.id}-1"]
    assert said[1:] == [f"the director at 127.0.0.1:{director.port} answers again",
                        "game 1: sent to the director"]
    clock.advance(RETRY)
    sender.tick(clock.now())  # nothing owed: nothing sent
    assert sender.wait(WAIT) and len(posted) == 3


def test_a_refused_game_is_kept_and_said_and_not_sent_again(
        tmp_path: Path, director: StandInDirector) -> None:
    book = joined_book(tmp_path / "ev", director)
    entry = finish_game(book)
    said: list[str] = []
    sender = forwarder(book, director, said, reachable=True)
    body = body_of(book, entry)
    assert body is not None
    key = str(body["key"])
    director.stored[key] = dict(body, journal="{}\n" + body["journal"])  # another journal
    sender.owe(key, body)
    unended = dict(body, key=f"{book.id}-9", game=9, journal=body["journal"].splitlines()[0])
    sender.owe(str(unended["key"]), unended)
    sender.kick()
    assert sender.wait(WAIT)
    assert said[0] == (f"game 1: the director refused it (409: game {key} is stored with "
                       f"another journal); it stays in {book.folder / 'outbox'} and is not "
                       "sent again")
    assert said[1].startswith("game 9: the director refused it (400: the game has not ended)")
    assert sender.state() == {"reachable": True, "unsent": 2, "refused": 2, "refusals": [
        {"game": 1, "why": f"HTTP 409: game {key} is stored with another journal"},
        {"game": 9, "why": "HTTP 400: the game has not ended"}]}
    assert (book.folder / "outbox" / f"{key}.refused").read_text(encoding="utf-8").startswith(
        "HTTP 409: ")
    posts = len(director.posts)
    sender.kick()
    assert sender.wait(WAIT) and len(director.posts) == posts and len(said) == 2
    (book.folder / "outbox" / f"{book.id}-9.refused").unlink()  # the operator: try it again
    sender.kick()
    assert sender.wait(WAIT) and len(director.posts) == posts + 1
    damaged = book.folder / "outbox" / f"{book.id}-10.json"
    damaged.write_text("{", encoding="utf-8")
    sender.kick()
    sender.kick()  # (said once, not at every try)
    assert sender.wait(WAIT) and len(director.posts) == posts + 1
    assert [line for line in said if "not JSON" in line] == [
        f"not sent: {damaged}: not JSON: remove it, the evening writes it again when it "
        "starts"]
    assert sender.state()["refused"] == 3
    damaged.unlink()  # as the line says: written again, and sent, at the next start
    sender.owe(f"{book.id}-10", dict(body, key=f"{book.id}-10", game=10))
    sender.kick()
    assert sender.wait(WAIT) and f"{book.id}-10" in director.stored


def test_the_evening_goes_on_while_the_director_is_down_and_sends_each_game_once_back(
        tmp_path: Path, director: StandInDirector) -> None:
    """On the evening's loop: game 1 over with the director down waits in the outbox, game 2
    is seated by the plan's round 2 and played; the director back, game 2's end sends both."""
    book = joined_book(tmp_path / "ev", director)
    said: list[str] = []
    sender = forwarder(book, director, said, reachable=True)
    seen: dict[int, dict[str, Any]] = {}

    def between(number: int) -> bool:
        assert sender.wait(WAIT)
        seen[number] = {"stored": sorted(director.stored), "state": sender.state(),
                        "seating": dict(book.seating),
                        "shown": run.evening.front._evening()["director"]}
        director.busy = False  # back, for game 2's end
        return number < 2

    run = EveningRun(book, sender, between)
    director.busy = True
    assert run.run() == 0
    number = {p.name: p.number for p in book.players}
    planned = [{s: number[n] for s, n in enumerate(rnd, 1)} for rnd in director.rounds[1]]
    assert run.seatings == planned[:2]  # game 2 seated by the plan, the director down
    assert seen[1]["stored"] == [] and seen[1]["state"]["unsent"] == 1
    assert seen[1]["shown"] == {"reachable": False, "unsent": 1, "refused": 0, "refusals": []}
    assert seen[2]["stored"] == [f"{book.id}-1", f"{book.id}-2"]
    assert seen[2]["state"] == {"reachable": True, "unsent": 0, "refused": 0, "refusals": []}
    assert seen[2]["seating"] == planned[2]  # the next game seated as round 3
    assert sorted(director.posts) == [f"{book.id}-1", f"{book.id}-2"]  # each sent once
    for n in (1, 2):
        stored = director.stored[f"{book.id}-{n}"]
        assert stored["round"] == n and stored["journal"] == \
            (book.folder / f"game-0{n}.jsonl").read_text(encoding="utf-8")
    # (lost at the first word of the table on itself, before game 1 was over)
    assert said[0].endswith("answers HTTP 503: the table's games go to it once it answers")
    assert said[1:] == [f"the director at 127.0.0.1:{director.port} answers again",
                        "game 1: sent to the director", "game 2: sent to the director"]


def test_a_killed_table_box_sends_what_it_owed_when_it_starts_again(
        tmp_path: Path, director: StandInDirector) -> None:
    book = joined_book(tmp_path / "ev", director)
    director.stop()  # the Wi-Fi gone all evening
    said: list[str] = []
    first = EveningRun(book, forwarder(book, director, said, reachable=True), lambda n: n < 2)
    assert first.run() == 0
    assert said[-1] == (f"2 game(s) not sent to the director yet ({book.folder / 'outbox'}): "
                        f"`narrator evening {book.folder}` sends them")
    keys = [f"{book.id}-1", f"{book.id}-2"]
    assert sorted(p.stem for p in (book.folder / "outbox").iterdir()) == keys
    (book.folder / "outbox" / f"{keys[1]}.json").unlink()  # killed before game 2 was kept
    director.start()
    again = EveningBook.load(book.folder)  # a new box over the same folder
    assert again.id == book.id
    second = EveningRun(again, forwarder(again, director, [], reachable=True), lambda n: False)
    assert second.run("close") == 0  # closed at once: the sending began at the start
    assert sorted(director.stored) == keys and sorted(director.posts) == keys
    assert not list((book.folder / "outbox").iterdir())


def test_a_director_that_never_answers_holds_up_nothing_but_its_thread(
        tmp_path: Path, director: StandInDirector, monkeypatch: pytest.MonkeyPatch) -> None:
    """A box that takes the connection and says nothing (hung, or half on the Wi-Fi): each
    request ends at the timeout, on the sending thread; ``kick`` returns at once."""
    import socket

    from narrator.evening import director as protocol

    book = joined_book(tmp_path / "ev", director)
    finish_game(book)
    monkeypatch.setattr(protocol, "TIMEOUT", 1.0)
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        link = f"http://127.0.0.1:{silent.getsockname()[1]}/join/{director.tokens[1]}"
        with pytest.raises(protocol.Unreachable, match="timed out"):
            protocol.fetch_plan(link)
        said: list[str] = []
        sender = forwarder(book, director, said, reachable=True)
        sender.link = link
        forward(book, games_of(book), sender, said.append)
        assert not sender.wait(0)  # back to the evening while the request still waits
        assert sender.wait(WAIT)
    assert sender.state() == {"reachable": False, "unsent": 1, "refused": 0, "refusals": []}
    assert "timed out" in said[0] and not director.stored
