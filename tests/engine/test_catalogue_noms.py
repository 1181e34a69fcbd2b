"""The discussion's groups of the rule catalogue (MafiaRatings' ``include/rules.php``):
``withdraw`` (7.5) with its three worked examples played line by line, ``rotation`` (6.3),
``on_record`` and ``on_record_count`` (6.7, 6.8), and 8.17.1's exception to the best move.

Default roles: sheriff 1, don 3, mafia 5 and 9; everybody else a civilian.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from narrator.engine import Game, IllegalActionError, OnRecord, Withdraw, parse_action
from narrator.engine import waits as w
from narrator.engine.options import OptionError, apply_options, options_of
from narrator.engine.rules import find_rules
from narrator.replay.script import parse_table_script
from narrator.replay.table import ReplayResult, replay_script
from narrator.testing import advance
from tests.engine.conftest import day_speeches
from tests.helpers import ROLES, SCRIPT_ROLES

ALL = list(range(1, 11))


def play(options: dict[str, Any], *lines: dict[str, Any],
         rules: str = "crime-time") -> ReplayResult:
    header = {"rules": rules, "seats": 10, "roles": SCRIPT_ROLES, "options": options}
    text = "\n".join(json.dumps(x, ensure_ascii=False) for x in (header, *lines))
    return replay_script(parse_table_script(text, "t"))


def said_in(result: ReplayResult, seat: int) -> list[str]:
    """What the narrator said from «Слово игроку номер <seat>» on."""
    said = result.transcript.said
    start = next(i for i, x in enumerate(said) if x.startswith("Слово") and x.endswith(
        _ordinal(seat)))
    return said[start + 1:]


def _ordinal(seat: int) -> str:
    return {1: "один", 6: "шесть", 8: "восемь"}[seat]


def test_2_3_2_crime_time_says_snyato_and_a_clubs_withdraw_otozvano() -> None:
    """2.3.2 «вместо слова «принято» - слово «снято»»; a club naming 7.5 plays its examples'
    «Ведущий: отозвано» (7.5.1)."""
    say = {"speech": 1, "say": [[1.0, "выставляю игрока два"], [2.0, "снимаю игрока два"]]}
    assert said_in(play({}, say), 1)[:2] == ["Принято", "Снято"]
    assert said_in(play({"withdraw": "allowed"}, say), 1)[:2] == ["Принято", "Отозвано"]


def refusals(result: ReplayResult, seat: int) -> list[tuple[str, int | None, str]]:
    return [(r.kind, r.target, r.reason) for r in result.game.refused if r.seat == seat]


# -- 7.5: withdrawing a nomination -------------------------------------------------------------

def test_7_5_1_allowed_a_withdrawal_is_needed_before_another_nomination() -> None:
    """7.5.1 «Отзывание игрока обязательно для выставления другого игрока», its example:
    Игрок: выставляю игрока 1. Ведущий: принято. Игрок: выставляю игрока 2, 3, 4. [ведущий
    молчит] Игрок: отзываю игрока номер 1. Ведущий: отозвано. Игрок: выставляю игрока 2, 3,
    4. Ведущий: номер 3 принят (это означает, что 2 уже выставлен другими игроками)."""
    result = play(
        {"withdraw": "allowed"},
        {"speech": 1}, {"speech": 2, "say": [[1.0, "выставляю игрока два"]]},
        *day_speeches([3, 4, 5]),
        {"speech": 6, "say": [
            [1.0, "выставляю игрока один"],
            [3.0, "выставляю игрока два, выставляю игрока три, выставляю игрока четыре"],
            [6.0, "отзываю игрока номер один"],
            [8.0, "выставляю игрока два, выставляю игрока три, выставляю игрока четыре"],
            [12.0, "спасибо"]]})
    game = result.game
    assert game.candidates == (2, 3)
    assert refusals(result, 6) == [
        ("nominate", 2, "already_nominated"), ("nominate", 3, "already_nominated"),
        ("nominate", 4, "already_nominated"),
        ("nominate", 2, "already_standing"), ("nominate", 4, "already_nominated")]
    # «Принято», «Отозвано» (a club's withdraw: the catalogue's word), «Принято» (for 3)
    said = said_in(result, 6)
    assert said[:3] == ["Принято", "Отозвано", "Принято"]


def test_7_5_2_auto_a_new_nomination_replaces_the_speakers_own() -> None:
    """7.5.2 «Отзывание игрока не обязательно для выставления другого игрока. Оно происходит
    автоматически при следующем выставлении», its example: выставляю игрока 1 — принято;
    выставляю игрока 2, 3, 4 — номер 4 принят; отзываю игрока номер 4 — отозвано; выставляю
    игрока 5, 6, 7 — номер 6 принят (это означает, что 7 уже выставлен другими игроками)."""
    result = play(
        {"withdraw": "auto"},
        {"speech": 1, "say": [[1.0, "выставляю игрока семь"]]}, *day_speeches([2, 3, 4, 5, 6, 7]),
        {"speech": 8, "say": [
            [1.0, "выставляю игрока один"],
            [3.0, "выставляю игрока два, выставляю игрока три, выставляю игрока четыре"],
            [6.0, "отзываю игрока номер четыре"],
            [8.0, "выставляю игрока пять, выставляю игрока шесть, выставляю игрока семь"],
            [12.0, "спасибо"]]})
    assert result.game.candidates == (7, 6)
    assert refusals(result, 8) == [("nominate", 7, "already_standing")]
    # «Принято» for 1, 2, 3, 4 (each replacing the last silently), «Отозвано», «Принято» for 5, 6
    said = said_in(result, 8)
    assert said[:7] == ["Принято"] * 4 + ["Отозвано", "Принято", "Принято"]
    notes = [x[x.index("seat 8"):] for x in result.transcript.render().splitlines()
             if "seat 8 " in x and ("nominates" in x or "withdraws" in x)]
    assert notes == ["seat 8 nominates 1", "seat 8 withdraws 1", "seat 8 nominates 2",
                     "seat 8 withdraws 2", "seat 8 nominates 3", "seat 8 withdraws 3",
                     "seat 8 nominates 4", "seat 8 withdraws 4", "seat 8 nominates 5",
                     "seat 8 withdraws 5", "seat 8 nominates 6"]


def test_7_5_3_no_withdrawal_the_first_nomination_stands() -> None:
    """7.5.3 «Отозвать кандидатуру невозможно», its example: выставляю игрока 5, 6, 7 — номер
    6 принят (5 уже выставлен другими); выставляю игрока 2, 3, 4 — [ведущий молчит];
    отзываю игрока номер 6 — [ведущий молчит]; выставляю игрока 3, 4, 5 — [ведущий молчит];
    выставлен игрок номер 6."""
    result = play(
        {"withdraw": "no"},
        {"speech": 1, "say": [[1.0, "выставляю игрока пять"]]}, *day_speeches([2, 3, 4, 5, 6, 7]),
        {"speech": 8, "say": [
            [1.0, "выставляю игрока пять, выставляю игрока шесть, выставляю игрока семь"],
            [4.0, "выставляю игрока два, выставляю игрока три, выставляю игрока четыре"],
            [7.0, "отзываю игрока номер шесть"],
            [9.0, "выставляю игрока три, выставляю игрока четыре, выставляю игрока пять"],
            [12.0, "спасибо"]]})
    assert result.game.candidates == (5, 6)
    assert refusals(result, 8) == [
        ("nominate", 5, "already_standing"), ("nominate", 7, "already_nominated"),
        ("nominate", 2, "already_nominated"), ("nominate", 3, "already_nominated"),
        ("nominate", 4, "already_nominated"), ("withdraw", 6, "no_withdrawal"),
        ("nominate", 3, "already_nominated"), ("nominate", 4, "already_nominated"),
        ("nominate", 5, "already_nominated")]
    said = said_in(result, 8)
    # only 6's «Принято»: silence for the rest, till the next speech
    assert said[:2] == ["Принято", "Слово игроку номер девять"]


def test_7_5_3_a_withdrawal_is_refused_with_its_reason_everywhere() -> None:
    """7.5.3: every front end asks ``Game.refusal``: a withdraw button under «no» is refused
    with ``no_withdrawal``, even of the speaker's own nomination."""
    game = Game(roles=ROLES, rules=apply_options(find_rules("crime-time"), {"withdraw": "no"}))
    game.start()
    advance(game, w.Speech, seat=1, through=w.Pause | w.Deal)
    game.apply(parse_action("nominate 4"))
    assert game.candidates == (4,)
    assert game.refusal(Withdraw(4)) == "no_withdrawal"


