"""Seating plans: our search's score against MafiaRatings' way, both scored by score.py.

MafiaRatings' way, as its ``seating_optimization.php`` goes: from a valid plan drawn at random,
swap two players of a round at different tables, two whole tables of a round, or two seats of a
table, and keep a swap only when it lowers the plan's score (here the whole score, read afresh
after every swap as it does). It is given at least the time our search took on the same input. Read afresh, a swap costs
the whole plan's score, so that way tries few swaps in that time; the same way is also run
**long**: the same random swaps, kept only when they lower the score, each scored by the counts
it changes (our search's bookkeeping, :class:`narrator.seating.state.State`), LONG times as many
swaps as our search makes. Targets: our score no higher than either on every input, the largest input within 60 s of CPU
(one core; CPU time, as the engine's figures, so that a busy machine does not count), and no
pair kept apart ever at one table.

The largest plan read, 2,000 players (200 tables, 10 games): its score with its worst-off
player's figures (what ``narrator tournament score`` counts) within a CPU second — before the
pairs were counted as matrices it took 1.4 s CPU (0.23 the score, 1.21 the worst-off player),
5–8 s on a busy machine; its search within its time limit, counted from the first step (the
first plan and its counts, 1.4 s CPU before, now 0.35 s, inside the limit); and 3,000 players
refused before anything is made.

    .venv/bin/python scripts/bench_seating.py [--quick] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from narrator.seating.plan import PlanImpossible, first_plan, make_plan
from narrator.seating.player import worst
from narrator.seating.score import SEATS, Shape, apart_met, score
from narrator.seating.state import State

#: (players, tables, games a player, groups kept apart)
INPUTS = ((10, 1, 10, ()), (20, 2, 10, ()), (30, 3, 10, ((0, 1), (2, 3, 4))), (50, 5, 12, ()),
          (100, 10, 10, ()))
QUICK_INPUTS = ((10, 1, 4, ()), (20, 2, 4, ()), (30, 3, 4, ((0, 1), (2, 3, 4))))
LARGEST_WITHIN = 60.0
FAULT = 1e6
#: the long way's swaps, as a multiple of our search's moves
LONG = 3
#: the largest plan: players, tables, games; its score's CPU seconds at most
LARGEST = (2000, 200, 10)
SCORE_WITHIN = 1.0
#: what the search may take past its limit: the chunk of moves it is in, the best plan kept
OVER_LIMIT = 1.0


def largest(time_limit: float) -> list[dict[str, Any]]:
    """The 2,000-player plan's rows: its score and worst-off player, its search under a time
    limit (on the CPU clock, so that a busy machine does not count), 3,000 refused."""
    n, tables, games = LARGEST
    shape = Shape(n, tables, games)
    name = f"{n}×{tables}×{games}"
    plan = first_plan(shape, random.Random(1), {})
    cpu = time.process_time()
    score(plan, shape)
    worst(plan, shape)
    apart_met(plan, shape)
    scored = time.process_time() - cpu
    cpu = time.process_time()
    outcome = make_plan(shape, 1, time_limit=time_limit, clock=time.process_time)
    searched = time.process_time() - cpu
    cpu = time.process_time()
    try:
        make_plan(Shape(3000, 300, 10), 1, time_limit=time_limit, clock=time.process_time)
        refused = False
    except PlanImpossible:
        refused = True
    refusal = time.process_time() - cpu
    return [
        {"name": f"score and worst-off player {name}", "value": round(scored, 2),
         "unit": "s CPU", "target": f"< {SCORE_WITHIN:g} (before: 1.4)",
         "ok": scored < SCORE_WITHIN},
        {"name": f"plan {name} with a {time_limit:g} s limit, from the first step",
         "value": round(searched, 2), "unit": "s CPU",
         "target": f"< {time_limit + OVER_LIMIT:g} ({outcome.moves:,} moves)",
         "ok": searched < time_limit + OVER_LIMIT and outcome.stopped},
        {"name": "plan of 3,000 players refused", "value": round(refusal, 3), "unit": "s CPU",
         "target": "< 0.1 (before any search)", "ok": refused and refusal < 0.1}]


def baseline(shape: Shape, seed: int, seconds: float) -> tuple[list[list[list[int]]], int]:
    """MafiaRatings' way for ``seconds``: random swaps, kept only when the score falls."""
    rng = random.Random(seed)
    plan = first_plan(shape, rng, {})

    def value() -> float:
        return score(plan, shape).total + FAULT * len(apart_met(plan, shape))

    best, tries = value(), 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        tries += 1
        r = rng.randrange(len(plan))
        rnd = plan[r]
        kind = rng.randrange(3) if shape.tables > 1 else 2
        if kind == 0:
            t1, t2 = rng.sample(range(shape.tables), 2)
            s1, s2 = rng.randrange(10), rng.randrange(10)
            undo = _swap_players(rnd, t1, s1, t2, s2)
        elif kind == 1:
            t1, t2 = rng.sample(range(shape.tables), 2)
            undo = _swap_tables(rnd, t1, t2)
        else:
            t = rng.randrange(shape.tables)
            s1, s2 = rng.sample(range(10), 2)
            undo = _swap_players(rnd, t, s1, t, s2)
        now = value()
        if now < best:
            best = now
        else:
            undo()
    return plan, tries


