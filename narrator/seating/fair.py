"""The next game's seating, fairly chosen: who sits the game out, and who sits where.

An evening's table has its seats in a row, and they are not equal in sport Mafia: seat 1 opens
day 1, seat 2 speaks next, the last seats close it. Nor is sitting out, nor meeting the same
opponents game after game. Given who is present now, the number of seats and the games so far
(each a seating and who was present but not seated), :func:`fair_seating` chooses

* **who sits out**: whoever sat out least this evening, then, among equals, whoever played most
  this evening; among players still equal, the set whose seated pairs have met least against
  their fair share (below);
* **who sits where**: the assignment of the chosen players to the seats that keeps each
  player's seat counts nearest to even, weighted as MafiaRatings weighs them (seat 1 ×4, seat 2
  ×3, the last seat ×2; the seat pairs 1–2, 3–4 …; the halves). It is a small assignment
  problem (a cost per player and seat, ten rows by ten columns), solved exactly by the
  Hungarian method below: no library is needed for ten by ten, and an exact answer leaves no
  seed-dependent local optimum.

The cost, the same for the choice and for the random draws it is compared with, is the
evening's after this game, over the players present: **numbers**, each player's
:func:`~narrator.seating.score.numbers_part` of his seat counts against his own games (every
game he played counts, previous evenings' too; a player's games are his expectation, as in
MafiaRatings, only each player has his own number of games), plus **pairs**, for each pair
the games they shared against their fair share. A pair's fair share of a game both were present
for is the chance two of the present share the table (``k(k−1) / n(n−1)``: ``k`` seated of
``n`` present); a game one of them missed gives them no share. With one table every seated
pair meets, so the pairs' part depends only on who sits out. MafiaRatings' "every gap under
one counts as perfect" is left out here: it would make the cost jump and tell small
improvements apart no more.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from math import comb
from typing import Generic, TypeVar

from narrator.seating.score import (
    PAIR_IMPORTANCE,
    SEAT_WEIGHT,
    SEATS,
    SINGLE_IMPORTANCE,
    numbers_part,
)

K = TypeVar("K", bound=Hashable)

#: random draws the choice is compared with
DRAWS = 200
#: the sit-out sets among equals tried one by one; beyond, a search over swaps
ENUMERATE = 3000


@dataclass(frozen=True)
class Past(Generic[K]):
    """A game played: seat (from 1) → player, and who was present but not seated."""

    seating: Mapping[int, K]
    out: Sequence[K] = ()


@dataclass(frozen=True)
class SatOut(Generic[K]):
    """A player chosen to sit out, and why: his sit-outs and games this evening so far."""

    player: K
    times_out: int
    played: int


@dataclass(frozen=True)
class Choice(Generic[K]):
    """The fair seating (seat → player) with its explanation: each seated player's seat counts
    before this game (index 0: seat 1), who sits out and why, and the evening's cost after this
    game against the mean of ``draws`` random draws' (lower is better)."""

    seating: dict[int, K]
    out: list[SatOut[K]]
    seats_so_far: dict[K, list[int]]
    cost: float
    random_cost: float
    draws: int


# -- the cost ----------------------------------------------------------------------------------

def seat_cost(row: Sequence[int], games: int, seats: int) -> float:
    """A player's seat counts ``row`` (index 0: seat 1) against ``games`` games: MafiaRatings'
    numbers part at ten seats, its like at another table size."""
    if seats == SEATS:
        return numbers_part([row], games)[0]
    return general_seat_cost(row, games, seats)


def general_seat_cost(row: Sequence[int], games: int, seats: int) -> float:
    """:func:`numbers_part` for any number of seats: each seat against ``games/seats`` (seat 1
    ×4, seat 2 ×3, the last ×2), each pair of seats 1–2, 3–4 … (an odd last seat stands alone)
    against its share, each half (the first ``seats//2`` seats, the rest) against its share."""
    weight = {0: SEAT_WEIGHT[0], 1: SEAT_WEIGHT[1], seats - 1: SEAT_WEIGHT[SEATS - 1]}
    single = games / seats
    score = 0.0
    for s, c in enumerate(row):
        score += (single - c) ** 2 * weight.get(s, 1) * SINGLE_IMPORTANCE
    for s in range(0, seats - 1, 2):
        score += (2 * single - row[s] - row[s + 1]) ** 2 * PAIR_IMPORTANCE
    half = seats // 2
    for lo, hi in ((0, half), (half, seats)):
        score += (single * (hi - lo) - sum(row[lo:hi])) ** 2
    return score