def test_2_3_1_crime_time_takes_a_repeated_nomination_as_the_speakers_own() -> None:
    """Crime-time 2.3.1 «Допускается повторное выставление одной и той же кандидатуры
    разными игроками»: without a club's ``withdraw`` a seat another nominated is the
    speaker's nomination («Принято»), and another needs a withdrawal first (2.3.2)."""
    result = play({}, {"speech": 1, "say": [[1.0, "выставляю игрока два"]]},
                  {"speech": 2, "say": [[1.0, "выставляю игрока два"],
                                        [2.0, "выставляю игрока три"]]})
    assert result.game.candidates == (2,)
    assert refusals(result, 2) == [("nominate", 3, "already_nominated")]


def test_a_named_withdraw_travels_in_the_header_and_is_the_catalogues() -> None:
    """A club naming 7.5 plays it with its examples, its ruleset's own variant too: the
    option is kept in the protocol's header (``options_of``) for a replay."""

    rules = apply_options(find_rules("crime-time"), {"withdraw": "allowed"})
    assert rules.repeat_nomination is False
    assert options_of(rules) == {"withdraw": "allowed"}
    assert find_rules("crime-time").repeat_nomination is True


# -- 6.3: who opens each later day ---------------------------------------------------------------

def _day2_opener(options: dict[str, Any], night: dict[str, Any]) -> tuple[int | None, int]:
    result = play(options, *day_speeches(ALL), {"night": night})
    game = result.game
    if isinstance(game.expect, w.Speech) and game.expect.speech == "last":
        game.apply(parse_action("end"))
    assert isinstance(game.expect, w.Speech)
    return game.days[1].opened_by, game.expect.seat


