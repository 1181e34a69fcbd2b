"""The whole package stays in rooms one can hold in the head: no module of ``narrator/`` over
500 lines, no function over 60 (a data table is no function: it is a module-level value).
docs/architecture.md shows what each room holds; the console's and the journal's own tests
add what is particular to them (the host's timer keys, one name per job)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "narrator"
MODULE_LINES = 500
FUNCTION_LINES = 60


def long_modules(root: Path) -> dict[str, int]:
    return {str(p.relative_to(root)): n for p in root.rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MODULE_LINES}


def long_functions(root: Path) -> dict[str, int]:
    long: dict[str, int] = {}
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > FUNCTION_LINES:
                    long[f"{path.relative_to(root)}:{node.name}"] = lines
    return long


def test_no_module_is_over_500_lines() -> None:
    assert long_modules(PACKAGE) == {}


def test_no_function_is_over_60_lines() -> None:
    assert long_functions(PACKAGE) == {}


def test_the_limits_find_a_long_method_and_a_long_module(tmp_path: Path) -> None:
    body = "\n".join(f"        x{i} = {i}" for i in range(FUNCTION_LINES))
    (tmp_path / "room.py").write_text(f"class A:\n    def f(self) -> None:\n{body}\n")
    (tmp_path / "hall.py").write_text("TABLE = {\n" + "    1: 1,\n" * MODULE_LINES + "}\n")
    assert long_functions(tmp_path) == {"room.py:f": FUNCTION_LINES + 1}
    assert long_modules(tmp_path) == {"hall.py": MODULE_LINES + 2}
