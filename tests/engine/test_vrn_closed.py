"""One scenario per distinguishing clause of the «Закриті правила» (mafia vrn), through the
table-script replay; the text has no clause numbers, so each test is named after its words.

Default roles: sheriff 1, don 3, mafia 5 and 9; everybody else red.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from narrator.cli import main
from narrator.engine import CheckRecord, CrashRecord, Departure, Game, Phase, Role
from narrator.engine import events as ev
from narrator.engine import waits as w
from narrator.engine.rules import find_rules
from narrator.errors import ScriptError
from narrator.replay.script import parse_table_script
from narrator.replay.table import ReplayResult
from narrator.testing import advance
from tests.engine.conftest import day_speeches, run

ALL = list(range(1, 11))
RULES = "vrn-closed"
HIT_7 = {"night": {"shots": {"3": 7, "5": 7, "9": 7}}}


def closed(*lines: dict[str, Any], roles: dict[str, Any] | None = None) -> ReplayResult:
    return run(*lines, roles=roles, rules=RULES)


def nominate(pairs: dict[int, int], seats: list[int] | None = None) -> list[dict[str, Any]]:
    """A discussion of ``seats`` (default: all ten from 1) where ``pairs`` maps speaker → seat."""
    says = {s: [[1.0, f"выставляю номер {t}"], [2.0, "спасибо"]] for s, t in pairs.items()}
    return day_speeches(seats or ALL, says)


def circle(start: int, out: tuple[int, ...] = ()) -> list[int]:
    seats = [(start - 1 + i) % 10 + 1 for i in range(10)]
    return [s for s in seats if s not in out]


# -- the cards and the first night ---------------------------------------------------------------

def test_ten_players_draw_cards_red_and_black() -> None:
    # the text names the mafia (black, with the don) and the red (with the sheriff); the count is
    # the clubs' three black of ten
    for seed in range(20):
        game = Game(RULES, rng=random.Random(seed))
        assert Counter(game.roles.values()) == {Role.CIVILIAN: 6, Role.SHERIFF: 1,
                                                Role.MAFIA: 2, Role.DON: 1}
    assert (find_rules(RULES).min_seats, find_rules(RULES).max_seats) == (10, 10)
    with pytest.raises(ScriptError, match=r"seats: expected 10, got 9 \(a table of vrn-closed\)"):
        parse_table_script(json.dumps({"rules": RULES, "seats": 9}), "t")


def test_first_night_only_the_mafia_wakes_and_agrees_then_good_morning() -> None:
    said = closed().transcript.said
    assert said[:said.index("Слово игроку номер один")] == [
        "Наступает ночь",
        "Игроки по очереди открывают глаза и узнают свои роли",
        "Мафия проснулась",
        "Десять секунд",
        "Мафия заснула",
        "Доброе утро! Город просыпается",
    ]
    game = Game(RULES, roles={1: Role.SHERIFF, 3: Role.DON, 5: Role.MAFIA, 9: Role.MAFIA})
    events = game.start()
    events += advance(game, w.Speech, through=w.Pause | w.Deal)
    phases = [e.name for e in events if isinstance(e, ev.PhaseStarted)]
    assert phases == ["night", "dealing", "agreement", "mafia_sleeps", "day"]  # no don, sheriff


# -- who opens the day -----------------------------------------------------------------------------

def test_day_one_opens_at_seat_one_day_two_at_seat_two_and_so_on() -> None:
    lines = [*nominate({}), {"night": {}}, *nominate({}, circle(2)), {"night": {}},
             *nominate({}, circle(3)), {"night": {}}]
    game = closed(*lines).game
    assert [d.opened_by for d in game.days] == [1, 2, 3, 4]
    assert isinstance(game.expect, w.Speech) and game.expect.seat == 4


def test_day_n_opens_at_the_first_living_seat_from_n_when_seat_n_is_out() -> None:
    # seat 2 is shot on night 2: day 2 opens at 3; seat 3 keeps its turn on day 3
    lines = [*nominate({}), {"night": {"shots": {"3": 2, "5": 2, "9": 2}}}, {"speech": 2},
             *nominate({}, circle(3, (2,))), {"night": {}}]
    game = closed(*lines).game
    assert [d.opened_by for d in game.days] == [1, 3, 3]
    # crime-time would open day 3 after day 2's opener, at 4
    assert find_rules("crime-time").day_opener(3, 3, 10) == 4
    assert find_rules(RULES).day_opener(11, 10, 10) == 1  # day 11 of ten seats: seat 1 again


# -- a single candidate ----------------------------------------------------------------------------

def test_a_single_candidate_on_the_first_day_stays() -> None:
    result = closed(*nominate({1: 5}))
    assert result.game.days[0].out == [] and result.game.days[0].rounds == []
    assert "В первый день выставлена одна кандидатура, голосования не будет" in \
        result.transcript.said
    assert isinstance(result.game.expect, w.Hunt)


def test_from_the_second_day_a_single_candidate_leaves_without_a_vote() -> None:
    lines = [*nominate({}), {"night": {}}, *nominate({4: 9}, circle(2))]
    result = closed(*lines)
    game = result.game
    day = game.days[1]
    assert day.nominations == [9] and day.rounds == [] and day.out == [9]
    assert game.out[9] == Departure("vote", Phase.day(2))
    said = result.transcript.said
    i = said.index("На голосование выставлен только один игрок: он покидает игру без голосования")
    assert said[i + 1:i + 3] == ["Игрок номер девять покидает стол",
                                 "Игрок номер девять, ваше последнее слово"]
    assert isinstance(game.expect, w.Speech)
    assert game.expect.speech == "last" and game.expect.seat == 9  # «хвилина на останнє слово»


def test_from_the_second_day_two_candidates_are_voted_on() -> None:
    lines = [*nominate({}), {"night": {}}, *nominate({4: 9, 6: 8}, circle(2))]
    game = closed(*lines).game
    assert isinstance(game.expect, w.Vote) and game.expect.candidate == 9


# -- «автокатастрофа» ------------------------------------------------------------------------------

TIE = {"5": [1, 2, 3, 4, 6], "7": []}  # five each: the abstainers count for 7


def test_car_crash_the_tied_get_30_seconds_then_a_revote() -> None:
    game = closed(*nominate({1: 5, 2: 7}), {"vote": TIE}).game
    assert isinstance(game.expect, w.Speech)
    assert game.expect.speech == "tie" and game.expect.seat == 5
    assert game.expect.timer is not None and game.expect.timer.seconds == 30.0
    game = closed(*nominate({1: 5, 2: 7}), {"vote": TIE}, {"speech": 5}, {"speech": 7},
                  {"vote": {"5": [1, 2, 3], "7": []}}).game
    assert game.days[0].out == [7]


def revote_tie(crash: list[int]) -> ReplayResult:
    return closed(*nominate({1: 5, 2: 7}), {"vote": TIE}, {"speech": 5}, {"speech": 7},
                  {"vote": TIE}, {"crash": crash})


def test_car_crash_tied_again_the_host_asks_and_a_majority_removes_them() -> None:
    result = revote_tie([1, 2, 3, 4, 6, 8])
    said = result.transcript.said
    i = said.index("Кто за то, чтобы все эти кандидаты покинули игру?")
    assert said[i - 1] == "Оставшиеся кандидатуры участвуют в автокатастрофе"
    assert result.game.days[0].crash == CrashRecord(6, 4, True)
    assert result.game.days[0].out == [5, 7]


@pytest.mark.parametrize(("hands", "split"), [([1, 2, 3, 4, 6], "equal"), ([1, 2], "minority")])
def test_car_crash_a_minority_or_an_equal_split_keeps_them(hands: list[int], split: str) -> None:
    result = revote_tie(hands)
    assert result.game.days[0].crash is not None
    assert result.game.days[0].crash.passed is False, split
    assert not result.game.out and isinstance(result.game.expect, w.Hunt)


def test_car_crash_the_question_is_put_with_four_at_the_table_too() -> None:
    # the text makes no exception for four players (crime-time's 2.4.2 does)
    lines: list[dict[str, Any]] = [{"remove": s} for s in (2, 4, 5, 6, 7, 9)]
    lines += [*day_speeches([1, 3, 8, 10]), {"night": {}}]
    lines += [*nominate({1: 3, 3: 8}, [3, 8, 10, 1]), {"vote": {"8": [1, 3]}},
              {"speech": 8}, {"speech": 3}, {"vote": {"8": [1, 3]}}, {"crash": [1, 8, 10]}]
    result = closed(*lines)
    day = result.game.days[1]
    assert len(day.rounds) == 2 and day.crash == CrashRecord(3, 1, True)
    assert result.game.winner is not None and result.game.winner.value == "civilians"  # the don


# -- the nights ------------------------------------------------------------------------------------

def test_the_mafia_hunts_then_the_don_then_the_sheriff_then_good_morning() -> None:
    said = closed(*nominate({}), HIT_7).transcript.said
    i = said.index("Мафия выходит на охоту")
    assert said[i + 1] == "один" and said[i + 10] == "десять"
    assert said[i + 11:i + 16] == [
        "Просыпается Дон", "Дон заснул, проснулся Шериф", "Шериф засыпает",
        "Доброе утро! Город просыпается", "Этой ночью убит игрок номер семь"]


def test_the_victim_gets_the_last_word_and_a_miss_is_announced() -> None:
    game = closed(*nominate({}), HIT_7).game
    assert game.out[7] == Departure("shot", Phase.night(2))
    assert isinstance(game.expect, w.Speech) and game.expect.speech == "last"
    result = closed(*nominate({}), {"night": {"shots": {"3": 7, "5": 7, "9": 2}}})
    assert "Мафия промахнулась. Все остаются за столом" in result.transcript.said
    assert result.game.nights[0].hit is None
    assert isinstance(result.game.expect, w.Speech) and result.game.expect.seat == 2


def test_the_don_looks_for_the_sheriff_and_the_sheriff_for_the_mafia() -> None:
    night = closed(*nominate({}), {"night": {"don": 1, "sheriff": 9}}).game.nights[0]
    assert night.checks.get("don") == CheckRecord(1, True)
    assert night.checks.get("sheriff") == CheckRecord(9, True)


# -- the end ---------------------------------------------------------------------------------------

def test_red_wins_when_the_mafia_is_gone_black_when_equal() -> None:
    result = closed({"remove": 3}, {"remove": 5}, {"remove": 9})
    assert result.game.winner is not None and result.game.winner.value == "civilians"
    assert result.transcript.said[-1] == "Игра окончена. Победили красные"
    result = closed(*({"remove": s} for s in (2, 4, 6, 7)))
    assert result.game.winner is not None and result.game.winner.value == "mafia"
    assert result.transcript.said[-1] == "Игра окончена. Победили черные"


# -- bad input -------------------------------------------------------------------------------------

def test_a_line_of_another_ruleset_is_one_line_naming_it(
        tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.table.jsonl"
    path.write_text('{"rules": "vrn-closed"}\n{"speech": 1}\n{"extra": [3, 7]}\n')
    assert main(["replay", str(path)]) == 2
    assert capsys.readouterr().err == (
        f"narrator: {path}:3: expected one of best_move, crash, foul, mark, night, on_record, remove, "
        f"speech, vote (the inputs of vrn-closed), got extra\n")