def test_6_3_1_first_the_seat_after_yesterdays_opener() -> None:
    """6.3.1 (crime-time 2.3): «если в первый день стол открывал игрок номер 1, а закрывал
    номер 10, то во второй день стол откроет игрок номер 2 … Если же игрок номер 1 убит
    ночью, стол по прежнему открывает игрок номер 2»."""
    assert _day2_opener({}, {"shots": {}}) == (2, 2)
    assert _day2_opener({"rotation": "first"}, {"shots": {"3": 1, "5": 1, "9": 1}}) == (2, 2)


def test_6_3_2_last_closes_with_the_seat_after_yesterdays_closer() -> None:
    """6.3.2 «Обсуждение начинается с игрока под таким номером, чтобы последний поговоривший
    был следующим по сравнению с последним поговорившим прошлым днем»: day 1 opened by 1,
    closed by 10 → day 2 opened by 2, closed by 1; «Если же игрок номер 1 убит ночью, стол
    открывает игрок номер 3, а закрывает номер 2»."""
    assert _day2_opener({"rotation": "last"}, {"shots": {}}) == (2, 2)
    kill_1 = {"shots": {"3": 1, "5": 1, "9": 1}}
    assert _day2_opener({"rotation": "last"}, kill_1) == (3, 3)
    result = play({"rotation": "last"}, *day_speeches(ALL), {"night": kill_1}, {"speech": 1},
                  *day_speeches([3, 4, 5, 6, 7, 8, 9, 10]))
    exp = result.game.expect
    assert isinstance(exp, w.Speech) and exp.seat == 2  # 2 closes the table


def test_6_3_2_a_day_closed_early_moves_the_next_on() -> None:
    """6.3.2 on the third day: day 2 (3 … 2, seat 1 out) was closed by 2, so 3 closes day 3
    and 4 opens it."""
    kill_1 = {"shots": {"3": 1, "5": 1, "9": 1}}
    lines = [*day_speeches(ALL), {"night": kill_1}, {"speech": 1},
             *day_speeches([3, 4, 5, 6, 7, 8, 9, 10, 2]), {"night": {"shots": {}}}]
    result = play({"rotation": "last"}, *lines)
    assert [d.opened_by for d in result.game.days] == [1, 3, 4]
    assert result.game.days[1].closed_by == 2


