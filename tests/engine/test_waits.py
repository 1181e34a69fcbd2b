"""The typed waits (``narrator.engine.waits``): what each step waits for, whose answer it takes
(``seats``), whether the table waits for a human (``waits_for_human``), its ``serial`` and its
words (``label``).

Crime-time (the default ruleset, rules of 2013) unless named; default roles: sheriff 1, don 3,
mafia 5 and 9. The amateur rules give the floor round.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import get_args

import pytest

from narrator.engine import (
    RULESETS,
    EndSpeech,
    Foul,
    Game,
    Hands,
    Nominate,
    Remove,
    Role,
    Shot,
    TakeFloor,
    TimeUp,
)
from narrator.engine import events as ev
from narrator.engine import waits as w
from narrator.engine.types import SpeechKind, Timer
from narrator.testing import play_random_game, random_action
from tests.helpers import ROLES, day_one

ALL = tuple(range(1, 11))
AMATEUR = {4: Role.MAFIA, 8: Role.MAFIA, 9: Role.MAFIA, 2: Role.COMMISSAR, 6: Role.NURSE}


def run_until(game: Game, done: Callable[[w.Expect], bool]) -> w.Expect:
    """End every speech at once and let every other step's time run out until ``done``."""
    for _ in range(500):
        exp = game.expect
        if done(exp):
            return exp
        assert not isinstance(exp, w.Over), "the game ended first"
        assert exp.timer is not None
        game.apply(EndSpeech() if isinstance(exp, w.Speech) else TimeUp(exp.timer.name))
    raise AssertionError(f"still at {game.expect}")


def to_hunt(game: Game) -> w.Hunt:
    exp = run_until(game, lambda e: isinstance(e, w.Hunt))
    assert isinstance(exp, w.Hunt)
    return exp


def to_check(game: Game, role: str) -> w.NightAct:
    exp = run_until(game, lambda e: isinstance(e, w.NightAct) and e.checks and e.role == role)
    assert isinstance(exp, w.NightAct)
    return exp


def to_vote_on_5_and_7() -> Game:
    """Day 1: seat 1 puts up 5 and seat 2 puts up 7 (2.3.1); the vote on 5 is open (2.4)."""
    game = day_one()
    game.apply(Nominate(5))
    game.apply(EndSpeech())
    game.apply(Nominate(7))
    run_until(game, lambda e: isinstance(e, w.Vote))
    return game


def to_floor() -> Game:
    game = Game("amateur", roles=AMATEUR)
    game.start()
    run_until(game, lambda e: isinstance(e, w.Floor))
    return game


# -- the seats whose answer each wait takes, as the engine computes them ---------------------------

def test_2_1_1_the_deal_is_every_seat_and_a_pause_nobody() -> None:
    game = Game(roles=ROLES)
    game.start()
    assert isinstance(game.expect, w.Deal)  # 2.1.1: every seat opens its eyes for its card
    assert game.expect.seats == ALL and not game.expect.waits_for_human
    game.apply(TimeUp("dealing"))
    assert isinstance(game.expect, w.Pause)  # 2.1.1: the don wakes to be noted: only a timer
    assert game.expect.timer is not None and game.expect.timer.name == "don_noted"
    assert game.expect.seats == () and not game.expect.waits_for_human


def test_2_3_a_speech_is_the_speakers_alone() -> None:
    game = day_one()
    assert game.expect == w.Speech(game.expect.timer, (1,), seat=1, speech="day",
                                   serial=game.step, nominates=True)  # 2.3.1: his to make
    assert not game.expect.waits_for_human  # a speech ends with its minute (2.3)
    game.apply(EndSpeech())
    assert isinstance(game.expect, w.Speech) and game.expect.seats == (2,)


def test_2_4_a_vote_is_every_living_seat_and_waits_for_the_count() -> None:
    game = to_vote_on_5_and_7()
    # 2.4: «Каждый живой игрок может проголосовать» — every living seat, the candidate too
    assert isinstance(game.expect, w.Vote) and game.expect.candidate == 5
    assert game.expect.seats == ALL and game.expect.waits_for_human
    game.apply(Hands((1, 2, 3)))
    game.apply(TimeUp("vote"))
    assert isinstance(game.expect, w.Vote) and game.expect.candidate == 7
    assert game.expect.seats == ALL  # the hands already given do not leave the table
    # day 2: the seat shot at night (2.2) is not among the voters
    game = day_one()
    to_hunt(game)
    for shooter in (3, 5, 9):
        game.apply(Shot(shooter, 8))
    game.apply(TimeUp("hunt"))
    run_until(game, lambda e: isinstance(e, w.Speech) and e.speech == "day")
    game.apply(Nominate(4))  # a single candidate is voted on after day 1
    exp = run_until(game, lambda e: isinstance(e, w.Vote))
    assert game.out[8].how == "shot" and exp.seats == (1, 2, 3, 4, 5, 6, 7, 9, 10)


