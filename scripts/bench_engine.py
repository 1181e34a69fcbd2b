"""Engine figure: random complete games per second of CPU (target: >= 1,000 on one core).

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

from narrator.testing import play_random_game

TARGET = 1_000


def measure(games: int) -> dict[str, float]:
    rng = random.Random(2013)
    actions = 0
    start = time.process_time()
    for _ in range(games):
        actions += len(play_random_game(rng).history)
    cpu = time.process_time() - start
    return {"games_per_s": games / cpu, "actions_per_game": actions / games,
            "actions_per_s": actions / cpu}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--quick", action="store_true", help="200 games: a smoke run")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    got = measure(200 if args.quick else args.games)
    ok = got["games_per_s"] >= TARGET
    if args.json:
        print(json.dumps({"bench": "engine", "figures": [
            {"name": "random complete games", "value": round(got["games_per_s"]),
             "unit": "games/s", "target": f">= {TARGET:,}", "ok": ok},
            {"name": "engine actions", "value": round(got["actions_per_s"]),
             "unit": "actions/s", "target": "", "ok": None}]}))
    else:
        print(f"random complete games: {got['games_per_s']:,.0f} games/s of CPU "
              f"({got['actions_per_game']:.0f} actions a game, {got['actions_per_s']:,.0f} "
              f"actions/s; target >= {TARGET:,}: {'ok' if ok else 'MISSED'})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
