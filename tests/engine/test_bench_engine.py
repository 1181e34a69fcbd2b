"""The engine benchmark runs in its quick mode and reports every ruleset (so it never rots)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from narrator.engine import RULESETS

ROOT = Path(__file__).resolve().parents[2]


def test_the_engine_benchmark_runs_quick_for_every_ruleset(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("bench_engine",
                                                  ROOT / "scripts" / "bench_engine.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "bench_engine", bench)
    spec.loader.exec_module(bench)
    assert bench.main(["--quick"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("crime-time: random complete games: ") and "target" in lines[0]
    for name in RULESETS:
        assert any(line.startswith(f"{name}: random complete games: ") for line in lines)
    assert bench.main(["--quick", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)["figures"]
    assert figures[0]["name"] == "random complete games" and figures[0]["target"] == ">= 1,000"
    assert {f["name"] for f in figures} >= {f"random complete games, {name}"
                                            for name in RULESETS if name != "crime-time"}
