"""A plan being searched: its counts and MafiaRatings' three parts, kept up to date move by move.

Every move the search makes (two players of a round change places, a player and one sitting
out the round change places, two tables of a round change places) changes a handful of counts,
so the parts are not scored again from scratch: each part keeps its raw sum of squared gaps and
how many of its gaps are one or more (:mod:`narrator.seating.score` counts a part whose every
gap is under one as 0), and a move adds the differences of the gaps it touches. The swaps are
their own inverses, which is how a rejected move is undone.

The hard rules (pairs kept apart never at one table, a judge's player never at his tables) are
counted as ``faults``; the search refuses any move that adds one once there are none.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from narrator.seating.score import (
    APART_WEIGHT,
    PAIR_IMPORTANCE,
    SEAT_WEIGHT,
    SEATS,
    SINGLE_IMPORTANCE,
    Shape,
    meetings_matrix,
    pair_expectations,
)

EMPTY = -1


class State:
    """``rounds[r][t][s]``: the player in round r, table t, seat s; ``where[r][p]``: his
    (table, seat) that round, or None when he sits it out."""

    def __init__(self, shape: Shape, rounds: list[list[list[int]]],
                 off_tables: Mapping[int, set[int]]) -> None:
        self.shape = shape
        n, g = shape.players, shape.games
        self.rounds = rounds
        self.where: list[list[tuple[int, int] | None]] = []
        self.off = [frozenset(off_tables.get(p, ())) for p in range(n)]
        self.kept = [set[int]() for _ in range(n)]
        for group in shape.apart:
            for p in group:
                self.kept[p] |= group - {p}
        self._pair_weights()
        self.with_tables = shape.tables >= 3
        self.fair_table = g / shape.tables
        self.single, self.pair, self.half = g / SEATS, g / 5, g / 2
        self.seat_weight = [SEAT_WEIGHT.get(s, 1) * SINGLE_IMPORTANCE for s in range(SEATS)]
        self.recount()

    def _pair_weights(self) -> None:
        """Each pair's gap is ``mult·met − fair`` (score.players_score's, in one form): the
        lower-numbered player's expectation, a kept-apart pair's meetings ×10 against 0.
        Made twice: as matrices for :meth:`recount`, as lists for the moves (a list's item is
        read faster than an array's; a matrix turned into lists costs more than making them)."""
        shape, n = self.shape, self.shape.players
        apart = shape.partners_apart()
        mine = pair_expectations(shape)
        base = shape.games * (SEATS - 1) / (n - 1)
        lower = np.arange(n)
        fair = mine[np.minimum.outer(lower, lower)]
        np.fill_diagonal(fair, base)
        mult = np.ones((n, n), dtype=np.int64)
        self.mult = [[1] * n for _ in range(n)]
        self.fair = [[base] * n for _ in range(n)]
        for a in sorted(apart):  # (a kept-apart player's expectation rules his higher pairs)
            for b in range(a + 1, n):
                self.fair[a][b] = self.fair[b][a] = float(mine[a])
        for a, own in apart.items():
            for b in own:
                mult[a, b] = self.mult[a][b] = APART_WEIGHT
                fair[a, b] = self.fair[a][b] = 0.0
        self._mult, self._fair = mult, fair

    # -- from scratch -----------------------------------------------------------------------

    def recount(self) -> None:
        """Every count and part from the plan itself (at the start, and against drift)."""
        n, tables = self.shape.players, self.shape.tables
        self.met = [[0] * n for _ in range(n)]
        self.seats = [[0] * SEATS for _ in range(n)]
        self.at = [[0] * tables for _ in range(n)]
        self.faults = 0
        self.where = [[None] * n for _ in self.rounds]
        for r, rnd in enumerate(self.rounds):
            for t, table in enumerate(rnd):
                for s, p in enumerate(table):
                    self.where[r][p] = (t, s)
                    self.seats[p][s] += 1
                    self.at[p][t] += 1
                    self.faults += t in self.off[p]
                    for q in table[:s]:
                        self.met[p][q] += 1
                        self.met[q][p] += 1
                        self.faults += q in self.kept[p]
        # the pairs' gaps, every pair at once (n × n of them)
        met = meetings_matrix(self.rounds, n)
        gaps = np.triu((self._mult * met - self._fair) ** 2, 1)  # each pair once
        self.p_raw, self.p_bad = float(gaps.sum()), int((gaps >= 1).sum())
        self.n_raw, self.n_bad = 0.0, 0
        for p in range(n):
            raw, bad = self._numbers_of(p)
            self.n_raw += raw
            self.n_bad += bad
        self.t_raw, self.t_bad = 0.0, 0
        if self.with_tables:
            for row in self.at:
                for c in row:
                    d = self.fair_table - c
                    self.t_raw += d * d
                    self.t_bad += d >= 1

    def _numbers_of(self, p: int) -> tuple[float, int]:
        row, raw, bad = self.seats[p], 0.0, 0
        for s in range(SEATS):
            d = (self.single - row[s]) ** 2
            raw += d * self.seat_weight[s]
            bad += d >= 1
        for s in range(0, SEATS, 2):
            d = (self.pair - row[s] - row[s + 1]) ** 2
            raw += d * PAIR_IMPORTANCE
            bad += d >= 1
        for s in range(0, SEATS, 5):
            d = (self.half - sum(row[s:s + 5])) ** 2
            raw += d
            bad += d >= 1
        return raw, bad

    # -- the value ----------------------------------------------------------------------------

    def parts(self) -> tuple[float, float, float]:
        """players, numbers, tables as score.py counts them (a part with no gap of one: 0)."""
        return (self.p_raw if self.p_bad else 0.0, self.n_raw if self.n_bad else 0.0,
                self.t_raw if self.t_bad else 0.0)

    def total(self) -> float:
        p, n, t = self.parts()
        return p + n + t

    def snapshot(self) -> list[list[list[int]]]:
        return [[list(table) for table in rnd] for rnd in self.rounds]

    # -- the moves (each its own inverse) -----------------------------------------------------

    def swap(self, r: int, t1: int, s1: int, t2: int, s2: int) -> None:
        """The players on two seats of round r change places (one table: only their seats)."""
        rnd = self.rounds[r]
        x, y = rnd[t1][s1], rnd[t2][s2]
        if t1 == t2:
            self._seat(x, s1, -1)
            self._seat(y, s2, -1)
            self._seat(x, s2, 1)
            self._seat(y, s1, 1)
            rnd[t1][s1], rnd[t1][s2] = y, x
            self.where[r][x], self.where[r][y] = (t1, s2), (t1, s1)
            return
        self._leave(r, t1, s1)
        self._leave(r, t2, s2)
        self._join(r, t2, s2, x)
        self._join(r, t1, s1, y)

    def swap_out(self, r: int, t: int, s: int, y: int) -> int:
        """Player y, sitting round r out, takes seat s of table t; the one there sits out.
        Returns him (``swap_out(r, t, s, him)`` undoes it)."""
        x = self._leave(r, t, s)
        self._join(r, t, s, y)
        return x

    def swap_tables(self, r: int, t1: int, t2: int) -> None:
        """Two tables of round r change places whole (only the tables' counts change)."""
        rnd = self.rounds[r]
        for p in rnd[t1]:
            self._table(p, t1, -1)
            self._table(p, t2, 1)
        for p in rnd[t2]:
            self._table(p, t2, -1)
            self._table(p, t1, 1)
        rnd[t1], rnd[t2] = rnd[t2], rnd[t1]
        where = self.where[r]
        for t in (t1, t2):
            for s, p in enumerate(rnd[t]):
                where[p] = (t, s)

    # -- the counts a move changes ------------------------------------------------------------

    def _leave(self, r: int, t: int, s: int) -> int:
        table = self.rounds[r][t]
        p = table[s]
        table[s] = EMPTY
        self.where[r][p] = None
        self._meet(p, table, -1)
        self._seat(p, s, -1)
        self._table(p, t, -1)
        return p

    def _join(self, r: int, t: int, s: int, p: int) -> None:
        table = self.rounds[r][t]
        self._meet(p, table, 1)
        self._seat(p, s, 1)
        self._table(p, t, 1)
        table[s] = p
        self.where[r][p] = (t, s)

    def _meet(self, p: int, table: list[int], step: int) -> None:
        met, mult, fair, kept = self.met[p], self.mult[p], self.fair[p], self.kept[p]
        raw, bad = 0.0, 0
        for q in table:
            if q == EMPTY:
                continue
            m, k, f = met[q], mult[q], fair[q]
            old = k * m - f
            new = old + k * step
            old *= old
            new *= new
            raw += new - old
            bad += (new >= 1) - (old >= 1)
            met[q] = self.met[q][p] = m + step
            if q in kept:
                self.faults += step
        self.p_raw += raw
        self.p_bad += bad

    def _seat(self, p: int, s: int, step: int) -> None:
        row = self.seats[p]
        pair = row[s & ~1] + row[s | 1]
        first = s - s % 5
        half = row[first] + row[first + 1] + row[first + 2] + row[first + 3] + row[first + 4]
        old_single, old_pair, old_half = ((self.single - row[s]) ** 2, (self.pair - pair) ** 2,
                                          (self.half - half) ** 2)
        row[s] += step
        new_single, new_pair, new_half = ((self.single - row[s]) ** 2,
                                          (self.pair - pair - step) ** 2,
                                          (self.half - half - step) ** 2)
        self.n_raw += ((new_single - old_single) * self.seat_weight[s]
                       + (new_pair - old_pair) * PAIR_IMPORTANCE + new_half - old_half)
        self.n_bad += ((new_single >= 1) - (old_single >= 1) + (new_pair >= 1)
                       - (old_pair >= 1) + (new_half >= 1) - (old_half >= 1))

    def _table(self, p: int, t: int, step: int) -> None:
        if t in self.off[p]:
            self.faults += step
        row = self.at[p]
        if not self.with_tables:
            row[t] += step
            return
        old = self.fair_table - row[t]
        new = old - step
        row[t] += step
        self.t_raw += new * new - old * old
        self.t_bad += (new >= 1) - (old >= 1)
