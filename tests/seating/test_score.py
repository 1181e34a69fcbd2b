"""The score against cases computed by hand from its definition (narrator/seating/score.py's
docstring, MafiaRatings' include/seating.php). Each case shows its arithmetic.

Seat weights (0-based): seat 0 ×4, seat 1 ×3, seat 9 ×2, the rest ×1: their sum W = 16."""

from __future__ import annotations

import pytest

from narrator.seating.player import worst
from narrator.seating.score import (
    Shape,
    apart_met,
    numbers_part,
    players_score,
    quality,
    score,
    seat_counts,
    shape_of,
    tables_score,
    worst_numbers,
    worst_players,
    worst_tables,
)

TEN = list(range(10))
# 20 players in four fives: A 0–4, B 5–9, C 10–14, D 15–19
A, B, C, D = (list(range(i, i + 5)) for i in range(0, 20, 5))
# round 1: A+B, C+D; round 2: A+C, B+D. A pair meets twice within a five (4 × 10 = 40 pairs),
# once for A–B, C–D, A–C, B–D (4 × 25 = 100 pairs), never for A–D, B–C (2 × 25 = 50 pairs)
TWENTY = [[A + B, C + D], [A + C, B + D]]


def test_ten_players_one_game_is_perfect_in_numbers() -> None:
    # G = 1: a seat's fair count 0.1, a pair's 0.2, a half's 0.5. The player on seat s (weight
    # w): singles 4·(0.01·(16 − w) + 0.81·w) = 0.64 + 3.2·w; pairs 2·(0.64 + 4·0.04) = 1.6;
    # halves 0.25 + 0.25 = 0.5. Sum over the ten seats: 10·2.74 + 3.2·16 = 78.6.
    assert numbers_part(seat_counts([[TEN]], 10), 1) == (pytest.approx(78.6), True)
    # every gap (0.81, 0.64, 0.25 …) is under one: the part is perfect and counts 0
    result = score([[TEN]], shape_of([[TEN]]))
    assert (result.numbers, result.numbers_quality) == (0.0, 100.0)
    # ten players: no players' quality shown; one table: no tables' part
    assert (result.players_quality, result.tables, result.tables_quality) == (None, 0.0, None)


def test_ten_players_on_the_same_seats_twice() -> None:
    # G = 2: fair 0.2, 0.4, 1. Seat s twice: singles 4·(0.04·(16 − w) + 3.24·w) =
    # 2.56 + 12.8·w; pairs 2·(2.56 + 4·0.16) = 6.4; halves 1 + 1 = 2. Sum: 10·10.96 +
    # 12.8·16 = 109.6 + 204.8 = 314.4 (3.24 ≥ 1: not perfect).
    plan = [[TEN], [TEN]]
    result = score(plan, shape_of(plan))
    assert result.numbers == pytest.approx(314.4)
    # worst acceptable: 12 · 10 = 120 < 314.4, so 0 %
    assert result.numbers_quality == 0.0
    # each pair meets twice = 2·9/9: every gap 0, the players' part 0
    assert result.players == 0.0


def test_ten_players_the_second_game_reversed() -> None:
    # seat s, then seat 9 − s: singles 4·(0.04·(16 − w − w') + 0.64·(w + w')) =
    # 2.56 + 2.4·(w + w'), over the ten: 25.6 + 2.4·32 = 102.4. Pairs: seats 4 and 5 share a
    # pair (2.56 + 4·0.16 = 3.2 each), the other eight players have two pairs of one
    # (2·0.36 + 3·0.16 = 1.2): 2·(2·3.2 + 8·1.2) = 32. Halves: one game in each, 0.
    plan = [[TEN], [TEN[::-1]]]
    assert score(plan, shape_of(plan)).numbers == pytest.approx(134.4)


def test_twenty_players_the_players_part_of_a_known_meeting_matrix() -> None:
    # fair = 9·2/19 = 18/19. Twice: (2 − 18/19)² = 400/361; once: (1/19)² = 1/361;
    # never: (18/19)² = 324/361. Sum: (40·400 + 100·1 + 50·324)/361 = 32300/361 = 1700/19.
    shape = shape_of(TWENTY)
    assert (shape.players, shape.tables, shape.games) == (20, 2, 2)
    assert players_score(TWENTY, shape) == pytest.approx(1700 / 19)
    # worst acceptable: tens = 2, fair²·50·2·1 + (fair − 2)²·2·45 = (32400 + 36000)/361,
    # × 4/(2 + 2): 68400/361 (the plan that keeps both tables the same twice)
    assert worst_players(shape) == pytest.approx(68400 / 361)
    # quality: 1 − (32300/361)/(68400/361) = 1 − 323/684 = 52.78 %
    assert score(TWENTY, shape).players_quality == pytest.approx(100 * (1 - 323 / 684))


def test_the_same_two_tables_twice_is_the_worst_acceptable() -> None:
    # within a table (2·45 = 90 pairs) twice: 400/361; across (100 pairs) never: 324/361.
    # (90·400 + 100·324)/361 = 68400/361: its quality is 0
    plan = [[A + B, C + D], [A + B, C + D]]
    result = score(plan, shape_of(plan))
    assert result.players == pytest.approx(68400 / 361)
    assert result.players_quality == pytest.approx(0.0)


