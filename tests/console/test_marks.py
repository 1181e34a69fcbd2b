"""The host's marks on the operator view: once the game is over a form per seat (points in the
club's step and bound, the three titles, a comment), each press taken as the engine's ``Mark``
and journaled, the marks given shown, the protocol kept for the operator renewed, undone by the
operator's undo, read back on a resume; the pads never see the form."""

from __future__ import annotations

from pathlib import Path

from narrator.engine import Game, Mark
from narrator.host.journal import Journal, load_journal
from narrator.testing import TableRig
from tests.helpers import ROLES

MARK = {"seat": 4, "points": 0.3, "titles": ["best_player"], "comment": "нашла шерифа"}


def over(path: Path) -> TableRig:
    """A console game whose black seats the operator removed: the civilians win."""
    game = Game(roles=ROLES)
    rig = TableRig(game, journal=Journal.for_game(path, game, mode="play", fsync=False))
    rig.deal()
    assert rig.op("mark", **MARK).reason == "not_over"  # the engine's: not before the end
    assert rig.views["operator"]["marks"] is None
    for seat in (3, 5, 9):
        assert rig.op("remove", seat=seat).ok
    assert rig.game.is_over
    return rig


def test_the_form_comes_once_the_game_is_over_and_a_mark_is_the_engines(tmp_path: Path) -> None:
    rig = over(tmp_path / "j.jsonl")
    form = rig.views["operator"]["marks"]
    assert form == {"bonus_max": 1.0, "bonus_step": 0.1,
                    "titles": ["best_player", "best_move", "worst_move"], "given": []}
    assert rig.op("mark", **MARK).ok
    assert rig.game.marks == {4: Mark(4, 0.3, ("best_player",), "нашла шерифа")}
    assert rig.views["operator"]["marks"]["given"] == [MARK]
    assert all("marks" not in rig.views[seat] for seat in range(1, 11))  # the host's only
    assert rig.table.final_protocol is not None
    assert rig.table.final_protocol["marks"] == [MARK]  # the operator's download has it
    assert any(i.get("do") == "mark" for i in load_journal(tmp_path / "j.jsonl").inputs)


def test_what_the_club_does_not_give_is_refused_with_the_engines_reason(tmp_path: Path) -> None:
    rig = over(tmp_path / "j.jsonl")
    assert rig.op("mark", seat=4, points=0.3).reason == "comment_needed"
    assert rig.op("mark", seat=4, points=1.5, comment="много").reason == "bad_points"
    assert rig.op("mark", seat=4, points=0.25, comment="не в шаг").reason == "bad_points"
    assert rig.op("mark", seat=4, titles=["mvp"], comment="нет такого").reason == "bad_request"
    assert rig.op("mark", seat=11, comment="нет такого").reason == "not_a_seat"
    assert not rig.game.marks
    assert rig.journal is not None  # a refused press is not journaled
    assert all(i.get("do") != "mark" for i in load_journal(rig.journal.path).inputs)


def test_undo_takes_the_last_mark_back_and_the_protocol_with_it(tmp_path: Path) -> None:
    rig = over(tmp_path / "j.jsonl")
    assert rig.op("mark", **MARK).ok
    assert rig.op("mark", seat=7, points=-0.2, comment="ушёл не туда").ok
    assert rig.op("undo").ok
    assert set(rig.game.marks) == {4}
    assert rig.views["operator"]["marks"]["given"] == [MARK]
    assert rig.table.final_protocol is not None
    assert [m["seat"] for m in rig.table.final_protocol["marks"]] == [4]
    assert rig.op("mark", seat=4).ok  # nothing given: seat 4's marks taken away
    assert not rig.game.marks and "marks" not in rig.table.final_protocol


def test_a_resume_keeps_the_marks_and_takes_more(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    rig = over(path)
    assert rig.op("mark", **MARK).ok
    assert rig.journal is not None
    rig.journal.close()
    again = TableRig.resumed(path)
    assert again.game.is_over and set(again.game.marks) == {4}
    again.table.publish_views()
    assert again.views["operator"]["marks"]["given"] == [MARK]
    assert again.op("mark", seat=2, titles=["best_move"], comment="лучший ход").ok
    assert set(load_journal(path).game().marks) == {2, 4}
