"""Real-game fidelity (crime-time clauses as played) and the sport options of a club.

Roles as in the other scenario tests: sheriff 1, don 3, mafia 5 and 9.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from narrator.engine import (
    BestMove,
    Check,
    CheckRecord,
    Departure,
    EndSpeech,
    Foul,
    Game,
    IllegalActionError,
    Phase,
    Remove,
    Role,
    Shot,
    TimeUp,
)
from narrator.engine import events as ev
from narrator.engine import waits as w
from narrator.engine.options import apply_options
from narrator.engine.rules import find_rules
from narrator.errors import ScriptError
from narrator.replay.script import load_table_script, parse_table_script
from narrator.replay.table import ReplayResult, replay_script
from tests.engine.conftest import day_speeches
from tests.helpers import SCRIPT_ROLES as ROLES

ALL = list(range(1, 11))
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
#: day 1 with nobody nominated
QUIET_DAY = day_speeches(ALL)


def run_with(*lines: dict[str, Any], options: dict[str, Any] | None = None) -> ReplayResult:
    header: dict[str, Any] = {"rules": "crime-time", "roles": ROLES}
    if options:
        header["options"] = options
    text = "\n".join(json.dumps(x, ensure_ascii=False) for x in (header, *lines))
    return replay_script(parse_table_script(text, "t"))


def night(target: int, don: int | None = None, sheriff: int | None = None) -> dict[str, Any]:
    return {"night": {"shots": {"3": target, "5": target, "9": target},
                      "don": don, "sheriff": sheriff}}


# -- 2.1.2, 2.1.3: the shot player is at the table until the day -------------------------------

def test_2_1_2_a_sheriff_shot_in_the_hunt_still_makes_that_nights_check() -> None:
    result = run_with(*QUIET_DAY, night(1, don=1, sheriff=5))
    night2 = result.game.nights[0]
    assert night2.hit == 1
    assert night2.checks.get("don") == CheckRecord(1, True)
    assert night2.checks.get("sheriff") == CheckRecord(5, True)
    # the protocol still has him out from that night: out is set the moment it happens
    assert result.game.out[1] == Departure("shot", Phase.night(2))


def test_2_1_2_a_don_shot_in_the_hunt_still_makes_that_nights_check() -> None:
    result = run_with(*QUIET_DAY, night(3, don=1, sheriff=3))
    assert result.game.out[3] == Departure("shot", Phase.night(2))
    assert result.game.nights[0].checks.get("don") == CheckRecord(1, True)
    assert result.game.nights[0].checks.get("sheriff") == CheckRecord(3, True)


def test_2_1_3_a_checker_out_before_the_night_does_not_check() -> None:
    # the sheriff voted out on day 1: his check that night is refused, its time still runs
    lines = [*day_speeches(ALL, {2: [[1.0, "выставляю первого"]], 4: [[1.0, "выставляю шестого"]]}),
             {"vote": {"1": [2, 3, 4, 5, 6, 7]}}, {"speech": 1},
             night(4, sheriff=5)]
    with pytest.raises(ScriptError, match="the sheriff is out of the game"):
        run_with(*lines)


def test_2_1_3_the_check_of_a_seat_shot_that_night_is_answered() -> None:
    result = run_with(*QUIET_DAY, night(7, don=7, sheriff=7))
    assert result.game.nights[0].checks.get("don") == CheckRecord(7, False)
    assert result.game.nights[0].checks.get("sheriff") == CheckRecord(7, False)


def test_2_1_2_a_player_shot_in_the_hunt_can_be_warned_during_the_checks() -> None:
    game = run_with(*QUIET_DAY).game
    for shooter in (3, 5, 9):
        game.apply(Shot(shooter, 7))
    game.apply(TimeUp("hunt"))  # the count ends: seat 7 is shot
    assert isinstance(game.expect, w.NightAct) and game.expect.checks
    game.apply(Foul(7))
    assert game.fouls[7] == 1
    with pytest.raises(IllegalActionError, match="seat 7 is out"):
        game.apply(Remove(7))


def test_public_record_the_shot_sheriff_checks_that_night_as_recorded() -> None:
    """MafiaRatings game 1128 («Mafia of Vancouver», 2016): night 3 the mafia shoot the sheriff
    (seat 5), the don finds him and he checks seat 8 — the game replays as recorded."""
    result = replay_script(load_table_script(EXAMPLES / "sheriff-shot-checks.table.jsonl"))
    game = result.game
    assert game.winner is not None and game.winner.value == "civilians"
    assert [n.hit for n in game.nights] == [1, 5, 4]
    assert game.nights[1].checks.get("don") == CheckRecord(5, True)
    assert game.nights[1].checks.get("sheriff") == CheckRecord(8, False)
    assert game.nights[0].checks.get("sheriff") == CheckRecord(4, False)
    assert game.nights[0].checks.get("don") == CheckRecord(2, False)
    outs = {s: o for s, o in game.out.items()}
    assert outs == {1: Departure("shot", Phase.night(2)), 3: Departure("vote", Phase.day(2)),
                    5: Departure("shot", Phase.night(3)), 10: Departure("vote", Phase.day(3)),
                    4: Departure("shot", Phase.night(4)), 7: Departure("vote", Phase.day(4))}
    assert [d.to_json()["nominations"] for d in game.days] == [[], [2, 3, 9], [9, 10, 7, 2],
                                                                [9, 7]]
    assert game.days[1].rounds[0].votes == {2: 0, 3: 8, 9: 1}
    assert game.days[2].rounds[0].votes == {9: 1, 10: 5, 7: 0, 2: 1}
    assert game.days[3].rounds[0].votes == {9: 1, 7: 4}
    assert game.names[5] == "yukonsam"


# -- 1.4: a player speaking their last word is at the table ------------------------------------

def test_1_4_a_foul_during_ones_own_last_word_after_the_night_counts() -> None:
    game = run_with(*QUIET_DAY, night(7)).game
    assert isinstance(game.expect, w.Speech) and game.expect.seat == 7
    assert game.expect.speech == "last"
    game.apply(Foul(7))
    assert game.fouls[7] == 1


def test_1_4_a_foul_during_ones_own_last_word_after_the_vote_counts() -> None:
    lines = [*day_speeches(ALL, {2: [[1.0, "выставляю седьмого"]], 4: [[1.0, "выставляю шестого"]]}),
             {"vote": {"7": [1, 2, 3, 4, 5, 6]}}]
    game = run_with(*lines).game
    assert isinstance(game.expect, w.Speech)
    assert game.expect.seat == 7 and game.expect.speech == "last"
    game.apply(Foul(7))
    assert game.fouls[7] == 1
    with pytest.raises(IllegalActionError, match="seat 7 is out"):
        game.apply(Remove(7))  # already leaving: a removal has nothing to take away


def test_2_4_3_a_removal_during_a_last_word_ends_only_the_removed_players_speech() -> None:
    game = run_with(*QUIET_DAY, night(7)).game
    assert isinstance(game.expect, w.Speech)
    assert game.expect.seat == 7 and game.expect.speech == "last"
    events = game.apply(Remove(8))
    assert not any(isinstance(e, ev.SpeechEnded) for e in events)
    assert isinstance(game.expect, w.Speech) and game.expect.seat == 7  # the last word goes on
    assert game.out[8].how == "removed"
    game.apply(EndSpeech())
    exp = game.expect
    assert isinstance(exp, w.Speech) and exp.speech == "day"


def test_2_4_3_a_removal_of_the_speaker_ends_the_speech() -> None:
    game = run_with(*day_speeches([1, 2])).game
    assert isinstance(game.expect, w.Speech) and game.expect.seat == 3
    events = game.apply(Remove(3))
    assert ev.SpeechEnded(3, early=True) in events
    assert isinstance(game.expect, w.Speech) and game.expect.seat == 4


# -- the sport fouls option -------------------------------------------------------------------

SPORT = {"fouls": "sport"}


def test_sport_fouls_the_third_foul_costs_the_next_discussion_speech() -> None:
    """9.5.1 (three_fouls = "lose_speech", sport fouls' default): the minute is lost, and
    only a short window to nominate is left at his turn (the script's seat 4 line)."""
    lines = [{"foul": 4}, {"foul": 4}, {"foul": 4}, *day_speeches([1, 2, 3, 4, 5])]
    result = run_with(*lines, options=SPORT)
    game = result.game
    assert isinstance(game.expect, w.Speech) and game.expect.seat == 6  # seat 4 was passed over
    said = result.transcript.said
    assert ("Игрок номер четыре пропускает речь: три фола. Можно только выставить "
            "кандидатуру") in said
    assert "Слово игроку номер четыре" not in said
    # only that one speech: on day 2 seat 4 speaks again
    game.apply(EndSpeech())
    for _ in range(4):  # 7, 8, 9, 10
        game.apply(EndSpeech())
    assert isinstance(game.expect, w.Hunt)


def test_sport_fouls_the_fourth_foul_removes_by_itself_with_2_4_3() -> None:
    nominate = {1: [[1.0, "выставляю седьмого"]], 2: [[1.0, "выставляю шестого"]]}
    lines = [*day_speeches([1, 2, 3], nominate), *[{"foul": 8}] * 4,
             *day_speeches([4, 5, 6, 7, 9, 10])]
    game = run_with(*lines, options=SPORT).game
    assert game.out[8] == Departure("removed", Phase.day(1))
    assert game.fouls[8] == 4
    assert game.days[0].out == [8]
    assert isinstance(game.expect, w.Hunt)  # 2.4.3: no vote today
    assert game.days[0].rounds == []


def test_without_sport_fouls_the_host_is_told_at_the_third_and_fourth_foul() -> None:
    lines = [*[{"foul": 8}] * 4, *day_speeches(ALL)]
    result = run_with(*lines)
    assert 8 not in result.game.out  # counted only
    notes = [text for _, text in result.transcript.entries]
    assert any("seat 8: 3rd foul" in t for t in notes)
    assert any("seat 8: 4th foul" in t for t in notes)


def test_sport_fouls_option_travels_and_plain_crime_time_counts_only() -> None:
    assert find_rules("crime-time").fouls == "count"
    rules = apply_options(find_rules("crime-time"), SPORT)
    game = Game(rules, roles={1: Role.SHERIFF, 3: Role.DON, 5: Role.MAFIA, 9: Role.MAFIA})
    game.start()
    for _ in range(4):
        game.apply(Foul(2))
    assert game.out[2] == Departure("removed", Phase.night(1))



# -- the best move option -----------------------------------------------------------------------

BEST = {"best_move": True}


def test_best_move_the_first_night_victim_names_three_seats_before_the_last_word() -> None:
    result = run_with(*QUIET_DAY, night(7), {"best_move": [3, 5, 6]}, {"speech": 7},
                      options=BEST)
    protocol = result.protocol()
    assert protocol["best_move"] == {"seat": 7, "named": [3, 5, 6], "black_named": 2}


def test_best_move_is_refused_without_the_option_or_out_of_its_moment() -> None:
    with pytest.raises(ScriptError, match="best_move option"):
        run_with(*QUIET_DAY, night(7), {"best_move": [3, 5, 6]})
    with pytest.raises(ScriptError, match="first-night victim"):
        run_with({"best_move": [3, 5, 6]}, options=BEST)
    game = run_with(*QUIET_DAY, night(7), {"best_move": [3, 5, 6]}, options=BEST).game
    with pytest.raises(IllegalActionError, match="already"):
        game.apply(BestMove((2, 4, 6)))
    game2 = run_with(*QUIET_DAY, night(7), options=BEST).game
    with pytest.raises(IllegalActionError, match="three different seats"):
        game2.apply(BestMove((2, 2, 6)))
    with pytest.raises(IllegalActionError, match="names seat 7, the victim"):
        game2.apply(BestMove((2, 7, 6)))


def test_best_move_is_not_asked_when_the_option_is_off_and_the_protocol_has_none() -> None:
    result = run_with(*QUIET_DAY, night(7), {"speech": 7})
    assert "best_move" not in result.protocol()


def test_check_names_the_checker() -> None:
    game = run_with(*QUIET_DAY).game
    with pytest.raises(IllegalActionError, match="not the sheriff's check"):
        game.apply(Check("sheriff", 3))


def test_2_1_2_the_public_notation_hides_a_shot_until_the_day_tells_it() -> None:
    game = run_with(*QUIET_DAY).game
    for shooter in (3, 5, 9):
        game.apply(Shot(shooter, 7))
    game.apply(TimeUp("hunt"))
    assert game.out[7].how == "shot"
    assert game.notation(secret=False).split()[2] == "++++++++++"  # at the table tonight
    game.apply(TimeUp("don_check"))
    game.apply(TimeUp("sheriff_check"))
    assert game.phase == Phase.day(2) and game.notation(secret=False).split()[2] == "++++++++++"
    game.apply(EndSpeech())  # the last word is over: now a spectator
    assert game.notation(secret=False).split()[2] == "++++++-+++"
