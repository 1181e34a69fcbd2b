"""The host's marks in host-assist: once the game is over the screen stays, ``m`` opens a line
(``m 4 +0.3 bp -- why``), the marks given are shown, undo takes the last one back, the
journal keeps them and a resume shows them again."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot

from narrator.assist.cli import make_session, resume_session
from narrator.assist.control import hint
from narrator.assist.ui import AssistApp
from narrator.clock import VirtualClock
from narrator.engine import Game, Mark
from narrator.engine.options import apply_options
from narrator.engine.rules import find_rules
from narrator.host.journal import Journal, load_journal
from narrator.voice.manifest import default_manifest
from tests.assist.keys import KeyDriver, new_session, play
from tests.helpers import ROLES


async def over(d: KeyDriver) -> None:
    """The black seats removed: the civilians win."""
    d.run_timers()
    for seat in (3, 5, 9):
        await d.type(str(seat), "x")
        await d.keys("y")
    assert d.game.is_over


async def mark(d: KeyDriver, line: str) -> None:
    """``m``, the line typed key by key, Enter."""
    await d.keys("m", *line, "enter")


def test_marks_after_the_game_by_keys_shown_undone_and_journaled(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    session = new_session(path)

    async def scenario(app: AssistApp, pilot: Pilot[None], d: KeyDriver) -> None:
        await over(d)
        assert hint(d.game).startswith("m 4 +0.3 bp -- why")
        await d.keys("4")  # a seat typed first is the line's seat
        await mark(d, "+0.3 bp wm -- q: нашла шерифа")  # (q in the line is a letter)
        assert app.is_running
        assert d.game.marks == {4: Mark(4, 0.3, ("best_player", "worst_move"),
                                        "q: нашла шерифа")}
        assert d.log("ok")[-1] == "mark 4 +0.3 best_player worst_move -- q: нашла шерифа"
        assert d.screen.snap is not None
        assert d.screen.snap.marks == ("4: +0.3, best player, worst move — q: нашла шерифа",)
        await mark(d, "7 +0.3")  # points need a comment: the engine's reason, shown
        assert "comment" in d.log("error")[-1] and 7 not in d.game.marks
        await mark(d, "7 -0.2 -- ушёл не туда")
        assert set(d.game.marks) == {4, 7}
        await d.keys("u")  # the last mark taken back, like any entry
        assert set(d.game.marks) == {4}
        await d.keys("m", "1", "escape")  # dropped: nothing given
        assert set(d.game.marks) == {4} and d.screen.buffer == "" and not d.screen.marking
        await mark(d, "2 bm -- лучший ход")
        await mark(d, "2")  # m 2 alone: seat 2's marks taken away
        assert set(d.game.marks) == {4}

    play(session, scenario)
    assert session.host.journal is not None
    session.host.journal.close()  # type: ignore[attr-defined]
    contents = load_journal(path)
    assert contents.game().marks == session.host.game.marks

    again = resume_session(contents, path, VirtualClock(), manifest=default_manifest("ru"),
                           fsync=False)

    async def resumed(app: AssistApp, pilot: Pilot[None], d: KeyDriver) -> None:
        d.run_timers()
        assert d.screen.snap is not None and d.screen.snap.over
        assert d.screen.snap.marks == ("4: +0.3, best player, worst move — q: нашла шерифа",)
        await mark(d, "5 +0.1 -- после возобновления")
        assert set(d.game.marks) == {4, 5}

    play(again, resumed)
    assert set(load_journal(path).game().marks) == {4, 5}


def test_m_before_the_end_is_the_black_on_record_key_still(tmp_path: Path) -> None:
    """During the game ``m`` opens no marks' line (it is the colours' key, 6.7)."""
    session = new_session(tmp_path / "j.jsonl")

    async def scenario(app: AssistApp, pilot: Pilot[None], d: KeyDriver) -> None:
        d.run_timers()
        await d.keys("m")
        assert not d.screen.marking and not d.game.marks

    play(session, scenario)


def test_where_the_club_keeps_colours_m_after_the_game_is_the_marks_line_only(
        tmp_path: Path) -> None:
    """With ``on_record`` (6.7) **m** is black on record during the game; once it is over it
    opens the marks' line and nothing else (no colours' entry, no error)."""
    game = Game(apply_options(find_rules("crime-time"), {"on_record": "all"}), roles=ROLES)
    session = make_session(game, VirtualClock(),
                           journal=Journal.for_game(tmp_path / "j.jsonl", game, fsync=False),
                           manifest=default_manifest("ru"))
    session.host.start()

    async def scenario(app: AssistApp, pilot: Pilot[None], d: KeyDriver) -> None:
        await over(d)
        errors = len(d.log("error"))
        await mark(d, "4 bm -- лучший ход")
        assert set(d.game.marks) == {4} and len(d.log("error")) == errors

    play(session, scenario)
