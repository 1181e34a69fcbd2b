"""``narrator.testing.advance``: the one walk of a game to a wait that the tests share."""

from __future__ import annotations

import random

import pytest

from narrator.engine import EndSpeech, Game, Phase, TimeUp
from narrator.engine import events as ev
from narrator.engine import waits as w
from narrator.testing import (
    AdvanceError,
    advance,
    end_speeches,
    past_the_pauses,
    random_action,
    time_up,
)
from tests.helpers import ROLES


def new_game(rules: str = "crime-time") -> Game:
    game = Game(rules, roles=ROLES if rules == "crime-time" else None, rng=random.Random(1))
    game.start()
    return game


def test_it_stops_at_the_first_wait_of_the_kind_and_returns_the_events_on_the_way() -> None:
    game = new_game()
    events = advance(game, w.Speech)
    assert isinstance(game.expect, w.Speech) and game.expect.seat == 1
    assert all(isinstance(a, TimeUp) for a in game.history)  # the first night's time ran out
    phases = [e.name for e in events if isinstance(e, ev.PhaseStarted)]
    assert phases[-1] == "day" and "hunt" not in phases


def test_a_game_already_there_takes_no_step() -> None:
    game = new_game()
    advance(game, w.Speech)
    taken = list(game.history)
    assert advance(game, w.Speech) == [] and game.history == taken
    assert advance(game, "d1") == [] and advance(game, past_the_pauses) == []


def test_a_union_a_condition_attributes_and_a_phase() -> None:
    game = new_game()
    advance(game, w.Vote | w.Hunt, answer=end_speeches)  # no nomination: no vote, the night
    assert isinstance(game.expect, w.Hunt)
    assert game.history.count(EndSpeech()) == 10  # each of the ten day speeches, ended
    advance(game, w.NightAct, role="sheriff", checks=True)
    assert isinstance(game.expect, w.NightAct) and game.expect.role == "sheriff"
    advance(game, lambda exp: isinstance(exp, w.Speech) and exp.seat == 3)
    assert game.phase == Phase.day(2) and game.expect.seat == 3  # type: ignore[union-attr]
    advance(game, "n3")
    assert game.phase == Phase.night(3) and isinstance(game.expect, w.Hunt)
    advance(game, Phase.day(3))
    assert game.phase == Phase.day(3)


def test_through_names_the_only_waits_it_may_pass() -> None:
    game = new_game()
    advance(game, w.Speech, through=w.Pause | w.Deal)  # the first night only waits
    with pytest.raises(AdvanceError, match=r"d1: the game waits for the day speech of seat 1 on "
                                           r"the way to Hunt, which passes only Pause \| Deal"):
        advance(game, w.Hunt, through=w.Pause | w.Deal)
    assert isinstance(game.expect, w.Speech) and game.expect.seat == 1  # no step was taken


def test_it_raises_when_the_game_ends_on_the_way() -> None:
    game = new_game()
    rng = random.Random(3)
    with pytest.raises(AdvanceError, match=r"the game ended \((civilians|mafia) won\) at [nd]\d+ "
                                           r"after \d+ steps, on the way to a wait meeting"):
        advance(game, lambda exp: False, answer=lambda g: random_action(g, rng), limit=50_000)
    assert game.is_over
    advance(game, w.Over)  # the end itself is a wait one can go to


def test_a_walk_that_would_never_end_stops_at_its_bound() -> None:
    game = new_game()  # the time running out at every step: nobody ever leaves the table
    with pytest.raises(AdvanceError, match=r"not there after 300 steps, at .*, on the way to "
                                           r"phase d99"):
        advance(game, "d99", limit=300)
    assert len(game.history) == 300


def test_a_driven_game_steps_by_its_driver_and_a_step_that_runs_nothing_raises() -> None:
    game = new_game()
    ticks: list[int] = []

    def tick() -> bool:
        ticks.append(1)
        game.apply(time_up(game))
        return True

    assert advance(game, w.Speech, step=tick) == []  # the driver's events are its own
    assert isinstance(game.expect, w.Speech) and len(ticks) == len(game.history)
    with pytest.raises(AdvanceError, match=r"d1: the step ran nothing \(False\) at the day speech "
                                           r"of seat 1, on the way to Vote"):
        advance(game, w.Vote, step=lambda: False)
    with pytest.raises(ValueError, match="not a phase"):
        advance(game, "day two")