def long_way(shape: Shape, seed: int, swaps: int) -> list[list[list[int]]]:
    """MafiaRatings' way for ``swaps`` swaps, each scored by the counts it changes."""
    rng = random.Random(seed)
    state = State(shape, first_plan(shape, rng, {}), {})

    def value() -> float:
        return state.total() + FAULT * state.faults

    best = value()
    rounds = len(state.rounds)
    for _ in range(swaps):
        r = rng.randrange(rounds)
        kind = rng.randrange(3) if shape.tables > 1 else 2
        if kind == 0:
            t1, t2 = rng.sample(range(shape.tables), 2)
            s1, s2 = rng.randrange(SEATS), rng.randrange(SEATS)
            move = partial(state.swap, r, t1, s1, t2, s2)
        elif kind == 1:
            t1, t2 = rng.sample(range(shape.tables), 2)
            move = partial(state.swap_tables, r, t1, t2)
        else:
            t = rng.randrange(shape.tables)
            s1, s2 = rng.sample(range(SEATS), 2)
            move = partial(state.swap, r, t, s1, t, s2)
        move()
        now = value()
        if now < best:
            best = now
        else:
            move()  # (each move is its own inverse)
    return state.snapshot()


def _swap_tables(rnd: list[list[int]], t1: int, t2: int) -> Any:
    rnd[t1], rnd[t2] = rnd[t2], rnd[t1]
    return lambda: _swap_tables(rnd, t1, t2)


def _swap_players(rnd: list[list[int]], t1: int, s1: int, t2: int, s2: int) -> Any:
    rnd[t1][s1], rnd[t2][s2] = rnd[t2][s2], rnd[t1][s1]
    return lambda: _swap_players(rnd, t1, s1, t2, s2)


def compare(n: int, tables: int, games: int, apart: tuple[tuple[int, ...], ...],
            effort: float, least: float) -> list[dict[str, Any]]:
    """One input's rows: ours, the baseline's, and what each target asks of them."""
    shape = Shape(n, tables, games, tuple(frozenset(g) for g in apart))
    name = f"{n}×{tables}×{games}" + (" apart" if apart else "")
    start, cpu = time.monotonic(), time.process_time()
    outcome = make_plan(shape, 1, effort=effort)
    ours = outcome.rounds
    took, cpu = time.monotonic() - start, time.process_time() - cpu
    theirs, tries = baseline(shape, 1, max(took, least))
    mine, base = score(ours, shape).total, score(theirs, shape).total
    long_start = time.monotonic()
    longer = score(long_way(shape, 1, LONG * outcome.moves), shape).total
    long_took = time.monotonic() - long_start
    rows: list[dict[str, Any]] = [
        {"name": f"score {name}, ours ({took:.1f} s)", "value": round(mine, 1), "unit": "",
         "target": f"<= {base:,.1f} (MafiaRatings' way, {tries:,} swaps in "
                   f"{max(took, least):.1f} s)", "ok": mine <= base + 1e-9},
        {"name": f"score {name}, MafiaRatings' way", "value": round(base, 1), "unit": "",
         "target": "", "ok": None},
        {"name": f"score {name}, ours against the long way", "value": round(mine, 1),
         "unit": "", "target": f"<= {longer:,.1f} (MafiaRatings' way, "
                               f"{LONG * outcome.moves:,} swaps in {long_took:.1f} s)",
         "ok": mine <= longer + 1e-9}]
    if apart:
        met = len(apart_met(ours, shape))
        rows.append({"name": f"kept-apart pairs met {name}", "value": met, "unit": "pairs",
                     "target": "0", "ok": met == 0})
    rows.append({"name": f"time {name}, ours", "value": round(cpu, 1), "unit": "s CPU",
                 "target": f"< {LARGEST_WITHIN:g}", "ok": cpu < LARGEST_WITHIN})
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small inputs and budgets")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    inputs, effort, least = (QUICK_INPUTS, 0.2, 0.3) if args.quick else (INPUTS, 1.0, 1.0)
    rows: list[dict[str, Any]] = []
    for n, tables, games, apart in inputs:
        got = compare(n, tables, games, apart, effort, least)
        if (n, tables, games, apart) != inputs[-1]:  # (the time target is the largest's)
            got = [dict(r, target="", ok=None) if r["name"].startswith("time") else r
                   for r in got]
        rows += got
        if not args.json:
            _show(got)
    big = largest(1.0 if args.quick else 2.0)
    rows += big
    if not args.json:
        _show(big)
    if args.json:
        print(json.dumps({"bench": "seating", "figures": rows}, ensure_ascii=False))
    return 0


def _show(rows: list[dict[str, Any]]) -> None:
    for r in rows:
        print(f"{r['name']}: {r['value']} {r['unit']}".rstrip()
              + (f" (target {r['target']}: {'ok' if r['ok'] else 'MISSED'})"
                 if r["target"] else ""), flush=True)


if __name__ == "__main__":
    raise SystemExit(main())
