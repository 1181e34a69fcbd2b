#!/usr/bin/env python3
"""Every benchmark, one table: each figure with its target beside it.

Runs ``scripts/bench_<name>.py --json`` (with ``--quick`` when asked) one after the other, in
fresh processes so that none warms another, and prints one table. A benchmark that cannot run
(a missing voice pack or model) is a row saying why; the table is printed whatever happens.

    .venv/bin/python scripts/bench.py            # the full figures (a few minutes)
    .venv/bin/python scripts/bench.py --quick    # every benchmark in its smoke mode (a test)
    .venv/bin/python scripts/bench.py --only engine,grammar --json
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
#: the benchmarks, in the order of the table; ``console`` runs once its script exists
BENCHES = ("engine", "replay", "grammar", "voice", "latency", "session", "console", "budget",
           "inputs", "seating")
LATENCY_TARGET_MS = 300.0


def _latency_figures(report: dict[str, Any]) -> list[dict[str, Any]]:
    """bench_latency's own report, as table rows (the default setting's figures)."""
    default = report.get("default") or next(iter(report["settings"]))
    s = report["settings"][default]
    rows = []
    for part in ("clean", "noisy"):
        p95 = s[part]["p95_ms"]
        rows.append({"name": f"end of word → decision, {part} (p95, {s[part]['clips']} clips)",
                     "value": p95, "unit": "ms", "target": f"< {LATENCY_TARGET_MS:g}",
                     "ok": p95 is not None and p95 < LATENCY_TARGET_MS})
    rows.append({"name": "wrong decisions / misses", "value":
                 f"{s['all']['wrong']} / {s['all']['misses']}", "unit": "", "target": "0 / 0",
                 "ok": s["all"]["wrong"] == 0 and s["all"]["misses"] == 0})
    return rows


def run(name: str, quick: bool, timeout: float) -> list[dict[str, Any]]:
    """The figures of one benchmark (a row saying why when it could not run)."""
    script = HERE / f"bench_{name}.py"
    if not script.is_file():
        return [{"name": "(not present)", "value": "-", "unit": "", "target": "", "ok": None}]
    cmd = [sys.executable, str(script), "--json", *(["--quick"] if quick else [])]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return [{"name": f"(no answer in {timeout:g} s)", "value": "-", "unit": "",
                 "target": "", "ok": False}]
    start = proc.stdout.find("{")
    try:
        report = json.loads(proc.stdout[start:]) if start >= 0 else None
    except json.JSONDecodeError:
        report = None
    if proc.returncode != 0 or not isinstance(report, dict):
        why = (proc.stderr.strip().splitlines() or [f"exit code {proc.returncode}"])[-1]
        return [{"name": f"(could not run: {why[:70]})", "value": "-", "unit": "",
                 "target": "", "ok": False}]
    if "figures" in report:
        return list(report["figures"])
    return _latency_figures(report)


def _value(row: dict[str, Any]) -> str:
    v = row["value"]
    if isinstance(v, float):
        text = f"{v:,.1f}" if abs(v) < 100 else f"{v:,.0f}"
    elif isinstance(v, int):
        text = f"{v:,}"
    else:
        text = str(v)
    if "min" in row and "max" in row:  # several runs: min / median / max
        text = f"{row['min']:,} / {text} / {row['max']:,}"
    return f"{text} {row['unit']}".strip()


def table(results: dict[str, list[dict[str, Any]]]) -> str:
    rows = [("benchmark", "figure", "measured", "target", "")]
    for bench, figures in results.items():
        for i, row in enumerate(figures):
            verdict = {True: "ok", False: "MISSED", None: ""}[row["ok"]]
            target = f"{row['target']} {row['unit']}".strip() if row["target"] else ""
            rows.append((bench if i == 0 else "", row["name"], _value(row), target, verdict))
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    out = []
    for n, r in enumerate(rows):
        out.append("  ".join(c.ljust(w) if i != 2 else c.rjust(w)
                             for i, (c, w) in enumerate(zip(r, widths, strict=True))).rstrip())
        if n == 0:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="every benchmark's smoke mode")
    parser.add_argument("--only", metavar="NAMES", help=f"comma-separated, of: {', '.join(BENCHES)}")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--strict", action="store_true",
                        help="exit 1 when a target is missed (not only when a benchmark fails)")
    parser.add_argument("--timeout", type=float, default=1800.0, help="seconds per benchmark")
    args = parser.parse_args(argv)
    names = args.only.split(",") if args.only else list(BENCHES)
    unknown = [n for n in names if n not in BENCHES]
    if unknown:
        parser.error(f"unknown benchmark(s): {', '.join(unknown)}")
    results: dict[str, list[dict[str, Any]]] = {}
    for name in names:
        if not args.json:
            print(f"running {name} ...", file=sys.stderr, flush=True)
        results[name] = run(name, args.quick, args.timeout)
    if args.json:
        print(json.dumps(results, ensure_ascii=False, indent=1))
    else:
        print(table(results))
    failed = any(r["ok"] is False and str(r["name"]).startswith("(") for f in results.values()
                 for r in f)
    missed = any(r["ok"] is False for f in results.values() for r in f)
    return 1 if failed or (args.strict and missed) else 0


if __name__ == "__main__":
    raise SystemExit(main())
