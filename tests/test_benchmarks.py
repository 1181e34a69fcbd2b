"""Every benchmark runs in its quick mode, once, through the one table of ``scripts/bench.py``,
so that none can rot unseen. The figures themselves are the benchmarks' business, not a test's:
only that each ran and reported its figures against a target — the engine and the replay for
every ruleset, the latency over its clips, the console its press and flood figures."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from narrator.engine import RULESETS

ROOT = Path(__file__).resolve().parents[1]
#: (budget: a hostless game inside a Pi-class CPU quota; its quick mode runs here only)
BENCHES = {"engine", "replay", "grammar", "voice", "latency", "session", "console", "budget",
           "inputs", "seating"}


#: the benchmarks on the real clock, mostly waiting: a game's minute and more, its narrator held
#: to a third of a core (budget); the voice path's say → first sample and its timers (voice)
WAITING = ("budget", "voice")


@pytest.fixture(scope="module")
def quick() -> dict[str, list[dict[str, Any]]]:
    """``bench.py --quick --json``: every benchmark's figures (one run for the module). The ones
    that mostly wait on the real clock (WAITING) run beside the others, each in a ``--only``
    run of its own (three at once: budget, voice, the rest), not after them: the same
    benchmarks, the same quick modes, a minute and a half less of a worker sitting idle."""
    names = list(_script("bench").BENCHES)
    groups = [*([n] for n in names if n in WAITING), [n for n in names if n not in WAITING]]
    procs = [subprocess.Popen([sys.executable, str(ROOT / "scripts" / "bench.py"), "--quick",
                               "--json", "--only", ",".join(group)], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL,
                              cwd=ROOT) for group in groups if group]
    results: dict[str, list[dict[str, Any]]] = {}
    try:
        for proc in procs:
            out, err = proc.communicate(timeout=1200)
            assert proc.returncode == 0, out + err
            results.update(json.loads(out))
    finally:  # (the processes this fixture started, by their id)
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    return results


def test_every_benchmark_runs_in_its_quick_mode_and_reports_against_a_target(
        quick: dict[str, list[dict[str, Any]]]) -> None:
    assert set(quick) >= BENCHES
    for name in BENCHES:
        rows = quick[name]
        assert rows and not any(str(r["name"]).startswith("(") for r in rows), (name, rows)
        assert any(r["target"] for r in rows), name  # a figure with its target
        for r in rows:
            assert r["value"] not in (None, "-"), (name, r)


def test_the_engine_and_the_replay_report_every_ruleset_with_its_target(
        quick: dict[str, list[dict[str, Any]]]) -> None:
    engine = {r["name"]: r for r in quick["engine"]}
    assert engine["random complete games"]["target"] == ">= 1,000"
    bar = 0.9 * engine["engine actions"]["value"]
    for name in RULESETS:
        if name == "crime-time":
            continue
        row = engine[f"engine actions ({name})"]
        # every ruleset's work per second against crime-time's in the same run
        assert row["target"].startswith(">= ") and "90 % of crime-time's" in row["target"]
        assert abs(float(row["target"].split()[1].replace(",", "")) - bar) <= 1
        assert row["ok"] == (row["value"] >= float(row["target"].split()[1].replace(",", "")))
        assert engine[f"random complete games ({name})"]["value"] > 0
    replayed = {r["name"] for r in quick["replay"]}
    longest = _script("bench_replay").longest_examples()  # each ruleset's longest example
    assert {name for name, _, _ in longest} == set(RULESETS)
    for _, path, _ in longest:
        assert {f"replay {path.name}, cold", f"replay {path.name}, warm"} <= replayed


def test_the_latency_and_the_console_report_their_figures(
        quick: dict[str, list[dict[str, Any]]]) -> None:
    latency = [r["name"] for r in quick["latency"]]
    assert any(n.startswith("end of word → decision, clean (p95, ") for n in latency)
    assert any(n.startswith("end of word → decision, noisy (p95, ") for n in latency)
    console = {r["name"]: r for r in quick["console"]}
    for name in ("pad press -> action applied (p95)", "press -> all 11 views updated (p95)"):
        assert console[name]["value"] > 0
    assert console["under a flood: presses never answered"]["target"] == "0"


def test_the_seating_plans_score_no_worse_than_mafiaratings_way_and_keep_pairs_apart(
        quick: dict[str, list[dict[str, Any]]]) -> None:
    rows = quick["seating"]
    ours = [r for r in rows if r["name"].startswith("score") and "ours (" in r["name"]]
    theirs = [r for r in rows if r["name"].endswith("MafiaRatings' way")]
    long = [r for r in rows if r["name"].endswith("ours against the long way")]
    assert len(ours) == len(theirs) == len(long) >= 3
    for mine, base in zip(ours, theirs, strict=True):
        assert mine["ok"] == (mine["value"] <= base["value"] + 0.1), (mine, base)
        assert mine["ok"], (mine, base)
    assert all(r["ok"] and r["target"].startswith("<= ") for r in long), long
    apart = [r for r in rows if r["name"].startswith("kept-apart pairs met")]
    assert apart and all(r["value"] == 0 and r["ok"] for r in apart)


def _script(name: str) -> Any:
    """``scripts/<name>.py`` as a module (its functions, not its run)."""
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.pop(0)


def test_the_table_has_a_target_beside_each_figure() -> None:
    text = _script("bench").table({"engine": [{"name": "random complete games", "value": 1234.0,
                                    "unit": "games/s", "target": ">= 1,000", "ok": True}],
                        "replay": [{"name": "replay", "value": 2000.0, "unit": "ms CPU",
                                    "target": "< 1000", "ok": False}]})
    lines = text.splitlines()
    assert lines[0].split() == ["benchmark", "figure", "measured", "target"]
    assert "1,234 games/s" in lines[2] and ">= 1,000 games/s" in lines[2] and lines[2].endswith("ok")
    assert lines[3].endswith("MISSED")
