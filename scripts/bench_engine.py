"""Engine figures: random complete games per second of CPU under each ruleset; crime-time's first.

The target is crime-time's (>= 1,000 games/s on one core). Another ruleset's games are longer
(amateur's about twice as many actions), so its target is the same work per second: the actions/s
that crime-time's target means in the same run (1,000 x crime-time's actions a game).

    .venv/bin/python scripts/bench_engine.py [--games N] [--quick] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from narrator.engine.rules import RULESETS
from narrator.testing import play_random_game

TARGET = 1_000


def measure(games: int, rules: str = "crime-time") -> dict[str, float]:
    """Random complete games of ``rules``: games and actions per CPU second."""
    rng = random.Random(2013)
    actions = 0
    start = time.process_time()
    for _ in range(games):
        actions += len(play_random_game(rng, rules=rules).history)
    cpu = time.process_time() - start
    return {"games_per_s": games / cpu, "actions_per_game": actions / games,
            "actions_per_s": actions / cpu}


def rulesets() -> list[str]:
    """Every ruleset, crime-time first."""
    return sorted(RULESETS, key=lambda n: (n != "crime-time", n))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--quick", action="store_true", help="200 games a ruleset: a smoke run")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    games = 200 if args.quick else args.games
    figures: list[dict[str, object]] = []
    bar = 0.0  # actions/s: crime-time's target in this run's actions a game
    for name in rulesets():
        got = measure(games, name)
        suffix = "" if name == "crime-time" else f" ({name})"
        if name == "crime-time":
            bar = TARGET * got["actions_per_game"]
            ok = got["games_per_s"] >= TARGET
            figures += [
                {"name": "random complete games", "value": round(got["games_per_s"]),
                 "unit": "games/s", "target": f">= {TARGET:,}", "ok": ok},
                {"name": "engine actions", "value": round(got["actions_per_s"]),
                 "unit": "actions/s", "target": "", "ok": None}]
            shown = f"target >= {TARGET:,} games/s"
        else:
            ok = got["actions_per_s"] >= bar
            figures += [
                {"name": f"random complete games{suffix}", "value": round(got["games_per_s"]),
                 "unit": "games/s", "target": "", "ok": None},
                {"name": f"engine actions{suffix}", "value": round(got["actions_per_s"]),
                 "unit": "actions/s", "target": f">= {bar:,.0f} (crime-time's)", "ok": ok}]
            shown = f"target >= {bar:,.0f} actions/s, crime-time's"
        if not args.json:
            print(f"{name}: random complete games: {got['games_per_s']:,.0f} games/s of CPU "
                  f"({got['actions_per_game']:.0f} actions a game, "
                  f"{got['actions_per_s']:,.0f} actions/s; {shown}: "
                  f"{'ok' if ok else 'MISSED'})")
    if args.json:
        print(json.dumps({"bench": "engine", "figures": figures}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