@dataclass
class _History:
    """What the games so far hold for the players present (index i: ``present[i]``)."""

    rows: list[list[int]]  # seat counts
    games: list[int]
    gap: dict[tuple[int, int], float]  # a pair's meetings less its fair share so far
    times_out: list[int]  # this evening's
    played: list[int]  # this evening's


def _history(present: Sequence[K], seats: int, tonight: Sequence[Past[K]],
             before: Sequence[Past[K]]) -> _History:
    index = {p: i for i, p in enumerate(present)}
    n = len(present)
    h = _History([[0] * seats for _ in range(n)], [0] * n, {}, [0] * n, [0] * n)
    for game in [*before, *tonight]:
        seated = [index[p] for s, p in game.seating.items() if p in index and 1 <= s <= seats]
        for s, p in game.seating.items():
            if p in index and 1 <= s <= seats:
                h.rows[index[p]][s - 1] += 1
                h.games[index[p]] += 1
        there = sorted({*seated, *(index[p] for p in game.out if p in index)})
        k, m = len(game.seating), len(game.seating) + len(game.out)
        share = k * (k - 1) / (m * (m - 1)) if m > 1 else 0.0
        for pair in combinations(there, 2):
            h.gap[pair] = h.gap.get(pair, 0.0) - share
        for a, b in combinations(sorted(seated), 2):
            h.gap[(a, b)] = h.gap.get((a, b), 0.0) + 1
    for game in tonight:
        for p in game.out:
            if p in index:
                h.times_out[index[p]] += 1
        for p in game.seating.values():
            if p in index:
                h.played[index[p]] += 1
    return h


@dataclass
class _Costs:
    """The evening's cost after this game, in parts that add up for any seating of it."""

    after: list[list[float]]  # player i on seat s: his numbers after the game
    now: list[float]  # his numbers if he sits out
    step: dict[tuple[int, int], float]  # a seated pair's cost more than an unseated one's
    base: float  # every present player unseated: the sum of ``now`` and the pairs' part

    def of(self, seating: Mapping[int, int]) -> float:
        """The cost of ``seating`` (seat → index)."""
        total = self.base
        for s, i in seating.items():
            total += self.after[i][s - 1] - self.now[i]
        return total + self.pairs(seating.values())

    def pairs(self, seated: Iterable[int]) -> float:
        chosen = sorted(seated)
        return sum(self.step.get(pair, 0.0) for pair in combinations(chosen, 2))


def _costs(h: _History, seats: int, k: int) -> _Costs:
    n = len(h.rows)
    share = k * (k - 1) / (n * (n - 1)) if n > 1 else 0.0
    after = []
    for row, games in zip(h.rows, h.games, strict=True):
        line = []
        for s in range(seats):
            row[s] += 1
            line.append(seat_cost(row, games + 1, seats))
            row[s] -= 1
        after.append(line)
    now = [seat_cost(row, games, seats) for row, games in zip(h.rows, h.games, strict=True)]
    # (gap − share + 1)² − (gap − share)²: what sitting together adds to a pair's part
    step, pairs = {}, 0.0
    for pair in combinations(range(n), 2):
        left = h.gap.get(pair, 0.0) - share
        pairs += left * left
        step[pair] = 2 * left + 1
    return _Costs(after, now, step, sum(now) + pairs)


# -- who sits out ------------------------------------------------------------------------------

def _sit_outs(h: _History, need: int, costs: _Costs, rng: random.Random) -> list[int]:
    """The ``need`` players (indices) who sit out: fewest sit-outs, then most games played;
    among equals, the set leaving the seated pairs' part lowest."""
    n = len(h.rows)
    if need <= 0:
        return []
    def rank(i: int) -> tuple[int, int]:
        return (h.times_out[i], -h.played[i])

    ties = {i: rng.random() for i in range(n)}
    order = sorted(range(n), key=lambda i: (rank(i), ties[i]))
    edge = rank(order[need - 1])
    sure = [i for i in order if rank(i) < edge]
    group = [i for i in order if rank(i) == edge]
    rest = [i for i in order if rank(i) > edge]
    r = need - len(sure)

    def seated_cost(out: Sequence[int]) -> float:
        return costs.pairs([*rest, *(i for i in group if i not in out)])

    if comb(len(group), r) <= ENUMERATE:
        best = min(combinations(group, r), key=seated_cost)
        return sorted([*sure, *best])
    return sorted([*sure, *_swap_search(group, r, seated_cost)])