def test_2_4_2_the_car_crash_is_every_living_seat() -> None:
    game = to_vote_on_5_and_7()
    for _ in range(2):  # 5 : 5 twice (the abstainers count for 7, 2.4), the tie speeches between
        game.apply(Hands((1, 2, 3, 4, 6)))
        game.apply(TimeUp("vote"))
        game.apply(TimeUp("vote"))
        if isinstance(game.expect, w.Speech):
            assert game.expect.speech == "tie"  # 2.4.1
            run_until(game, lambda e: isinstance(e, w.Vote))
    # 2.4.2: «Кто за то, чтобы все эти игроки покинули стол?» — every seat at the table answers
    assert isinstance(game.expect, w.Crash)
    assert game.expect.seats == ALL and game.expect.waits_for_human


def test_2_1_2_the_hunt_is_the_living_mafia() -> None:
    hunt = to_hunt(day_one())
    # 2.1.2: the result needs every living mafioso's shot: the don and both mafiosi
    assert hunt.seats == (3, 5, 9) and hunt.waits_for_human
    game = day_one()
    game.apply(Remove(9))  # 2.4.3: out for a violation before the night
    assert to_hunt(game).seats == (3, 5)


def test_2_1_3_a_check_is_the_checkers_seat() -> None:
    game = day_one()
    to_hunt(game)
    game.apply(TimeUp("hunt"))
    don = to_check(game, "don")
    assert don.seats == (3,) and don.waits_for_human and don.acts == ("check",)
    game.apply(TimeUp("don_check"))
    sheriff = to_check(game, "sheriff")
    assert sheriff.seats == (1,) and sheriff.waits_for_human


def test_2_1_2_2_1_3_a_checker_shot_in_the_hunt_still_checks_that_night() -> None:
    # 2.1.2: «Ведущий не оглашает результат охоты до наступления дня»: the sheriff shot in the
    # hunt is at the table for his check
    game = day_one()
    to_hunt(game)
    for shooter in (3, 5, 9):
        game.apply(Shot(shooter, 1))
    game.apply(TimeUp("hunt"))
    assert game.out[1].how == "shot"
    sheriff = to_check(game, "sheriff")
    assert sheriff.seats == (1,) and sheriff.waits_for_human


def test_2_1_3_a_check_of_a_checker_out_of_the_game_waits_for_nobody() -> None:
    # 2.1.3: the 15 s run «даже если Дона уже нет за игровым столом»; the same for the sheriff
    game = day_one()
    game.apply(Remove(1))
    game.apply(Remove(3))
    to_hunt(game)
    game.apply(TimeUp("hunt"))
    for role in ("don", "sheriff"):
        check = to_check(game, role)
        assert check.seats == () and not check.waits_for_human
        assert check.timer is not None and check.timer.seconds == 15.0  # its time runs in full
        game.apply(TimeUp(check.timer.name))


def test_a_night_act_of_the_mafia_is_every_mafioso_at_the_table() -> None:
    # amateur: «Мафія ... домовляється поміж себе про жертву і вказує на неї ведучому»
    game = to_floor()
    game.apply(Remove(8))
    exp = run_until(game, lambda e: isinstance(e, w.NightAct))
    assert isinstance(exp, w.NightAct) and exp.role == "mafia" and not exp.checks
    assert exp.seats == (4, 9) and exp.waits_for_human
    assert exp.timer is not None
    game.apply(TimeUp(exp.timer.name))
    commissar = to_check(game, "commissar")  # «перевірити когось із містян»: a check
    assert commissar.seats == (2,) and commissar.waits_for_human


def test_the_floor_is_the_seats_yet_to_speak() -> None:
    # amateur: «Черговість обговорень визначається правилом піднятої руки»
    game = to_floor()
    assert isinstance(game.expect, w.Floor)
    assert game.expect.seats == ALL and game.expect.waits_for_human
    game.apply(TakeFloor(7))
    assert isinstance(game.expect, w.Speech) and game.expect.seats == (7,)
    game.apply(EndSpeech())
    assert isinstance(game.expect, w.PutUp) and game.expect.seat == 7
    assert game.expect.seats == ALL  # the thumbs: any seat at the table, the speaker too
    game.apply(TimeUp("put_up"))
    assert isinstance(game.expect, w.Floor)
    assert game.expect.seats == (1, 2, 3, 4, 5, 6, 8, 9, 10)
    game.apply(TimeUp("floor"))  # nobody named in time: the first seat yet to speak
    assert isinstance(game.expect, w.Speech) and game.expect.seat == 1
    game.apply(EndSpeech())
    game.apply(TimeUp("put_up"))
    assert isinstance(game.expect, w.Floor) and game.expect.seats == (2, 3, 4, 5, 6, 8, 9, 10)