@pytest.mark.parametrize("rules", ["vrn", "vrn-closed", "amateur"])
def test_6_3_a_ruleset_with_its_own_opener_refuses_last(rules: str) -> None:
    """6.3: vrn and vrn-closed open each day their own way, amateur has no circle: a club's
    ``rotation = "last"`` is refused in one line naming why."""
    with pytest.raises(OptionError) as e:
        apply_options(find_rules(rules), {"rotation": "last"})
    message = str(e.value)
    assert "\n" not in message and f"rotation: {rules} " in message
    apply_options(find_rules(rules), {"rotation": "first"})  # its own (as the code names it)


# -- 6.7, 6.8: colours on record -----------------------------------------------------------------

def _on_record_game(options: dict[str, Any]) -> Game:
    game = Game(roles=ROLES, rules=apply_options(find_rules("crime-time"), options))
    game.start()
    advance(game, w.Speech, seat=1, through=w.Pause | w.Deal)
    return game


def test_6_7_1_none_nothing_is_recorded() -> None:
    """6.7.1 «это не заносится судьей в запись игры»: no colours are taken, the protocol has
    no ``on_record``."""
    game = _on_record_game({})
    assert not game.takes_on_record
    assert game.refusal(OnRecord(1, (2,), (5,))) == "no_on_record"
    with pytest.raises(IllegalActionError):
        game.apply(OnRecord(1, (2,), (5,)))
    assert "on_record" not in game.protocol()


def _speeches_of(variant: str) -> dict[str, bool]:
    """Which speeches take colours under ``variant``: a day speech, a night victim's last
    word, a voted-out seat's last word, a tie speech."""
    game = _on_record_game({"on_record": variant})
    out = {"day": game.takes_on_record}
    game.apply(parse_action("nominate 2"))
    advance(game, w.Speech, seat=2)
    game.apply(parse_action("nominate 4"))
    advance(game, w.Vote)
    game.apply(parse_action("hands 1 2 3 4 5"))  # 5 for 2, 5 for 4: a tie
    advance(game, w.Speech, speech="tie")
    out["tie"] = game.takes_on_record
    advance(game, w.Vote)
    game.apply(parse_action("hands 1 2 3 4 5 6"))  # 2 leaves
    advance(game, w.Speech, speech="last")
    out["voted_out"] = game.takes_on_record
    advance(game, w.Hunt)
    for mafia in (3, 5, 9):
        game.apply(parse_action(f"shot {mafia} 7"))
    advance(game, w.Speech, speech="last", seat=7)
    out["night_killed"] = game.takes_on_record
    return out


@pytest.mark.parametrize(("variant", "taken"), [
    ("night_killed", {"day": False, "tie": False, "voted_out": False, "night_killed": True}),
    ("killed", {"day": False, "tie": False, "voted_out": True, "night_killed": True}),
    ("except_split", {"day": True, "tie": False, "voted_out": True, "night_killed": True}),
    ("all", {"day": True, "tie": True, "voted_out": True, "night_killed": True}),
])
def test_6_7_2_to_6_7_5_the_speeches_that_leave_colours(variant: str,
                                                        taken: dict[str, bool]) -> None:
    """6.7.2 «Игроки убитые ночью могут оставлять цвета под протокол»; 6.7.3 «убитые ночью,
    либо заголосованные днем»; 6.7.4 «в любой своей речи, кроме речей на попиле»; 6.7.5 «в
    любой своей речи»."""
    assert _speeches_of(variant) == taken


