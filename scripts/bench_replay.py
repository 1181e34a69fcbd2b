"""Replay figure: CPU time to replay the longest example table script (a whole 10-seat game),
cold (first run in the process) and warm (target: < 1 s).

    .venv/bin/python scripts/bench_replay.py [--runs N] [--quick] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from narrator.replay.script import load_table_script  # noqa: E402
from narrator.replay.table import replay_script  # noqa: E402

TARGET_S = 1.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--quick", action="store_true", help="3 runs: a smoke run")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    runs = 3 if args.quick else args.runs
    longest = max((ROOT / "examples").glob("*.table.jsonl"), key=lambda p: len(p.read_text()))
    start = time.process_time()
    result = replay_script(load_table_script(longest))
    cold = time.process_time() - start
    start = time.process_time()
    for _ in range(runs):
        replay_script(load_table_script(longest))
    warm = (time.process_time() - start) / runs
    ok = cold < TARGET_S
    if args.json:
        print(json.dumps({"bench": "replay", "figures": [
            {"name": f"replay {longest.name}, cold", "value": round(cold * 1000, 1),
             "unit": "ms CPU", "target": f"< {TARGET_S * 1000:.0f}", "ok": ok},
            {"name": f"replay {longest.name}, warm", "value": round(warm * 1000, 1),
             "unit": "ms CPU", "target": f"< {TARGET_S * 1000:.0f}",
             "ok": warm < TARGET_S}]}))
    else:
        print(f"replay of {longest.name} ({len(result.transcript.said)} phrases): "
              f"{cold * 1000:.1f} ms CPU cold, {warm * 1000:.1f} ms warm "
              f"(target < {TARGET_S:g} s: {'ok' if ok else 'MISSED'})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