# -- a removal during a step updates that step's seats; the serial stays ---------------------------

def test_2_4_3_a_removal_after_the_result_is_fixed_leaves_the_voter_out_of_the_window() -> None:
    game = to_vote_on_5_and_7()
    game.apply(Hands((1, 2, 3, 4, 6, 7, 8)))  # 7 of 10 for seat 5: the result is fixed (2.4.3)
    before, step = game.expect, game.step
    game.apply(Remove(10))
    exp = game.expect
    assert isinstance(exp, w.Vote) and exp.candidate == 5  # the vote goes on
    assert exp.seats == ALL[:9] and exp.waits_for_human
    assert exp.serial == before.serial == game.step == step  # the same step
    assert exp.timer is before.timer
    assert before.seats == ALL  # the wait handed out before is not changed under its holder
    game.apply(TimeUp("vote"))
    assert isinstance(game.expect, w.Vote) and game.expect.seats == ALL[:9]
    assert game.expect.serial == step + 1


def test_2_4_3_a_removal_before_the_result_is_fixed_ends_the_vote_with_a_new_step() -> None:
    game = to_vote_on_5_and_7()
    game.apply(Hands((1, 2)))
    step = game.step
    events = game.apply(Remove(10))
    assert ev.VotingCancelled("monster") in events and isinstance(game.expect, w.Hunt)
    assert game.expect.serial == game.step == step + 1
    assert game.expect.seats == (3, 5, 9)


def test_2_1_2_a_mafioso_removed_during_the_hunt_leaves_its_seats() -> None:
    game = day_one()
    hunt = to_hunt(game)
    game.apply(Shot(5, 7))
    game.apply(Foul(9))  # a foul changes nothing
    assert game.expect == hunt
    game.apply(Remove(9))
    assert isinstance(game.expect, w.Hunt)
    assert game.expect.seats == (3, 5) and game.expect.waits_for_human
    assert game.expect.serial == hunt.serial == game.step
    for shooter in (3, 5):  # 2.1.2: every *living* mafioso shot the same seat: a hit
        game.apply(Shot(shooter, 7))
    game.apply(TimeUp("hunt"))
    assert game.nights[0].hit == 7


def test_2_1_3_a_checker_removed_during_the_check_is_no_longer_waited_for() -> None:
    game = day_one()
    to_hunt(game)
    game.apply(TimeUp("hunt"))
    game.apply(TimeUp("don_check"))
    check = to_check(game, "sheriff")
    game.apply(Remove(1))
    exp = game.expect
    assert isinstance(exp, w.NightAct) and exp.checks and exp.role == "sheriff"
    assert exp.seats == () and not exp.waits_for_human
    assert exp.serial == check.serial == game.step and exp.timer is check.timer


def test_a_seat_removed_during_the_floor_is_no_longer_one_to_speak() -> None:
    game = to_floor()
    floor = game.expect
    game.apply(Remove(3))
    assert isinstance(game.expect, w.Floor)
    assert game.expect.seats == (1, 2, 4, 5, 6, 7, 8, 9, 10)
    assert game.expect.serial == floor.serial == game.step


def test_2_4_3_a_removal_of_another_seat_leaves_the_speech_the_speakers() -> None:
    game = day_one()
    speech = game.expect
    game.apply(Remove(6))
    assert game.expect == speech  # the speech goes on: nobody else's is ended (2.4.3)
    game.apply(Remove(1))  # the speaker's own is ended: the next speaker's is a new step
    assert isinstance(game.expect, w.Speech) and game.expect.seats == (2,)
    assert game.expect.serial == speech.serial + 1


# -- the serial: Game.step, one more with each new wait, the same after an undo --------------------

