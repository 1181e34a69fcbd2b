"""One player's figures in a plan: what he was dealt, to show who fares worst.

A player's gap is his own share of the score's terms: his pairs' squared gaps (a kept-apart
partner's meetings ×10), his seat counts' part of the numbers, his tables' squared gaps (from
three tables). The worst player is the one of the largest gap (the first of them).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from narrator.seating.score import (
    APART_WEIGHT,
    Plan,
    Shape,
    meetings_matrix,
    numbers_part,
    pair_expectations,
    seat_counts,
    table_counts,
)


@dataclass(frozen=True)
class Figures:
    """``player`` (0-based) and his ``gap``, his count of each seat and table, and the partner
    he meets most and least (index, games)."""

    player: int
    gap: float
    seats: tuple[int, ...]
    tables: tuple[int, ...]
    most: tuple[int, int]
    least: tuple[int, int]


def figures(plan: Plan, shape: Shape) -> list[Figures]:
    """Every player's figures, in the plan's order: the pairs' gaps of all players at once
    (a 2,000-player plan has 4 million of them)."""
    n, g = shape.players, shape.games
    met = meetings_matrix(plan, n)
    seats = seat_counts(plan, n)
    tables = table_counts(plan, n, shape.tables)
    gaps = (met - pair_expectations(shape)[:, None]) ** 2
    for p, kept in shape.partners_apart().items():
        for q in kept:
            gaps[p, q] = float(met[p, q] * APART_WEIGHT) ** 2
    np.fill_diagonal(gaps, 0.0)  # (no pair with himself)
    pairs = gaps.sum(axis=1)
    if shape.tables >= 3:
        pairs += ((g / shape.tables - np.array(tables, dtype=np.float64)) ** 2).sum(axis=1)
    # the partner met most (least), the first of them: the player himself out of the count
    masked = met.copy()
    np.fill_diagonal(masked, -1)
    most = masked.argmax(axis=1)
    np.fill_diagonal(masked, np.iinfo(masked.dtype).max)
    least = masked.argmin(axis=1)
    out = []
    for p in range(n):
        own = numbers_part([seats[p]], g)[0]
        m, f = int(most[p]), int(least[p])
        out.append(Figures(p, float(pairs[p]) + own, tuple(seats[p]), tuple(tables[p]),
                           (m, int(met[p, m])), (f, int(met[p, f]))))
    return out


def worst(plan: Plan, shape: Shape) -> Figures:
    """The player of the largest gap, the first of them (gaps equal to the ninth decimal are
    equal: summed in another order they may differ in the last bits)."""
    return max(figures(plan, shape), key=lambda fig: (round(fig.gap, 9), -fig.player))
