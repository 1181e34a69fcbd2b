"""One scenario per distinguishing clause of «Профессиональные правила», through the table-script
replay; the text has no clause numbers, so each test is named after the clause's own words.

Default roles: sheriff 1, don 3, mafia 5 and 9; everybody else red.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from narrator.cli import main
from narrator.engine import (
    CheckRecord,
    CrashRecord,
    Departure,
    Game,
    Phase,
    Role,
    VoteRound,
)
from narrator.engine import events as ev
from narrator.engine import waits as w
from narrator.engine.rules import find_rules
from narrator.errors import ScriptError
from narrator.replay.script import parse_table_script
from narrator.replay.table import ReplayResult
from narrator.testing import advance
from tests.engine.conftest import day_speeches, run

ALL = list(range(1, 11))
RULES = "professional"


def pro(*lines: dict[str, Any], roles: dict[str, Any] | None = None) -> ReplayResult:
    return run(*lines, roles=roles, rules=RULES)


def nominate(pairs: dict[int, int], seats: list[int] | None = None) -> list[dict[str, Any]]:
    """A discussion of ``seats`` (default: all ten from 1) where ``pairs`` maps speaker → seat."""
    says = {s: [[1.0, f"выставляю номер {t}"], [2.0, "спасибо"]] for s, t in pairs.items()}
    return day_speeches(seats or ALL, says)


def after(said: list[str], phrase: str, n: int) -> list[str]:
    """The ``n`` phrases said after the last ``phrase``."""
    i = len(said) - 1 - said[::-1].index(phrase)
    return said[i + 1:i + 1 + n]


# -- the cards ------------------------------------------------------------------------------------

def test_seven_red_cards_with_the_sheriff_three_black_with_the_don() -> None:
    for seed in range(20):
        game = Game(RULES, rng=random.Random(seed))
        assert Counter(game.roles.values()) == {Role.CIVILIAN: 6, Role.SHERIFF: 1,
                                                Role.MAFIA: 2, Role.DON: 1}


def test_ten_players_sit_at_the_table() -> None:
    rules = find_rules(RULES)
    assert (rules.min_seats, rules.max_seats) == (10, 10)
    with pytest.raises(ScriptError,
                       match=r"seats: expected 10, got 12 \(a table of professional\)"):
        parse_table_script(json.dumps({"rules": RULES, "seats": 12}), "t")


# -- the first night -----------------------------------------------------------------------------

def test_first_night_mafia_wakes_then_don_and_sheriff_meet_the_host() -> None:
    said = pro().transcript.said
    first_day = said.index("Слово игроку номер один")
    assert said[:first_day] == [
        "Наступает ночь",
        "Просыпается мафия",
        "Десять секунд",  # a minute to agree, as at every club
        "Мафия засыпает",
        "Просыпается Дон и знакомится с ведущим",
        "Засыпает Дон",
        "Просыпается Шериф и знакомится с ведущим",
        "Засыпает Шериф",
        "Утро. Все просыпаются",
    ]


def test_first_night_cards_come_before_the_night_and_nobody_hunts_or_checks() -> None:
    game = Game(RULES, roles={1: Role.SHERIFF, 3: Role.DON, 5: Role.MAFIA, 9: Role.MAFIA})
    events = game.start()
    events += advance(game, w.Speech, through=w.Pause | w.Deal)
    phases = [e.name for e in events if isinstance(e, ev.PhaseStarted)]
    assert phases == ["dealing", "night", "agreement", "mafia_sleeps", "don_noted", "don_sleeps",
                      "sheriff_noted", "sheriff_sleeps", "day"]
    assert isinstance(game.expect, w.Speech) and game.expect.seat == 1


# -- the day ---------------------------------------------------------------------------------------

def test_discussion_starts_at_seat_one_then_after_the_previous_first_speaker() -> None:
    # day 2 opens at 2; day 3 would open at 3, but 3 was voted out: the next seat, 4
    lines = [*nominate({}), {"night": {}}]
    lines += nominate({2: 3}, [2, 3, 4, 5, 6, 7, 8, 9, 10, 1])
    lines += [{"vote": {"3": ALL}}, {"speech": 3}, {"night": {}}]
    game = pro(*lines).game
    assert [d.opened_by for d in game.days] == [1, 2, 4]


def test_the_candidate_with_most_votes_leaves_with_a_last_word() -> None:
    result = pro(*nominate({1: 5, 2: 7}), {"vote": {"5": [1, 2, 3, 4, 6, 7], "7": []}})
    assert result.game.out[5] == Departure("vote", Phase.day(1))
    assert isinstance(result.game.expect, w.Speech)
    assert result.game.expect.speech == "last" and result.game.expect.seat == 5


def test_a_single_candidate_on_the_first_day_is_not_voted_on() -> None:
    # the text is silent; the sport clubs' rule, as crime-time's 2.2.1
    result = pro(*nominate({1: 5}))
    assert "В первый день выставлена одна кандидатура, голосования не будет" in \
        result.transcript.said
    assert isinstance(result.game.expect, w.Hunt) and not result.game.out


# -- «перестрелка» ---------------------------------------------------------------------------------

TIE = {"5": [1, 2, 3, 4, 6], "7": []}  # five each: the abstainers count for 7


def test_perestrelka_the_tied_get_30_seconds_then_a_revote() -> None:
    result = pro(*nominate({1: 5, 2: 7}), {"vote": TIE})
    game = result.game
    assert isinstance(game.expect, w.Speech)
    assert game.expect.speech == "tie" and game.expect.seat == 5
    assert game.expect.timer is not None and game.expect.timer.seconds == 30.0
    assert result.transcript.said[-3:] == [
        "Голоса разделились поровну", "Кандидаты получают слово по тридцать секунд",
        "Игрок номер пять, у вас тридцать секунд"]


def test_perestrelka_whoever_gets_more_votes_in_the_revote_leaves() -> None:
    result = pro(*nominate({1: 5, 2: 7}), {"vote": TIE}, {"speech": 5}, {"speech": 7},
                 {"vote": {"5": [1, 2, 3], "7": []}})
    day = result.game.days[0]
    assert day.rounds[1] == VoteRound((5, 7), {5: 3, 7: 7})
    assert day.out == [7] and day.crash is None


def revote_tie(crash: list[int]) -> ReplayResult:
    return pro(*nominate({1: 5, 2: 7}), {"vote": TIE}, {"speech": 5}, {"speech": 7},
               {"vote": TIE}, {"crash": crash})


def test_perestrelka_tied_again_asks_if_all_of_them_leave_and_a_majority_removes_them() -> None:
    result = revote_tie([1, 2, 3, 4, 6, 8])
    said = result.transcript.said
    assert "Кто за то, чтобы все голосуемые покинули игру?" in said
    assert "Оставшиеся кандидатуры участвуют в автокатастрофе" not in said
    day = result.game.days[0]
    assert day.crash == CrashRecord(6, 4, True) and day.out == [5, 7]
    # each of them has the last word, in order of nomination
    assert isinstance(result.game.expect, w.Speech)
    assert result.game.expect.speech == "last" and result.game.expect.seat == 5


def test_perestrelka_an_equal_split_keeps_them() -> None:
    result = revote_tie([1, 2, 3, 4, 6])
    assert result.game.days[0].crash == CrashRecord(5, 5, False)
    assert not result.game.out and isinstance(result.game.expect, w.Hunt)
    assert "Большинства нет. Все кандидаты остаются в игре" in result.transcript.said


def test_perestrelka_a_majority_against_keeps_them() -> None:
    result = revote_tie([1, 2])
    assert result.game.days[0].crash == CrashRecord(2, 8, False)
    assert not result.game.out


def test_perestrelka_the_question_is_about_those_tied_in_the_revote() -> None:
    # night 2 takes seat 10; on day 2 three candidates tie 3-3-3, then 5 and 7 tie at the top
    # of the re-vote (4-4-1): the question is about them, not about 8
    lines = [*nominate({}), {"night": {"shots": {"3": 10, "5": 10, "9": 10}}}, {"speech": 10},
             *nominate({2: 5, 3: 7, 4: 8}, [2, 3, 4, 5, 6, 7, 8, 9, 1]),
             {"vote": {"5": [1, 2, 3], "7": [4, 6, 9]}},  # 5, 7, 8 abstain: 3 for 8
             {"speech": 5}, {"speech": 7}, {"speech": 8},
             {"vote": {"5": [1, 2, 3, 4], "7": [5, 6, 7, 8]}},  # 9 abstains: 1 for 8
             {"crash": [1, 2, 3, 4, 6]}]
    day = pro(*lines).game.days[1]
    assert [r.votes for r in day.rounds] == [{5: 3, 7: 3, 8: 3}, {5: 4, 7: 4, 8: 1}]
    assert day.crash == CrashRecord(5, 4, True) and day.out == [5, 7]


def four_at_the_table() -> list[dict[str, Any]]:
    """Day 1: six seats removed for violations (both mafiosi, four red): 1 (sheriff), 3 (don),
    8 and 10 stay; the removals cancel day 1's vote (the «monster» rule); night 2: a miss."""
    lines: list[dict[str, Any]] = [{"remove": s} for s in (2, 4, 5, 6, 7, 9)]
    lines += [*day_speeches([1, 3, 8, 10]), {"night": {}}]
    return lines


