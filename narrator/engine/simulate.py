"""Random complete games: for property tests and the engine benchmark."""

from __future__ import annotations

import random

from narrator.engine.actions import (
    Action,
    Check,
    EndSpeech,
    Foul,
    Hands,
    Nominate,
    Remove,
    Shot,
    TimeUp,
    Withdraw,
)
from narrator.engine.game import Game
from narrator.engine.types import Role


def random_action(game: Game, rng: random.Random) -> Action:
    """A random action the game accepts now (the game must not be over)."""
    exp = game.expect
    assert exp.timer is not None
    living = game.living
    roll = rng.random()
    if roll < 0.002:
        return Foul(rng.choice(living))
    if roll < 0.0035 and len(living) > 4:
        return Remove(rng.choice(living))
    if exp.kind == "speech":
        # like a real table: about one nomination in three speeches, few withdrawals
        r = (roll - 0.0035) / 0.9965
        if r < 0.25:
            return Nominate(1 + int(r * 4 * game.seats))
        if r < 0.28:
            return Withdraw(1 + int((r - 0.25) / 0.03 * game.seats))
        if r < 0.7:
            return EndSpeech()
        return TimeUp(exp.timer.name)
    if exp.kind == "hands" and rng.random() < 0.7:
        return Hands(tuple(rng.sample(living, rng.randint(0, len(living)))))
    if exp.kind == "hunt":
        # mostly the agreed shot of every living mafioso (2.1.2), sometimes a stray one
        black = [s for s in living if s in game.black]
        shot_already = {a.shooter for a in game.history[-len(black) - 4:] if isinstance(a, Shot)}
        waiting = [s for s in black if s not in shot_already]
        if waiting and rng.random() < 0.9:
            target = living[(len(game.nights) * 7) % len(living)]
            if rng.random() < 0.1:
                target = rng.randint(1, game.seats)
            return Shot(waiting[0], target)
    if exp.kind == "check" and rng.random() < 0.6:
        checker = game.seat_of(Role.DON if exp.role == "don" else Role.SHERIFF)
        if checker is not None and checker in living:
            return Check(exp.role or "", rng.randint(1, game.seats))
    return TimeUp(exp.timer.name)


def play_random_game(rng: random.Random, *, max_actions: int = 20_000) -> Game:
    """Deal and play a whole game with random legal actions."""
    game = Game(rng=rng)
    game.start()
    for _ in range(max_actions):
        if game.is_over:
            break
        game.apply(random_action(game, rng))
    return game
