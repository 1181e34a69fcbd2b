"""The fair seating of an evening's next game: who sits out, who sits where, and its score
against random draws, over a simulated evening of players coming and going."""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import combinations, pairwise, permutations

import pytest

from narrator.seating.fair import (
    Choice,
    Past,
    assign,
    fair_seating,
    general_seat_cost,
    seat_cost,
    spread,
)
from narrator.seating.score import numbers_part

#: who is at the club before each game: game → (arrive, leave); 13 at first, two leave after
#: game 4, three arrive after game 6, one of the two comes back after game 9, one leaves after
#: game 11
MOVES: dict[int, tuple[list[int], list[int]]] = {
    5: ([], [3, 7]), 7: ([14, 15, 16], []), 10: ([3], []), 12: ([], [14])}


@dataclass
class Evening:
    present: list[list[int]]  # before each game
    games: list[Past[int]]
    choices: list[Choice[int]]


def simulate(seed: int, games: int = 15, seats: int = 10, first: int = 13,
             moves: dict[int, tuple[list[int], list[int]]] = MOVES) -> Evening:
    """An evening whose every game is seated fairly (the game's seed: ``seed`` + its number)."""
    present = list(range(1, first + 1))
    ev = Evening([], [], [])
    for g in range(1, games + 1):
        came, went = moves.get(g, ([], []))
        present = [p for p in present if p not in went] + came
        choice = fair_seating(present, seats, ev.games, seed=seed + g)
        ev.present.append(list(present))
        ev.choices.append(choice)
        ev.games.append(Past(choice.seating, [o.player for o in choice.out]))
    return ev


def seat_rows(games: list[Past[int]], seats: int) -> dict[int, list[int]]:
    rows: dict[int, list[int]] = {}
    for game in games:
        for s, p in game.seating.items():
            rows.setdefault(p, [0] * seats)[s - 1] += 1
    return rows


@pytest.fixture(scope="module")
def evening() -> Evening:
    return simulate(7)


def test_every_game_seats_the_table_full_with_players_present(evening: Evening) -> None:
    for present, game in zip(evening.present, evening.games, strict=True):
        assert sorted(game.seating) == list(range(1, 11))
        assert len(set(game.seating.values())) == 10
        assert sorted([*game.seating.values(), *game.out]) == sorted(present)


def test_nobody_sits_out_twice_before_everyone_present_all_along_sat_out_once(
        evening: Evening) -> None:
    outs = [set(g.out) for g in evening.games]
    assert sum(map(len, outs)) == sum(len(p) - 10 for p in evening.present)  # (some sat out)
    for player in {p for g in evening.games for p in g.out}:
        when = [i for i, out in enumerate(outs) if player in out]
        for first, second in pairwise(when):
            there = set.intersection(*(set(evening.present[i])
                                       for i in range(first, second + 1)))
            for other in there - {player}:
                assert any(other in outs[i] for i in range(second + 1)), \
                    (player, first + 1, second + 1, other)


def test_the_ones_who_sat_out_least_sit_out_then_the_ones_who_played_most(
        evening: Evening) -> None:
    for i, (present, choice) in enumerate(zip(evening.present, evening.choices, strict=True)):
        before = evening.games[:i]
        out = {o.player for o in choice.out}
        times = {p: sum(p in g.out for g in before) for p in present}
        played = {p: sum(p in g.seating.values() for g in before) for p in present}
        assert all((o.times_out, o.played) == (times[o.player], played[o.player])
                   for o in choice.out)
        seated = [p for p in present if p not in out]
        for o in out:
            for s in seated:  # nobody seated had a better claim to sit out
                assert (times[o], -played[o]) <= (times[s], -played[s]), (i + 1, o, s)


def test_each_players_seats_are_as_even_as_his_games_allow(evening: Evening) -> None:
    for player, row in seat_rows(evening.games, 10).items():
        games = sum(row)
        best = 0 if games % 10 == 0 else 1
        assert spread(row) <= best + 1, (player, row)


def test_the_explanation_holds_each_seated_players_seats_so_far(evening: Evening) -> None:
    for i, choice in enumerate(evening.choices):
        rows = seat_rows(evening.games[:i], 10)
        assert set(choice.seats_so_far) == set(choice.seating.values())
        for player, counts in choice.seats_so_far.items():
            assert counts == rows.get(player, [0] * 10)


def test_the_fair_choice_scores_below_the_random_draws_mean(evening: Evening) -> None:
    for choice in evening.choices[1:]:  # (game 1: nothing to balance yet, every draw equal)
        assert choice.cost < choice.random_cost
        assert choice.draws == 200
    first = evening.choices[0]
    assert first.cost == pytest.approx(first.random_cost)


