"""The operator's entries: one vocabulary, read against what the game waits for."""

from __future__ import annotations

import re

import pytest

from narrator.engine import (
    Check,
    EndSpeech,
    Game,
    HandsUp,
    Kill,
    Mark,
    Nominate,
    Role,
    Save,
    TakeFloor,
    Thumbs,
    TimeUp,
)
from narrator.engine import waits as w
from narrator.engine.entries import OperatorInput, OperatorLineError, parse_operator_line
from narrator.reasons import Reason
from narrator.testing import advance, end_speeches
from tests.engine.test_marks import finished
from tests.helpers import ROLES


def at(kind: str) -> Game:
    """A game brought to the first step of ``kind``: speech, vote, crash, hunt or check."""
    game = Game(roles=ROLES)
    game.start()
    advance(game, w.Speech, through=w.Pause | w.Deal)
    if kind == "speech":
        return game
    nominations = {1: 2, 2: 4} if kind in ("vote", "crash") else {}
    while isinstance(game.expect, w.Speech):
        seat = game.expect.seat
        if seat in nominations:
            game.apply(Nominate(nominations[seat]))
        game.apply(EndSpeech())
    if kind == "crash":  # 5 : 5 twice, the abstainers counting for 4 (2.4), then 2.4.2
        for vote in (1, 2):
            advance(game, w.Vote, candidate=2, round=vote, answer=end_speeches)
            game.apply(parse_operator_line("1 2 3 5 6", game).actions[0])
        advance(game, w.Crash, answer=end_speeches)
    if kind == "check":
        advance(game, w.NightAct, checks=True, through=w.Hunt)
    return game


def texts(line: str, game: Game) -> list[str]:
    return [str(a) for a in parse_operator_line(line, game).actions]


def test_in_a_speech_a_number_nominates_w_withdraws_and_dash_ends_it() -> None:
    game = at("speech")
    assert texts("5", game) == ["nominate 5"]
    assert texts("w 5", game) == texts("w5", game) == ["withdraw 5"]
    assert texts("-", game) == ["end"]
    assert texts("t", game) == ["timeup speech"]  # the time runs out: «Спасибо»
    assert not parse_operator_line("5", game).done  # a speech is not an operator's step
    with pytest.raises(OperatorLineError, match="type a number first"):
        parse_operator_line("w", game)
    with pytest.raises(OperatorLineError, match="speech: a seat to nominate"):
        parse_operator_line("five", game)


def test_in_a_vote_a_number_is_a_count_and_seats_are_hands() -> None:
    game = at("vote")
    assert isinstance(game.expect, w.Vote) and game.expect.candidate == 2
    entry = parse_operator_line("6", game)
    assert [str(a) for a in entry.actions] == ["count 6"] and entry.done
    assert texts("1 2 4", game) == texts("1,2,4", game) == ["hands 1 2 4"]
    assert texts("4,", game) == ["hands 4"]
    for none in ("-", "0"):  # no hands: the step is answered, nothing is applied
        entry = parse_operator_line(none, game)
        assert entry.actions == () and entry.done


def test_in_the_car_crash_numbers_are_the_seats_for() -> None:
    game = at("crash")
    assert isinstance(game.expect, w.Crash)
    assert texts("1 2 4", game) == ["hands 1 2 4"]
    assert texts("6", game) == ["hands 6"]


def test_in_the_hunt_a_target_is_every_mafiosos_shot_and_pairs_are_single_shots() -> None:
    game = at("hunt")
    assert isinstance(game.expect, w.Hunt)
    assert texts("7", game) == texts("k 7", game) == ["shot 3 7", "shot 5 7", "shot 9 7"]
    assert texts("3:7 9:2", game) == texts("k 3-7, 9-2", game) == ["shot 3 7", "shot 9 2"]
    assert parse_operator_line("-", game).done and not parse_operator_line("-", game).actions
    with pytest.raises(OperatorLineError, match="hunt: type the target"):
        parse_operator_line("seven", game)


def test_a_check_is_a_seat_and_a_verb_outside_its_step_is_refused() -> None:
    game = at("check")
    assert isinstance(game.expect, w.NightAct) and game.expect.checks and game.expect.role == "don"
    assert texts("4", game) == texts("c 4", game) == ["check don 4"]
    with pytest.raises(OperatorLineError, match=re.escape(
            "kill 4: the don does not kill (waiting for the don's check)")):
        parse_operator_line("k 4", game)
    speech = at("speech")
    with pytest.raises(OperatorLineError, match="nobody is checking"):
        parse_operator_line("c 4", speech)