def test_perestrelka_with_four_at_the_table_no_revote_everybody_stays_night_falls() -> None:
    lines = [*four_at_the_table(),
             *nominate({1: 3, 3: 8}, [3, 8, 10, 1]),  # day 2 opens at 3 (2 is out)
             {"vote": {"8": [1, 3]}}]  # 2-2: 8 and 10 abstain, counting for 8
    result = pro(*lines)
    game = result.game
    assert len(game.living) == 4
    assert game.days[1].rounds == [VoteRound((8, 3), {8: 2, 3: 2})]
    said = result.transcript.said
    i = said.index("За столом четыре игрока, повторное голосование не проводится. "
                   "Все игроки остаются за столом")
    assert said[i + 1] == "Наступает ночь"
    assert "Голоса разделились поровну" not in said[i - 3:]
    assert isinstance(game.expect, w.Hunt) and game.living == [1, 3, 8, 10]


def test_at_five_at_the_table_a_tie_is_voted_again() -> None:
    lines: list[dict[str, Any]] = [{"remove": s} for s in (2, 4, 5, 6, 9)]
    lines += [*day_speeches([1, 3, 7, 8, 10]), {"night": {}}]
    lines += [*nominate({3: 8, 7: 3, 8: 10}, [3, 7, 8, 10, 1]),
              {"vote": {"8": [1, 3], "3": [7, 8]}}]  # 10 abstains: 2-2-1
    result = pro(*lines)
    assert len(result.game.living) == 5
    assert result.game.days[1].rounds[0].votes == {8: 2, 3: 2, 10: 1}
    assert isinstance(result.game.expect, w.Speech)
    assert result.game.expect.speech == "tie" and result.game.expect.seat == 8


