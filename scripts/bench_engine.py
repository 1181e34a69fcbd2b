"""Engine figures: random complete games per second under each ruleset, and the CPU time of
replaying the longest example table script of each (targets: >= 1,000 games/s on one core;
< 1 s per replay). Crime-time's figures come first; ``--quick`` runs a few games only (a test
runs it so the benchmark never rots)."""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence
from pathlib import Path

from narrator.engine.rules import RULESETS
from narrator.replay.script import TableScript, load_table_script
from narrator.replay.table import replay_script
from narrator.testing import play_random_game

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def games_per_second(rules: str, games: int) -> tuple[float, float]:
    """Random complete games of ``rules``: (games per CPU second, actions a game)."""
    rng = random.Random(2013)
    actions = 0
    start = time.process_time()
    for _ in range(games):
        actions += len(play_random_game(rng, rules=rules).history)
    cpu = time.process_time() - start
    return games / cpu, actions / games


def longest_example(rules: str) -> tuple[Path, TableScript] | None:
    """The longest example game of ``rules``, if there is one."""
    scripts = [(p, load_table_script(p)) for p in EXAMPLES.glob("*.table.jsonl")]
    mine = [(p, s) for p, s in scripts if s.rules.name == rules]
    return max(mine, key=lambda ps: len(ps[0].read_text()), default=None)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--quick", action="store_true", help="30 games a ruleset, 2 replays")
    args = parser.parse_args(argv)
    games, runs = (30, 2) if args.quick else (args.games, 20)

    names = sorted(RULESETS, key=lambda n: (n != "crime-time", n))
    for name in names:
        rate, per_game = games_per_second(name, games)
        print(f"{name}: random complete games: {rate:,.0f} games/s of CPU "
              f"({per_game:.0f} actions a game, {rate * per_game:,.0f} actions/s)")
    for name in names:
        found = longest_example(name)
        if found is None:
            continue
        path, script = found
        start = time.process_time()
        result = replay_script(load_table_script(path))
        cold = time.process_time() - start
        start = time.process_time()
        for _ in range(runs):
            replay_script(load_table_script(path))
        warm = (time.process_time() - start) / runs
        print(f"{name}: replay of {path.name} ({len(script.inputs)} inputs, "
              f"{len(result.transcript.said)} phrases): {cold * 1000:.1f} ms CPU cold, "
              f"{warm * 1000:.1f} ms warm")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
