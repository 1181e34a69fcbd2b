"""One scenario per clause of the crime-time rules (2013), through the table-script replay.

Default roles: sheriff 1, don 3, mafia 5 and 9; everybody else a civilian.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from narrator.engine import (
    CheckRecord,
    CrashRecord,
    Departure,
    EndSpeech,
    Game,
    IllegalActionError,
    Phase,
    Role,
    Shot,
    TimeUp,
    VoteRound,
)
from narrator.engine import events as ev
from narrator.engine import waits as w
from narrator.errors import ScriptError
from narrator.testing import advance, end_speeches
from tests.engine.conftest import day_speeches, run
from tests.helpers import ROLES, day_one

ALL = list(range(1, 11))


def day1_with(votes: dict[str, list[int]] | None = None,
              says: dict[int, list[Any]] | None = None) -> list[dict[str, Any]]:
    lines = day_speeches(ALL, says)
    if votes is not None:
        lines.append({"vote": votes})
    return lines


NOMINATE_5_AND_7 = {1: [[1.0, "выставляю пятого"]], 2: [[1.0, "выставляю седьмого"]]}


# -- 1.2, 1.3: roles and dealing ---------------------------------------------------------------

def test_1_2_1_3_dealing_gives_six_civilians_sheriff_two_mafia_and_don() -> None:
    for seed in range(20):
        game = Game(rng=random.Random(seed))
        assert Counter(game.roles.values()) == {Role.CIVILIAN: 6, Role.SHERIFF: 1,
                                                Role.MAFIA: 2, Role.DON: 1}


def test_1_2_1_3_dealing_is_reproducible_with_a_seed_and_varies_without() -> None:
    assert Game(rng=random.Random(7)).roles == Game(rng=random.Random(7)).roles
    deals = {tuple(Game(rng=random.Random(s)).roles.values()) for s in range(10)}
    assert len(deals) > 1


def test_header_roles_leave_other_seats_civilians() -> None:
    game = run().game
    assert game.roles[1] is Role.SHERIFF and game.roles[3] is Role.DON
    assert [s for s, r in game.roles.items() if r is Role.CIVILIAN] == [2, 4, 6, 7, 8, 10]


# -- 2.1.1: the first night ----------------------------------------------------------------------

def test_2_1_1_first_night_timers_and_no_hunt() -> None:
    game = Game(roles=ROLES)
    events = game.start()
    events += advance(game, w.Speech, through=w.Pause | w.Deal)
    timers = [e.timer for e in events if isinstance(e, ev.TimerStarted)]
    names = [(t.name, t.seconds, t.warning_at) for t in timers]
    assert ("agreement", 60.0, 50.0) in names  # a minute, «Десять секунд» at 50 s
    assert ("sheriff_noted", 15.0, None) in names
    phases = [e.name for e in events if isinstance(e, ev.PhaseStarted)]
    assert phases.index("don_noted") < phases.index("agreement") < phases.index("sheriff_noted")
    assert "hunt" not in phases and "don_check" not in phases  # no hunt, no checks
    assert isinstance(game.expect, w.Speech) and game.expect.seat == 1


def test_2_1_1_ten_seconds_is_said_during_the_agreement() -> None:
    said = run().transcript.said
    agreement = said.index("Просыпается мафия. У вас минута на договорку")
    assert said[agreement + 1] == "Десять секунд"


# -- 2.1.2: the hunt ----------------------------------------------------------------------------

def hunt(shots: dict[str, object]) -> int | None:
    lines = [*day1_with(), {"night": {"shots": shots}}]
    nights = run(*lines).game.nights
    shot: int | None = nights[0].hit
    return shot


def test_2_1_2_hit_when_every_living_mafioso_shoots_the_same_living_seat() -> None:
    assert hunt({"3": 7, "5": 7, "9": 7}) == 7


@pytest.mark.parametrize("shots", [
    {"3": 7, "5": 7},  # 9 did not shoot
    {"3": 7, "5": 7, "9": [7, 2]},  # 9 shot two seats
    {"3": 7, "5": 7, "9": 2},  # different seats
    {},  # nobody shot
])
def test_2_1_2_every_other_case_is_a_miss(shots: dict[str, object]) -> None:
    assert hunt(shots) is None


def test_2_1_2_shooting_a_seat_that_is_out_is_a_miss() -> None:
    lines = day1_with(votes={"7": [1, 2, 3, 4, 5, 6], "8": []},
                      says={1: [[1.0, "выставляю седьмого"]], 2: [[1.0, "выставляю восьмого"]]})
    lines += [{"speech": 7}, {"night": {"shots": {"3": 7, "5": 7, "9": 7}}}]
    assert run(*lines).game.nights[0].hit is None


def test_2_1_2_the_count_names_every_seat_and_the_result_waits_for_day() -> None:
    result = run(*day1_with(), {"night": {"shots": {"3": 7, "5": 7, "9": 7}}})
    said = result.transcript.said
    start = said.index("Мафия выходит на охоту и идет мимо игроков")
    assert said[start + 1:start + 11] == ["один", "два", "три", "четыре", "пять", "шесть",
                                          "семь", "восемь", "девять", "десять"]
    assert said.index("Этой ночью убит игрок номер семь") > said.index("Наступает день", start)


# -- 2.1.3: checks --------------------------------------------------------------------------------

def test_2_1_3_checks_record_results() -> None:
    result = run(*day1_with(), {"night": {"shots": {}, "don": 1, "sheriff": 5}})
    night = result.game.nights[0]
    assert night.checks.get("don") == CheckRecord(1, True)
    assert night.checks.get("sheriff") == CheckRecord(5, True)
    result = run(*day1_with(), {"night": {"shots": {}, "don": 2, "sheriff": 4}})
    night = result.game.nights[0]
    assert night.checks["don"].result is False and night.checks["sheriff"].result is False


def test_2_1_3_don_may_check_a_seat_that_is_out() -> None:
    lines = day1_with(votes={"7": [1, 2, 3, 4, 5, 6], "8": []},
                      says={1: [[1.0, "выставляю седьмого"]], 2: [[1.0, "выставляю восьмого"]]})
    lines += [{"speech": 7}, {"night": {"shots": {}, "don": 7}}]
    assert run(*lines).game.nights[0].checks.get("don") == CheckRecord(7, False)


def test_2_1_3_check_time_runs_and_a_checker_shot_tonight_still_checks() -> None:
    # The sheriff is shot during the hunt: nobody knows until day (2.1.2), so he is still at
    # the table that night: his 15 s run and he checks; the next night he is out.
    from narrator.engine import Check

    game = Game(roles=ROLES)
    game.start()
    advance(game, w.Hunt)
    for shooter in (3, 5, 9):
        game.apply(Shot(shooter, 1))
    game.apply(TimeUp("hunt"))
    assert game.out[1] == Departure("shot", Phase.night(2))
    game.apply(TimeUp("don_check"))
    assert isinstance(game.expect, w.NightAct)
    assert game.expect.checks and game.expect.role == "sheriff"
    assert game.expect.timer is not None and game.expect.timer.seconds == 15.0
    game.apply(Check("sheriff", 3))
    assert game.nights[0].checks.get("sheriff") == CheckRecord(3, True)
    advance(game, w.Hunt, answer=end_speeches)
    game.apply(TimeUp("hunt"))
    game.apply(TimeUp("don_check"))
    with pytest.raises(IllegalActionError, match="sheriff is out"):
        game.apply(Check("sheriff", 5))


# -- 2.2: day -------------------------------------------------------------------------------------

def test_2_2_night_victim_is_out_and_has_a_last_word_before_discussion() -> None:
    result = run(*day1_with(), {"night": {"shots": {"3": 7, "5": 7, "9": 7}}},
                 {"speech": 7, "say": [[3.0, "выставляю пятого"]]})
    game = result.game
    assert game.out[7] == Departure("shot", Phase.night(2))
    assert game.refused[-1].reason == "not_discussion"  # no nominations in a last word
    assert isinstance(game.expect, w.Speech)
    assert game.expect.seat == 2 and game.expect.speech == "day"


def test_2_2_a_miss_is_announced_and_discussion_starts_at_once() -> None:
    result = run(*day1_with(), {"night": {"shots": {"3": 7}}})
    assert "Этой ночью мафия промахнулась. Все игроки остаются за столом" in result.transcript.said
    assert isinstance(result.game.expect, w.Speech)
    assert result.game.expect.speech == "day" and result.game.expect.seat == 2


# -- 2.3: discussion order --------------------------------------------------------------------------

def test_2_3_day1_from_seat1_then_from_the_next_living_seat() -> None:
    # day 2 opens at 2; day 3 would open at 3, but 3 is out, so at 4
    lines = [*day1_with(), {"night": {"shots": {}}}]
    lines += day_speeches([2, 3, 4, 5, 6, 7, 8, 9, 10, 1],
                          {2: [[1.0, "выставляю третьего"]]})
    lines += [{"vote": {"3": ALL}}, {"speech": 3}, {"night": {"shots": {}}}]
    game = run(*lines).game
    assert [d.opened_by for d in game.days] == [1, 2, 4]
    assert isinstance(game.expect, w.Speech) and game.expect.seat == 4


def test_2_3_ten_seconds_at_50_and_thanks_at_60() -> None:
    result = run({"speech": 1, "say": [[10.0, "я мирный"]]})
    said = result.transcript.said
    i = said.index("Слово игроку номер один")
    assert said[i + 1:i + 4] == ["Десять секунд", "Спасибо", "Слово игроку номер два"]


def test_2_3_speech_ends_early_on_thanks_and_pass_and_later_text_is_not_heard() -> None:
    result = run({"speech": 1, "say": [[5.0, "пас"], [6.0, "выставляю пятого"]]},
                 {"speech": 2, "say": [[59.0, "выставляю пятого"], [61.0, "выставляю шестого"]]})
    assert result.game.nominations == [(2, 5)]


# -- 2.3.1: nominations ---------------------------------------------------------------------------

def test_2_3_1_one_standing_nomination_per_speech() -> None:
    result = run({"speech": 1, "say": [[1.0, "выставляю пятого"], [2.0, "выставляю шестого"]]})
    assert result.game.candidates == (5,)
    assert result.game.refused[-1].reason == "already_nominated"
    assert result.transcript.said.count("Принято") == 1


def test_2_3_1_repeat_nomination_by_another_keeps_the_first_order() -> None:
    lines = day1_with(says={1: [[1.0, "выставляю пятого"]], 2: [[1.0, "выставляю седьмого"]],
                            3: [[1.0, "выставляю пятого"]]})
    assert run(*lines).game.days[0].nominations == [5, 7]


def test_2_3_1_a_target_out_of_the_game_is_refused() -> None:
    lines = [*day1_with(), {"night": {"shots": {"3": 7, "5": 7, "9": 7}}}, {"speech": 7}, {"speech": 2, "say": [[1.0, "выставляю седьмого"]]}]
    game = run(*lines).game
    assert game.candidates == () and game.refused[-1].reason == "target_out"


def test_2_3_1_future_and_subjunctive_are_refused_with_reasons() -> None:
    result = run({"speech": 1, "say": [[1.0, "выставлю пятого"], [2.0, "я бы выставил пятого"],
                                       [3.0, "выставляю шестого"]]})
    assert [r.reason for r in result.game.refused] == ["future_tense", "subjunctive"]
    assert result.game.candidates == (6,)


# -- 2.3.2: withdrawals ----------------------------------------------------------------------------

def test_2_3_2_withdrawal_removes_only_the_speakers_own() -> None:
    result = run({"speech": 1, "say": [[1.0, "выставляю пятого"]]},
                 {"speech": 2, "say": [[1.0, "выставляю пятого"], [2.0, "снимаю пятого"]]})
    assert result.game.candidates == (5,)  # nominated earlier by seat 1: it stays
    assert "Снято" in result.transcript.said


def test_2_3_2_withdrawing_someone_elses_nomination_is_refused() -> None:
    result = run({"speech": 1, "say": [[1.0, "выставляю пятого"]]},
                 {"speech": 2, "say": [[1.0, "снимаю пятого"]]})
    assert result.game.candidates == (5,)
    assert result.game.refused[-1].reason == "not_own_nomination"


def test_2_3_2_after_withdrawal_the_speaker_may_nominate_again() -> None:
    result = run({"speech": 1, "say": [[1.0, "выставляю пятого"], [2.0, "снимаю пятого"],
                                       [3.0, "выставляю седьмого"]]})
    assert result.game.candidates == (7,)


# -- 2.2.1 and no candidates ---------------------------------------------------------------------

def test_2_2_1_day1_single_candidate_no_vote() -> None:
    result = run(*day1_with(says={1: [[1.0, "выставляю пятого"]]}))
    assert result.game.days[0].rounds == [] and isinstance(result.game.expect, w.Hunt)
    assert "В первый день выставлена одна кандидатура, голосования не будет" in \
        result.transcript.said


def test_no_candidates_no_vote() -> None:
    result = run(*day1_with())
    assert isinstance(result.game.expect, w.Hunt)
    assert "Кандидатур нет, голосования не будет" in result.transcript.said


def test_later_day_single_candidate_is_voted_out() -> None:
    lines = [*day1_with(), {"night": {"shots": {}}}]
    lines += day_speeches([2, 3, 4, 5, 6, 7, 8, 9, 10, 1], {2: [[1.0, "выставляю четвертого"]]})
    lines += [{"vote": {"4": [1, 2]}}]
    game = run(*lines).game
    assert game.days[1].rounds == [VoteRound((4,), {4: 10})]
    assert game.out[4] == Departure("vote", Phase.day(2))


# -- 2.4: voting -----------------------------------------------------------------------------------

def test_2_4_order_second_hand_ignored_abstainers_for_the_last() -> None:
    result = run(*day1_with(votes={"5": [1, 2, 3, 4], "7": [1, 6]}, says=NOMINATE_5_AND_7))
    game = result.game
    # seat 1's second hand ignored; 7 gets 6 plus the abstainers 5, 7, 8, 9, 10
    assert game.days[0].rounds == [VoteRound((5, 7), {5: 4, 7: 6})]
    assert game.out[7] == Departure("vote", Phase.day(1))
    assert any(r.reason == "already_voted" and r.seat == 1 for r in game.refused)


def test_2_4_vote_counts_are_said_with_correct_plurals() -> None:
    said = run(*day1_with(votes={"5": [1], "7": []}, says=NOMINATE_5_AND_7)).transcript.said
    assert "один голос" in said and "девять голосов" in said
    said = run(*day1_with(votes={"5": [1, 2], "7": []}, says=NOMINATE_5_AND_7)).transcript.said
    assert "два голоса" in said and "восемь голосов" in said
    i = said.index("Кто за то, чтобы стол покинул игрок номер пять?")
    assert said[i + 1:i + 3] == ["Спасибо", "два голоса"]


def test_2_4_votes_from_a_seat_out_of_the_game_are_a_script_error() -> None:
    lines = [*day1_with(), {"night": {"shots": {"3": 7, "5": 7, "9": 7}}}, {"speech": 7}]
    lines += day_speeches([2, 3, 4, 5, 6, 8, 9, 10, 1], {2: [[1.0, "выставляю четвертого"]],
                                                         3: [[1.0, "выставляю шестого"]]})
    lines += [{"vote": {"4": [7]}}]
    with pytest.raises(ScriptError, match="seat 7 is out of the game"):
        run(*lines)


# -- 2.4.1: ties -----------------------------------------------------------------------------------

def test_2_4_1_tie_speeches_in_nomination_order_then_revote_among_the_tied() -> None:
    says = {1: [[1.0, "выставляю пятого"]], 2: [[1.0, "выставляю седьмого"]],
            3: [[1.0, "выставляю восьмого"]]}
    lines = day1_with(votes={"5": [1, 2, 3, 4], "7": [6, 7, 8, 9], "8": []}, says=says)
    lines += [{"speech": 5, "say": [[1.0, "выставляю восьмого"]]}, {"speech": 7},
              {"vote": {"5": [1, 2, 3, 4, 5, 6], "7": []}}]
    result = run(*lines)
    game = result.game
    assert [r.candidates for r in game.days[0].rounds] == [(5, 7, 8), (5, 7)]
    assert game.days[0].rounds[0].votes == {5: 4, 7: 4, 8: 2}
    assert game.out[5] == Departure("vote", Phase.day(1))
    assert game.refused[-1].reason == "not_discussion"  # no nominations in a tie speech
    assert "Игрок номер пять, у вас тридцать секунд" in result.transcript.said


def test_2_4_1_tie_speech_is_30_seconds() -> None:
    says = {1: [[1.0, "выставляю пятого"]], 2: [[1.0, "выставляю седьмого"]]}
    lines = day1_with(votes={"5": [1, 2, 3, 4, 6], "7": []}, says=says)
    lines += [{"speech": 5, "say": [[29.0, "выставляю восьмого"], [31.0, "не слышно"]]}]
    game = run(*lines).game
    assert isinstance(game.expect, w.Speech) and game.expect.seat == 7
    assert game.expect.timer is not None and game.expect.timer.seconds == 30.0


def test_2_4_1_further_rounds_while_some_candidate_has_fewer_votes() -> None:
    says = {1: [[1.0, "выставляю пятого"]], 2: [[1.0, "выставляю седьмого"]],
            3: [[1.0, "выставляю восьмого"]], 4: [[1.0, "выставляю второго"]]}
    # round 1: 3, 3, 3, 1 (seat 5 abstains, for 2) -> 5, 7, 8 speak and vote again
    lines = day1_with(votes={"5": [1, 2, 3], "7": [4, 6, 7], "8": [8, 9, 10], "2": []},
                      says=says)
    lines += [{"speech": 5}, {"speech": 7}, {"speech": 8},
              {"vote": {"5": [1, 2, 3, 4], "7": [5, 6, 7, 8], "8": []}},
              {"speech": 5}, {"speech": 7}]
    game = run(*lines).game
    rounds = game.days[0].rounds
    assert [r.candidates for r in rounds] == [(5, 7, 8, 2), (5, 7, 8)]
    assert rounds[1].votes == {5: 4, 7: 4, 8: 2}
    # 4, 4, 2: not all equal, so a third round among 5 and 7, not a car crash
    assert isinstance(game.expect, w.Vote) and game.voting_candidates == (5, 7)
    assert game.days[0].crash is None


# -- 2.4.2: car crash --------------------------------------------------------------------------------

def crash_lines(crash_for: list[int]) -> list[dict[str, object]]:
    lines = day1_with(votes={"5": [1, 2, 3, 4, 6], "7": []}, says=NOMINATE_5_AND_7)
    lines += [{"speech": 5}, {"speech": 7}, {"vote": {"5": [1, 2, 3, 4, 6], "7": []}}]
    lines += [{"crash": crash_for}]
    return lines


def test_2_4_2_crash_passes_with_a_majority_and_last_words_follow_in_order() -> None:
    result = run(*crash_lines([1, 2, 3, 4, 6, 8]))
    game = result.game
    assert game.days[0].crash == CrashRecord(6, 4, True)
    assert game.out[5] == Departure("crash", Phase.day(1)) and game.out[7].how == "crash"
    assert isinstance(game.expect, w.Speech) and game.expect.seat == 5
    assert game.expect.speech == "last"
    assert "Кто за то, чтобы все эти игроки покинули стол?" in result.transcript.said


def test_2_4_2_exactly_half_is_not_a_majority() -> None:
    game = run(*crash_lines([1, 2, 3, 4, 6])).game
    assert game.days[0].crash == CrashRecord(5, 5, False)
    assert 5 not in game.out and 7 not in game.out and isinstance(game.expect, w.Hunt)


def test_2_4_2_crash_not_applied_at_four_seats_engine() -> None:
    from narrator.engine import Hands, Nominate, Remove
    game = Game(roles={1: Role.SHERIFF, 3: Role.DON, 5: Role.MAFIA, 9: Role.MAFIA})
    game.start()
    advance(game, w.Speech, through=w.Pause | w.Deal)
    for seat in (5, 9, 6, 7, 8, 10):  # 2.4.3: four left, the don against three red
        game.apply(Remove(seat))
    advance(game, w.Hunt, answer=end_speeches, through=w.Speech)  # no nomination, no vote
    advance(game, w.Speech, through=w.Hunt | w.NightAct)  # night 2: a miss, no checks
    assert game.living == [1, 2, 3, 4] and game.phase == Phase.day(2)
    assert isinstance(game.expect, w.Speech) and game.expect.seat == 2
    game.apply(Nominate(4))
    game.apply(EndSpeech())
    game.apply(Nominate(2))
    game.apply(EndSpeech())
    game.apply(EndSpeech())
    events = game.apply(EndSpeech())
    assert any(isinstance(e, ev.VotingStarted) for e in events)
    for seats in ((1, 2), ()):
        game.apply(Hands(seats))
        events = game.apply(TimeUp("vote"))
    assert any(isinstance(e, ev.Tie) for e in events)
    game.apply(EndSpeech())
    game.apply(EndSpeech())
    game.apply(Hands((1, 2)))
    game.apply(TimeUp("vote"))
    events = game.apply(TimeUp("vote"))
    assert any(isinstance(e, ev.CrashNotApplied) for e in events)
    assert 2 not in game.out and 4 not in game.out and isinstance(game.expect, w.Hunt)


# -- 2.4.3: removal and the monster rule -------------------------------------------------------------

def test_2_4_3_removal_during_discussion_cancels_the_vote() -> None:
    lines = day_speeches([1, 2, 3], {1: [[1.0, "выставляю пятого"]],
                                     2: [[1.0, "выставляю седьмого"]]})
    lines += [{"remove": 4}, {"foul": 6}, *day_speeches([5, 6, 7, 8, 9, 10])]
    result = run(*lines)
    game = result.game
    assert game.out[4] == Departure("removed", Phase.day(1))
    assert game.days[0].rounds == [] and isinstance(game.expect, w.Hunt)
    assert game.fouls == {6: 1}
    assert "Игрок удален до завершения голосования, голосования сегодня не будет" in \
        result.transcript.said
    assert game.protocol()["seats"]["6"]["fouls"] == 1


def test_2_4_3_removal_of_the_speakers_candidate_frees_the_speakers_nomination() -> None:
    # Found by the engine fuzzer: a withdrawal of a candidate removed mid-speech crashed.
    from narrator.engine import Nominate, Remove, Withdraw

    game = day_one()
    game.apply(Nominate(5))
    game.apply(Remove(5))
    assert not game.candidates
    events = game.apply(Withdraw(5))  # the nomination no longer stands: refused, no crash
    assert [(e.kind, e.reason) for e in events if isinstance(e, ev.Refused)] == \
        [("withdraw", "not_own_nomination")]
    game.apply(Nominate(7))  # 2.3: one standing nomination a speech, and 5's is gone
    assert game.candidates == (7,)


def test_2_4_3_removal_at_night_cancels_the_next_days_vote() -> None:
    lines = [*day1_with(), {"remove": 8}, {"night": {"shots": {}}}]
    lines += day_speeches([2, 3, 4, 5, 6, 7, 9, 10, 1], {2: [[1.0, "выставляю четвертого"]],
                                                         3: [[1.0, "выставляю шестого"]]})
    game = run(*lines).game
    assert game.days[1].rounds == [] and isinstance(game.expect, w.Hunt)


def test_2_4_3_removal_after_the_result_is_fixed_does_not_cancel() -> None:
    from narrator.engine import Hands, Remove
    lines = day1_with(says=NOMINATE_5_AND_7)
    game = run(*lines).game
    assert isinstance(game.expect, w.Vote) and game.expect.candidate == 5
    game.apply(Hands((1, 2, 3, 4, 6, 7, 8)))  # 7 of 10 for seat 5: already decided
    game.apply(Remove(10))
    assert 10 in game.out
    game.apply(TimeUp("vote"))
    game.apply(TimeUp("vote"))
    assert game.out[5] == Departure("vote", Phase.day(1))


def test_2_4_3_removal_before_the_result_is_fixed_cancels() -> None:
    from narrator.engine import Hands, Remove
    game = run(*day1_with(says=NOMINATE_5_AND_7)).game
    game.apply(Hands((1, 2)))
    events = game.apply(Remove(10))
    assert ev.VotingCancelled("monster") in events and isinstance(game.expect, w.Hunt)


# -- 1.2 / 1.3: the end ----------------------------------------------------------------------

def test_1_2_civilians_win_when_no_black_seat_remains_and_the_game_stops() -> None:
    from narrator.engine import Remove
    game = Game(roles=ROLES)
    game.start()
    game.apply(Remove(3))
    game.apply(Remove(5))
    events = game.apply(Remove(9))
    assert ev.GameOver("civilians") in events and isinstance(game.expect, w.Over)
    with pytest.raises(IllegalActionError, match="game is over"):
        game.apply(TimeUp("dealing"))


def test_1_3_mafia_wins_at_parity_with_no_last_word() -> None:
    # by night 4 the mafia has killed 2 and the town voted out 2 civilians: 3 black v 3 red
    lines = day1_with(votes={"2": ALL, "4": []},
                      says={1: [[1.0, "выставляю второго"]], 3: [[1.0, "выставляю четвертого"]]})
    lines += [{"speech": 2}, {"night": {"shots": {"3": 6, "5": 6, "9": 6}}}, {"speech": 6}]
    lines += day_speeches([3, 4, 5, 7, 8, 9, 10, 1], {3: [[1.0, "выставляю четвертого"]]})
    lines += [{"vote": {"4": []}}, {"speech": 4}]
    lines += [{"night": {"shots": {"3": 7, "5": 7, "9": 7}}}]
    result = run(*lines)
    game = result.game
    assert game.winner is not None and game.winner.value == "mafia"
    assert isinstance(game.expect, w.Over)
    assert result.transcript.said[-3:] == ["Наступает день", "Этой ночью убит игрок номер семь",
                                           "Игра окончена. Победила мафия"]


def test_input_after_the_game_is_over_is_a_script_error() -> None:
    lines = day1_with(votes={"2": ALL, "4": []},
                      says={1: [[1.0, "выставляю второго"]], 3: [[1.0, "выставляю четвертого"]]})
    lines += [{"speech": 2}, {"night": {"shots": {"3": 6, "5": 6, "9": 6}}}, {"speech": 6}]
    lines += day_speeches([3, 4, 5, 7, 8, 9, 10, 1], {3: [[1.0, "выставляю четвертого"]]})
    lines += [{"vote": {"4": []}}, {"speech": 4}]
    lines += [{"night": {"shots": {"3": 7, "5": 7, "9": 7}}}, {"speech": 7}]
    with pytest.raises(ScriptError, match="the game is over: mafia won"):
        run(*lines)
