"""Everything the narration says is a key the voice packs are checked to hold."""

from __future__ import annotations

import random

import pytest

from narrator.engine import Game
from narrator.host.narration import TEN_SECONDS, count_line, lines_for
from narrator.testing import random_action
from narrator.voice.keys import MAX_SEATS, spoken_keys


@pytest.mark.parametrize("seats", [7, 10, 15])
def test_every_key_said_in_random_games_is_a_spoken_key(seats: int) -> None:
    allowed = set(spoken_keys(seats))
    said: set[str] = set(TEN_SECONDS.keys)
    said.update(k for n in range(1, seats + 1) for k in count_line(n).keys)
    rng = random.Random(seats)
    for _ in range(150):
        game = Game(seats=seats, rng=rng)
        events = game.start()
        while not game.is_over:
            for event in events:
                for line in lines_for(event):
                    said.update(line.keys)
            events = game.apply(random_action(game, rng))
        for event in events:
            for line in lines_for(event):
                said.update(line.keys)
    assert said - allowed == set()
    assert len(said) > 80  # the games said a good part of the vocabulary


def test_spoken_keys_grow_with_the_table() -> None:
    assert set(spoken_keys(10)) < set(spoken_keys(MAX_SEATS))
    assert "who_for.15" in spoken_keys() and "votes.0" in spoken_keys()