def test_the_same_seed_gives_the_same_evening_and_another_seed_another(
        evening: Evening) -> None:
    again = simulate(7)
    assert [g.seating for g in again.games] == [g.seating for g in evening.games]
    assert [c.random_cost for c in again.choices] == [c.random_cost for c in evening.choices]
    other = simulate(8)
    assert [g.seating for g in other.games] != [g.seating for g in evening.games]


def test_whom_players_sit_with_stays_near_their_fair_share() -> None:
    """Thirteen players all evening, ten seats, thirteen games: each plays ten, and a pair's
    fair share of meetings is 13 · (10·9)/(13·12) = 7.5; each pair meets 7 to 9 times."""
    for seed in (0, 1):
        ev = simulate(seed, games=13, moves={})
        met: dict[tuple[int, int], int] = {}
        for game in ev.games:
            for pair in combinations(sorted(game.seating.values()), 2):
                met[pair] = met.get(pair, 0) + 1
        assert {p: sum(p in g.seating.values() for g in ev.games) for p in range(1, 14)} == \
            dict.fromkeys(range(1, 14), 10)
        assert {met.get(pair, 0) for pair in combinations(range(1, 14), 2)} <= {7, 8, 9}


def test_previous_evenings_seats_shift_tonights() -> None:
    """A player who sat on seat 1 in every game of last evening is not put on seat 1 first;
    without that evening, the seed decides who gets seat 1."""
    players = list(range(1, 11))
    last = [Past({1: 4, **{s: p for s, p in zip(range(2, 11), [1, 2, 3, *range(5, 11)],
                                              strict=True)}}) for _ in range(6)]
    for seed in range(12):
        choice = fair_seating(players, 10, [], last, seed=seed)
        assert choice.seating[1] != 4
        assert choice.seats_so_far[4][0] == 6
    on_one = {fair_seating(players, 10, [], seed=seed).seating[1] for seed in range(12)}
    assert len(on_one) > 1


def test_previous_evenings_sit_outs_do_not_count_tonight() -> None:
    players = list(range(1, 12))  # eleven for ten seats: one sits out
    last = [Past({s: s for s in range(1, 11)}, [11]) for _ in range(3)]  # 11 sat out thrice
    choice = fair_seating(players, 10, [], last, seed=3)
    assert [(o.times_out, o.played) for o in choice.out] == [(0, 0)]


def test_a_twelve_seat_table_is_balanced_too() -> None:
    moves = {4: ([], [2, 9]), 6: ([16, 17, 18], []), 9: ([2], [])}
    ev = simulate(3, games=14, seats=12, first=15, moves=moves)
    for game in ev.games:
        assert sorted(game.seating) == list(range(1, 13))
    for player, row in seat_rows(ev.games, 12).items():
        assert spread(row) <= (0 if sum(row) % 12 == 0 else 1) + 1, (player, row)
    assert all(c.cost < c.random_cost for c in ev.choices[1:])


def test_fewer_players_than_seats_are_all_seated() -> None:
    choice = fair_seating([5, 6, 7, 8], 10, [Past({1: 5, 2: 6, 3: 7, 4: 8})], seed=1)
    assert sorted(choice.seating.values()) == [5, 6, 7, 8] and not choice.out
    assert all(choice.seating.get(s) != p for s, p in {1: 5, 2: 6, 3: 7, 4: 8}.items())


def test_a_player_twice_or_no_seat_is_refused() -> None:
    with pytest.raises(ValueError, match="present twice"):
        fair_seating([1, 2, 1], 10)
    with pytest.raises(ValueError, match="0 seats"):
        fair_seating([1, 2], 0)


def test_the_cost_at_ten_seats_is_mafiaratings_numbers_part() -> None:
    rng = random.Random(11)
    for _ in range(50):
        row = [rng.randrange(4) for _ in range(10)]
        games = sum(row)
        assert general_seat_cost(row, games, 10) == pytest.approx(numbers_part([row], games)[0])
        assert seat_cost(row, games, 10) == numbers_part([row], games)[0]
    even, lopsided = [1] * 12, [12] + [0] * 11
    assert general_seat_cost(even, 12, 12) == 0
    assert general_seat_cost(lopsided, 12, 12) > general_seat_cost([0] * 11 + [12], 12, 12)


@pytest.mark.parametrize(("rows", "cols"), [(6, 6), (4, 7), (1, 3)])
def test_the_assignment_is_the_least_cost_one(rows: int, cols: int) -> None:
    rng = random.Random(rows * 10 + cols)
    for _ in range(20):
        cost = [[rng.choice([rng.random() * 10, float(rng.randrange(3))]) for _ in range(cols)]
                for _ in range(rows)]
        got = assign(cost)
        assert len(set(got)) == rows
        best = min(sum(cost[r][c] for r, c in enumerate(p))
                   for p in permutations(range(cols), rows))
        assert sum(cost[r][c] for r, c in enumerate(got)) == pytest.approx(best)
    with pytest.raises(ValueError, match="3 rows for 2 columns"):
        assign([[0.0, 1.0]] * 3)
