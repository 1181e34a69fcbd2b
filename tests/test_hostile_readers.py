"""Every reader of a file a user hands the narrator, given the files a careless or hostile user
would: one parametrised table of reader × hostile case. Each answer is one line naming the
file — through the command line where there is one (exit 2, no traceback) — within seconds,
within memory, with nothing written.

The cases: an empty file, bytes that are not UTF-8, a file over the reader's size limit (a
sparse one: its size is read, never its bytes), a FIFO (no writer ever comes), a link to
``/dev/zero`` (it never ends), nesting 50,000 deep, a number of 5,000 digits, a folder.
"""

from __future__ import annotations

import os
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from narrator.cli import main
from narrator.errors import NarratorError
from narrator.reading import read_json, read_toml

#: a sparse file bigger than any reader's limit (the review's recording takes 4 GB)
HUGE = 8 << 30
#: not a speed target (those live in scripts/bench_inputs.py): a reader that reads what it
#: should refuse takes minutes, one that refuses it well under this on a loaded machine
SECONDS = 60.0
PEAK = 256 << 20


@dataclass(frozen=True)
class Reader:
    """A reader: the file it reads (relative to the test's folder), what deep nesting and long
    digits look like in its format (None: the format has neither), and how it is run — a
    command line (``cli``, with ``{file}`` and ``{dir}`` filled in) or a function."""

    name: str
    file: str
    deep: str | None
    digits: str | None
    cli: tuple[str, ...] | None = None
    call: Callable[[Path], object] | None = None
    #: what the reader gives for an empty file, when that is a file it takes (a club's TOML
    #: with nothing in it sets nothing)
    empty: object = None


JSON_DEEP = "[" * 50_000 + "]" * 50_000
JSON_DIGITS = '{"a": ' + "1" * 5_000 + "}"
LINE_DEEP = JSON_DEEP + "\n"
LINE_DIGITS = JSON_DIGITS + "\n"


def _manifest(path: Path) -> object:
    from narrator.voice.manifest import load_manifest
    return load_manifest(path)


def _ledger(path: Path) -> object:
    from narrator.replay.send import _Ledger
    return _Ledger(path)


def _recording(path: Path) -> object:
    from narrator.review.slices import Cutter
    with Cutter(path) as cutter:
        return cutter.frames


def _scoring_file(path: Path) -> object:
    from narrator.scoring.system import read_scoring_file
    return read_scoring_file(path)


def _outbox_entry(path: Path) -> object:
    from narrator.evening.outbox import Outbox
    return Outbox(path.parent.parent).body(path.stem)


READERS = [
    Reader("evening's book", "ev/evening.json", JSON_DEEP, JSON_DIGITS,
           cli=("standings", "{dir}/ev")),
    Reader("tournament's players", "players.txt", None, None,
           cli=("tournament", "plan", "--players", "{file}", "--tables", "1", "--games", "1",
                "--out", "{dir}/out/plan", "--quiet")),
    Reader("seating plan", "plan.json", JSON_DEEP, JSON_DIGITS,
           cli=("tournament", "score", "{file}")),
    Reader("seating plan's roster", "roster.csv", None, None,
           cli=("tournament", "score", "{dir}/good-plan.csv", "--roster", "{file}")),
    Reader("journal under review", "game.jsonl", LINE_DEEP, LINE_DIGITS,
           cli=("review", "{file}", "-o", "{dir}/out/review")),
    Reader("table script", "game.table.jsonl", LINE_DEEP, LINE_DIGITS,
           cli=("replay", "{file}")),
    Reader("journal exported", "export.jsonl", LINE_DEEP, LINE_DIGITS,
           cli=("export", "{file}", "--format", "mafiaratings", "--demo", "-o",
                "{dir}/out/game.json")),
    Reader("club's file", "club.toml", "x = " + "[" * 20_000 + "]" * 20_000,
           "x = " + "1" * 5_000, call=lambda p: read_toml(p, "the club's file"), empty={}),
    Reader("club's nested tables", "tables.toml", "[" + ".".join(["a"] * 20_000) + "]\n",
           None, call=lambda p: read_toml(p, "the club's file"), empty={}),
    Reader("club's file through a command", "rules.toml", "x = " + "{a = " * 20_000,
           "speech = " + "1" * 5_000, cli=("assist", "--rules-file", "{file}"),
           empty="a club's file with nothing in it sets nothing"),
    Reader("club's dotted keys through a command", "dotted.toml",
           ".".join(["a"] * 20_000) + " = 1\n", None, cli=("assist", "--rules-file", "{file}"),
           empty="a club's file with nothing in it sets nothing"),
    Reader("scoring system", "scoring.json", JSON_DEEP, JSON_DIGITS,
           call=lambda p: read_json(p, "the scoring system")),
    Reader("club's scoring system", "club-scoring.json", JSON_DEEP, JSON_DIGITS,
           call=_scoring_file),
    Reader("voice manifest", "pack/manifest.json", JSON_DEEP, JSON_DIGITS, call=_manifest),
    Reader("ledger of sent games", "sent.json", JSON_DEEP, JSON_DIGITS, call=_ledger),
    Reader("outbox entry", "ev/outbox/1.json", JSON_DEEP, JSON_DIGITS, call=_outbox_entry),
    Reader("review's recording", "session/mic.wav", None, None, call=_recording),
]

