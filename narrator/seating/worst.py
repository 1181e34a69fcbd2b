"""The most unbalanced player of a plan: the one whose own gaps, as score.py counts them, sum
highest — what a tournament's organiser looks at first."""

from __future__ import annotations

from dataclasses import dataclass

from narrator.seating.score import Plan, Shape, meetings, numbers_part, seat_counts


@dataclass(frozen=True)
class PlayerFigures:
    """A player's seat counts (seat 1 first), and his opponents' meetings with him: the most
    and the least (each with how many opponents share it); ``gaps``: his own squared gaps."""

    player: int
    seats: tuple[int, ...]
    most: tuple[int, int]  # (meetings, opponents)
    least: tuple[int, int]
    gaps: float


def figures(plan: Plan, shape: Shape, player: int, met: list[list[int]] | None = None,
            counts: list[list[int]] | None = None) -> PlayerFigures:
    met = meetings(plan, shape.players) if met is None else met
    counts = seat_counts(plan, shape.players) if counts is None else counts
    kept = shape.partners_apart().get(player, set())
    # (a kept-apart partner is held to no meeting: he is not among the opponents weighed)
    others = [met[player][q] for q in range(shape.players) if q != player and q not in kept]
    fair = shape.games * 9 / (shape.players - 1)
    gaps = sum((m - fair) ** 2 for m in others) + numbers_part([counts[player]], shape.games)[0]
    hi, lo = max(others), min(others)
    return PlayerFigures(player, tuple(counts[player]), (hi, others.count(hi)),
                         (lo, others.count(lo)), gaps)


def worst_player(plan: Plan, shape: Shape) -> PlayerFigures:
    """The player with the highest own gaps (the lowest index among equals)."""
    met, counts = meetings(plan, shape.players), seat_counts(plan, shape.players)
    every = [figures(plan, shape, p, met, counts) for p in range(shape.players)]
    return max(every, key=lambda f: (f.gaps, -f.player))
