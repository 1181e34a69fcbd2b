"""A seating's score in MafiaRatings' terms (its ``include/seating.php``, class SeatingDef).

A plan is ``rounds → tables → ten seats → player index`` (0-based, as MafiaRatings keeps it).
Three parts, each a sum of squared gaps between what a player got and what the plan's size
makes fair (lower is better, 0 is perfect):

* **players**: for every pair, the games they share against ``9·G/(N−1)`` (G: games a player,
  N: players). A pair kept apart is held to 0 and its gap counts ×10 before squaring; a kept-apart
  player's other pairs share the games he cannot play with them (``9·G/(N−1−k)``). MafiaRatings
  keeps nobody apart below 12 players.
* **numbers**: each player's count of each seat against ``G/10``, weighted ×4 for seat 1, ×3 for
  seat 2, ×2 for seat 10, the whole ×4; each seat pair (1–2, 3–4 … 9–10) against ``G/5``, ×2;
  each half (1–5, 6–10) against ``G/2``.
* **tables**: each player's games at each table against ``G/T``; none below three tables.

A part whose every gap is under one (squared) counts as perfect: 0. Its quality, as MafiaRatings
shows it, is ``1 − score / worst acceptable``, clamped to 0–100 %; the players' quality is shown
only above ten players and the tables' from three tables.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np
import numpy.typing as npt

SEATS = 10
#: the most players a plan seats: its pairs' counts are a players × players matrix, and the
#: search keeps one in lists (2,000 players: 4 million counts)
MAX_PLAYERS = 2000
#: the weight of a seat's gap (0-based seat → weight; the rest 1): seat 1 opens day 1, seat 2
#: speaks next, seat 10 closes it
SEAT_WEIGHT = {0: 4, 1: 3, 9: 2}
#: the numbers part's importance of the single seats and of the seat pairs
SINGLE_IMPORTANCE = 4
PAIR_IMPORTANCE = 2
#: a kept-apart pair's meetings count this much more (before squaring)
APART_WEIGHT = 10
#: MafiaRatings keeps nobody apart below this many players
APART_FROM = 12

Plan = Sequence[Sequence[Sequence[int]]]


class PlanError(ValueError):
    """A plan that is no plan: a table not of ten, a player twice in a round, unequal games."""


@dataclass(frozen=True)
class Shape:
    """What a plan is for: ``players`` players, ``tables`` tables a round, ``games`` games a
    player, and groups of players kept apart (no two of a group at one table)."""

    players: int
    tables: int
    games: int
    apart: tuple[frozenset[int], ...] = field(default=())

    @property
    def rounds(self) -> int:
        return self.players * self.games // (SEATS * self.tables)

    def partners_apart(self) -> dict[int, set[int]]:
        """Each kept-apart player's partners kept from him (none below 12 players)."""
        out: dict[int, set[int]] = {}
        if self.players < APART_FROM:
            return out
        for group in self.apart:
            for a, b in combinations(sorted(group), 2):
                out.setdefault(a, set()).add(b)
                out.setdefault(b, set()).add(a)
        return out


def shape_of(plan: Plan, players: int | None = None,
             apart: Iterable[frozenset[int]] = ()) -> Shape:
    """The shape of a plan (PlanError when it is none: see :func:`check`)."""
    if not plan or not plan[0]:
        raise PlanError("the plan has no round")
    tables = len(plan[0])
    top = max((p for rnd in plan for table in rnd for p in table), default=-1)
    n = top + 1 if players is None else players
    games = check(plan, n, tables)
    return Shape(n, tables, games, tuple(apart))


