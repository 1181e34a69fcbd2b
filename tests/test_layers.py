"""The house's floors: imports point only down, modes never import each other, no circles.

Every ``import`` in the package is read with :mod:`ast` — those inside functions and under
``TYPE_CHECKING`` too, since a lazy import is still a dependency.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "narrator"

#: floor of each top-level part of the package; a part may import only parts on lower floors,
#: or its own part. Parts on one floor are separate rooms that never import each other.
#: (``arguments``, what each command is given, is on the bottom floor so that every command's
#: package takes its value from it: ``parse`` is grammar's, on floor 1, ``models`` audio's)
FLOORS: dict[str, int] = {
    "errors": 0, "reasons": 0, "words": 0, "__init__": 0, "typed": 0, "arguments": 0, "bidi": 0,
    "clock": 1, "inputs": 1, "engine": 1, "grammar": 1, "reading": 1, "outputs": 1,
    "audio": 2, "scoring": 2, "seating": 2,
    "voice": 3, "club": 3,
    "host": 4,
    "console": 5, "listening": 5,
    "table": 6, "broadcast": 6, "rehearsal": 6,
    "play": 7, "assist": 7, "replay": 7,
    "resume": 8, "testing": 8, "conform": 8, "evening": 8, "tournament": 8, "review": 8, "cli": 8, "__main__": 9,
}


def module_name(path: Path) -> str:
    rel = path.relative_to(ROOT.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_module(name: str) -> bool:
    base = ROOT.parent.joinpath(*name.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def imports_of(path: Path) -> set[str]:
    """The ``narrator.*`` modules ``path`` imports (absolute imports; the package uses no others).

    ``from narrator.engine import events`` imports the module ``narrator.engine.events``: the
    edge goes to it, not to the package's ``__init__`` (which Python runs first anyway, as it
    does every enclosing package's)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("narrator"))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                raise AssertionError(f"{path}: relative import; use narrator.…")
            if node.module and node.module.startswith("narrator"):
                for alias in node.names:
                    sub = f"{node.module}.{alias.name}"
                    found.add(sub if _is_module(sub) else node.module)
    return found


def import_graph() -> dict[str, set[str]]:
    return {module_name(p): imports_of(p) for p in sorted(ROOT.rglob("*.py"))}


def part_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def violations(graph: dict[str, set[str]]) -> list[str]:
    """Every import that points up a floor or across to another room of the same floor."""
    found = []
    for mod, targets in graph.items():
        src = part_of(mod)
        for target in sorted(targets):
            dst = part_of(target)
            if dst == src or dst == "__init__":
                continue
            if src not in FLOORS or dst not in FLOORS:
                found.append(f"{mod} -> {target}: part not on any floor (add it to FLOORS)")
            elif FLOORS[dst] >= FLOORS[src]:
                found.append(f"{mod} -> {target}: {src} (floor {FLOORS[src]}) may not import "
                             f"{dst} (floor {FLOORS[dst]})")
    return found


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Import circles between modules (Tarjan's strongly connected components of size > 1)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in graph:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_every_part_of_the_package_is_on_a_floor() -> None:
    parts = {part_of(m) for m in import_graph()}
    assert parts <= set(FLOORS), sorted(parts - set(FLOORS))


def test_imports_point_only_down_and_modes_never_import_each_other() -> None:
    assert violations(import_graph()) == []


def test_no_import_circles() -> None:
    # package __init__ files re-export their modules: an edge back to them is not a circle
    graph = {m: {t for t in ts if t != m.rsplit(".", 1)[0]} for m, ts in import_graph().items()}
    assert cycles(graph) == []


@pytest.mark.parametrize(("graph", "expected"), [
    ({"narrator.audio.playback": {"narrator.host.clock"}}, "audio (floor 2) may not import host"),
    ({"narrator.play.cli": {"narrator.replay.table"}}, "play (floor 7) may not import replay"),
    ({"narrator.engine.game": {"narrator.grammar.parse"}}, "engine (floor 1) may not import grammar"),
])
def test_the_checker_catches_an_upward_or_sideways_import(graph: dict[str, set[str]],
                                                          expected: str) -> None:
    assert any(expected in v for v in violations(graph))


def test_the_checker_catches_a_circle() -> None:
    graph = {"narrator.host.a": {"narrator.host.b"}, "narrator.host.b": {"narrator.host.a"},
             "narrator.host.c": set()}
    assert cycles(graph) == [["narrator.host.a", "narrator.host.b"]]
