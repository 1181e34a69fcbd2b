"""The host's marks on an evening: between games (the last game over, the next not begun) the
operator marks the last game; each mark is the engine's to take and goes into that game's
journal, so the game read back (a resume of the evening, its protocol) has it. The pads never
get the form."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

from narrator.clock import VirtualClock
from narrator.console.table import Press
from narrator.console.tokens import OPERATOR
from narrator.engine import Mark, Remove, TimeUp
from narrator.evening.book import GameEntry, player_id
from narrator.evening.front import EveningFront, Finished
from narrator.host.journal import load_journal
from narrator.reasons import words as reason_words
from tests.evening.test_evening import journal_game, new_book
from tests.helpers import ROLES
from tests.words.english import english

MARK = {"seat": 4, "points": 0.3, "titles": ["best_player"], "comment": "нашла шерифа"}


def lobby_after_a_game(tmp_path: Path) -> tuple[EveningFront, Path, dict[Any, Any]]:
    """An evening whose game 1 is over (its journal closed) and the lobby on."""
    book = new_book(tmp_path / "ev")
    book.seating = {s: s for s in range(1, 11)}
    entry = book.new_game("crime-time")
    path = book.journal(entry)
    journal_game(path, "crime-time", ROLES, book.names_of(book.seating), TimeUp("dealing"),
                 Remove(3), Remove(5), Remove(9))
    front = EveningFront(book, VirtualClock(100.0))
    views: dict[Any, Any] = {}
    front.publish = lambda published: views.update(
        {who: json.loads(v.message)["view"] for who, v in published.items()})
    front.detach(Finished(entry, load_journal(path).game()), [])
    return front, path, views


def mark(front: EveningFront, **data: Any) -> Any:
    return front.handle(Press(OPERATOR, "mark", data, 101.0))


def test_between_games_the_operator_marks_the_last_game_into_its_journal(
        tmp_path: Path) -> None:
    front, path, views = lobby_after_a_game(tmp_path)
    assert views[OPERATOR]["marks"]["given"] == []
    assert all("marks" not in views[player_id(n)] for n in range(1, 11))
    assert mark(front, **MARK).ok
    assert views[OPERATOR]["marks"]["given"] == [MARK]
    assert mark(front, seat=7, points=-0.2, comment="ушёл не туда").ok
    assert mark(front, seat=7).ok  # nothing given: taken away
    game = load_journal(path).game()  # the journal has them, in the game's own lines
    assert game.marks == {4: Mark(4, 0.3, ("best_player",), "нашла шерифа")}
    assert game.protocol()["marks"] == [MARK]
    assert front.final_protocol is not None and front.final_protocol["marks"] == [MARK]
    lines = [json.loads(line) for line in path.read_text().splitlines()[1:]]
    assert {"type": "operator", "t": 101.0, "do": "mark", **MARK} in lines
    assert {"type": "action", "t": 101.0,
            "action": "mark 4 +0.3 best_player -- нашла шерифа"} in lines


def test_a_mark_the_club_does_not_give_is_refused_and_not_journaled(tmp_path: Path) -> None:
    front, path, _views = lobby_after_a_game(tmp_path)
    before = path.read_text()
    assert mark(front, seat=4, points=0.3).reason == "comment_needed"
    assert mark(front, seat=4, points=2, comment="много").reason == "bad_points"
    assert mark(front, seat=4, points="0.3", comment="?").detail == {"field": "points"}
    assert path.read_text() == before


def test_no_mark_once_the_next_game_is_starting(tmp_path: Path) -> None:
    front, _path, views = lobby_after_a_game(tmp_path)
    assert front.handle(Press(OPERATOR, "start", {}, 101.0)).ok
    assert views[OPERATOR]["marks"] is None
    assert mark(front, **MARK).reason == "not_now"


def test_an_evening_on_a_virtual_clock_takes_the_marks_between_its_games(
        tmp_path: Path) -> None:
    """A hostless game of an evening, then the lobby: the operator's mark goes into the
    game's journal, and the evening taken up again shows it."""
    from narrator.console.serve import ConsoleOptions
    from narrator.evening.cli import Evening
    from narrator.play.cli import TableOptions

    book = new_book(tmp_path / "ev")
    book.draw(random.Random(4))
    book.save()
    opts = TableOptions(lang="ru", listen=False,
                        console=ConsoleOptions("127.0.0.1:0", None, False, True))
    clock = VirtualClock(1000.0)
    evening = Evening(book, opts, None, wav=True, rng=random.Random(5), clock=clock,
                      terminal=io.StringIO(""))
    front, press = evening.front, evening.driver.call
    attach, detach = front.attach, front.detach
    replies: list[Any] = []

    def operator(do: str, **data: Any) -> None:
        press(lambda: replies.append(front.handle(Press(OPERATOR, do, data, clock.now()))))

    def game_on(table: Any, entry: GameEntry) -> None:
        attach(table, entry)
        for seat in sorted(table.host.game.black):
            operator("remove", seat=seat)

    def lobby(finished: Finished | None, results: Any) -> None:
        detach(finished, results)
        operator("mark", **MARK)
        operator("close")

    front.attach, front.detach = game_on, lobby  # type: ignore[method-assign]
    operator("start")
    assert evening.run() == 0
    assert replies[-2].ok
    game = load_journal(book.folder / "game-01.jsonl").game()
    assert set(game.marks) == {4} and game.winner is not None
    again = Evening(book, opts, None, wav=True, rng=random.Random(5), clock=clock,
                    terminal=io.StringIO(""))
    again._load()
    assert again.games[1].marks == game.marks


def test_between_games_an_m_line_at_the_terminal_marks_the_last_game(
        tmp_path: Path, capsys: Any) -> None:
    from narrator.console.serve import ConsoleOptions
    from narrator.evening.cli import Evening
    from narrator.inputs import entry
    from narrator.play.cli import TableOptions

    front, path, _views = lobby_after_a_game(tmp_path)
    opts = TableOptions(lang="ru", listen=False,
                        console=ConsoleOptions("127.0.0.1:0", None, False, True))
    evening = Evening(front.book, opts, None, wav=True, rng=random.Random(5),
                      clock=VirtualClock(100.0), terminal=io.StringIO(""))
    evening.front.last = front.last
    evening._line(entry(101.0, "m 4 +0.3 bp -- нашла шерифа"))
    evening._line(entry(101.0, "m 5 +0.3"))
    evening._line(entry(101.0, "m x"))
    out = capsys.readouterr().out.splitlines()
    assert out == ["принято: оценка игроку 4: +0.3, лучший игрок, «нашла шерифа»",
                   f"не принято: {reason_words('comment_needed', 'ru')}",
                   "не принято: оценка: сначала номер (m 4 +0.3 bp -- за что; m 4 — снять "
                   "оценку)"]
    assert english("\n".join(out)) == []
    assert set(load_journal(path).game().marks) == {4}