CASES = ["empty", "binary", "huge", "fifo", "dev-zero", "deep", "digits", "folder"]


def _make(path: Path, case: str, reader: Reader) -> bool:
    """``path`` made as ``case``; False when the case means nothing for the reader's format."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if case == "empty":
        path.write_bytes(b"")
    elif case == "binary":
        path.write_bytes(b"\xff\xfe\x00\x81garbage\xc3\x28\n")
    elif case == "huge":
        with path.open("wb") as f:
            f.truncate(HUGE)
    elif case == "fifo":
        os.mkfifo(path)
    elif case == "dev-zero":
        path.symlink_to("/dev/zero")
    elif case == "folder":
        path.mkdir()
    else:
        text = reader.deep if case == "deep" else reader.digits
        if text is None:
            return False
        path.write_text(text, encoding="utf-8")
    return True


def _files(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")}


def _applies(reader: Reader, case: str) -> bool:
    """Whether the hostile ``case`` exists in ``reader``'s format (deep nesting and long
    digits only where it has them; an empty file only where it is refused, or read by a
    function whose answer is checked)."""
    if case == "deep":
        return reader.deep is not None
    if case == "digits":
        return reader.digits is not None
    return not (case == "empty" and reader.empty is not None and reader.call is None)


@pytest.mark.parametrize(("reader", "case"),
                         [(r, c) for r in READERS for c in CASES if _applies(r, c)],
                         ids=lambda x: x.name.replace(" ", "-") if isinstance(x, Reader) else x)
def test_a_hostile_file_is_one_line_naming_it(
        reader: Reader, case: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "good-plan.csv").write_text(
        "round,table,seat,player\n" + "".join(f"1,1,{s},P{s}\n" for s in range(1, 11)),
        encoding="utf-8")
    path = tmp_path / reader.file
    assert _make(path, case, reader)
    if case == "empty" and reader.empty is not None:
        assert reader.call is not None
        assert reader.call(path) == reader.empty
        return
    before = _files(tmp_path)
    tracemalloc.start()
    start = time.monotonic()
    try:
        if reader.cli is not None:
            argv = [a.format(file=path, dir=tmp_path) for a in reader.cli]
            assert main(argv) == 2
            out = capsys.readouterr()
            message = out.err
            assert message.startswith("narrator: ") and message.count("\n") == 1, message
            assert "Traceback" not in message
        else:
            assert reader.call is not None
            with pytest.raises(NarratorError) as raised:
                reader.call(path)
            message = str(raised.value)
            assert "\n" not in message
    finally:
        elapsed = time.monotonic() - start
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    assert str(path) in message or str(path.parent) in message, message
    assert len(message) < 400, message
    assert elapsed < SECONDS, f"{elapsed:.1f} s"
    assert peak < PEAK, f"{peak:,} bytes"
    assert _files(tmp_path) == before  # nothing written, nothing removed


@pytest.mark.parametrize("reader", [r for r in READERS if r.file.endswith((".json", ".toml"))
                                    and r.call is not None and "manifest" not in r.name
                                    and "ledger" not in r.name and "outbox" not in r.name
                                    and r.name != "club's scoring system"],
                         ids=lambda r: r.name.replace(" ", "-"))
def test_a_byte_order_mark_and_windows_line_ends_are_read_as_none(
        reader: Reader, tmp_path: Path) -> None:
    path = tmp_path / reader.file
    text = '[scoring]\r\nsystem = "fiim"\r\n' if path.suffix == ".toml" else \
        '{\r\n "name": "x"\r\n}\r\n'
    path.write_bytes(b"\xef\xbb\xbf" + text.encode())
    assert reader.call is not None
    assert reader.call(path) in ({"scoring": {"system": "fiim"}}, {"name": "x"})
