"""The journal's rooms: no two functions of one name (a reader's and a writer's ``_line`` were
two jobs under one name); and every name its callers import is still importable from
``narrator.host.journal``, whichever room holds it. (Their sizes: tests/test_rooms.py.)"""

from __future__ import annotations

import ast
import importlib
from collections import Counter
from pathlib import Path

import pytest

JOURNAL = Path(__file__).resolve().parents[2] / "narrator" / "host" / "journal"
#: the names imported from ``narrator.host.journal`` by the package, the tests and the
#: scripts (and the two system modules the fault tests patch through it)
PUBLIC = ("Journal", "JournalContents", "JournalHeader", "LIMITS", "load_journal", "locked",
          "repair_torn_tail", "VERSION", "MODES", "LANGS", "TORN_SUFFIX", "os", "shutil")


def _functions() -> list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    return [(path.name, node) for path in sorted(JOURNAL.glob("*.py"))
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)]


def test_no_two_journal_functions_share_a_name() -> None:
    # (a reader's ``_line`` and a writer's ``_line`` were two jobs under one name)
    names = Counter(node.name for _, node in _functions() if not node.name.startswith("__"))
    assert {n: c for n, c in names.items() if c > 1} == {}


@pytest.mark.parametrize("name", PUBLIC)
def test_every_name_callers_import_is_importable_from_the_journal(name: str) -> None:
    assert hasattr(importlib.import_module("narrator.host.journal"), name)
