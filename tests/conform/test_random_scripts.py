"""Random complete games, written as table scripts and replayed, give the same protocol."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from narrator.replay.script import parse_table_script
from narrator.replay.table import replay_script
from tests.conform.random_scripts import _random_game, script_of

RULESETS = ("crime-time", "professional", "vrn-closed", "vrn", "amateur")
SEEDS = range(10)


@cache
def _script(rules: str, seed: int) -> str | None:
    return script_of(rules, seed)


def _expected(rules: str, seed: int) -> dict[str, Any]:
    """The protocol of the random game the script was written from (the same seed plays the
    same game)."""
    return _random_game(rules, seed).protocol()


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("rules", RULESETS)
def test_replayed_script_gives_the_random_games_protocol(rules: str, seed: int) -> None:
    text = _script(rules, seed)
    if text is None:
        return  # a game no script can say: counted below
    expected = _expected(rules, seed)
    assert expected["winner"] is not None  # a complete game
    result = replay_script(parse_table_script(text, "random.table.jsonl"))
    assert result.game.protocol() == expected
    assert result.game.is_over


@pytest.mark.parametrize("rules", RULESETS)
def test_at_most_one_seed_cannot_be_written(rules: str) -> None:
    unwritten = [seed for seed in SEEDS if _script(rules, seed) is None]
    assert len(unwritten) <= 1, unwritten


def test_the_same_seed_writes_the_same_script() -> None:
    assert script_of("amateur", 3) == _script("amateur", 3)
    assert script_of("vrn", 3) != _script("vrn", 4)
