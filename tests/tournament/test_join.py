"""A table joins its tournament's director (``narrator evening DIR --join LINK --table N``):
the director's plan seats the games and its players join the roster with their ids, the link
is kept in the book (a resume asks again, or goes on with the plan it holds when the director
is not reachable), the one-line errors, and the operator's line about the director."""

from __future__ import annotations

import json
import socket
import stat
from pathlib import Path

import pytest

from narrator.console.table import Press
from narrator.console.tokens import OPERATOR
from narrator.errors import NarratorError
from narrator.evening.book import EveningBook, JoinLink
from narrator.evening.director import join_link
from narrator.evening.front import Finished
from narrator.evening.join import take_join
from narrator.evening.plan import planned
from tests.console.conftest import make_rig
from tests.evening.test_evening import new_book
from tests.evening.test_evening_fair import watched
from tests.tournament.joining import NAMES, finish_game, forwarder, joined_book
from tests.tournament.standin_director import StandInDirector


def test_the_directors_plan_seats_the_table_and_its_players_join_with_their_ids(
        tmp_path: Path, director: StandInDirector) -> None:
    book = new_book(tmp_path / "ev", ["Игрок12", "Гость"])  # one of table 2 is here already
    said: list[str] = []
    assert take_join(book, director.link(2) + "/", 2, said.append) is True
    rounds = director.rounds[2]
    assert book.plan is not None
    assert book.plan.rounds == tuple(map(tuple, rounds)) and book.plan.table == 2
    assert book.plan.file == "Кубок клуба" and book.plan.start == 0
    names = {p.name: p for p in book.players}
    assert set(names) == {"Гость", *(n for rnd in rounds for n in rnd)}
    assert names["Игрок12"].mafiaratings == 12 and names["Игрок12"].number == 1  # his line kept
    assert names["Игрок13"].mafiaratings is None
    # (the evening's terminal speaks the table's language)
    assert said == [f"стол подключён (директор турнира на 127.0.0.1:{director.port}): следующие "
                    "игры (3) рассажены, как он сажает стол 2 турнира «Кубок клуба»"]
    book.save()
    again = EveningBook.load(book.folder)  # the link, the table and the id are kept
    assert again.join == JoinLink(director.link(2), 2) and again.id == book.id
    assert stat.S_IMODE(again.path.stat().st_mode) == 0o600  # (the link is a secret)
    front, views = watched(again)
    front.open()
    front.publish_views()
    number = {p.name: p.number for p in again.players}
    for r in range(3):  # each game over: the next round as the director seats it
        assert again.seating == {s: number[n] for s, n in enumerate(rounds[r], start=1)}
        assert views[OPERATOR]["evening"]["plan"]["round"] == r + 1
        entry = again.new_game("crime-time")
        rig = make_rig()
        front.attach(rig.table, entry)
        for seat in (3, 5, 9):
            rig.op("remove", seat=seat)
        front.detach(Finished(entry, rig.game), [])
    assert views[OPERATOR]["evening"]["plan"] is None  # past the plan: the fair seating
    assert views[OPERATOR]["evening"]["fair"] is not None


def test_a_resumed_table_asks_again_or_goes_on_with_the_plan_it_holds(
        tmp_path: Path, director: StandInDirector) -> None:
    book = joined_book(tmp_path / "ev", director)
    finish_game(book)
    said: list[str] = []
    director.stop()  # the Wi-Fi is gone when the box starts again
    assert take_join(book, None, None, said.append) is False
    assert len(said) == 1 and said[0].startswith("внимание: cannot reach 127.0.0.1:")
    assert "вечер идёт по плану директора, который у него есть" in said[0]
    assert director.tokens[1] not in said[0]  # (the link's token is never printed)
    plan = planned(book)
    assert plan is not None and plan.round == 2
    director.start()  # back, with another round 2 for table 1
    director.rounds[1][1] = list(reversed(director.rounds[1][1]))
    director.rules = "vrn"
    assert take_join(book, None, None, said.append) is True
    assert said[1] == ("турнир играет по правилам «Мафия ВРН»: со следующей игры и этот вечер "
                       "(были «Криминальное время»)")
    assert book.rules == "vrn"
    assert said[2].endswith("изменил план: следующие игры рассажены по-новому")
    plan = planned(book)
    number = {p.name: p.number for p in book.players}
    assert plan is not None and plan.round == 2  # its place in the plan kept
    assert plan.seating == {s: number[n] for s, n in enumerate(director.rounds[1][1], 1)}
    director.tokens[1] = "another-token-after-a-restart"  # the director does not know it
    assert take_join(book, None, None, said.append) is False
    assert "gives no plan for this link (unknown table link)" in said[-1]
    assert "вечер идёт по плану директора, который у него есть" in said[-1] and book.plan is not None