def test_6_7_colours_are_kept_per_speech_in_the_protocol() -> None:
    """6.7.5: «Эти цвета записываются судьей»: the host enters them; a seat named again in
    the same speech takes its new colour; a seat other than the speaker's is refused."""
    game = _on_record_game({"on_record": "all"})
    assert game.refusal(OnRecord(2, (3,), ())) == "no_on_record"
    game.apply(parse_action("on_record 1 red=3,4 black=7"))
    game.apply(parse_action("on_record 1 red=7"))
    advance(game, w.Speech, seat=2)
    game.apply(OnRecord(2, (), (1,)))
    assert game.protocol()["on_record"] == [
        {"seat": 1, "day": 1, "speech": "day", "red": [3, 4, 7], "black": []},
        {"seat": 2, "day": 1, "speech": "day", "red": [], "black": [1]}]
    assert str(OnRecord(1, (3, 4), (7,))) == "on_record 1 red=3,4 black=7"
    assert parse_action("on_record 1 black=7") == OnRecord(1, (), (7,))


def test_6_8_on_record_count_limits_the_seats_of_one_speech() -> None:
    """6.8: how many colours one speech leaves: three here, the fourth refused
    (``too_many_colours``); 0 is no limit, as MafiaRatings' judge app reads it
    (``while (max > 0 && r.record.length > max)``)."""
    game = _on_record_game({"on_record": "all", "on_record_count": 3})
    game.apply(parse_action("on_record 1 red=2,3"))
    assert game.refusal(OnRecord(1, (4, 6), ())) == "too_many_colours"
    assert game.refusal(OnRecord(1, (3,), (4,))) is None  # 3 again, 4 new: three in all
    game = _on_record_game({"on_record": "all"})
    assert game.refusal(OnRecord(1, (2, 3, 4, 6, 7, 8), (5, 9, 10))) is None


def test_6_7_the_table_script_line_enters_them() -> None:
    """6.7.2: the night victim's last word leaves colours; the script's ``on_record`` line
    before the speech enters them."""
    result = play({"on_record": "night_killed"}, *day_speeches(ALL),
                  {"night": {"shots": {"3": 7, "5": 7, "9": 7}}},
                  {"on_record": {"seat": 7, "red": [2], "black": [3, 5]}}, {"speech": 7})
    assert result.protocol()["on_record"] == [
        {"seat": 7, "day": 2, "speech": "last", "red": [2], "black": [3, 5]}]
    assert "seat 7 on record: 2 red, 3 black, 5 black" in result.transcript.render()


# -- 8.17: the first-night victim's best move ---------------------------------------------------

def test_8_17_1_no_best_move_when_two_left_by_day_ones_vote() -> None:
    """8.17.1 «Игрок не имеет права на “завещание” если по результату голосования в первый
    день игру покинули 2 или большее количество игроков»: a car crash of two on day 1, and
    the first-night victim is not asked for a best move, nor may one be entered."""
    says = {1: [[1.0, "выставляю игрока два"]], 2: [[1.0, "выставляю игрока четыре"]]}
    lines = [*day_speeches(ALL, says), {"vote": {"2": [1, 2, 3, 4, 5], "4": [6, 7, 8, 9, 10]}},
             {"speech": 2}, {"speech": 4},
             {"vote": {"2": [1, 2, 3, 4, 5], "4": [6, 7, 8, 9, 10]}},
             {"crash": [1, 2, 3, 5, 6, 7, 8]}, {"speech": 2}, {"speech": 4},
             {"night": {"shots": {"3": 7, "5": 7, "9": 7}}}]
    result = play({"best_move": True}, *lines)
    game = result.game
    assert sorted(game.days[0].out) == [2, 4]
    assert isinstance(game.expect, w.Speech) and game.expect.seat == 7
    assert not game.asks_best_move
    assert game.refusal(parse_action("best_move 1 3 5")) == "no_best_move"
    assert not any(x.startswith("Лучший ход") for x in result.transcript.said)


def test_8_17_1_one_left_by_day_ones_vote_keeps_the_best_move() -> None:
    """8.17.1: one seat voted out on day 1 leaves the first-night victim his best move."""
    says = {1: [[1.0, "выставляю игрока два"]], 2: [[1.0, "выставляю игрока четыре"]]}
    lines = [*day_speeches(ALL, says), {"vote": {"2": [1, 2, 3, 4, 5, 6]}}, {"speech": 2},
             {"night": {"shots": {"3": 7, "5": 7, "9": 7}}}]
    game = play({"legacy": "first"}, *lines).game
    assert game.asks_best_move
    assert game.refusal(parse_action("best_move 1 3 5")) is None
