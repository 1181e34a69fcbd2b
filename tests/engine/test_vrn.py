"""One scenario per distinguishing clause of «mafia vrn» with the doctor and the maniac (the
first part of the club's text), through the table-script replay; the text has no clause
numbers, so each test is named after its words.

Default cards: sheriff 1, don 3, mafia 5 and 9, doctor 6, maniac 8 (playing for the city unless
a test says otherwise); 2, 4, 7 and 10 are civilians.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from narrator.cli import main
from narrator.engine import (
    Check,
    CheckRecord,
    Departure,
    Game,
    IllegalActionError,
    InvalidActionError,
    Kill,
    Phase,
    Refusal,
    Role,
    Save,
    SaveRecord,
    TimeUp,
    VoteRound,
)
from narrator.engine import events as ev
from narrator.engine import waits as w
from narrator.engine.rules import find_rules
from narrator.errors import ScriptError
from narrator.replay.script import parse_table_script
from narrator.replay.table import ReplayResult, replay_script
from narrator.testing import advance
from tests.engine.conftest import day_speeches

ALL = list(range(1, 11))
CARDS = {"don": 3, "mafia": [5, 9], "sheriff": 1, "doctor": 6, "maniac": 8}
ROLES = {1: Role.SHERIFF, 3: Role.DON, 5: Role.MAFIA, 9: Role.MAFIA, 6: Role.DOCTOR,
         8: Role.MANIAC}
INTRO = day_speeches(ALL)  # day 1: the introduction round, each speech ended at once


def vrn(*lines: dict[str, Any], side: str = "city", lang: str = "ru",
        cards: dict[str, Any] | None = None) -> ReplayResult:
    header = {"rules": "vrn", "seats": 10, "roles": cards or CARDS, "maniac_side": side,
              "lang": lang}
    text = "\n".join(json.dumps(x, ensure_ascii=False) for x in (header, *lines))
    return replay_script(parse_table_script(text, "t"))


def night(**keys: Any) -> dict[str, Any]:
    return {"night": keys}


def votes_against(seat: int, voters: list[int]) -> dict[str, Any]:
    return {"vote": {str(seat): voters}}


def said(result: ReplayResult) -> list[str]:
    return result.transcript.said


# -- the cards and the first night ---------------------------------------------------------------

def test_ten_players_with_the_doctor_and_the_maniac() -> None:
    rules = find_rules("vrn")
    for seed in range(20):
        game = Game(rules, rng=random.Random(seed))
        assert Counter(game.roles.values()) == {Role.DON: 1, Role.MAFIA: 2, Role.SHERIFF: 1,
                                                Role.DOCTOR: 1, Role.MANIAC: 1,
                                                Role.CIVILIAN: 4}
    with pytest.raises(InvalidActionError, match="vrn is played at 10 seats"):
        Game(rules, seats=12)


def test_the_host_decides_the_maniacs_side_and_announces_it() -> None:
    # dealt at random, reproducibly from the seed, when the header does not say
    sides = {Game("vrn", rng=random.Random(seed)).dealt["maniac_side"] for seed in range(20)}
    assert sides == {"city", "mafia"}
    assert (Game("vrn", rng=random.Random(4)).dealt == Game("vrn", rng=random.Random(4)).dealt)
    for side, line in (("mafia", "Маньяк играет на стороне мафии"),
                       ("city", "Маньяк играет на стороне города")):
        result = vrn(side=side)
        first_night = said(result)[:said(result).index("Город, доброе утро. Знакомство "
                                                         "начинаем с игрока под номером один")]
        assert first_night[-1] == line
        assert result.protocol()["maniac_side"] == side
    # a script with the cards and no side replays the same every time, yet not always the same
    # side for other cards
    def side_of(cards: dict[str, Any]) -> str:
        header = {"rules": "vrn", "seats": 10, "roles": cards}
        script = parse_table_script(json.dumps(header), "t")
        return str(replay_script(script).protocol()["maniac_side"])

    assert len({side_of(CARDS) for _ in range(5)}) == 1
    assert {side_of({**CARDS, "maniac": m}) for m in (2, 4, 7, 8, 10)} == {"city", "mafia"}


def test_the_first_night_masks_the_cards_the_mafia_then_the_sheriff_doctor_and_maniac() -> None:
    assert said(vrn())[:6] == [
        "В городе наступила ночь, все закрыли глаза и надели маски",
        "Игроки по очереди открывают глаза и узнают свои роли",
        "В городе проснулась мафия. Мафия знакомится, дон показывается",
        "Мафия заснула, проснулся шериф",
        "Шериф заснул, проснулся доктор",
        "Доктор заснул, проснулся маньяк",
    ]


# -- the introduction round ----------------------------------------------------------------------

def test_the_introduction_round_30_seconds_each_from_seat_one_and_no_vote() -> None:
    result = vrn(*INTRO[:3])
    game = result.game
    assert isinstance(game.expect, w.Speech) and game.expect.speech == "intro"
    assert game.expect.seat == 4 and game.expect.timer is not None
    assert game.expect.timer.seconds == 30.0 and game.expect.timer.warning_at is None
    result = vrn(*INTRO)
    assert isinstance(result.game.expect, w.NightAct)
    assert not result.game.expect.checks and result.game.expect.role == "mafia"  # night 2
    assert result.game.days[0].rounds == [] and result.game.days[0].opened_by == 1
    assert "Круг знакомства окончен, город засыпает" in said(result)
    # nothing is put to the vote in an introduction
    result = vrn({"speech": 1, "say": [[2.0, "выставляю пятого"]]})
    assert result.game.refused[-1].reason == "not_discussion"


# -- the night -----------------------------------------------------------------------------------

def test_the_don_decides_within_30_seconds_or_the_mafia_did_not_agree() -> None:
    result = vrn(*INTRO)
    exp = result.game.expect
    assert exp.timer is not None and exp.timer.seconds == 30.0
    missed = vrn(*INTRO, night())
    assert "Мафия не договорилась" in said(missed)
    assert missed.game.nights[0].hit is None
    assert "Сегодня проснулись все" in said(missed)
    hit = vrn(*INTRO, night(mafia=7))
    assert hit.game.out[7] == Departure("shot", Phase.night(2))
    assert "Мафия не договорилась" not in said(hit)


def test_with_the_don_out_the_mafia_hunts_by_the_count() -> None:
    # night 2: the sheriff shoots the don; day 2: 10 leads, justifies and stays
    lines = [*INTRO, night(mafia=2, sheriff_shot=3), {"speech": 2}, *day_speeches(
        [1, 4, 5, 6, 7, 8, 9, 10]), votes_against(10, [1, 4, 5, 6, 7, 8, 9]), {"speech": 10}]
    result = vrn(*lines)
    assert result.game.out[3] == Departure("sheriff_shot", Phase.night(2))
    result = vrn(*lines, votes_against(10, []))
    game = result.game
    assert 10 not in game.out
    assert isinstance(game.expect, w.Hunt)  # no decision of the don: the count
    # every living mafioso shoots the same seat: a hit; and no don's check after it
    result = vrn(*lines, votes_against(10, []), night(shots={"5": 4, "9": 4}, sheriff=5))
    hunt = said(result)[said(result).index("Наступила ночь. В городе проснулась мафия") + 1:]
    assert hunt[:12] == ["Мафия выходит на охоту", "один", "два", "три", "четыре", "пять",
                         "шесть", "семь", "восемь", "девять", "десять",
                         "Мафия заснула, проснулся шериф"]
    assert result.game.out[4] == Departure("shot", Phase.night(3))
    assert set(result.game.nights[1].to_json()) == {"night", "shot", "sheriff_check", "sheriff_shot",
                                          "maniac", "doctor_save"}
    with pytest.raises(ScriptError, match=r"night: mafia: not asked this night"):
        vrn(*lines, votes_against(10, []), night(mafia=4))


def test_the_don_looks_for_the_sheriff() -> None:
    game = vrn(*INTRO, night(don=1)).game
    assert game.nights[0].checks.get("don") == CheckRecord(1, True)
    game = vrn(*INTRO, night(don=8)).game
    assert game.nights[0].checks.get("don") == CheckRecord(8, False)


def test_the_sheriff_cannot_find_the_maniac_only_shoot_him() -> None:
    for side in ("city", "mafia"):
        game = vrn(*INTRO, night(sheriff=8), side=side).game
        assert game.nights[0].checks.get("sheriff") == CheckRecord(8, False)
    game = vrn(*INTRO, night(sheriff=9)).game
    assert game.nights[0].checks.get("sheriff") == CheckRecord(9, True)


def test_the_sheriff_may_shoot_and_his_victim_joins_the_mafias() -> None:
    result = vrn(*INTRO, night(mafia=7, sheriff_shot=9))
    game = result.game
    assert game.out[7] == Departure("shot", Phase.night(2))
    assert game.out[9] == Departure("sheriff_shot", Phase.night(2))
    assert game.nights[0].checks.get("sheriff") is None and game.nights[0].kills.get("sheriff") == 9
    assert [
        s for s in said(result) if s.startswith("Сегодня не проснулся")] == ["Сегодня не проснулся номер семь", "Сегодня не проснулся номер девять"]
    # a check or a shot, not both
    with pytest.raises(ScriptError, match=r"t:12: night: sheriff and sheriff_shot: the sheriff "
                                          r"does one or the other"):
        vrn(*INTRO, night(sheriff=5, sheriff_shot=9))


def test_the_maniac_kills() -> None:
    game = vrn(*INTRO, night(maniac=4)).game
    assert game.out[4] == Departure("maniac", Phase.night(2))
    assert game.nights[0].kills.get("maniac") == 4
    # the mafia and the maniac on the same seat: one victim, the first kill's
    game = vrn(*INTRO, night(mafia=4, maniac=4)).game
    assert game.out[4] == Departure("shot", Phase.night(2))


def test_the_doctor_is_told_how_many_are_on_the_stretcher_and_saves_one_of_them() -> None:
    result = vrn(*INTRO, night(mafia=7, sheriff_shot=5, maniac=4, doctor=4))
    assert "Доктор, на носилках трое" in said(result)
    game = result.game
    assert 4 not in game.out and game.out[7].how == "shot" and game.out[5].how == (
        "sheriff_shot")
    assert game.nights[0].saves.get("doctor") == SaveRecord(4, 4)
    assert "Доктор, на носилках никого" in said(vrn(*INTRO, night()))
    # only one of the night's victims: another seat is refused, and nobody is saved
    result = vrn(*INTRO, night(mafia=7, doctor=2))
    assert result.game.refused[-1] == Refusal(Phase.night(2), None, "save", 2, "not_a_victim")
    assert result.game.out[7] == Departure("shot", Phase.night(2))


def test_each_seat_is_saved_once_then_the_other_victim_is_saved_automatically() -> None:
    lines = [*INTRO, night(mafia=7, doctor=7), *day_speeches(ALL),
             votes_against(10, [1, 2, 3, 4, 5, 6, 7, 8, 9]), {"speech": 10},
             votes_against(10, [1])]  # 10 justifies and stays: fewer votes
    result = vrn(*lines, night(mafia=7, maniac=2, doctor=7))
    game = result.game
    assert game.nights[1].saves.get("doctor") == SaveRecord(7, 2)  # crossed arms
    assert 2 not in game.out and game.out[7] == Departure("shot", Phase.night(3))
    assert game.saved_seats == {7, 2}
    # the one victim saved before: nobody is saved
    result = vrn(*lines, night(mafia=7, doctor=7))
    assert result.game.out[7] == Departure("shot", Phase.night(3))
    assert result.game.nights[1].saves.get("doctor") == SaveRecord(7, None)


# -- the morning ---------------------------------------------------------------------------------

def test_the_morning_thanks_the_doctor_and_names_who_did_not_wake() -> None:
    result = vrn(*INTRO, night(mafia=7, maniac=2))
    morning = said(result)[said(result).index("Спасибо, Доктор. Город, доброе утро"):]
    assert morning[:3] == ["Спасибо, Доктор. Город, доброе утро",
                           "Сегодня не проснулся номер семь", "Сегодня не проснулся номер два"]


def test_30_second_testaments_but_the_black_the_sheriff_and_a_maniac_for_the_mafia_leave_silent(
) -> None:
    result = vrn(*INTRO, night(mafia=7))
    exp = result.game.expect
    assert isinstance(exp, w.Speech) and exp.speech == "last" and exp.seat == 7
    assert exp.timer is not None and exp.timer.seconds == 30.0
    assert "Игрок номер семь, у вас тридцать секунд на завещание" in said(result)
    for victim, side in ((1, "city"), (5, "city"), (3, "city"), (8, "mafia")):
        game = vrn(*INTRO, night(maniac=victim), side=side).game
        assert game.out[victim].how == "maniac"
        opener = 2 if victim == 1 else 1
        assert isinstance(game.expect, w.Speech), (victim, side)
        assert game.expect.speech == "day" and game.expect.seat == opener, (victim, side)
    game = vrn(*INTRO, night(mafia=8), side="city").game  # a maniac for the city: a testament
    assert isinstance(game.expect, w.Speech)
    assert game.expect.speech == "last" and game.expect.seat == 8


# -- the discussion ------------------------------------------------------------------------------

def test_60_second_speeches_ending_on_thanks_and_no_nominations() -> None:
    result = vrn(*INTRO, night(), {"speech": 1, "say": [[5.0, "виставляю номер п'ять"],
                                                         [20.0, "дякую"]]}, lang="uk")
    game = result.game
    assert game.refused[-1].reason == "no_nominations"
    assert isinstance(game.expect, w.Speech) and game.expect.seat == 2
    exp = game.expect
    assert exp.timer is not None and exp.timer.seconds == 60.0 and exp.timer.warning_at is None
    # «Через 60 секунд … провідний вимовляє «дякую»»
    result = vrn(*INTRO, night(), {"speech": 1, "say": [[61.0, "дякую"]]}, lang="uk")
    assert said(result)[-2:] == ["Дякую", "Слово гравцю номер два"]
    assert "Обговорення починається з гравця номер один" in said(result)


def test_a_hand_held_up_through_the_round_gets_30_seconds_after_it() -> None:
    result = vrn(*INTRO, night(), *day_speeches(ALL), {"extra": [7, 2]})
    game = result.game
    exp = game.expect
    assert isinstance(exp, w.Speech)
    assert exp.speech == "extra" and exp.seat == 2  # in the round's order
    assert exp.timer is not None and exp.timer.seconds == 30.0
    result = vrn(*INTRO, night(), *day_speeches(ALL), {"extra": [7, 2]}, {"speech": 2},
                 {"speech": 7})
    assert isinstance(result.game.expect, w.Vote | w.Crash)
    assert result.game.days[1].to_json()["extra"] == [2, 7]
    # no extra line: nobody held a hand up, the vote comes
    assert isinstance(vrn(*INTRO, night(), *day_speeches(ALL)).game.expect, w.Extra)
    assert vrn(*INTRO, night(), *day_speeches(ALL), votes_against(4, ALL)).game.days[1].rounds


def test_the_second_discussion_opens_at_one_and_the_next_from_the_seat_after() -> None:
    lines = [*INTRO, night(), *day_speeches(ALL), votes_against(10, ALL[:9]), {"speech": 10},
             votes_against(10, [1, 2, 3])]  # 10 stays
    result = vrn(*lines, night())
    assert result.game.days[1].opened_by == 1 and result.game.days[2].opened_by == 2
    assert isinstance(result.game.expect, w.Speech) and result.game.expect.seat == 2


# -- the vote ------------------------------------------------------------------------------------

def test_voting_is_mandatory_against_one_seat_every_seat_is_called() -> None:
    result = vrn(*INTRO, night(), *day_speeches(ALL), votes_against(4, [1, 2, 3]))
    game = result.game
    rnd = game.days[1].rounds[0]
    assert rnd.candidates == tuple(ALL)
    assert sum(rnd.votes.values()) == 10  # the hands not raised: against 10, the last
    assert rnd.votes[10] == 7 and rnd.votes[4] == 3
    assert "Прошу убрать руки со стола, начинаем голосовать" in said(result)
    assert "Кто голосует против номера четыре?" in said(result)
    # a seat's second hand is not counted
    result = vrn(*INTRO, night(), *day_speeches(ALL), {"vote": {"4": [1, 2], "6": [1]}})
    assert result.game.refused[-1].reason == "already_voted"


def test_the_leader_justifies_for_a_minute_and_is_voted_on_again_fewer_votes_and_he_stays() -> None:
    lines = [*INTRO, night(), *day_speeches(ALL), votes_against(4, [1, 2, 3, 5, 6, 7])]
    result = vrn(*lines)
    exp = result.game.expect
    assert isinstance(exp, w.Speech) and exp.speech == "justify" and exp.seat == 4
    assert exp.timer is not None and exp.timer.seconds == 60.0
    stays = vrn(*lines, {"speech": 4}, votes_against(4, [1, 2, 3, 5, 6]))
    assert stays.game.days[1].rounds[1] == VoteRound((4,), {4: 5})
    assert 4 not in stays.game.out
    assert isinstance(stays.game.expect, w.NightAct) and not stays.game.expect.checks
    assert "Игрок номер четыре остается за столом" in said(stays)
    # as many as before (the hands not raised count for nobody now): he leaves, with no last word
    out = vrn(*lines, {"speech": 4}, votes_against(4, [1, 2, 3, 5, 6, 7]))
    assert out.game.out[4] == Departure("vote", Phase.day(2))
    assert isinstance(out.game.expect, w.NightAct)
    assert not out.game.expect.checks  # the night at once: the voted out have no last word


def test_a_justification_is_used_once_and_the_next_time_he_leads_he_leaves() -> None:
    lines = [*INTRO, night(), *day_speeches(ALL), votes_against(4, [1, 2, 3, 5, 6, 7]),
             {"speech": 4}, votes_against(4, [1]), night(), *day_speeches(circle(2))]
    result = vrn(*lines, votes_against(4, [1, 2, 3, 5, 6, 7]))
    assert result.game.out[4] == Departure("vote", Phase.day(3))
    assert len(result.game.days[2].rounds) == 1 and result.game.justified == {4}


def test_two_tied_both_justify_and_are_voted_on_again() -> None:
    lines = [*INTRO, night(), *day_speeches(ALL), {"vote": {"4": [1, 2, 3, 5, 6], "10": []}}]
    result = vrn(*lines)  # the other five hands count against 10
    assert isinstance(result.game.expect, w.Speech)
    assert result.game.expect.speech == "justify" and result.game.expect.seat == 4
    assert "У каждого из них минута на оправдание" in said(result)
    result = vrn(*lines, {"speech": 4}, {"speech": 10}, {"vote": {"4": [1, 2, 3, 5, 6, 7]}})
    assert result.game.days[1].rounds[1].candidates == (4, 10)
    assert result.game.out[4] == Departure("vote", Phase.day(2))
    # tied again: everybody stays
    result = vrn(*lines, {"speech": 4}, {"speech": 10}, {"vote": {"4": [1, 2, 3, 5, 6]}})
    assert not result.game.out and "Город не договорился. Все остаются за столом" in said(result)


def test_three_or_more_tied_everyone_stays() -> None:
    result = vrn(*INTRO, night(), *day_speeches(ALL),
                 {"vote": {"2": [1, 3, 4], "5": [2, 6, 7], "9": [5, 8, 10]}})
    assert result.game.days[1].rounds[0].votes[10] == 1  # 9 raised no hand
    assert not result.game.out
    assert isinstance(result.game.expect, w.NightAct) and not result.game.expect.checks
    assert "Город не договорился. Все остаются за столом" in said(result)


# -- the end -------------------------------------------------------------------------------------

def test_no_black_player_left_the_city_wins_as_many_black_as_red_the_mafia() -> None:
    # the city: the mafia out (the maniac plays for the city)
    lines = [*INTRO, night(mafia=2, sheriff_shot=3), {"speech": 2}]
    lines += [*day_speeches([1, 4, 5, 6, 7, 8, 9, 10]), votes_against(5, [1, 4, 6, 7, 8, 10]),
              {"speech": 5}, votes_against(5, [1, 4, 6, 7, 8, 10])]
    game = vrn(*lines, night(shots={"9": 4}, sheriff_shot=9)).game
    assert game.winner is not None and game.winner.value == "civilians"
    # the mafia: a maniac for the mafia makes four black against four red after the night
    result = vrn(*INTRO, night(mafia=2, maniac=4), side="mafia")
    assert result.game.winner is not None and result.game.winner.value == "mafia"
    assert said(result)[-4:] == ["Спасибо, Доктор. Город, доброе утро",
                                 "Сегодня не проснулся номер два",
                                 "Сегодня не проснулся номер четыре",
                                 "Игра окончена. Победила мафия"]
    # the same night with the maniac for the city: four black against four red is not yet it
    assert vrn(*INTRO, night(mafia=2, maniac=4), side="city").game.winner is None


def test_a_maniac_for_the_mafia_the_city_plays_on_until_he_is_out() -> None:
    # the don and both mafia out, the maniac (for the mafia) at the table: the game goes on
    lines = [*INTRO, night(mafia=2, sheriff_shot=3), {"speech": 2}]
    lines += [*day_speeches([1, 4, 5, 6, 7, 8, 9, 10]), votes_against(5, [1, 4, 6, 7, 8, 10]),
              {"speech": 5}, votes_against(5, [1, 4, 6, 7, 8, 10])]
    result = vrn(*lines, night(shots={"9": 4}, sheriff_shot=9), side="mafia")
    game = result.game
    assert game.winner is None and isinstance(game.expect, w.Speech)
    assert "Маньяк еще в игре, город продолжает игру" in said(result)
    # the city rids itself of him: 4's testament, then the discussion from 6
    speeches = [{"speech": 4}, *day_speeches([6, 7, 8, 10, 1])]
    result = vrn(*lines, night(shots={"9": 4}, sheriff_shot=9), *speeches,
                 votes_against(8, [1, 6, 7, 10]), {"speech": 8},
                 votes_against(8, [1, 6, 7, 10]), side="mafia")
    assert result.game.winner is not None and result.game.winner.value == "civilians"


# -- the engine directly --------------------------------------------------------------------------

def to_night_two(side: str = "city") -> Game:
    game = Game("vrn", roles=ROLES, dealt={"maniac_side": side})
    game.start()
    advance(game, w.NightAct, checks=False)
    return game


def test_each_role_acts_in_its_own_step_only_and_once() -> None:
    game = to_night_two()
    assert isinstance(game.expect, w.NightAct)
    assert game.expect.role == "mafia" and game.expect.acts == ("kill",)
    with pytest.raises(IllegalActionError, match="it is not the maniac's kill"):
        game.apply(Kill("maniac", 4))
    with pytest.raises(IllegalActionError, match="it is not the mafia's save"):
        game.apply(Save("mafia", 4))
    game.apply(Kill("mafia", 4))
    assert game.apply(Kill("mafia", 5)) == [ev.Refused(None, "kill", 5, "already_acted")]
    game.apply(TimeUp("mafia_decides"))
    game.apply(TimeUp("don_check"))
    exp = game.expect
    assert isinstance(exp, w.NightAct) and exp.role == "sheriff" and exp.acts == ("check", "kill")
    game.apply(Check("sheriff", 3))
    assert game.apply(Kill("sheriff", 3)) == [ev.Refused(None, "kill", 3, "already_acted")]


def test_a_bad_maniac_side_is_one_line_naming_the_line(tmp_path: Any,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.table.jsonl"
    path.write_text(json.dumps({"rules": "vrn", "roles": CARDS, "maniac_side": "town"}) + "\n")
    assert main(["replay", str(path)]) == 2
    assert capsys.readouterr().err == (f'narrator: {path}:1: maniac_side: expected "city" or '
                                       f'"mafia", got "town"\n')


def circle(start: int, out: tuple[int, ...] = ()) -> list[int]:
    seats = [(start - 1 + i) % 10 + 1 for i in range(10)]
    return [s for s in seats if s not in out]


def test_of_two_tied_one_who_justified_before_does_not_speak_again() -> None:
    # day 2: 4 justifies and stays; day 3: 4 and 7 tie, and only 7 justifies
    lines = [*INTRO, night(), *day_speeches(ALL), votes_against(4, [1, 2, 3, 5, 6, 7]),
             {"speech": 4}, votes_against(4, [1]), night(), *day_speeches(circle(2))]
    result = vrn(*lines, {"vote": {"4": [1, 2, 3, 5, 6], "7": [4, 8, 9, 10, 7]}})
    game = result.game
    assert game.days[2].rounds[0].votes[4] == game.days[2].rounds[0].votes[7] == 5
    assert isinstance(game.expect, w.Speech)
    assert game.expect.speech == "justify" and game.expect.seat == 7  # not 4 again
    result = vrn(*lines, {"vote": {"4": [1, 2, 3, 5, 6], "7": [4, 8, 9, 10, 7]}},
                 {"speech": 7}, {"vote": {"4": [1, 2, 3, 5, 6, 9]}})
    assert result.game.days[2].rounds[1].candidates == (4, 7)
    assert result.game.out[4] == Departure("vote", Phase.day(3))
