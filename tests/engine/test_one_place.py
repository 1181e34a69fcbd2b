"""What every front end asks the engine instead of working out itself: a night act's action
from its name, and the seats a count of hands stands for (2.4.2)."""

from __future__ import annotations

import random

import pytest

from narrator.engine import (
    Check,
    IllegalActionError,
    InvalidActionError,
    Kill,
    Refusal,
    Remove,
    Save,
    night_act,
    parse_action,
)
from narrator.engine import waits as w
from narrator.testing import advance, end_speeches
from tests.helpers import day_one


def test_a_night_act_is_built_from_its_name_and_reads_back_from_its_text() -> None:
    assert night_act("check", "sheriff", 4) == Check("sheriff", 4)
    assert night_act("kill", "maniac", 7) == Kill("maniac", 7)
    assert night_act("save", "doctor", 2) == Save("doctor", 2)
    for act in ("check", "kill", "save"):
        assert parse_action(str(night_act(act, "don", 3))) == night_act(act, "don", 3)
    with pytest.raises(InvalidActionError, match="'shoot'"):
        night_act("shoot", "don", 3)


def test_a_count_of_hands_stands_for_the_first_seats_in_the_game() -> None:
    game = day_one()
    game.apply(Remove(2))
    assert game.counted_seats(3) == (1, 3, 4)
    assert game.counted_seats(0) == ()
    with pytest.raises(IllegalActionError, match="only 9 players"):
        game.counted_seats(10)


def test_2_4_a_second_hand_in_a_round_is_refused_before_and_when_it_is_given() -> None:
    from narrator.engine import EndSpeech, Hands, Nominate, TimeUp

    game = day_one()
    game.apply(Nominate(5))
    game.apply(EndSpeech())
    game.apply(Nominate(7))
    advance(game, w.Vote | w.Crash, answer=end_speeches)
    assert game.refusal(Hands((2,))) is None
    game.apply(Hands((2,)))
    assert game.refusal(Hands((2,))) == "already_voted"
    game.apply(TimeUp("vote"))  # the next candidate's window, the same round
    assert isinstance(game.expect, w.Vote | w.Crash)
    assert game.refusal(Hands((2,))) == "already_voted"
    assert game.refusal(Hands((3,))) is None
    refused_before = len(game.refused)
    game.apply(Hands((2,)))  # given anyway: the same reason, in the protocol
    assert game.refused[refused_before:] == [
        Refusal(game.phase, 2, "vote", 7, "already_voted")]


def test_2_1_3_one_check_a_night() -> None:
    from narrator.engine import Check

    game = day_one()
    advance(game, w.NightAct, role="don", checks=True, answer=end_speeches)
    assert game.refusal(Check("don", 4)) is None and game.acted("don") is None
    game.apply(Check("don", 4))
    assert game.refusal(Check("don", 6)) == "already_checked"
    # the night's acts are typed: no front end reads them back from the protocol's keys
    done = game.acted("don")
    assert done is not None and (done.role, done.act, done.target, done.step) == (
        "don", "check", 4, game.step)
    assert done.to_json() == {"night": 2, "role": "don", "act": "check", "target": 4,
                              "result": game.nights[-1].checks["don"].result}
    assert game.night_acts[-1] is done and game.acted("sheriff") is None


def test_the_hosts_secret_lines_come_from_the_typed_night_record() -> None:
    from narrator.assist.control import night_secrets
    from narrator.engine import Game, RoleAct
    from narrator.replay.script import parse_table_script
    from narrator.replay.table import replay_script
    from tests.helpers import EXAMPLES

    # vrn: the don's decision, the checks, the sheriff's shot or check, the maniac, the doctor
    path = EXAMPLES / "vrn-maniac-for-mafia.table.jsonl"
    game: Game = replay_script(parse_table_script(path.read_text(encoding="utf-8"),
                                                  str(path))).game
    lines = night_secrets(game)
    assert len(lines) >= len(game.nights)
    assert lines[0].startswith(f"night {game.nights[0].number}: ")  # (the first hunt's)
    for act in game.night_acts:
        assert isinstance(act, RoleAct)
        line = next(x for x in lines if x.startswith(f"night {act.night}: "))
        if act.act == "check":
            assert f"{act.role} checked {act.target}: {'yes' if act.result else 'no'}" in line
        elif act.act == "save":
            assert f"{act.role} picked {act.target}, saved {act.saved}" in line
        elif act.role != "mafia":
            assert f"{game.rules.kill_how[act.role].replace('_', ' ')} {act.target}" in line
    assert {a.act for a in game.night_acts} >= {"check", "kill", "save"}


def test_a_refusal_is_asked_only_of_the_steps_own_act_and_never_raises() -> None:
    # another role's act, or an act the step has not, is not the step's input: check() says
    # why; refusal() answers None (it raised ValueError for a role that does not exist, and
    # answered a kill at a check step with the last night act's "already_acted")
    from narrator.engine import Game

    game = Game("vrn", rng=random.Random(4))
    game.start()
    def no_check(exp: w.Expect) -> bool:
        return not (isinstance(exp, w.NightAct) and exp.checks)

    advance(game, w.NightAct, role="mafia", answer=end_speeches, through=no_check)
    game.apply(Kill("mafia", next(s for s in game.living if s not in game.black)))
    advance(game, w.NightAct, checks=True, answer=end_speeches)
    assert game.expect.role == "don"
    target = next(s for s in game.living if s not in game.black)
    # refusal() answers every action with the reason check() raises with (not the step's
    # input: "not_now"), and None for the step's own act
    for action in (Check("nobody", target), Check("sheriff", target), Kill("don", target)):
        assert game.refusal(action) == "not_now"
        with pytest.raises(IllegalActionError) as raised:
            game.check(action)
        assert raised.value.reason == game.refusal(action)
    assert game.refusal(Check("don", target)) is None
