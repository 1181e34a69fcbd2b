"""Fuzzing the engine: any action at any moment is taken, or refused with an EngineError that
leaves the game exactly as it was; undo gives back the state before; text forms round-trip."""

from __future__ import annotations

import random
from collections.abc import Callable

from hypothesis import given
from hypothesis import strategies as st

from narrator.engine import (
    Check,
    EndSpeech,
    EngineError,
    Foul,
    Game,
    HandCount,
    Hands,
    Malformed,
    Nominate,
    Remove,
    Shot,
    TimeUp,
    Withdraw,
    parse_action,
)
from narrator.testing import random_action
from tests.fuzz.conftest import cases, count
from tests.fuzz.strategies import nasty_text

seat = st.integers(-2, 17)
names = st.sampled_from(["dealing", "don_noted", "agreement", "sheriff_noted", "speech", "vote",
                         "hunt", "don_check", "sheriff_check", "nap"])
actions = st.one_of(
    st.builds(Nominate, seat), st.builds(Withdraw, seat), st.just(EndSpeech()),
    st.builds(Malformed, st.sampled_from(["nominate", "withdraw"]), st.none() | seat,
              st.sampled_from(["future_tense", "no_number"])),
    st.builds(TimeUp, names), st.builds(Hands, st.lists(seat, max_size=12).map(tuple)),
    st.builds(HandCount, st.integers(-1, 12)), st.builds(Shot, seat, seat),
    st.builds(Check, st.sampled_from(["don", "sheriff", "doctor"]), seat),
    st.builds(Foul, seat), st.builds(Remove, seat))


def play(rng: random.Random, steps: list[tuple[bool, object]], seats: int) -> None:
    count("games")
    game = Game(seats=seats, rng=rng)
    game.start()
    for legal, fuzzed in steps:
        if game.is_over:
            break
        # often a move a table would make, so the game gets far; else anything at all
        action = random_action(game, rng) if legal else fuzzed
        before = (len(game.history), game.expect, len(game.out), len(game.refused))
        try:
            game.apply(action)  # type: ignore[arg-type]
        except EngineError:
            # refused outright: the game is exactly as it was
            assert (len(game.history), game.expect, len(game.out), len(game.refused)) == before
            continue
        assert parse_action(str(action)) == action
        if rng.random() < 0.01:
            shown = game.history[:-1]
            game.pop()
            assert game.history == shown and game.expect == before[1]


def _random_action(rng: random.Random) -> object:
    def s() -> int:
        return rng.randint(-2, 17)

    makers: list[Callable[[], object]] = [
        lambda: Nominate(s()), lambda: Withdraw(s()), lambda: EndSpeech(),
        lambda: Malformed("nominate", None, "no_number"),
        lambda: TimeUp(rng.choice(["speech", "vote", "hunt", "nap", "don_check"])),
        lambda: Hands(tuple(s() for _ in range(rng.randint(0, 12)))),
        lambda: HandCount(rng.randint(-1, 12)), lambda: Shot(s(), s()),
        lambda: Check(rng.choice(["don", "sheriff", "doctor"]), s()),
        lambda: Foul(s()), lambda: Remove(s())]
    return rng.choice(makers)()


@cases(60)
@given(st.integers(0, 2**63))
def test_hostile_games(seed: int) -> None:
    rng = random.Random(seed)  # plain Python: Hypothesis' own randoms are slow
    for _ in range(100):
        steps = [(rng.random() < 0.7, _random_action(rng)) for _ in range(rng.randint(0, 200))]
        play(rng, steps, rng.randint(7, 15))


@cases(1_000)
@given(st.integers(0, 2**32), st.lists(st.tuples(st.booleans(), actions), max_size=40),
       st.integers(7, 15))
def test_any_action_at_any_moment(seed: int, steps: list[tuple[bool, object]],
                                  seats: int) -> None:
    play(random.Random(seed), steps, seats)


@cases(2_000)
@given(nasty_text | st.text(max_size=30))
def test_any_text_as_an_action(text: str) -> None:
    count("action texts")
    try:
        action = parse_action(text)
    except EngineError as e:
        assert "\n" not in str(e)
        return
    assert parse_action(str(action)) == action