def test_the_joined_evening_plays_the_tournaments_ruleset(
        tmp_path: Path, director: StandInDirector) -> None:
    director.rules = "vrn"
    book = new_book(tmp_path / "ev", [])
    said: list[str] = []
    assert take_join(book, director.link(1), 1, said.append) is True
    assert book.rules == "vrn" and said[0] == (
        "турнир играет по правилам «Мафия ВРН»: со следующей игры и этот вечер (были "
        "«Криминальное время»)")
    book.save()
    again = EveningBook.load(book.folder)
    assert again.rules == "vrn"
    front, views = watched(again)
    front.open()
    front.publish_views()
    assert views[OPERATOR]["evening"]["rules"] == "vrn"  # the operator view's choice
    started: list[str] = []
    front.on_start = started.append
    assert front.handle(Press(OPERATOR, "start", {}, 1.0)).ok and started == ["vrn"]
    said.clear()
    assert take_join(again, None, None, said.append) is True  # a resume: nothing new to say
    assert again.rules == "vrn" and not any("plays" in line for line in said)
    director.rules = None  # a director leaving it to the tables: the evening's own stays
    assert take_join(again, None, None, said.append) is True and again.rules == "vrn"


def test_a_ruleset_the_table_cannot_play_is_one_line_and_changes_nothing(
        tmp_path: Path, director: StandInDirector, capsys: pytest.CaptureFixture[str]) -> None:
    book = joined_book(tmp_path / "ev", director)
    director.rules = "mystery"
    with pytest.raises(NarratorError) as raised:
        take_join(book, None, None, lambda line: None)
    assert str(raised.value) == (
        f"the director at 127.0.0.1:{director.port} plays the ruleset 'mystery', which this "
        "narrator does not know (known: crime-time, amateur, professional, vrn, vrn-closed); "
        "update the table's narrator, or ask the director")
    assert book.rules == "crime-time"
    director.rules = "crime-time"
    book.rules, book.settings = "vrn", {"decision_seconds": 20.0}  # a figure of vrn's own
    with pytest.raises(NarratorError, match=r"plays crime-time: crime-time has no figure "
                                            r"decision \(its figures: "):
        take_join(book, None, None, lambda line: None)
    assert book.rules == "vrn"
    director.rules = "mystery"  # the command: one line, exit 2, no evening made
    folder = tmp_path / "new"
    line = _fails(capsys, str(folder), "--join", director.link(1), "--table", "1")
    assert line.startswith(f"narrator: the director at 127.0.0.1:{director.port} plays the "
                           "ruleset 'mystery'")
    assert not folder.exists()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _fails(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    from narrator.cli import main

    assert main(["evening", *argv, "--console", "127.0.0.1:0", "--listen", "off",
                 "--wav"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    return err[0]


def test_a_wrong_table_or_a_director_never_reached_is_one_line_and_leaves_nothing(
        tmp_path: Path, director: StandInDirector, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "ev"
    line = _fails(capsys, str(folder), "--join", director.link(2), "--table", "1")
    assert line == (f"narrator: --table 1: this link is table 2's (the director at "
                    f"127.0.0.1:{director.port}, 2 table(s))")
    nobody = f"http://127.0.0.1:{_free_port()}/join/{director.tokens[1]}"
    line = _fails(capsys, str(folder), "--join", nobody, "--table", "1")
    assert line.startswith("narrator: --join: cannot reach 127.0.0.1:")
    assert line.endswith("this table needs the director's plan once (check the Wi-Fi and the "
                         "link)")
    stranger = f"http://127.0.0.1:{director.port}/join/{'x' * 32}"
    assert "gives no plan for this link (unknown table link)" in _fails(
        capsys, str(folder), "--join", stranger, "--table", "1")
    assert "--join: expected the director's join link" in _fails(
        capsys, str(folder), "--join", "http://127.0.0.1:1/plan", "--table", "1")
    assert "--join: give --table N too" in _fails(capsys, str(folder), "--join",
                                                  director.link(1))
    assert "--table N goes with --join LINK" in _fails(capsys, str(folder), "--table", "1")
    assert not folder.exists()
    plan = tmp_path / "plan.csv"
    plan.write_text("round,table,seat,player\n", encoding="utf-8")
    assert "one plan at a time" in _fails(capsys, str(folder), "--join", director.link(1),
                                          "--table", "1", "--plan", str(plan))


def test_the_command_keeps_the_link_and_gives_the_evening_its_director(
        tmp_path: Path, director: StandInDirector, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from narrator.cli import main
    from narrator.evening.cli import Evening

    ran: list[Evening] = []
    monkeypatch.setattr(Evening, "run", lambda self: ran.append(self) or 0)
    folder = tmp_path / "ev"
    assert main(["evening", str(folder), "--console", "127.0.0.1:0", "--listen", "off",
                 "--wav", "--join", director.link(1), "--table", "1"]) == 0
    book = json.loads((folder / "evening.json").read_text(encoding="utf-8"))
    assert book["join"] == {"url": director.link(1), "table": 1} and book["id"]
    assert [p["name"] for p in book["players"]] == NAMES[:10] + NAMES[10:12]
    evening = ran[-1]
    assert evening.director is not None and evening.director.link == director.link(1)
    assert evening.director.reachable is True
    director.stop()  # taken up again with no --join: the book's link, the plan it holds
    assert main(["evening", str(folder), "--listen", "off", "--wav"]) == 0
    assert ran[-1].director is not None and ran[-1].director.reachable is False
    assert "вечер идёт по плану директора, который у него есть" in capsys.readouterr().out


def test_the_operator_sees_whether_the_director_answers_and_what_it_lacks(
        tmp_path: Path, director: StandInDirector) -> None:
    book = joined_book(tmp_path / "ev", director)
    front, views = watched(book)
    sender = forwarder(book, director, [], reachable=True)
    front.director = sender.state
    front.open()
    front.publish_views()
    assert views[OPERATOR]["evening"]["director"] == {"reachable": True, "unsent": 0,
                                                      "refused": 0, "refusals": []}
    entry = finish_game(book)
    sender.outbox.put(f"{book.id}-{entry.number}", {"game": entry.number})
    sender.reachable = False
    rig = make_rig()
    front.attach(rig.table, book.games[-1])  # during a game too
    assert views[OPERATOR]["evening"]["director"] == {"reachable": False, "unsent": 1,
                                                      "refused": 0, "refusals": []}
    for who, view in views.items():  # a player's page says nothing of it
        if who != OPERATOR:
            assert "director" not in json.dumps(view)
    plain, _ = watched(new_book(tmp_path / "club"))  # a club's evening: no director
    assert plain._evening()["director"] is None


@pytest.mark.parametrize("text", ["http://h:1/join/", "ftp://h:1/join/abcdefgh12",
                                  "http://h:1/join/abcdefgh12/plan", "http://h:1/join/a b c d e",
                                  "http://h:1/join/abcdefgh12?x=1", "/join/abcdefgh12"])
def test_a_join_link_is_the_directors_or_one_line(text: str) -> None:
    with pytest.raises(NarratorError, match="http://HOST:PORT/join/TOKEN"):
        join_link(text)
    assert join_link("http://10.0.0.5:8700/join/abcdefgh12/") == \
        "http://10.0.0.5:8700/join/abcdefgh12"