def check(plan: Plan, players: int, tables: int) -> int:
    """The games each player plays in ``plan``; PlanError naming the first fault."""
    played = [0] * players
    for r, rnd in enumerate(plan, start=1):
        if len(rnd) != tables:
            raise PlanError(f"round {r} has {len(rnd)} tables, not {tables}")
        seen: set[int] = set()
        for t, table in enumerate(rnd, start=1):
            if len(table) != SEATS:
                raise PlanError(f"round {r}, table {t} has {len(table)} players, not {SEATS}")
            for p in table:
                if not 0 <= p < players:
                    raise PlanError(f"round {r}, table {t}: there is no player {p + 1}")
                if p in seen:
                    raise PlanError(f"round {r}: player {p + 1} sits twice")
                seen.add(p)
                played[p] += 1
    if len(set(played)) != 1:
        low = min(range(players), key=played.__getitem__)
        high = max(range(players), key=played.__getitem__)
        raise PlanError(f"players play unequal games: player {low + 1} {played[low]}, "
                        f"player {high + 1} {played[high]}")
    return played[0]


# -- the counts ---------------------------------------------------------------------------------

def meetings(plan: Plan, players: int) -> list[list[int]]:
    """How many games each pair shares (a symmetric matrix)."""
    met = [[0] * players for _ in range(players)]
    for rnd in plan:
        for table in rnd:
            for a, b in combinations(table, 2):
                met[a][b] += 1
                met[b][a] += 1
    return met


#: every pair of seats of a table, as two index arrays
_FIRST, _SECOND = (np.array(side, dtype=np.intp)
                   for side in zip(*combinations(range(SEATS), 2), strict=True))


def meetings_matrix(plan: Plan, players: int) -> npt.NDArray[np.int64]:
    """:func:`meetings` as a numpy matrix, counted at once for all tables: the score of a
    2,000-player plan reads 4 million of them."""
    tables = np.array([table for rnd in plan for table in rnd], dtype=np.intp)
    if tables.size == 0:
        return np.zeros((players, players), dtype=np.int64)
    a, b = tables[:, _FIRST].ravel(), tables[:, _SECOND].ravel()
    flat = np.concatenate((a * players + b, b * players + a))
    return np.bincount(flat, minlength=players * players).reshape(players, players)


def pair_expectations(shape: Shape) -> npt.NDArray[np.float64]:
    """Each player's fair share of games with each other player, ``9·G/(N−1−k)`` (k: the
    partners kept from him)."""
    n = shape.players
    fair = np.full(n, shape.games * (SEATS - 1) / (n - 1))
    for p, kept in shape.partners_apart().items():
        fair[p] = shape.games * (SEATS - 1) / max(n - 1 - len(kept), 1)
    return fair


def seat_counts(plan: Plan, players: int) -> list[list[int]]:
    """How often each player sits on each seat (0-based)."""
    counts = [[0] * SEATS for _ in range(players)]
    for rnd in plan:
        for table in rnd:
            for s, p in enumerate(table):
                counts[p][s] += 1
    return counts


def table_counts(plan: Plan, players: int, tables: int) -> list[list[int]]:
    """How often each player plays at each table (0-based)."""
    counts = [[0] * tables for _ in range(players)]
    for rnd in plan:
        for t, table in enumerate(rnd):
            for p in table:
                counts[p][t] += 1
    return counts


# -- the parts ----------------------------------------------------------------------------------

def players_score(plan: Plan, shape: Shape) -> float:
    """The pairs' part (SeatingDef::calculatePlayersScore), every pair at once."""
    met = meetings_matrix(plan, shape.players)
    # (as MafiaRatings does, the lower-numbered player's expectation rules the pair)
    diff = (met - pair_expectations(shape)[:, None]) ** 2
    for p1, own in shape.partners_apart().items():
        for p2 in own:
            if p2 > p1:
                diff[p1, p2] = float(met[p1, p2] * APART_WEIGHT) ** 2
    upper = np.triu(diff, 1)  # each pair once
    return 0.0 if not (upper >= 1).any() else float(upper.sum())


