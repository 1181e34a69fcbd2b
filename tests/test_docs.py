"""The README and ``docs/`` are self-contained and their examples are what the commands print.

A fenced block right after ``<!-- output: narrator ARGS -->`` is the output of that command
(stdout, then stderr), run from a scratch folder in which ``examples/`` is the repository's and
every earlier ``<!-- file: NAME -->`` block of the same page is written as ``NAME``. A line
``…`` in the block stands for any number of lines; in a ``json`` block, ``"…"`` as the last
element of a list stands for the rest of the list, and a ``"…"`` key for the other keys.
A journal or a file of input events shown in a ``file`` block is in the form the recorder writes
today (its header, its version, each event's line). ``<!-- setup: NAME DIR -->`` makes in the
scratch folder what no command makes offline (SETUPS: a director's database with the tables'
games in it).
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import shlex
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from narrator.cli import main
from narrator.host.journal import load_journal
from narrator.inputs import Input

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
ELLIPSIS = "…"
FORMAT_PAGES = {"table-script.md", "protocol.md", "journal.md", "session.md"}

BLOCK = re.compile(r"<!-- (output|file): (.+?) -->\n```(\w*)\n(.*?)^```|<!-- (setup): (.+?) -->",
                   re.S | re.M)
# what a user does not have: the contract and the rule texts kept outside the repository
OUTSIDE = re.compile(r"\bSPEC(\.md| ?§)|ARCHITECTURE\.md|STACK\.md|\brules/[\w.-]+\.txt"
                     r"|[\w-]+\.(ru|uk)\.txt")
LINK = re.compile(r"\]\(([^)\s#]+)(#[^)]*)?\)")
REPO_PATH = re.compile(r"`((?:docs|examples|scripts|tests|narrator)/[\w./-]+)`")


def blocks(page: Path) -> list[tuple[str, str, str, str]]:
    """``(directive, argument, language, body)`` of every marked block, in page order."""
    return [m.groups()[:4] if m.group(5) is None else (m.group(5), m.group(6), "", "")
            for m in BLOCK.finditer(page.read_text(encoding="utf-8"))]


def setup(argument: str, folder: Path) -> None:
    """``<!-- setup: NAME DIR -->``: SETUPS' NAME makes ``folder / DIR``."""
    from tests.tournament.director_helpers import docs_tournament

    setups = {"tournament": docs_tournament}
    name, where = argument.split()
    setups[name](folder / where)


def run(command: str) -> str:
    """``narrator ARGS`` in this process: stdout, then stderr."""
    argv = shlex.split(command)
    assert argv[0] == "narrator", command
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        main(argv[1:])
    return out.getvalue() + err.getvalue()


def json_matches(doc: Any, real: Any) -> bool:
    """``real`` is what ``doc`` shows, ``"…"`` standing for the rest of a list or object."""
    if isinstance(doc, dict):
        if not isinstance(real, dict):
            return False
        keys = [k for k in doc if k != ELLIPSIS]
        if ELLIPSIS not in doc and set(keys) != set(real):
            return False
        return all(k in real and json_matches(doc[k], real[k]) for k in keys)
    if isinstance(doc, list):
        if not isinstance(real, list):
            return False
        if doc and doc[-1] == ELLIPSIS:
            doc = doc[:-1]
            real = real[:len(doc)]
        return len(doc) == len(real) and all(map(json_matches, doc, real))
    return type(doc) is type(real) and doc == real


def lines_match(doc: list[str], real: list[str], same: Any) -> bool:
    """Line by line, a ``…`` line standing for any number of lines."""

    @cache
    def at(i: int, j: int) -> bool:
        if i == len(doc):
            return j == len(real)
        if doc[i].strip() == ELLIPSIS:
            return any(at(i + 1, k) for k in range(j, len(real) + 1))
        return j < len(real) and same(doc[i], real[j]) and at(i + 1, j + 1)

    return at(0, 0)


def output_matches(language: str, doc: str, real: str) -> bool:
    if language == "json":
        return json_matches(json.loads(doc), json.loads(real))
    if language == "jsonl":
        return lines_match(doc.splitlines(), real.splitlines(),
                           lambda a, b: json_matches(json.loads(a), json.loads(b)))
    return lines_match([x.rstrip() for x in doc.splitlines()],
                       [x.rstrip() for x in real.splitlines()], str.__eq__)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_examples_are_what_the_commands_print(page: Path, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    monkeypatch.chdir(tmp_path)
    for directive, argument, language, body in blocks(page):
        if directive == "setup":
            setup(argument, tmp_path)
            continue
        if directive == "file":
            (tmp_path / argument).parent.mkdir(parents=True, exist_ok=True)
            (tmp_path / argument).write_text(body, encoding="utf-8")
            continue
        real = run(argument)
        assert output_matches(language, body, real), (
            f"{page.name}: `{argument}` printed\n{real}\nbut the page shows\n{body}")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_shown_journals_and_events_are_what_the_recorder_writes(page: Path, tmp_path: Path) -> None:
    for directive, name, _, body in blocks(page):
        if directive != "file" or not name.endswith(".jsonl"):
            continue
        lines = body.splitlines()
        if lines and "journal" in json.loads(lines[0]):
            path = tmp_path / "journal.jsonl"
            path.write_text(lines[0] + "\n", encoding="utf-8")
            header = load_journal(path).header.to_json()
            assert json.loads(lines[0]) == header, f"{page.name}: {name}: the header is {header}"
            lines = lines[1:]
        for line in lines:
            if '"type"' in line:
                assert Input.loads(line).dumps() == line, f"{page.name}: {name}: {line}"


def test_the_checker_tells_a_shown_output_from_another() -> None:
    assert json_matches({"a": [1, 2, ELLIPSIS], ELLIPSIS: ELLIPSIS}, {"a": [1, 2, 3], "b": 0})
    assert not json_matches({"a": [1, 2, ELLIPSIS]}, {"a": [1, 2, 3], "b": 0})
    assert not json_matches({"a": [1, 3, ELLIPSIS]}, {"a": [1, 2, 3]})
    assert not json_matches({"a": [1, 2]}, {"a": [1, 2, 3]})
    assert not json_matches({"a": 1}, {"a": True})
    assert lines_match(["x", "…", "z"], ["x", "y", "y", "z"], str.__eq__)
    assert lines_match(["x", "…"], ["x"], str.__eq__)
    assert not lines_match(["x", "…", "z"], ["x", "y"], str.__eq__)
    assert not output_matches("text", "a\nb\n", "a\nc\n")


def test_every_format_page_has_examples_checked_against_the_commands() -> None:
    checked = {p.name for p in PAGES if any(d == "output" for d, *_ in blocks(p))}
    assert checked >= FORMAT_PAGES


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_pages_point_only_inside_the_repository(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    assert [m.group(0) for m in OUTSIDE.finditer(text)] == []
    for target, _ in LINK.findall(text):
        if "://" not in target:
            assert (page.parent / target).exists(), f"{page.name}: broken link {target}"
    for path in REPO_PATH.findall(text):
        assert (ROOT / path).exists(), f"{page.name}: no such file {path}"


def test_code_points_to_no_document_outside_the_repository() -> None:
    here = Path(__file__).resolve()
    found = [f"{p.relative_to(ROOT)}:{n}: {line.strip()}"
             for folder in ("narrator", "scripts", "tests")
             for p in sorted((ROOT / folder).rglob("*.py")) if p != here
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if OUTSIDE.search(line)]
    assert found == []