def test_fouls_removals_and_stop_at_any_moment_and_nothing_else_at_a_timer() -> None:
    game = Game(roles=ROLES)
    game.start()
    assert texts("f 6", game) == ["foul 6"] and texts("R6", game) == ["remove 6"]
    assert texts("t", game) == ["timeup dealing"]
    assert parse_operator_line("q", game).quit and parse_operator_line("quit", game).quit
    for line in ("7", "", "-"):
        with pytest.raises(OperatorLineError, match="nothing to enter now"):
            parse_operator_line(line, game)


# -- the steps of vrn and amateur ----------------------------------------------------------------

VRN = {1: Role.SHERIFF, 3: Role.DON, 5: Role.MAFIA, 9: Role.MAFIA, 6: Role.DOCTOR, 8: Role.MANIAC}
AMATEUR = {4: Role.MAFIA, 8: Role.MAFIA, 9: Role.MAFIA, 2: Role.COMMISSAR, 6: Role.NURSE}


def run_to(game: Game, wait: type[w.Wait], role: str | None = None) -> Game:
    """Bring ``game`` to its first step of the class ``wait`` (a night act: ``role``'s, not a
    check): speeches end at once, everything else runs its time out."""
    game.start()
    for _ in range(500):
        exp = game.expect
        if isinstance(exp, wait) and (not isinstance(exp, w.NightAct) or (
                not exp.checks and (role is None or exp.role == role))):
            return game
        if isinstance(exp, w.Speech):
            game.apply(EndSpeech())
        else:
            assert exp.timer is not None
            game.apply(TimeUp(exp.timer.name))
    raise AssertionError(f"no {wait.tag} step")


def test_a_night_act_is_the_roles_usual_act_or_the_one_named() -> None:
    game = run_to(Game("vrn", roles=VRN, dealt={"maniac_side": "city"}), w.NightAct, "mafia")
    assert parse_operator_line("7", game) == OperatorInput((Kill("mafia", 7),), True, text="7")
    assert parse_operator_line("-", game).done and not parse_operator_line("-", game).actions
    with pytest.raises(OperatorLineError, match="the mafia does not save"):
        parse_operator_line("s 7", game)
    game = run_to(Game("vrn", roles=VRN, dealt={"maniac_side": "city"}), w.NightAct, "sheriff")
    assert parse_operator_line("4", game).actions == (Check("sheriff", 4),)
    assert parse_operator_line("c 4", game).actions == (Check("sheriff", 4),)
    assert parse_operator_line("k 4", game).actions == (Kill("sheriff", 4),)
    game = run_to(Game("vrn", roles=VRN, dealt={"maniac_side": "city"}), w.NightAct, "doctor")
    assert parse_operator_line("7", game).actions == (Save("doctor", 7),)
    with pytest.raises(OperatorLineError, match="type a seat number"):
        parse_operator_line("²", game)


def test_the_hands_held_up_the_next_speaker_and_the_thumbs() -> None:
    game = run_to(Game("vrn", roles=VRN, dealt={"maniac_side": "city"}), w.Extra)
    assert parse_operator_line("3 7", game).actions == (HandsUp((3, 7)),)
    assert parse_operator_line("3,", game).actions == (HandsUp((3,)),)
    game = run_to(Game("amateur", roles=AMATEUR), w.Floor)
    assert parse_operator_line("7", game).actions == (TakeFloor(7),)
    game.apply(TakeFloor(7))
    game.apply(EndSpeech())
    assert isinstance(game.expect, w.PutUp)
    assert parse_operator_line("7: 1 2 3", game).actions == (Thumbs(7, (1, 2, 3)),)
    assert parse_operator_line("5:", game).actions == (Thumbs(5, ()),)
    with pytest.raises(OperatorLineError, match="thumbs"):
        parse_operator_line("5 1 2", game)


def test_after_the_game_m_gives_the_hosts_marks_and_m_seat_takes_them_away() -> None:
    game = finished()
    (mark,) = parse_operator_line("m 4 +0.3 bp wm -- нашла шерифа", game).actions
    assert mark == Mark(4, 0.3, ("best_player", "worst_move"), "нашла шерифа")
    assert texts("M4 -0,2 best_move -- ушёл не туда", game) == [
        "mark 4 -0.2 best_move -- ушёл не туда"]
    assert parse_operator_line("m 4", game).actions == (Mark(4),)
    game.apply(mark)
    game.apply(parse_operator_line("m 4", game).actions[0])
    assert not game.marks


@pytest.mark.parametrize("line", ["m", "m x", "m 4 lots", "m 4 +0.3.1 -- why"])
def test_a_mark_that_means_nothing_is_one_line(line: str) -> None:
    with pytest.raises(OperatorLineError) as e:
        parse_operator_line(line, finished())
    assert "\n" not in str(e.value)


def test_before_the_end_the_engine_refuses_a_mark() -> None:
    game = at("speech")
    (mark,) = parse_operator_line("m 4 +0.3 -- рано", game).actions
    assert game.refusal(mark) == Reason.NOT_OVER