def _swap_search(group: list[int], r: int,
                 cost: Callable[[Sequence[int]], float]) -> list[int]:
    """A set of ``r`` from ``group`` (in its seeded order) improved by swaps while one helps."""
    out, kept = list(group[:r]), list(group[r:])
    best = cost(out)
    better = True
    while better:
        better = False
        for a in range(len(out)):
            for b in range(len(kept)):
                out[a], kept[b] = kept[b], out[a]
                value = cost(out)
                if value < best - 1e-9:
                    best, better = value, True
                else:
                    out[a], kept[b] = kept[b], out[a]
    return out


# -- who sits where ----------------------------------------------------------------------------

def assign(cost: Sequence[Sequence[float]]) -> list[int]:
    """The column for each row that makes the total cost least (rows ≤ columns): the
    Hungarian method with potentials, O(rows² · columns)."""
    n = len(cost)
    m = len(cost[0]) if n else 0
    if n > m:
        raise ValueError(f"{n} rows for {m} columns")
    inf = float("inf")
    u, v = [0.0] * (n + 1), [0.0] * (m + 1)
    match, way = [0] * (m + 1), [0] * (m + 1)  # match[j]: the row (from 1) on column j
    for i in range(1, n + 1):
        match[0], j0 = i, 0
        least, used = [inf] * (m + 1), [False] * (m + 1)
        while match[j0] != 0:
            used[j0] = True
            i0, delta, j1 = match[j0], inf, 0
            for j in range(1, m + 1):
                if not used[j]:
                    cur = cost[i0 - 1][j - 1] - u[i0] - v[j]
                    if cur < least[j]:
                        least[j], way[j] = cur, j0
                    if least[j] < delta:
                        delta, j1 = least[j], j
            for j in range(m + 1):
                if used[j]:
                    u[match[j]] += delta
                    v[j] -= delta
                else:
                    least[j] -= delta
            j0 = j1
        while j0:
            j1 = way[j0]
            match[j0] = match[j1]
            j0 = j1
    out = [0] * n
    for j in range(1, m + 1):
        if match[j]:
            out[match[j] - 1] = j - 1
    return out


# -- the choice --------------------------------------------------------------------------------

def fair_seating(present: Sequence[K], seats: int, tonight: Sequence[Past[K]] = (),
                 before: Sequence[Past[K]] = (), *, seed: int = 0,
                 draws: int = DRAWS) -> Choice[K]:
    """The fair seating of the players ``present`` (in the evening's order) at ``seats``
    seats, given this evening's games ``tonight`` and previous evenings' ``before`` (their
    seats and meetings count; sit-outs are this evening's). Deterministic for ``seed``."""
    if seats < 1:
        raise ValueError(f"a table of {seats} seats")
    if len(set(present)) != len(present):
        raise ValueError("a player present twice")
    rng = random.Random(seed)
    h = _history(present, seats, tonight, before)
    k = min(seats, len(present))
    costs = _costs(h, seats, k)
    out = _sit_outs(h, len(present) - seats, costs, rng)
    chosen = [i for i in range(len(present)) if i not in out]
    rng.shuffle(chosen)  # (which of equal seatings: the seed's)
    columns = assign([costs.after[i] for i in chosen])
    seating = {columns[r] + 1: i for r, i in enumerate(chosen)}
    return Choice(
        seating={s: present[i] for s, i in sorted(seating.items())},
        out=[SatOut(present[i], h.times_out[i], h.played[i]) for i in out],
        seats_so_far={present[i]: list(h.rows[i]) for _, i in sorted(seating.items())},
        cost=costs.of(seating),
        random_cost=_random_cost(costs, len(present), k, draws, seed),
        draws=draws)


def _random_cost(costs: _Costs, n: int, k: int, draws: int, seed: int) -> float:
    """The mean cost of ``draws`` seeded random draws (the evening's «Случайная рассадка»: the
    present shuffled, the first ``k`` on seats 1…k)."""
    if draws < 1 or n == 0:
        return costs.base
    rng = random.Random(seed + 1_000_003)
    total = 0.0
    order = list(range(n))
    for _ in range(draws):
        rng.shuffle(order)
        total += costs.of({s: i for s, i in enumerate(order[:k], start=1)})
    return total / draws


def spread(row: Sequence[int]) -> int:
    """The most and fewest games a player had on one seat, apart."""
    return max(row) - min(row)

