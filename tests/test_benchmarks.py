"""Every benchmark runs in its quick mode, through the one table of ``scripts/bench.py``, so
that none can rot unseen. The figures themselves are the benchmarks' business, not a test's:
only that each ran and reported its figures against a target."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_benchmark_runs_in_its_quick_mode_and_reports_against_a_target() -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "scripts" / "bench.py"), "--quick",
                           "--json"], capture_output=True, text=True, timeout=1200,
                          stdin=subprocess.DEVNULL, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    results = json.loads(proc.stdout)
    # (budget: a hostless game inside a Pi-class CPU quota; its quick mode runs here only)
    expected = {"engine", "replay", "grammar", "voice", "latency", "session", "console",
                "budget", "inputs"}
    assert expected <= set(results)
    for name in expected:
        rows = results[name]
        assert rows and not any(str(r["name"]).startswith("(") for r in rows), (name, rows)
        if name != "console":  # the console's figures have no target in the contract
            assert any(r["target"] for r in rows), name  # a figure with its target
        for r in rows:
            assert r["value"] not in (None, "-"), (name, r)


def test_the_table_has_a_target_beside_each_figure() -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import bench
    finally:
        sys.path.pop(0)
    text = bench.table({"engine": [{"name": "random complete games", "value": 1234.0,
                                    "unit": "games/s", "target": ">= 1,000", "ok": True}],
                        "replay": [{"name": "replay", "value": 2000.0, "unit": "ms CPU",
                                    "target": "< 1000", "ok": False}]})
    lines = text.splitlines()
    assert lines[0].split() == ["benchmark", "figure", "measured", "target"]
    assert "1,234 games/s" in lines[2] and ">= 1,000 games/s" in lines[2] and lines[2].endswith("ok")
    assert lines[3].endswith("MISSED")
