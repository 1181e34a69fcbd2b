"""A tournament's seating plan: who plays which round, at which table, on which seat.

The plan is searched by simulated annealing over MafiaRatings' own score
(:mod:`narrator.seating.score`: players + numbers + tables), each move scored by the
differences it makes (:mod:`narrator.seating.state`), in two stages, since seats change
neither who meets whom nor who plays at which table. First the tables: two players of a round
at different tables change places; two tables of a round change places whole; and, when some
players sit a round out, a player and one sitting out change places in one round and back in
another (so that everyone keeps his games). Then the seats: two players of one table change
seats, or a chain of such swaps passes a seat's surplus on to a player it helps. In each stage
the temperature falls from one that takes about half the worse moves to almost none, and rises
again from the best plan found for two more passes (reheats).

The hard rules — every table of every round full, nobody twice in a round, everyone the same
games, the pairs kept apart never at one table, a judge's player never at his tables — hold in
every plan returned; when the search cannot keep the last two, it says so in one line.

The search is deterministic in its moves: the same shape, seed and work (``effort``) give the
same plan. ``time_limit`` only caps it: a plan stopped by the clock is the best found so far and
may differ from one run to another.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from narrator.errors import NarratorError
from narrator.seating.score import MAX_PLAYERS, SEATS, Shape
from narrator.seating.state import State

#: moves a pass, for each seat of the plan (rounds × tables × 10), and at most in all (a hundred
#: players' ten games: about half a minute of a core)
MOVES_PER_SEAT = 400
MOST_MOVES = 1_000_000
#: the passes: the first from a hot start, the others reheated from the best plan so far
PASSES = (1.0, 0.3, 0.1)
#: the share of worse moves the first pass starts by taking
START_ACCEPT = 0.5
#: the first stage's share of the moves (who sits at which table); the rest seat them
TABLES_SHARE = 0.75
#: the last temperature of a pass, of its first
COOLING = 1e-4
#: the longest chain of seat swaps (chain_move), in games
CHAIN = 12
#: the clock is read, and the progress shown, every so many moves
CHUNK = 2000
#: a fault (a kept-apart pair met, a judge's player at his table) costs this much, while there
#: are faults; once there are none no move may add one
FAULT_COST = 1e6

Progress = Callable[[float, float], None]
#: seconds, read for the time limit (time.monotonic; a test's own clock)
Clock = Callable[[], float]
Rounds = list[list[list[int]]]


class PlanImpossible(NarratorError):
    """A shape no plan fits, or rules the search could not keep; one line saying which."""


@dataclass(frozen=True)
class Outcome:
    """The plan, and how the search went: moves tried, and whether the clock stopped it."""

    rounds: Rounds
    moves: int
    stopped: bool


def check_shape(shape: Shape, off_tables: Mapping[int, set[int]] | None = None) -> None:
    """PlanImpossible when no plan fits ``shape``."""
    n, tables, games = shape.players, shape.tables, shape.games
    if n > MAX_PLAYERS:  # (before anything is made for them: the pairs are n × n)
        raise PlanImpossible(f"{n:,} players; a plan seats at most {MAX_PLAYERS:,}")
    if tables < 1 or games < 1:
        raise PlanImpossible("a plan needs at least one table and one game a player")
    if n < SEATS * tables:
        raise PlanImpossible(f"{n} players cannot fill {tables} table(s) of {SEATS}")
    if n * games % (SEATS * tables):
        raise PlanImpossible(
            f"{n} players × {games} games = {n * games} seats, not whole rounds of "
            f"{tables} table(s) of {SEATS} ({SEATS * tables} a round)")
    rounds = shape.rounds
    if games > rounds:
        raise PlanImpossible(f"{games} games a player in {rounds} rounds")
    for group in shape.apart:
        if any(not 0 <= p < n for p in group):
            raise PlanImpossible("a player kept apart is not in the plan")
        if len(group) * games > tables * rounds:
            raise PlanImpossible(
                f"{len(group)} players kept apart play {len(group) * games} games; "
                f"{tables} table(s) × {rounds} rounds hold only {tables * rounds} of them apart")
    for p, off in (off_tables or {}).items():
        if set(range(tables)) <= set(off):
            raise PlanImpossible(f"player {p + 1} may play at no table")


def make_plan(shape: Shape, seed: int = 0, *, time_limit: float | None = None,
              effort: float = 1.0, progress: Progress | None = None,
              off_tables: Mapping[int, set[int]] | None = None,
              clock: Clock = time.monotonic) -> Outcome:
    """The best plan found for ``shape``; ``effort`` scales the moves tried (1: the default
    budget), ``progress(done, best)`` is called as it goes (done from 0 to 1). The time limit
    counts from the call: the first plan and its counts take part of it."""
    deadline = None if time_limit is None else clock() + time_limit
    check_shape(shape, off_tables)
    rng = random.Random(seed)
    state = State(shape, first_plan(shape, rng, off_tables or {}), off_tables or {})
    seats = shape.rounds * shape.tables * SEATS
    moves = int(min(MOVES_PER_SEAT * seats * len(PASSES), MOST_MOVES) * effort)
    moves = max(moves, CHUNK * len(PASSES) * 2)
    search = Search(state, rng, moves, deadline, progress, clock)
    best = search.run(moves)
    if progress is not None:
        progress(min(search.moves / moves, 1.0), search.best_total + search.best_faults * FAULT_COST)
    if search.best_faults:
        raise PlanImpossible(_faults_text(shape, off_tables))
    return Outcome(best, search.moves, search.stopped)


def _faults_text(shape: Shape, off_tables: Mapping[int, set[int]] | None) -> str:
    rules = [r for r, on in (("the pairs kept apart", shape.apart),
                             ("the judges' tables", off_tables)) if on]
    return f"no plan found that keeps {' and '.join(rules)}: ask for fewer"


# -- the first plan -------------------------------------------------------------------------------

def first_plan(shape: Shape, rng: random.Random, off: Mapping[int, set[int]]) -> Rounds:
    """A valid plan drawn at random: each round the players with the most games left play
    (ties drawn), each put at a table where nobody kept from him sits, when there is one."""
    n, tables = shape.players, shape.tables
    left = [shape.games] * n
    kept = [set[int]() for _ in range(n)]
    for group in shape.apart:
        for p in group:
            kept[p] |= group - {p}
    rounds: Rounds = []
    for _ in range(shape.rounds):
        order = list(range(n))
        rng.shuffle(order)
        order.sort(key=lambda p: -left[p])
        playing = order[:SEATS * tables]
        # the most constrained first, so that they find a table
        playing.sort(key=lambda p: -(len(kept[p]) + len(off.get(p, ()))))
        rnd: list[list[int]] = [[] for _ in range(tables)]
        sitting = [set[int]() for _ in range(tables)]
        free = list(range(tables))  # the tables with a seat left, in order
        for p in playing:
            if kept[p] or off.get(p):
                good = [t for t in free if t not in off.get(p, ()) and not kept[p] & sitting[t]]
                t = rng.choice(good or free)
            else:  # (every free table is good: the same draw, without a look at each)
                t = rng.choice(free)
            rnd[t].append(p)
            sitting[t].add(p)
            if len(rnd[t]) == SEATS:
                free.remove(t)
            left[p] -= 1
        for table in rnd:
            rng.shuffle(table)
        rounds.append(rnd)
    return rounds


# -- the search -----------------------------------------------------------------------------------

class Search:
    """Simulated annealing over a State, in two stages: who sits at which table each round
    (the players' and the tables' parts, which the seats do not change), then the seats of
    each table (the numbers part, which only the seats change); keeps the best plan."""

    def __init__(self, state: State, rng: random.Random, budget: int,
                 deadline: float | None, progress: Progress | None,
                 clock: Clock = time.monotonic) -> None:
        self.state, self.rng, self.budget = state, rng, budget
        self.clock = clock
        self.deadline = deadline  # (on ``clock``)
        self.until = self.deadline  # the stage's own end
        self.cut = False  # the stage was stopped by the clock
        self.progress = progress
        self.moves = 0
        self.stopped = False
        self.seating = False  # the stage: the tables (False), then the seats (True)
        self.best = state.snapshot()
        self.best_value, self.best_faults = self.value(), state.faults
        self.best_total = state.total()
        shape = state.shape
        self.sitting = shape.players > SEATS * shape.tables
        self.kinds = self._kinds()

    def value(self) -> float:
        """What the stage lowers: the parts it changes, and the faults."""
        players, numbers, tables = self.state.parts()
        got = numbers if self.seating else players + tables
        return got + self.state.faults * FAULT_COST

    def _kinds(self) -> list[Callable[[float], bool]]:
        """The stage's moves, as often as each is worth trying."""
        if self.seating:
            return [self.seat_move, self.chain_move]
        shape = self.state.shape
        kinds: list[Callable[[float], bool]] = []
        if shape.tables > 1:
            kinds += [self.table_move] * 3
            if shape.tables >= 3 or any(self.state.off):
                kinds.append(self.tables_move)
        if self.sitting:
            kinds += [self.out_move] * 2
        return kinds

    def run(self, moves: int) -> Rounds:
        """The best plan in about ``moves`` moves: most for the tables, the rest for seats.
        Past the deadline a stage is not begun: the plan so far is the answer (a first plan
        that took the whole limit is given as it is)."""
        tables = int(moves * TABLES_SHARE) if self.kinds else 0
        if self._late():
            self.stopped = True
            return self.best
        if tables:
            # (a time limit leaves the seats their share of it: unseated tables score badly)
            if self.deadline is not None:
                left = max(self.deadline - self.clock(), 0.0)
                self.until = self.deadline - left * (1 - TABLES_SHARE)
            self._stage(tables)
            self.until, self.cut = self.deadline, False
            if self._late():
                return self.best
        self.seating = True
        self.kinds = self._kinds()
        self._restore()
        self.best_value = self.value()
        self._stage(moves - tables)
        return self.best

    def _late(self) -> bool:
        return self.deadline is not None and self.clock() >= self.deadline

    def _stage(self, moves: int) -> None:
        per_pass = moves // len(PASSES)
        start = self._temperature()
        for share in PASSES:
            if self.cut:
                return
            if share != PASSES[0]:
                self._restore()
            self._anneal(per_pass, start * share)

    def _restore(self) -> None:
        self.state.rounds = [[list(t) for t in rnd] for rnd in self.best]
        self.state.recount()

    def _temperature(self) -> float:
        """One at which a typical worse move is taken half the time (START_ACCEPT)."""
        worse = []
        for _ in range(200):
            before = self.value() - self.state.faults * FAULT_COST
            self.rng.choice(self.kinds)(math.inf)  # taken whatever it costs
            after = self.value() - self.state.faults * FAULT_COST
            if after > before:
                worse.append(after - before)
        self._restore()
        if not worse:
            return 1.0
        worse.sort()
        return max(worse[len(worse) // 2] / -math.log(START_ACCEPT), 1e-6)

    def _anneal(self, moves: int, hot: float) -> None:
        cold = hot * COOLING
        ratio = (cold / hot) ** (1 / max(moves, 1))
        temp, kinds, choice = hot, self.kinds, self.rng.choice
        for done in range(moves):
            choice(kinds)(temp)
            temp *= ratio
            if done % CHUNK == CHUNK - 1 and not self._tick():
                return
        self.moves += moves % CHUNK
        self.state.recount()  # (the sums carry rounding; the best plan is measured afresh)
        self._keep()

    def _tick(self) -> bool:
        self.moves += CHUNK
        self._keep()
        if self.progress is not None:
            self.progress(min(self.moves / self.budget, 1.0),
                          self.best_total + self.best_faults * FAULT_COST)
        if self.until is not None and self.clock() >= self.until:
            self.stopped = self.cut = True
            return False
        return True

    def _keep(self) -> None:
        value = self.value()
        if value < self.best_value - 1e-9:
            self.best_value, self.best_faults = value, self.state.faults
            self.best_total = self.state.total()
            self.best = self.state.snapshot()

    def _accept(self, before: float, faults: int, temp: float) -> bool:
        """Whether the move just made stays: never one adding a fault while there are none."""
        state = self.state
        if state.faults > faults and faults == 0 and temp != math.inf:
            return False
        delta = self.value() - before
        if delta <= 0 or temp == math.inf:
            accepted = True
        else:
            accepted = self.rng.random() < math.exp(-delta / temp)
        return accepted

    # -- the moves: each made, then kept or undone -------------------------------------------

    def _try(self, move: Callable[[], None], temp: float) -> bool:
        """Make ``move`` (its own inverse): kept if accepted, else made again to undo it."""
        before, faults = self.value(), self.state.faults
        move()
        if self._accept(before, faults, temp):
            return True
        move()
        return False

    def seat_move(self, temp: float) -> bool:
        state, rng = self.state, self.rng
        r, t = rng.randrange(len(state.rounds)), rng.randrange(state.shape.tables)
        s1, s2 = rng.sample(range(SEATS), 2)
        return self._try(lambda: state.swap(r, t, s1, t, s2), temp)

    def chain_move(self, temp: float) -> bool:
        """Two seats a and b of a table change players; the one now on a takes b again in
        another game where he sits on a, and so on: an imbalance of seat a against b passes
        along the chain to a player it helps, where the chain stops (at most CHAIN games)."""
        state, rng = self.state, self.rng
        r, t = rng.randrange(len(state.rounds)), rng.randrange(state.shape.tables)
        a, b = rng.sample(range(SEATS), 2)
        before = self.value()
        made = [(r, t)]
        state.swap(r, t, a, t, b)
        for _ in range(CHAIN):
            if self.value() < before - 1e-9:
                break
            carrier = state.rounds[r][t][a]
            games = [(q, w[0]) for q in range(len(state.rounds))
                     if (w := state.where[q][carrier]) is not None and w[1] == a
                     and (q, w[0]) not in made]
            if not games:
                break
            r, t = games[rng.randrange(len(games))]
            state.swap(r, t, a, t, b)
            made.append((r, t))
        if self._accept(before, state.faults, temp):
            return True
        for r, t in reversed(made):
            state.swap(r, t, a, t, b)
        return False

    def table_move(self, temp: float) -> bool:
        state, rng = self.state, self.rng
        r = rng.randrange(len(state.rounds))
        t1, t2 = rng.sample(range(state.shape.tables), 2)
        s1, s2 = rng.randrange(SEATS), rng.randrange(SEATS)
        return self._try(lambda: state.swap(r, t1, s1, t2, s2), temp)

    def tables_move(self, temp: float) -> bool:
        state, rng = self.state, self.rng
        r = rng.randrange(len(state.rounds))
        t1, t2 = rng.sample(range(state.shape.tables), 2)
        return self._try(lambda: state.swap_tables(r, t1, t2), temp)

    def out_move(self, temp: float) -> bool:
        """x plays round r and y sits it out; in a round r2 where y plays and x sits out,
        the other way round: they change places in both."""
        state, rng = self.state, self.rng
        rounds = len(state.rounds)
        r = rng.randrange(rounds)
        t, s = rng.randrange(state.shape.tables), rng.randrange(SEATS)
        x = state.rounds[r][t][s]
        out = [p for p, w in enumerate(state.where[r]) if w is None]
        y = out[rng.randrange(len(out))]
        others = [q for q in range(rounds) if state.where[q][x] is None and state.where[q][y]]
        if not others:
            return False
        r2 = others[rng.randrange(len(others))]
        t2, s2 = state.where[r2][y] or (0, 0)
        before, faults = self.value(), state.faults
        state.swap_out(r, t, s, y)
        state.swap_out(r2, t2, s2, x)
        if self._accept(before, faults, temp):
            return True
        state.swap_out(r2, t2, s2, y)
        state.swap_out(r, t, s, x)
        return False
