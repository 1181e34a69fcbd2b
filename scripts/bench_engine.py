"""Engine figures: random complete games per second, and the CPU time of replaying the longest
example table script (targets: >= 1,000 games/s on one core; < 1 s per replay)."""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

from narrator.replay.script import load_table_script
from narrator.replay.table import replay_script
from narrator.testing import play_random_game

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=3000)
    args = parser.parse_args()

    rng = random.Random(2013)
    actions = 0
    start = time.process_time()
    for _ in range(args.games):
        actions += len(play_random_game(rng).history)
    cpu = time.process_time() - start
    print(f"random complete games: {args.games / cpu:,.0f} games/s of CPU "
          f"({actions / args.games:.0f} actions a game, {actions / cpu:,.0f} actions/s)")

    longest = max(EXAMPLES.glob("*.table.jsonl"), key=lambda p: len(p.read_text()))
    start = time.process_time()
    script = load_table_script(longest)
    result = replay_script(script)
    cpu = time.process_time() - start
    runs = 20
    start = time.process_time()
    for _ in range(runs):
        replay_script(load_table_script(longest))
    warm = (time.process_time() - start) / runs
    print(f"replay of {longest.name} ({len(script.inputs)} inputs, "
          f"{len(result.transcript.said)} phrases): {cpu * 1000:.1f} ms CPU cold, "
          f"{warm * 1000:.1f} ms warm")


if __name__ == "__main__":
    main()
