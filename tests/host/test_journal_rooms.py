"""The journal stays in rooms one can hold in the head: no module of ``narrator/host/journal``
over 500 lines, no function over 60, no two functions of one name; and every name its callers
import is still importable from ``narrator.host.journal``, whichever room holds it."""

from __future__ import annotations

import ast
import importlib
from collections import Counter
from pathlib import Path

import pytest

JOURNAL = Path(__file__).resolve().parents[2] / "narrator" / "host" / "journal"
MODULE_LINES = 500
FUNCTION_LINES = 60
#: the names imported from ``narrator.host.journal`` by the package, the tests and the
#: scripts (and the two system modules the fault tests patch through it)
PUBLIC = ("Journal", "JournalContents", "JournalHeader", "LIMITS", "load_journal", "locked",
          "repair_torn_tail", "VERSION", "MODES", "LANGS", "TORN_SUFFIX", "os", "shutil")


def _functions() -> list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    return [(path.name, node) for path in sorted(JOURNAL.glob("*.py"))
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)]


def test_no_journal_module_is_over_500_lines() -> None:
    long = {p.name: n for p in JOURNAL.glob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MODULE_LINES}
    assert long == {}


def test_no_journal_function_is_over_60_lines() -> None:
    long = {f"{name}:{node.name}": lines for name, node in _functions()
            if (lines := (node.end_lineno or node.lineno) - node.lineno + 1) > FUNCTION_LINES}
    assert long == {}


def test_no_two_journal_functions_share_a_name() -> None:
    # (a reader's ``_line`` and a writer's ``_line`` were two jobs under one name)
    names = Counter(node.name for _, node in _functions() if not node.name.startswith("__"))
    assert {n: c for n, c in names.items() if c > 1} == {}


@pytest.mark.parametrize("name", PUBLIC)
def test_every_name_callers_import_is_importable_from_the_journal(name: str) -> None:
    assert hasattr(importlib.import_module("narrator.host.journal"), name)