# -- the nights ------------------------------------------------------------------------------------

def test_the_mafia_hunts_leaves_and_the_don_then_the_sheriff_wake() -> None:
    said = pro(*nominate({}), {"night": {"shots": {"3": 7, "5": 7, "9": 7}}}).transcript.said
    i = said.index("Мафия выходит на охоту")
    assert said[i + 1:i + 11] == ["один", "два", "три", "четыре", "пять", "шесть", "семь",
                                  "восемь", "девять", "десять"]
    assert said[i + 11:i + 17] == [
        "Мафия удаляется", "Просыпается Дон", "Дон засыпает, просыпается Шериф",
        "Засыпает Шериф", "Утро. Все просыпаются", "Этой ночью убит игрок номер семь"]


def test_if_all_mafiosi_shoot_the_same_number_it_is_hit_else_a_miss() -> None:
    hit = pro(*nominate({}), {"night": {"shots": {"3": 7, "5": 7, "9": 7}}}).game
    assert hit.nights[0].hit == 7 and hit.out[7] == Departure("shot", Phase.night(2))
    for shots in ({"3": 7, "5": 7}, {"3": 7, "5": 7, "9": 2}):
        assert pro(*nominate({}), {"night": {"shots": shots}}).game.nights[0].hit is None


def test_a_night_with_no_victim_is_announced_as_such() -> None:
    result = pro(*nominate({}), {"night": {"shots": {"3": 7}}})
    said = result.transcript.said
    assert after(said, "Утро. Все просыпаются", 1) == [
        "Утро действительно доброе: этой ночью никто не пострадал"]
    assert "Этой ночью мафия промахнулась. Все игроки остаются за столом" not in said
    assert isinstance(result.game.expect, w.Speech)
    assert result.game.expect.speech == "day" and result.game.expect.seat == 2


