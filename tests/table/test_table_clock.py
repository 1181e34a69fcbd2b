"""One table clock: the real table's is made in one place (``table_clock``), which every front
end asks for it; a replay's or a test's virtual clock goes through the same call untouched.

The modules are read with :mod:`ast`: no module but the table assembly (and the clocks' own)
makes a monotonic clock, and each live front end (``play`` and its ``resume``, ``assist`` and
its ``resume``, the evening) gets its clock from ``table_clock``.
"""

from __future__ import annotations

import ast
import time
from pathlib import Path

import pytest

from narrator.clock import MonotonicClock, VirtualClock
from narrator.table.session import table_clock

ROOT = Path(__file__).resolve().parents[2] / "narrator"
#: where a monotonic clock may be made: the clocks themselves, and the one table assembly
MAKERS = {ROOT / "clock.py", ROOT / "table" / "session.py"}
#: the live front ends, each of which asks the assembly for its clock
FRONTS = ("play/cli.py", "assist/cli.py", "evening/cli.py")


def _calls(path: Path, name: str) -> list[int]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [node.lineno for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id == name]


def test_no_module_but_the_table_assembly_makes_a_real_clock() -> None:
    found = [f"{p.relative_to(ROOT.parent)}:{line}" for p in sorted(ROOT.rglob("*.py"))
             if p not in MAKERS for line in _calls(p, "MonotonicClock")]
    assert not found, "ask narrator.table.session.table_clock for it:\n" + "\n".join(found)
    assert _calls(ROOT / "table" / "session.py", "MonotonicClock")


@pytest.mark.parametrize("front", FRONTS)
def test_every_live_front_end_asks_the_assembly_for_its_clock(front: str) -> None:
    assert _calls(ROOT / front, "table_clock")


def test_a_given_clock_is_the_table_s_and_none_given_is_the_real_one() -> None:
    virtual = VirtualClock(12.5)
    assert table_clock(virtual) is virtual
    real = table_clock()
    assert isinstance(real, MonotonicClock)
    before = time.monotonic()
    assert before <= real.now() <= time.monotonic()  # the monotonic timeline, not the wall's