def numbers_part(counts: Sequence[Sequence[int]], games: float) -> tuple[float, bool]:
    """The numbers' part of seat counts against ``games`` games a player, and whether every gap
    is under one (the caller decides what a perfect part counts)."""
    single, pair, half = games / SEATS, games / 5, games / 2
    score, perfect = 0.0, True
    for row in counts:
        for s, c in enumerate(row):
            diff = (single - c) ** 2
            perfect = perfect and diff < 1
            score += diff * SEAT_WEIGHT.get(s, 1) * SINGLE_IMPORTANCE
        for s in range(0, SEATS, 2):
            diff = (pair - row[s] - row[s + 1]) ** 2
            perfect = perfect and diff < 1
            score += diff * PAIR_IMPORTANCE
        for s in range(0, SEATS, 5):
            diff = (half - sum(row[s:s + 5])) ** 2
            perfect = perfect and diff < 1
            score += diff
    return score, perfect


def numbers_score(plan: Plan, shape: Shape) -> float:
    """The seat numbers' part (SeatingDef::calculateNumbersScore)."""
    score, perfect = numbers_part(seat_counts(plan, shape.players), shape.games)
    return 0.0 if perfect else score


def tables_score(plan: Plan, shape: Shape) -> float:
    """The tables' part (SeatingDef::calculateTablesScore); 0 below three tables."""
    if shape.tables < 3:
        return 0.0
    fair = shape.games / shape.tables
    score, perfect = 0.0, True
    for row in table_counts(plan, shape.players, shape.tables):
        for c in row:
            diff = fair - c
            score += diff * diff
            # (MafiaRatings' test: a table played a game or more too few, not too many)
            perfect = perfect and diff < 1
    return 0.0 if perfect else score


# -- the worst acceptable, and the quality ------------------------------------------------------

def worst_players(shape: Shape) -> float:
    n, g = shape.players, shape.games
    tens = n // SEATS
    fair = g * (SEATS - 1) / (n - 1)
    worst = fair * fair * 50 * tens * (tens - 1) + (fair - g) ** 2 * tens * 45
    return worst * 4 / (g + 2)


def worst_numbers(shape: Shape) -> float:
    return float(shape.players * 12)


def worst_tables(shape: Shape) -> float:
    fair = shape.games / shape.tables
    return shape.players * (fair * fair * (shape.tables - 1) + (fair - shape.games) ** 2) / 5


def quality(score: float, worst: float) -> float:
    """The percentage MafiaRatings shows for a part."""
    if worst <= 0:
        return 100.0
    return (1 - min(max(score / worst, 0.0), 1.0)) * 100


@dataclass(frozen=True)
class Score:
    """A plan's three parts, their sum and the qualities MafiaRatings would show (None: a part
    it does not show for this size)."""

    players: float
    numbers: float
    tables: float
    players_quality: float | None
    numbers_quality: float
    tables_quality: float | None

    @property
    def total(self) -> float:
        return self.players + self.numbers + self.tables

    @property
    def quality(self) -> float:
        """The mean of the qualities shown."""
        shown = [q for q in (self.players_quality, self.numbers_quality, self.tables_quality)
                 if q is not None]
        return sum(shown) / len(shown)

    def to_json(self) -> dict[str, float | None]:
        return {"players": round(self.players, 4), "numbers": round(self.numbers, 4),
                "tables": round(self.tables, 4), "total": round(self.total, 4),
                "players_quality": _pct(self.players_quality),
                "numbers_quality": _pct(self.numbers_quality),
                "tables_quality": _pct(self.tables_quality), "quality": _pct(self.quality)}


def _pct(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


def score(plan: Plan, shape: Shape) -> Score:
    """The plan's score in MafiaRatings' terms."""
    p, n, t = players_score(plan, shape), numbers_score(plan, shape), tables_score(plan, shape)
    return Score(p, n, t,
                 quality(p, worst_players(shape)) if shape.players > SEATS else None,
                 quality(n, worst_numbers(shape)),
                 quality(t, worst_tables(shape)) if shape.tables >= 3 else None)


def apart_met(plan: Plan, shape: Shape) -> list[tuple[int, int]]:
    """The kept-apart pairs that share a table somewhere (whatever the players' count)."""
    out = []
    met = meetings_matrix(plan, shape.players)
    for group in shape.apart:
        for a, b in combinations(sorted(group), 2):
            if met[a, b]:
                out.append((a, b))
    return out