def test_a_kept_apart_pair_that_meets_counts_ten_times_before_squaring() -> None:
    # players 0 and 1 (both of A) kept apart, and they meet twice: (2·10)² = 400.
    # Each of them expects 9·2/(19 − 1) = 1 game with the others: A (3 others) twice → 1
    # each, B and C once → 0, D never → 1 each: 3 + 5 = 8, for each of the two.
    # The other pairs as before: 32300/361 less the 37 pairs of 0 or 1, which had
    # 400 + 2·(3·400 + 5·1 + 5·1 + 5·324) = 6060 (/361): 26240/361.
    shape = Shape(20, 2, 2, (frozenset({0, 1}),))
    assert players_score(TWENTY, shape) == pytest.approx(400 + 8 + 8 + 26240 / 361)
    assert apart_met(TWENTY, shape) == [(0, 1)]
    # below 12 players MafiaRatings keeps nobody apart: the pair is counted as any other
    ten = Shape(10, 1, 2, (frozenset({0, 1}),))
    assert players_score([[TEN], [TEN]], ten) == 0.0
    assert apart_met([[TEN], [TEN]], ten) == [(0, 1)]


def _thirty(swap: bool) -> list[list[list[int]]]:
    a, b, c = list(range(10)), list(range(10, 20)), list(range(20, 30))
    last = [c, a[:], b[:]]
    if swap:  # players 0 and 10 trade tables in round 3
        last[1][0], last[2][0] = 10, 0
    return [[a, b, c], [b, c, a], last]


def test_thirty_players_the_tables_part() -> None:
    # three tables, three games: fair 1 a table. The full rotation: everybody (1, 1, 1),
    # perfect
    rotation = _thirty(False)
    assert tables_score(rotation, shape_of(rotation)) == 0.0
    # player 0 plays tables (1, 0, 2), player 10 (1, 2, 0): 0 + 1 + 1 each = 4
    # (a gap of 1 − 0 = 1 is not under one: not perfect)
    plan = _thirty(True)
    shape = shape_of(plan)
    assert tables_score(plan, shape) == pytest.approx(4.0)
    # worst acceptable: 30·(1²·2 + (1 − 3)²)/5 = 36; quality 1 − 4/36 = 88.9 %
    assert worst_tables(shape) == pytest.approx(36.0)
    assert score(plan, shape).tables_quality == pytest.approx(100 * (1 - 4 / 36))


def test_the_quality_of_a_part_and_the_numbers_worst() -> None:
    assert worst_numbers(Shape(20, 2, 2)) == 240.0  # 12 a player
    assert quality(60.0, 240.0) == pytest.approx(75.0)
    assert quality(300.0, 240.0) == 0.0  # worse than acceptable: clamped
    assert quality(0.0, 0.0) == 100.0


def test_the_worst_off_player_has_the_largest_own_gap() -> None:
    # the same seats twice: every pair meets 2 = fair times (no pairs' gap, one table), so a
    # player's gap is his numbers' share, 10.96 + 12.8·w (above): seat 0's player, w = 4,
    # 10.96 + 51.2 = 62.16
    plan = [[TEN], [TEN]]
    fig = worst(plan, shape_of(plan))
    assert (fig.player, fig.gap) == (0, pytest.approx(62.16))
    assert fig.seats == (2, 0, 0, 0, 0, 0, 0, 0, 0, 0) and fig.tables == (2,)
    # everybody meets him twice: the first of them is both the most and the least met
    assert (fig.most, fig.least) == ((1, 2), (1, 2))
    # the second game reversed: seats 0 and 9 weigh 4 + 2, their two pairs of one 1.2 (above):
    # 2.56 + 2.4·6 + 2·1.2 = 19.36 for players 0 and 9 alike; the first of them is shown
    # (player 1: 2.56 + 2.4·4 + 2.4 = 14.56)
    rev = [[TEN], [TEN[::-1]]]
    fig = worst(rev, shape_of(rev))
    assert (fig.player, fig.gap) == (0, pytest.approx(19.36))


def test_each_players_figures_are_his_own_counts_of_the_plan() -> None:
    """The figures, counted for all players at once, are each player's own sums counted one
    by one from the plan: kept-apart partners, three tables and more, ties of most and least
    met broken by the lower index."""
    import random
    from itertools import combinations

    from narrator.seating.plan import first_plan
    from narrator.seating.player import figures
    from narrator.seating.score import APART_WEIGHT, SEATS, numbers_part

    shape = Shape(30, 3, 10, (frozenset({0, 1}), frozenset({2, 3, 4})))
    plan = first_plan(shape, random.Random(3), {})
    n, g = shape.players, shape.games
    met = {(a, b): 0 for a in range(n) for b in range(n)}
    for rnd in plan:
        for table in rnd:
            for a, b in combinations(table, 2):
                met[a, b] += 1
                met[b, a] += 1
    kept = {0: {1}, 1: {0}, 2: {3, 4}, 3: {2, 4}, 4: {2, 3}}
    for fig in figures(plan, shape):
        p = fig.player
        others = [q for q in range(n) if q != p]
        fair = g * (SEATS - 1) / (n - 1 - len(kept.get(p, ())))
        gap = sum((met[p, q] * APART_WEIGHT if q in kept.get(p, ()) else met[p, q] - fair) ** 2
                  for q in others)
        seats = [sum(t[s] == p for rnd in plan for t in rnd) for s in range(SEATS)]
        tables = [sum(p in rnd[t] for rnd in plan) for t in range(shape.tables)]
        gap += numbers_part([seats], g)[0] + sum((g / 3 - c) ** 2 for c in tables)
        assert fig.gap == pytest.approx(gap, abs=1e-9)
        assert list(fig.seats) == seats and list(fig.tables) == tables
        most = max(met[p, q] for q in others)
        least = min(met[p, q] for q in others)
        assert fig.most == (min(q for q in others if met[p, q] == most), most)
        assert fig.least == (min(q for q in others if met[p, q] == least), least)
