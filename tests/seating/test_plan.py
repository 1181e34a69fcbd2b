"""The seating plan's search: every plan valid, the hard rules kept, a seed's plan the same,
the search better than the plan it starts from, and its counts the score module's."""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

import pytest

from narrator.seating.plan import (
    PlanImpossible,
    Search,
    check_shape,
    first_plan,
    make_plan,
)
from narrator.seating.score import Shape, apart_met, check, score
from narrator.seating.state import State

QUICK = 0.05  # of the default moves: enough to test, fast


def _valid(rounds: list[list[list[int]]], shape: Shape) -> None:
    assert len(rounds) == shape.rounds
    for rnd in rounds:
        assert len(rnd) == shape.tables
        assert all(len(table) == 10 for table in rnd)
        seated = [p for table in rnd for p in table]
        assert len(seated) == len(set(seated))  # nobody twice in a round
    played = [sum(p in t for rnd in rounds for t in rnd) for p in range(shape.players)]
    assert played == [shape.games] * shape.players
    assert check(rounds, shape.players, shape.tables) == shape.games


@pytest.mark.parametrize("n, tables, games", [(10, 1, 4), (20, 2, 5), (25, 2, 4), (33, 3, 10)])
def test_every_plan_is_full_and_gives_everyone_his_games(n: int, tables: int, games: int) -> None:
    shape = Shape(n, tables, games)
    _valid(make_plan(shape, 3, effort=QUICK).rounds, shape)


def test_pairs_kept_apart_never_meet() -> None:
    shape = Shape(36, 3, 5, (frozenset({0, 1}), frozenset({2, 3, 4}), frozenset({5, 35})))
    rounds = make_plan(shape, 7, effort=QUICK).rounds
    _valid(rounds, shape)
    assert apart_met(rounds, shape) == []
    for rnd in rounds:
        for table in rnd:
            for group in shape.apart:
                assert len(group & set(table)) <= 1


def test_judges_players_stay_off_their_tables() -> None:
    off = {0: {0}, 1: {1}, 2: {0, 2}}
    shape = Shape(30, 3, 4)
    rounds = make_plan(shape, 1, effort=QUICK, off_tables=off).rounds
    _valid(rounds, shape)
    for rnd in rounds:
        for t, table in enumerate(rnd):
            assert not any(t in off.get(p, set()) for p in table)


def test_the_same_seed_gives_the_same_plan_another_seed_another() -> None:
    shape = Shape(24, 2, 5, (frozenset({0, 1}),))
    one = make_plan(shape, 11, effort=QUICK)
    assert make_plan(shape, 11, effort=QUICK).rounds == one.rounds
    assert make_plan(shape, 12, effort=QUICK).rounds != one.rounds
    assert not one.stopped


def test_the_search_improves_on_the_plan_it_starts_from() -> None:
    shape = Shape(20, 2, 10)
    start = first_plan(shape, random.Random(5), {})
    found = make_plan(shape, 5, effort=QUICK).rounds
    assert score(found, shape).total < score(start, shape).total / 2


class SteppingClock:
    """A clock that moves ``step`` seconds each time it is read after the first (the search
    reads it once a chunk of moves), from ``start``."""

    def __init__(self, step: float, start: float = 100.0) -> None:
        self.now, self.step, self.reads = start, step, 0

    def __call__(self) -> float:
        self.reads += 1
        self.now += self.step if self.reads > 1 else 0.0
        return self.now


def test_a_time_limit_stops_the_search_with_a_valid_plan() -> None:
    shape = Shape(40, 4, 10)
    clock = SteppingClock(1.0)
    outcome = make_plan(shape, 2, time_limit=5, clock=clock)
    assert outcome.stopped and clock.reads <= 8  # a chunk of moves a second: five of them
    _valid(outcome.rounds, shape)
    unlimited = make_plan(shape, 2, effort=QUICK, clock=SteppingClock(1.0))
    assert not unlimited.stopped and unlimited.moves > outcome.moves


def test_the_time_limit_counts_from_the_first_step(monkeypatch: pytest.MonkeyPatch) -> None:
    """The limit is read before the first plan is drawn: a first plan that took longer than
    the limit leaves the search its first chunk of moves of each stage, no more."""
    import narrator.seating.plan as plan

    shape = Shape(40, 4, 10)
    clock = SteppingClock(0.0)  # (still but for the first plan: without it, no stop)

    def slow_first_plan(*args: Any) -> Any:
        clock.now += 10.0
        return first_plan(*args)

    monkeypatch.setattr(plan, "first_plan", slow_first_plan)
    outcome = make_plan(shape, 2, time_limit=2, clock=clock)
    assert outcome.stopped
    assert outcome.moves == 0  # the first plan, as it is: no stage begun past the limit
    _valid(outcome.rounds, shape)


def test_more_players_than_a_plan_seats_are_refused_before_anything_is_made(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import narrator.seating.plan as plan

    def never(*args: object) -> None:
        raise AssertionError("the first plan was drawn")

    monkeypatch.setattr(plan, "first_plan", never)
    with pytest.raises(PlanImpossible, match="3,000 players; a plan seats at most 2,000"):
        make_plan(Shape(3000, 300, 10), 0, time_limit=2, clock=SteppingClock(0.0))


def test_progress_goes_from_none_to_all_and_shows_the_best_so_far() -> None:
    shape = Shape(20, 2, 5)
    seen: list[tuple[float, float]] = []
    rounds = make_plan(shape, 8, effort=QUICK, progress=lambda d, b: seen.append((d, b))).rounds
    done = [d for d, _ in seen]
    assert done == sorted(done) and done[0] > 0 and done[-1] == pytest.approx(1.0, abs=0.05)
    assert seen[-1][1] == pytest.approx(score(rounds, shape).total)


@pytest.mark.parametrize("shape, words", [
    (Shape(15, 2, 4), "cannot fill"),
    (Shape(21, 2, 3), "not whole rounds"),
    (Shape(20, 2, 4, (frozenset({0, 1, 2}),)), "kept apart"),
])
def test_impossible_shapes_say_why(shape: Shape, words: str) -> None:
    with pytest.raises(PlanImpossible, match=words):
        check_shape(shape)


def test_rules_no_plan_can_keep_are_one_error() -> None:
    # eleven players who may play only at table 1, which seats ten
    off = {p: {1} for p in range(11)}
    with pytest.raises(PlanImpossible, match="judges' tables"):
        make_plan(Shape(20, 2, 2), 0, effort=QUICK, off_tables=off)


def test_the_counts_kept_move_by_move_are_the_score_modules() -> None:
    shape = Shape(33, 3, 10, (frozenset({0, 1, 2}),))
    rng = random.Random(4)
    state = State(shape, first_plan(shape, rng, {}), {5: {0}})
    search = Search(state, rng, 10**9, None, None)
    for _ in range(3000):
        rng.choice(search.kinds)(float("inf"))  # every move taken
    kept = (state.parts(), state.faults)
    state.recount()
    assert state.parts() == pytest.approx(kept[0])
    assert state.faults == kept[1]
    got = score(state.rounds, shape)
    assert (got.players, got.numbers, got.tables) == pytest.approx(state.parts())
    met = sum(1 for rnd in state.rounds for t, table in enumerate(rnd)
              for a, b in combinations(table, 2) if {a, b} <= {0, 1, 2})
    assert state.faults == met + sum(1 for rnd in state.rounds if 5 in rnd[0])
