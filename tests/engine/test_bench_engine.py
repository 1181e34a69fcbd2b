"""The engine benchmark runs in its quick mode and reports every ruleset (so it never rots)."""

from __future__ import annotations

import importlib.util
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
    assert lines[0].startswith("crime-time: random complete games: ")
    for name in RULESETS:
        assert any(line.startswith(f"{name}: random complete games: ") for line in lines)
        assert any(line.startswith(f"{name}: replay of ") for line in lines), name