@pytest.mark.parametrize("rules", sorted(RULESETS))
@pytest.mark.parametrize("seed", range(3))
def test_the_serial_is_the_step_and_grows_by_one_with_each_new_wait(rules: str, seed: int) -> None:
    rng = random.Random(seed)
    game = Game(rules, rng=rng)
    game.start()
    assert game.expect.serial == game.step == 0
    trail = [(game.expect, game.step, game.step_start)]
    while not game.is_over:
        before = game.expect
        events = game.apply(random_action(game, rng))
        exp = game.expect
        # a new wait: a new timer (every step runs its own), or the end of the game
        new = exp.timer is not before.timer
        assert exp.serial == before.serial + new, (before, exp)
        assert game.step == exp.serial
        started = sum(isinstance(e, ev.TimerStarted) for e in events)
        assert started == (new and not isinstance(exp, w.Over)), events
        if not new:
            assert type(exp) is type(before)  # the same step, its seats maybe updated
        trail.append((exp, game.step, game.step_start))
    assert isinstance(game.expect, w.Over) and game.expect.seats == ()
    assert not game.expect.waits_for_human
    # undone action by action, the game stands at the same wait, equal in every field
    while game.history:
        trail.pop()
        game.pop()
        assert (game.expect, game.step, game.step_start) == trail[-1]


def test_a_random_game_and_its_replay_give_equal_waits() -> None:
    played = play_random_game(random.Random(11))
    again = played.table_copy()
    again.start()
    for action in played.history:
        again.apply(action)
    assert again.expect == played.expect and again.step == played.step


# -- the words of each wait ------------------------------------------------------------------------

#: one wait of each class, with its English (the old ``Expect.__str__``'s, but the first
#: night's steps, which the host-assist screen shows: nouns a host reads)
SAMPLES: list[tuple[w.Expect, str]] = [
    (w.Pause(Timer("agreement", 60.0)), "the mafia's agreement"),
    (w.Pause(Timer("sheriff_sleeps", 2.0)), "the end of the sheriff sleeps timer"),
    (w.Deal(Timer("dealing", 30.0), ALL), "the deal"),
    (w.Vote(candidate=6, round=2), "vote: hands for candidate 6 (round 2)"),
    (w.Speech(seat=3, speech="day"), "the day speech of seat 3"),
    (w.Vote(candidate=5), "vote: hands for candidate 5"),
    (w.Crash(), "hands for the car crash"),
    (w.Hunt(), "shots during the hunt"),
    (w.NightAct(role="sheriff", acts=("check",)), "the sheriff's check"),
    (w.Floor(), "the next speaker (a raised hand)"),
    (w.PutUp(seat=4), "thumbs to put up the one seat 4 accused"),
    (w.Extra(), "the hands held up for 30 s more"),
    (w.Over(), "nothing: the game is over"),
]
LANGS: tuple[w.Lang, ...] = ("en", "ru", "uk")


def test_every_class_of_wait_has_a_sample() -> None:
    assert {type(exp) for exp, _ in SAMPLES} == set(get_args(w.Expect))


@pytest.mark.parametrize(("exp", "english"), SAMPLES, ids=[type(e).__name__ for e, _ in SAMPLES])
def test_a_wait_is_put_into_words_in_each_language(exp: w.Expect, english: str) -> None:
    assert str(exp) == exp.label("en") == exp.label() == english
    for lang in ("ru", "uk"):
        assert exp.label(lang) and exp.label(lang) != english, lang


@pytest.mark.parametrize("lang", LANGS)
def test_no_two_kinds_of_wait_read_the_same(lang: w.Lang) -> None:
    labels = [exp.label(lang) for exp, _ in SAMPLES]
    labels += [w.NightAct(role="sheriff", acts=("check", "kill")).label(lang)]
    assert all(labels) and len(set(labels)) == len(labels), labels


@pytest.mark.parametrize("lang", LANGS)
def test_each_kind_of_speech_and_night_act_has_its_own_words(lang: w.Lang) -> None:
    kinds: tuple[SpeechKind, ...] = get_args(SpeechKind)
    speeches = {w.Speech(seat=2, speech=k).label(lang) for k in kinds}
    assert len(speeches) == len(kinds)
    acts = {w.NightAct(role="doctor", acts=(a,)).label(lang) for a in ("check", "kill", "save")}
    assert len(acts) == 3


@pytest.mark.parametrize("rules", sorted(RULESETS))
def test_every_wait_of_a_game_has_words_in_each_language(rules: str) -> None:
    rng = random.Random(5)
    game = Game(rules, rng=rng)
    game.start()
    seen: list[w.Expect] = [game.expect]
    while not game.is_over:
        game.apply(random_action(game, rng))
        seen.append(game.expect)
    for exp in seen:
        assert str(exp) == exp.label("en")
        for lang in LANGS:
            assert exp.label(lang).strip()
        if isinstance(exp, w.NightAct):
            # a role is named in the language, not in the protocol's English
            assert exp.role not in exp.label("ru") and exp.role not in exp.label("uk")
