"""The engine and replay benchmarks run in their quick mode and report every ruleset (so they
never rot)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from narrator.engine import RULESETS

ROOT = Path(__file__).resolve().parents[2]


def load(name: str, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, name, bench)
    spec.loader.exec_module(bench)
    return bench


def test_the_engine_and_replay_benchmarks_run_quick_for_every_ruleset(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    assert load("bench_engine", monkeypatch).main(["--quick"]) == 0
    assert load("bench_replay", monkeypatch).main(["--quick"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("crime-time: random complete games: ")
    for name in RULESETS:
        assert any(line.startswith(f"{name}: random complete games: ") for line in lines)
        assert any(line.startswith(f"{name}: replay of ") for line in lines), name
