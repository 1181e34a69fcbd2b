"""``Game.step``: the serial number of the step the game waits at, and where it began in the
history — the same for a game played, undone or rebuilt from its actions."""

from __future__ import annotations

import random

from narrator.engine import EndSpeech, Game, Nominate
from narrator.testing import play_random_game
from tests.helpers import day_one


def test_a_step_keeps_its_serial_through_its_inputs_and_a_new_one_starts_with_a_new_timer() -> None:
    game = day_one()
    step, start = game.step, game.step_start
    assert start == len(game.history) and step > 0
    game.apply(Nominate(5))  # the same speech: the same step
    assert (game.step, game.step_start) == (step, start)
    game.apply(EndSpeech())  # the next speaker's speech: a new step
    assert game.step == step + 1 and game.step_start == len(game.history)
    game.pop()
    assert (game.step, game.step_start) == (step, start)


def test_a_game_rebuilt_from_its_actions_stands_at_the_same_step() -> None:
    for seed in range(5):
        for rules in ("crime-time", "vrn", "amateur"):
            played = play_random_game(random.Random(seed), rules=rules, max_actions=120)
            again = Game(played.rules, seats=played.seats, roles=played.roles,
                         dealt=played.dealt)
            again.start()
            for action in played.history:
                again.apply(action)
            assert (again.step, again.step_start) == (played.step, played.step_start)
            assert again.step_start <= len(again.history)
