"""One scenario per distinguishing clause of «любительська Мафія», through the table-script
replay; the text has no clause numbers, so each test is named after its words.

Default table: ten seats (three mafia), the mafia at 4, 8 and 9, the commissar 2, the nurse 6;
everybody else a civilian.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from narrator.cli import main
from narrator.engine import (
    CheckRecord,
    Departure,
    EndSpeech,
    Game,
    IllegalActionError,
    InvalidActionError,
    Phase,
    Refusal,
    Role,
    TakeFloor,
    Thumbs,
    TimeUp,
)
from narrator.engine import events as ev
from narrator.engine import waits as w
from narrator.engine.options import apply_options
from narrator.engine.rules import find_rules
from narrator.errors import ScriptError
from narrator.replay.script import parse_table_script
from narrator.replay.table import ReplayResult, replay_script
from narrator.testing import advance, random_action

CARDS = {"mafia": [4, 8, 9], "commissar": 2, "nurse": 6}
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
ALL = list(range(1, 11))


def amateur(*lines: dict[str, Any], seats: int = 10, cards: dict[str, Any] | None = None,
            lang: str = "ru", options: dict[str, Any] | None = None) -> ReplayResult:
    header: dict[str, Any] = {"rules": "amateur", "seats": seats, "roles": cards or CARDS,
                              "lang": lang}
    if options:
        header["options"] = options
    text = "\n".join(json.dumps(x, ensure_ascii=False) for x in (header, *lines))
    return replay_script(parse_table_script(text, "t"))


def speeches(seats: list[int], put_up: dict[int, dict[str, list[int]]] | None = None
             ) -> list[dict[str, Any]]:
    """Speeches in the order the hands went up; ``put_up``: after whose speech, what thumbs."""
    lines: list[dict[str, Any]] = []
    for seat in seats:
        lines.append({"speech": seat})
        if put_up and seat in put_up:
            lines.append({"put_up": put_up[seat]})
    return lines


def said(result: ReplayResult) -> list[str]:
    return result.transcript.said


# -- the cards and the first night ---------------------------------------------------------------

def test_from_8_to_15_players_two_mafia_three_from_ten_one_commissar_one_nurse() -> None:
    rules = find_rules("amateur")
    for seats in range(8, 16):
        for seed in range(5):
            cards = Counter(Game(rules, seats=seats, rng=random.Random(seed)).roles.values())
            assert cards[Role.MAFIA] == (3 if seats >= 10 else 2)
            assert cards[Role.COMMISSAR] == 1 and cards[Role.NURSE] == 1
            assert Role.DON not in cards and Role.SHERIFF not in cards
    for seats in (7, 16):
        with pytest.raises(InvalidActionError, match=r"amateur is played at 8\.\.15 seats"):
            Game(rules, seats=seats)


def test_the_first_night_the_host_meets_the_mafia_the_commissar_and_the_nurse_no_kill() -> None:
    result = amateur()
    assert said(result) == [
        "Наступает ночь", "Город спит",
        "Игроки по очереди открывают глаза и узнают свои роли",
        "Просыпается мафия",
        "Мафия засыпает", "Просыпается Комиссар",
        "Комиссар засыпает", "Просыпается Медсестра",
        "Медсестра засыпает",
        "Наступает день",
        "Кто первым поднял руку, тот первым и говорит",
    ]
    assert isinstance(result.game.expect, w.Floor) and not result.game.out


# -- the day -------------------------------------------------------------------------------------

def test_speeches_by_raised_hands_in_any_order_each_seat_once() -> None:
    result = amateur(*speeches([7, 3, 10]))
    game = result.game
    assert game.days[0].opened_by == 7 and game.spoken == {7, 3, 10}
    game.apply(TimeUp("put_up"))
    with pytest.raises(IllegalActionError, match="seat 3 has spoken today"):
        game.apply(TakeFloor(3))
    # nobody's hand is named in time: the first seat in seat order yet to speak
    game.apply(TimeUp("floor"))
    assert isinstance(game.expect, w.Speech) and game.expect.seat == 1
    # the discussion ends when every seat at the table has spoken
    result = amateur(*speeches(ALL))
    assert isinstance(result.game.expect, w.PutUp)
    result.game.apply(TimeUp("put_up"))
    assert not isinstance(result.game.expect, w.Floor)


def test_nominations_are_by_thumbs_not_by_words() -> None:
    result = amateur({"speech": 1, "say": [[3.0, "выставляю пятого"], [5.0, "спасибо"]]})
    assert result.game.refused[-1].reason == "no_nominations"
    assert result.game.candidates == ()


def test_after_a_speech_thumbs_put_the_one_just_accused_up_any_number_of_times() -> None:
    result = amateur(*speeches([1, 2, 3], {1: {"5": [1, 2, 3]}, 2: {"5": [1, 2]},
                                           3: {"7": [5, 5, 6]}}))
    game = result.game
    assert game.candidates == (5, 7)
    # a seat thumbs after several speeches; a second thumb in one window is not counted
    assert game.refused[-1] == Refusal(Phase.day(1), 5, "put_up", 7, "already_voted")
    result = amateur(*speeches(ALL, {1: {"5": [1, 2, 3]}, 2: {"5": [1, 2]},
                                     3: {"7": [5, 6]}}))
    assert result.game.days[0].put_up == {5: 5, 7: 2}


def test_the_two_most_put_up_justify_30_seconds_then_the_vote() -> None:
    lines = speeches(ALL, {1: {"5": [1, 2, 3]}, 2: {"7": [1, 2]}, 3: {"10": [4]}})
    result = amateur(*lines, {"speech": 5})
    exp = result.game.expect
    assert isinstance(exp, w.Speech) and exp.speech == "justify" and exp.seat == 7
    assert exp.timer is not None and exp.timer.seconds == 30.0
    assert "Игрок номер пять, у вас тридцать секунд, чтобы оправдаться" in said(result)
    result = amateur(*lines, {"speech": 5}, {"speech": 7})
    assert result.game.voting_candidates == (5, 7)  # 10 (one thumb) is not voted on


def test_three_are_voted_on_when_more_than_ten_are_at_the_table() -> None:
    cards = {"mafia": [4, 8, 11], "commissar": 2, "nurse": 6}
    thumbs = {1: {"5": [1, 2, 3]}, 2: {"7": [1, 2]}, 3: {"10": [4]}, 4: {"12": [4]}}
    lines = speeches(list(range(1, 12)), thumbs)  # eleven of twelve have spoken
    result = amateur(*lines, {"speech": 12}, {"speech": 5}, {"speech": 7}, {"speech": 10},
                     seats=12, cards=cards)
    assert result.game.voting_candidates == (5, 7, 10)  # 12 was put up after 10: cut
    result = amateur(*speeches(ALL, {1: {"5": [1, 2, 3]}, 2: {"7": [1, 2]}, 3: {"10": [4]}}),
                     {"speech": 5}, {"speech": 7})
    assert result.game.voting_candidates == (5, 7)  # ten at the table: two


def test_a_tie_at_the_cut_goes_to_the_one_put_up_first() -> None:
    lines = speeches(ALL, {1: {"7": [1, 2]}, 2: {"5": [3, 4]}, 4: {"3": [1, 2, 5]}})
    result = amateur(*lines, {"speech": 7}, {"speech": 3})
    # 3 (three thumbs), then 7 and 5 (two each): 7 was put up first; voted in that order
    assert result.game.voting_candidates == (7, 3)


def test_the_hands_of_those_who_did_not_vote_for_the_first_count_for_the_last() -> None:
    lines = speeches(ALL, {1: {"5": [1, 2, 3]}, 2: {"7": [1, 2]}})
    result = amateur(*lines, {"speech": 5}, {"speech": 7}, {"vote": {"5": [1, 2, 3, 4]}})
    assert result.game.days[0].rounds[0].votes == {5: 4, 7: 6}
    assert result.game.out[7] == Departure("vote", Phase.day(1))


def test_one_seat_put_up_no_vote_the_city_lives_the_day_without_a_victim() -> None:
    result = amateur(*speeches(ALL, {3: {"5": [1, 2, 3, 4, 6]}}))
    result.game.apply(TimeUp("put_up"))
    assert isinstance(result.game.expect, w.NightAct)
    assert not result.game.expect.checks and result.game.expect.role == "mafia"
    result = amateur(*speeches(ALL, {3: {"5": [1, 2, 3, 4, 6]}}), {"night": {}})
    assert ("Выставлен только один игрок, голосования не будет: город прожил день без жертв"
            in said(result))
    assert not result.game.days[0].rounds


def test_a_tied_vote_sends_nobody_out() -> None:
    lines = speeches(ALL, {1: {"5": [1, 2, 3]}, 2: {"7": [1, 2]}})
    result = amateur(*lines, {"speech": 5}, {"speech": 7}, {"vote": {"5": [1, 2, 3, 4, 6]}})
    assert not result.game.out
    assert "Голоса разделились поровну. Сегодня никто не покидает стол" in said(result)


def test_the_eliminated_open_their_card_and_the_narrator_names_the_role() -> None:
    lines = speeches(ALL, {1: {"8": [1, 2, 3]}, 2: {"7": [1, 2]}})
    result = amateur(*lines, {"speech": 8}, {"speech": 7}, {"vote": {"8": ALL[:7]}})
    at = said(result).index("Игрок номер восемь, откройте карту и покиньте стол")
    assert said(result)[at:at + 3] == ["Игрок номер восемь, откройте карту и покиньте стол",
                                       "Роль: мафия", "Наступает ночь"]
    assert isinstance(result.game.expect, w.NightAct)
    assert not result.game.expect.checks  # no last word for a mafioso
    result = amateur(*lines, {"speech": 8}, {"speech": 7}, {"vote": {"8": ALL[:2]}},
                     {"night": {"mafia": 3}})
    at = said(result).index("Этой ночью убит игрок номер три")
    assert said(result)[at:at + 4] == ["Этой ночью убит игрок номер три",
                                       "Игрок номер три, откройте карту и покиньте стол",
                                       "Роль: мирный житель",
                                       "Кто первым поднял руку, тот первым и говорит"]


# «Для ускладнення гри можна усувати з гри без відкриття картки»: the club option cards
CLOSED = {"cards": "closed"}
#: day 1: 8 (three thumbs) and 7 (two) are put up and justify themselves
DAY_1 = [*speeches(ALL, {1: {"8": [1, 2, 3]}, 2: {"7": [1, 2]}}), {"speech": 8}, {"speech": 7}]


@pytest.mark.parametrize(("lang", "leaves", "killed", "day_opens"), [
    ("ru", "Игрок номер восемь покидает стол", "Этой ночью убит игрок номер три",
     "Кто первым поднял руку, тот первым и говорит"),
    ("uk", "Гравець номер вісім залишає стіл", "Цієї ночі вбито гравця номер три",
     "Хто першим підняв руку, той першим і каже"),
])
def test_amateur_closed_cards_eliminated_leave_without_showing(
        lang: str, leaves: str, killed: str, day_opens: str) -> None:
    result = amateur(*DAY_1, {"vote": {"8": ALL[:7]}}, {"night": {"mafia": 3}}, lang=lang,
                     options=CLOSED)
    lines = said(result)
    # the voted out: the usual «… покидает стол», then the night; no card, no role
    at = lines.index(leaves)
    assert lines[at + 1] in ("Наступает ночь", "Настає ніч")
    # the night's victim: only the night's result, then the day goes on
    at = lines.index(killed)
    assert lines[at + 1] == day_opens
    for line in lines:
        assert not line.startswith(("Роль", "Игрок номер восемь, откройте",
                                    "Гравцю номер вісім, відкрийте")), line
    assert "Роль" not in result.transcript.render()
    assert result.game.notation(secret=False).split()[2] == "++-++++-++"
    # the protocol records every card at the end, as with the cards open
    seats = result.protocol()["seats"]
    assert seats["8"]["role"] == "mafia" and seats["3"]["role"] == "civilian"


def test_amateur_closed_cards_the_commissar_keeps_his_final_word() -> None:
    result = amateur(*speeches(ALL), {"night": {"mafia": 2}}, options=CLOSED)
    assert said(result)[-2:] == ["Этой ночью убит игрок номер два",
                                 "Игрок номер два, ваше заключительное слово"]
    assert isinstance(result.game.expect, w.Speech)
    assert result.game.expect.speech == "last" and result.game.expect.seat == 2


def test_amateur_closed_cards_no_card_is_shown_in_any_game() -> None:
    """Seeded random games: with the cards open every seat that leaves shows its card (a night's
    victim at the morning); closed, none does, and the games are otherwise the same."""
    open_rules = find_rules("amateur")
    closed_rules = apply_options(open_rules, CLOSED)
    assert not closed_rules.reveal_cards and "leaves.{n}" not in closed_rules.lines
    for seed in range(30):
        runs = []
        for rules in (open_rules, closed_rules):
            rng = random.Random(seed)
            game = Game(rules, rng=rng)
            events = game.start()
            while not game.is_over:
                events += game.apply(random_action(game, rng))
            runs.append(events)
        shown = [e.seat for e in runs[0] if isinstance(e, ev.CardShown)]
        gone = [e.seat for e in runs[0] if isinstance(e, ev.SeatOut)]
        assert sorted(shown) == sorted(gone)
        assert [e for e in runs[0] if not isinstance(e, ev.CardShown)] == runs[1]


def test_the_commissar_when_eliminated_has_a_final_word() -> None:
    result = amateur(*speeches(ALL), {"night": {"mafia": 2}})
    exp = result.game.expect
    assert isinstance(exp, w.Speech) and exp.speech == "last" and exp.seat == 2
    assert "Роль: комиссар" in said(result)
    assert "Игрок номер два, ваше заключительное слово" in said(result)


def test_the_commissar_checks_for_the_mafia() -> None:
    game = amateur(*speeches(ALL), {"night": {"commissar": 9}}).game
    assert game.nights[0].checks.get("commissar") == CheckRecord(9, True)
    game = amateur(*speeches(ALL), {"night": {"commissar": 6}}).game
    assert game.nights[0].checks.get("commissar") == CheckRecord(6, False)


def test_the_nurse_heals_the_victim_she_guesses_herself_too() -> None:
    result = amateur(*speeches(ALL), {"night": {"mafia": 6, "nurse": 6}})
    assert not result.game.out
    assert "Медсестра спасла жертву. Этой ночью никто не выбыл" in said(result)
    result = amateur(*speeches(ALL), {"night": {"mafia": 3, "nurse": 6}})
    assert result.game.out[3] == Departure("shot", Phase.night(2))
    result = amateur(*speeches(ALL), {"night": {}})
    assert "Этой ночью мафия промахнулась. Все игроки остаются за столом" in said(result)


def test_the_mafia_wins_when_two_are_left_one_a_mafioso_not_at_parity() -> None:
    rules = find_rules("amateur")
    assert rules.winner(black=2, red=2) is None  # as many as the city: the game goes on
    assert (won := rules.winner(black=1, red=1)) is not None and won.value == "mafia"
    assert (won := rules.winner(black=2, red=0)) is not None and won.value == "mafia"
    assert (won := rules.winner(black=0, red=3)) is not None and won.value == "civilians"
    assert rules.winner(black=2, red=1) is None
    # the example game at eight seats goes on at two against two and two against one, and
    # ends at one against one, said as such
    result = replay_script(parse_table_script(
        (EXAMPLES / "amateur-stalemate.table.jsonl").read_text(), "e"))
    game = result.game
    # 4 leaves on day 4: the mafia (3, 7) against 6 and 8, and a night follows
    assert game.out[4] == Departure("vote", Phase.day(4))
    assert game.out[6] == Departure("shot", Phase.night(5))
    assert result.transcript.said[-1] == ("Залишилося двоє гравців, один з них мафіозі. "
                                          "Перемогла мафія")
    assert game.winner is not None and game.winner.value == "mafia" and len(game.living) == 2


# -- bad input -------------------------------------------------------------------------------------

@pytest.mark.parametrize(("header", "body", "line", "message"), [
    ({"rules": "amateur", "seats": 16}, "", 1,
     'seats: expected 8..15, got 16 (a table of amateur)'),
    ({"rules": "amateur", "seats": 10, "roles": {"mafia": [1, 2], "commissar": 3, "nurse": 4}},
     "", 1, "roles: expected 3 mafia for amateur, got 2"),
    ({"rules": "amateur", "roles": {"don": 1}}, "", 1,
     'roles: amateur deals no "don" (its cards: commissar, mafia, nurse)'),
    ({"rules": "crime-time"}, '{"put_up": {"7": [1, 2]}}', 2,
     "expected one of best_move, crash, foul, mark, night, on_record, remove, speech, vote (the inputs of "
     "crime-time), got put_up"),
    ({"rules": "amateur"}, '{"night": {"shots": {"4": 7}}}', 2,
     "night: unknown key(s) shots (a night of amateur takes commissar, mafia, nurse)"),
    ({"rules": "amateur"}, '{"crash": [1, 2]}', 2,
     "expected one of best_move, foul, mark, night, on_record, put_up, remove, speech, vote (the inputs of "
     "amateur), got crash"),
    ({"rules": "amateur", "roles": CARDS}, '{"speech": 5}\n{"put_up": [7]}', 3,
     "put_up: expected {accused: [seats]}, got [7]"),
    ({"rules": "amateur", "roles": CARDS}, '{"speech": 5}\n{"put_up": {"7": [1], "07": [2]}}', 3,
     "put_up: seat 7 named twice"),
    ({"rules": "amateur", "roles": CARDS}, '{"speech": 5}\n{"put_up": {"x": [1]}}', 3,
     'put_up accused: expected a seat number, got "x"'),
    ({"rules": "amateur", "roles": CARDS}, '{"vote": [7]}', 2,
     "vote: expected {candidate: [seats]}, got [7]"),
    ({"rules": "amateur", "roles": CARDS}, '{"vote": {"7": [1], "07": [2]}}', 2,
     "vote: candidate 7 named twice"),
])
def test_bad_input_is_one_line_naming_the_line_and_the_ruleset(
        tmp_path: Any, capsys: pytest.CaptureFixture[str], header: dict[str, Any], body: str,
        line: int, message: str) -> None:
    path = tmp_path / "g.table.jsonl"
    path.write_text(json.dumps(header) + "\n" + body + "\n")
    assert main(["replay", str(path)]) == 2
    assert capsys.readouterr().err == f"narrator: {path}:{line}: {message}\n"


def test_a_put_up_of_a_seat_out_is_refused() -> None:
    lines = speeches(ALL, {1: {"8": [1, 2, 3]}, 2: {"7": [1, 2]}})
    result = amateur(*lines, {"speech": 8}, {"speech": 7}, {"vote": {"8": ALL[:7]}},
                     {"night": {}}, {"speech": 1}, {"put_up": {"8": [1, 2]}})
    assert result.game.refused[-1].reason == "target_out"
    with pytest.raises(ScriptError, match="seat 8 is out of the game"):
        amateur(*lines, {"speech": 8}, {"speech": 7}, {"vote": {"8": ALL[:7]}}, {"night": {}},
                {"speech": 1}, {"put_up": {"3": [8]}})


def test_events_of_a_put_up_say_the_thumbs_and_the_days_total() -> None:
    game = Game("amateur", roles={4: Role.MAFIA, 8: Role.MAFIA, 9: Role.MAFIA,
                                  2: Role.COMMISSAR, 6: Role.NURSE})
    game.start()
    advance(game, w.Floor, through=w.Pause | w.Deal)
    game.apply(TakeFloor(3))
    game.apply(EndSpeech())
    assert game.apply(Thumbs(5, (1, 2))) == [ev.PutUpCounted(5, 2, 2)]
    assert game.apply(Thumbs(5, (3,))) == [ev.PutUpCounted(5, 1, 3)]


# -- whom one may accuse and check (decisions where 004 is silent) ----------------------------------

def test_a_speaker_never_accuses_himself_nor_a_seat_out() -> None:
    result = amateur(*speeches([1]))  # seat 1 has spoken: the thumbs' window after his speech
    game = result.game
    assert isinstance(game.expect, w.PutUp) and game.expect.seat == 1
    assert game.accusation_refusal(1, 1) == "own_seat"
    assert game.refusal(Thumbs(1, (2, 3))) == "own_seat"
    game.apply(Thumbs(1, (2, 3)))  # sent anyway: refused, nothing counted
    assert game.refused[-1] == Refusal(Phase.day(1), 1, "put_up", 1, "own_seat")
    assert game.days[-1].put_up is None
    assert game.accusation_refusal(1, 5) is None


def test_the_commissar_checks_neither_himself_nor_a_seat_known_out_but_tonights_victim() -> None:
    from narrator.engine import Check, Kill, Remove

    result = amateur(*speeches(ALL))
    game = result.game
    game.apply(Remove(7))  # out, as the whole table knows
    advance(game, w.NightAct, role="mafia")
    game.apply(Kill("mafia", 5))  # tonight's victim: nobody knows it yet
    advance(game, w.NightAct, role="commissar")
    assert game.refusal(Check("commissar", 2)) == "own_seat"
    assert game.refusal(Check("commissar", 7)) == "target_out"
    assert game.refusal(Check("commissar", 5)) is None  # leaving him out would tell the kill
    before = len(game.night_acts)
    game.apply(Check("commissar", 7))
    assert game.refused[-1].reason == "target_out" and len(game.night_acts) == before
    game.apply(Check("commissar", 5))
    assert game.night_acts[-1].target == 5


def test_crime_times_checks_take_any_seat_out_or_not() -> None:
    """2.1.3: «проверить любого игрока (живого или выбывшего)»."""
    from narrator.engine import Check

    game = Game(find_rules("crime-time"), roles={1: Role.SHERIFF, 3: Role.DON, 5: Role.MAFIA,
                                                 9: Role.MAFIA})
    game.start()
    assert all(game.rules.check_refusal(1, s, {7: "vote"}) is None for s in (1, 7))
    assert game.check_refusal(Check("sheriff", 1)) is None
