"""The console benchmark runs (``--quick``: one whole game) and prints its figures."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_bench_console_quick_plays_a_game_and_prints_its_figures() -> None:
    done = subprocess.run([sys.executable, str(REPO / "scripts" / "bench_console.py"), "--quick"],
                          capture_output=True, text=True, cwd=REPO, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert re.search(r"1 game\(s\), 10 pads \+ operator on loopback, \d+ presses", out)
    for name in ("pad press -> action applied", "handle in the server", "all 11 views updated"):
        line = next(x for x in out.splitlines() if name in x)
        n, p50, p95, worst = line.split()[-4:]
        assert int(n) > 0 and 0 < float(p50) <= float(p95) <= float(worst)
    assert re.search(r"memory: peak RSS \d+ MB", out)
