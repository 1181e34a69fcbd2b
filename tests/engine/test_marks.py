"""The host's marks after a game (narrator.engine.marks): extra points in the club's step and
bound, the titles best player / best move / worst move, a comment; taken once the game is over
and only then, changing nothing of the game, kept in the protocol and the history."""

from __future__ import annotations

from pathlib import Path

import pytest

from narrator.engine import (
    Game,
    IllegalActionError,
    InvalidActionError,
    Mark,
    Nominate,
    parse_action,
)
from narrator.engine import events as ev
from narrator.engine.options import OptionError, apply_options
from narrator.engine.rules import find_rules
from narrator.reasons import Reason
from narrator.replay.script import load_table_script, parse_table_script
from narrator.replay.table import replay_script

EXAMPLE = Path(__file__).parents[2] / "examples" / "civilians-win.table.jsonl"


def finished(options: dict[str, object] | None = None) -> Game:
    """The example's game, over, on a fresh Game of the same rules (and the club's options)."""
    played = replay_script(load_table_script(EXAMPLE)).game
    rules = apply_options(find_rules(played.rules.name), options or {})
    game = Game(rules, seats=played.seats, roles=dict(played.roles))
    game.start()
    game.replay(played.history)
    assert game.is_over
    return game


def test_a_mark_is_taken_once_the_game_is_over_and_changes_nothing() -> None:
    g = finished()
    before = g.protocol()
    events = g.apply(Mark(4, 0.3, ("best_player",), "нашла шерифа"))
    assert events == [ev.Marked(4, 0.3, ("best_player",), "нашла шерифа")]
    assert g.is_over and g.winner == finished().winner
    after = g.protocol()
    assert after.pop("marks") == [{"seat": 4, "points": 0.3, "titles": ["best_player"],
                                   "comment": "нашла шерифа"}]
    assert after == before  # nothing else of the game moved


def test_no_mark_before_the_end() -> None:
    g = Game(find_rules("crime-time"), seats=10)
    g.start()
    with pytest.raises(IllegalActionError) as e:
        g.apply(Mark(4, 0.3, (), "рано"))
    assert e.value.reason == Reason.NOT_OVER
    assert not g.history


def test_a_later_mark_replaces_and_an_empty_one_takes_it_away() -> None:
    g = finished()
    g.apply(Mark(4, 0.3, ("best_player",), "первое"))
    g.apply(Mark(7, -0.2, ("worst_move",), "ушёл не туда"))
    g.apply(Mark(4, 0.5, (), "второе"))
    assert g.marks[4] == Mark(4, 0.5, (), "второе")
    g.apply(Mark(7))
    assert set(g.marks) == {4}
    assert [m["seat"] for m in g.protocol()["marks"]] == [4]


def test_undo_takes_the_last_mark_back() -> None:
    g = finished()
    g.apply(Mark(2, 0.1, (), "за игру"))
    g.apply(Mark(3, 0.2, (), "за игру"))
    assert g.pop() == Mark(3, 0.2, (), "за игру")
    assert set(g.marks) == {2}


@pytest.mark.parametrize(("mark", "reason"), [
    (Mark(4, 1.1, (), "слишком"), Reason.BAD_POINTS),  # beyond the bound (1 by default)
    (Mark(4, -1.5, (), "слишком"), Reason.BAD_POINTS),
    (Mark(4, 0.25, (), "не в шаг"), Reason.BAD_POINTS),  # the step is 0.1
    (Mark(4, 0.3, ()), Reason.COMMENT_NEEDED),  # MafiaRatings: «Please enter comment.»
    (Mark(4, 0.0, ("best_move",), "  "), Reason.COMMENT_NEEDED),
    (Mark(4, 0.0, ("best_move", "best_move"), "дважды"), Reason.BAD_REQUEST),
    (Mark(4, 0.0, (), "две\nстроки"), Reason.BAD_REQUEST),
])
def test_what_the_club_does_not_give_is_refused(mark: Mark, reason: Reason) -> None:
    g = finished()
    with pytest.raises(IllegalActionError) as e:
        g.apply(mark)
    assert e.value.reason == reason
    assert not g.marks


def test_the_club_says_the_step_and_the_bound() -> None:
    g = finished({"bonus_step": 0.25, "bonus_max": 0.5})
    g.apply(Mark(4, 0.25, (), "шаг клуба"))
    g.apply(Mark(5, -0.5, (), "граница клуба"))
    with pytest.raises(IllegalActionError):
        g.apply(Mark(6, 0.3, (), "не в шаг клуба"))
    with pytest.raises(IllegalActionError):
        g.apply(Mark(6, 0.75, (), "за границей"))


@pytest.mark.parametrize("raw", [{"bonus_step": 0}, {"bonus_max": -1}, {"bonus_max": "1"},
                                 {"bonus_step": True}])
def test_bad_step_or_bound_is_one_line(raw: dict[str, object]) -> None:
    with pytest.raises(OptionError) as e:
        apply_options(find_rules("crime-time"), raw)
    assert "\n" not in str(e.value) and next(iter(raw)) in str(e.value)


def test_a_seat_that_does_not_exist() -> None:
    g = finished()
    with pytest.raises(InvalidActionError):
        g.apply(Mark(11, 0.1, (), "нет такого"))


@pytest.mark.parametrize("mark", [
    Mark(3, 0.3, ("best_player",), "нашёл шерифа -- и дона"),
    Mark(10, -0.7, ("worst_move", "best_move"), "x"),
    Mark(1, 0.0, (), "просто комментарий"),
    Mark(2),
])
def test_the_text_form_reads_back(mark: Mark) -> None:
    assert parse_action(str(mark)) == mark


@pytest.mark.parametrize("line", ["mark", "mark x", "mark 3 lots", "mark 3 nan -- x"])
def test_a_bad_text_form_is_invalid(line: str) -> None:
    with pytest.raises(InvalidActionError):
        parse_action(line)


def test_a_table_script_gives_marks_after_the_game() -> None:
    text = EXAMPLE.read_text(encoding="utf-8") + (
        '{"mark": {"seat": 4, "points": 0.3, "titles": ["best_player"], "comment": "шериф"}}\n'
        '{"mark": {"seat": 9, "titles": ["worst_move"], "comment": "подставил дона"}}\n')
    result = replay_script(parse_table_script(text, "t"))
    assert [m["seat"] for m in result.protocol()["marks"]] == [4, 9]
    assert "seat 9 marks: worst move — подставил дона" in result.transcript.render()


def test_a_table_script_mark_before_the_end_names_its_line() -> None:
    text = ('{"rules": "crime-time", "seats": 10}\n'
            '{"mark": {"seat": 4, "points": 0.3, "comment": "рано"}}\n')
    with pytest.raises(Exception) as e:
        replay_script(parse_table_script(text, "t.jsonl"))
    assert "t.jsonl:2" in str(e.value) and "over" in str(e.value)


def test_nominate_after_the_end_is_still_game_over() -> None:
    g = finished()
    with pytest.raises(IllegalActionError) as e:
        g.apply(Nominate(3))
    assert e.value.reason == Reason.GAME_OVER
