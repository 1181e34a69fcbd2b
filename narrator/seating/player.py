"""One player's figures in a plan: what he was dealt, to show who fares worst.

A player's gap is his own share of the score's terms: his pairs' squared gaps (a kept-apart
partner's meetings ×10), his seat counts' part of the numbers, his tables' squared gaps (from
three tables). The worst player is the one of the largest gap (the first of them).
"""

from __future__ import annotations

from dataclasses import dataclass

from narrator.seating.score import (
    APART_WEIGHT,
    SEATS,
    Plan,
    Shape,
    meetings,
    numbers_part,
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
    """Every player's figures, in the plan's order."""
    n, g = shape.players, shape.games
    met = meetings(plan, n)
    seats = seat_counts(plan, n)
    tables = table_counts(plan, n, shape.tables)
    apart = shape.partners_apart()
    out = []
    for p in range(n):
        kept = apart.get(p, set())
        fair = g * (SEATS - 1) / max(n - 1 - len(kept), 1)
        others = [q for q in range(n) if q != p]
        pairs = sum((met[p][q] * APART_WEIGHT if q in kept else met[p][q] - fair) ** 2
                    for q in others)
        own = numbers_part([seats[p]], g)[0]
        if shape.tables >= 3:
            own += sum((g / shape.tables - c) ** 2 for c in tables[p])
        most = max(others, key=lambda q: (met[p][q], -q))
        least = min(others, key=lambda q: (met[p][q], q))
        out.append(Figures(p, pairs + own, tuple(seats[p]), tuple(tables[p]),
                           (most, met[p][most]), (least, met[p][least])))
    return out


def worst(plan: Plan, shape: Shape) -> Figures:
    return max(figures(plan, shape), key=lambda fig: (fig.gap, -fig.player))
