"""The engine stays in rooms one can hold in the head: no module of ``narrator/engine`` over
500 lines, no function over 60 (docs/architecture.md shows what each room holds)."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "narrator" / "engine"
MODULE_LINES = 500
FUNCTION_LINES = 60


def test_no_engine_module_is_over_500_lines() -> None:
    long = {str(p.relative_to(ENGINE)): n for p in ENGINE.rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MODULE_LINES}
    assert long == {}


def test_no_engine_function_is_over_60_lines() -> None:
    long: dict[str, int] = {}
    for path in ENGINE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > FUNCTION_LINES:
                    long[f"{path.relative_to(ENGINE)}:{node.name}"] = lines
    assert long == {}
