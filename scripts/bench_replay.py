"""Replay figures: CPU time to replay the longest example table script of each ruleset (a whole
game), cold (first run in the process) and warm (target: < 1 s); crime-time's first.

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

from narrator.replay.script import TableScript, load_table_script  # noqa: E402
from narrator.replay.table import replay_script  # noqa: E402

TARGET_S = 1.0


def longest_examples() -> list[tuple[str, Path, TableScript]]:
    """The longest example game of each ruleset that has one, crime-time's first."""
    longest: dict[str, tuple[Path, TableScript]] = {}
    for path in sorted((ROOT / "examples").glob("*.table.jsonl")):
        script = load_table_script(path)
        name = script.rules.name
        if name not in longest or len(path.read_text()) > len(longest[name][0].read_text()):
            longest[name] = (path, script)
    names = sorted(longest, key=lambda n: (n != "crime-time", n))
    return [(n, *longest[n]) for n in names]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--quick", action="store_true", help="3 runs: a smoke run")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    runs = 3 if args.quick else args.runs
    figures: list[dict[str, object]] = []
    for name, path, script in longest_examples():
        start = time.process_time()
        result = replay_script(load_table_script(path))
        cold = time.process_time() - start
        start = time.process_time()
        for _ in range(runs):
            replay_script(load_table_script(path))
        warm = (time.process_time() - start) / runs
        ok = cold < TARGET_S
        figures += [
            {"name": f"replay {path.name}, cold", "value": round(cold * 1000, 1),
             "unit": "ms CPU", "target": f"< {TARGET_S * 1000:.0f}", "ok": ok},
            {"name": f"replay {path.name}, warm", "value": round(warm * 1000, 1),
             "unit": "ms CPU", "target": f"< {TARGET_S * 1000:.0f}", "ok": warm < TARGET_S}]
        if not args.json:
            print(f"{name}: replay of {path.name} ({len(script.inputs)} inputs, "
                  f"{len(result.transcript.said)} phrases): {cold * 1000:.1f} ms CPU cold, "
                  f"{warm * 1000:.1f} ms warm (target < {TARGET_S:g} s: "
                  f"{'ok' if ok else 'MISSED'})")
    if args.json:
        print(json.dumps({"bench": "replay", "figures": figures}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
