"""The console stays in rooms one can hold in the head, as the engine does: no module of
``narrator/console`` over 500 lines, no function over 60; and its timing windows move a step's
end through the host, never through the scheduler's keys of the host's own timer."""

from __future__ import annotations

import ast
import re
from pathlib import Path

CONSOLE = Path(__file__).resolve().parents[2] / "narrator" / "console"
MODULE_LINES = 500
FUNCTION_LINES = 60


def test_no_console_module_is_over_500_lines() -> None:
    long = {p.name: n for p in CONSOLE.glob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MODULE_LINES}
    assert long == {}


def test_no_console_function_is_over_60_lines() -> None:
    long: dict[str, int] = {}
    for path in CONSOLE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > FUNCTION_LINES:
                    long[f"{path.name}:{node.name}"] = lines
    assert long == {}


def test_no_console_module_touches_the_hosts_timer_keys() -> None:
    # the host's timer is the host's: the console asks it to end a step (Host.end_step_at)
    keyed = {p.name for p in CONSOLE.glob("*.py")
             if re.search(r"""["']timer(-warning|-tick)?["']""", p.read_text(encoding="utf-8"))}
    assert keyed == set()