def test_the_night_victim_has_a_last_word() -> None:
    # the text gives the last word to «выбывший из игры»; a night victim is one too
    result = pro(*nominate({}), {"night": {"shots": {"3": 7, "5": 7, "9": 7}}})
    game = result.game
    assert isinstance(game.expect, w.Speech)
    assert game.expect.speech == "last" and game.expect.seat == 7
    assert game.expect.timer is not None and game.expect.timer.seconds == 60.0


def test_the_don_looks_for_the_sheriff_and_the_sheriff_for_black() -> None:
    night = pro(*nominate({}), {"night": {"don": 1, "sheriff": 5}}).game.nights[0]
    assert night.checks.get("don") == CheckRecord(1, True)
    assert night.checks.get("sheriff") == CheckRecord(5, True)
    night = pro(*nominate({}), {"night": {"don": 2, "sheriff": 4}}).game.nights[0]
    assert night.checks["don"].result is False and night.checks["sheriff"].result is False


# -- the end ---------------------------------------------------------------------------------------

def test_red_wins_when_every_black_player_is_out() -> None:
    lines = [{"remove": 5}, {"remove": 9}, *day_speeches([1, 2, 3]), {"remove": 3}]
    result = pro(*lines)
    assert result.game.winner is not None and result.game.winner.value == "civilians"
    assert result.transcript.said[-1] == "Игра окончена. Победили красные"


def test_black_wins_when_red_and_black_are_equal() -> None:
    lines = [{"remove": s} for s in (2, 4, 6, 7)]  # 6 left: 3 black, 3 red
    result = pro(*lines)
    assert result.game.winner is not None and result.game.winner.value == "mafia"
    assert result.transcript.said[-1] == "Игра окончена. Победили черные"


# -- bad input -------------------------------------------------------------------------------------

@pytest.mark.parametrize(("body", "message"), [
    ('{"put_up": {"7": [1, 2]}}', "expected one of best_move, crash, foul, mark, night, on_record, "
                                  "remove, speech, vote (the inputs of professional), got put_up"),
    ('{"night": {"shots": {"3": 7}, "doctor": 2}}',
     "night: unknown key(s) doctor (a night of professional takes don, sheriff, shots)"),
])
def test_a_line_of_another_ruleset_is_one_line_naming_it(
        tmp_path: Any, capsys: pytest.CaptureFixture[str], body: str, message: str) -> None:
    path = tmp_path / "bad.table.jsonl"
    path.write_text('{"rules": "professional"}\n' + body + "\n")
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err == f"narrator: {path}:2: {message}\n"


def test_a_card_of_another_ruleset_is_one_line_naming_it(
        tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.table.jsonl"
    path.write_text('{"rules": "professional", "roles": {"doctor": 4}}\n')
    assert main(["replay", str(path)]) == 2
    assert capsys.readouterr().err == (
        f'narrator: {path}:1: roles: professional deals no "doctor" '
        f"(its cards: don, mafia, sheriff)\n")
