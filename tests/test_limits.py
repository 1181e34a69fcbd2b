"""Every reader at its limits: a file (or a phrase) at a limit is taken, one past it is one line
naming the file, the line and the limit, exit code 2 — read no further than that line.

The inputs are made in ``tmp_path`` by repeating strings (and, for the sizes, by sparse files
that take no disk); what each costs at its limit, in time and memory, is measured by
``scripts/bench_inputs.py``. Marked ``limits``: ``-m "not limits"`` leaves them out.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from narrator.audio.session import (
    INPUT_LIMITS,
    INPUTS,
    META_LIMIT,
    PROTOCOL_LIMIT,
    SessionReader,
    SessionRecorder,
)
from narrator.cli import main
from narrator.club import file as club_file
from narrator.club.file import read_club
from narrator.errors import NarratorError
from narrator.grammar import MAX_PHRASE
from narrator.host.journal import LIMITS as JOURNAL_LIMITS
from narrator.host.journal import load_journal
from narrator.replay.script import LIMITS as SCRIPT_LIMITS
from narrator.replay.script import MAX_SAY, load_table_script, parse_table_script
from narrator.replay.session import read_inputs
from narrator.replay.table import replay_script

pytestmark = pytest.mark.limits

HEADER = '{"rules": "crime-time", "roles": {"don": 3, "mafia": [5, 9], "sheriff": 1}}\n'
JOURNAL_HEADER = json.dumps({
    "journal": 2, "rules": "crime-time", "seats": 10, "lang": "ru", "mode": "assist",
    "settings": {}, "roles": {"1": "sheriff", "3": "don", "5": "mafia", "9": "mafia"}}) + "\n"
TABLE = json.dumps({"type": "table", "t": 0.0, "rules": "crime-time", "seats": 10,
                    "roles": {"1": "sheriff", "3": "don", "5": "mafia", "9": "mafia"}}) + "\n"


def sized(path: Path, text: str, size: int) -> Path:
    """``text``, then a comment line that brings the file to ``size`` bytes."""
    data = text.encode()
    pad = size - len(data) - 1
    assert pad >= 1
    path.write_bytes(data + b"#" * pad + b"\n")
    assert path.stat().st_size == size
    return path


def sparse(path: Path, head: str, size: int) -> Path:
    """A file of ``size`` bytes that is ``head`` and then nothing (no disk used)."""
    with path.open("wb") as f:
        f.write(head.encode())
        f.truncate(size)
    return path


def one_line(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """What ``narrator ARGV`` says on stderr, checked to be one line after exit code 2."""
    assert main(list(argv)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("narrator: "), err
    return err


def speech(phrases: int, text: str) -> str:
    say = [[round(i * 0.25, 2), text] for i in range(phrases)]
    return json.dumps({"speech": 1, "say": say}, ensure_ascii=False) + "\n"


# -- table scripts ------------------------------------------------------------------------------

def test_a_script_at_every_limit_is_read_and_replayed(tmp_path: Path) -> None:
    # the longest speech of the longest phrases, in a file of the largest size
    text = HEADER + speech(MAX_SAY, "а" * MAX_PHRASE) + '{"speech": 2}\n'
    path = sized(tmp_path / "s.table.jsonl", text, SCRIPT_LIMITS.max_bytes)
    script = load_table_script(path)
    assert len(script.inputs[0].say or ()) == MAX_SAY
    assert [d.number for d in replay_script(script).game.days] == [1]


def test_a_script_one_byte_too_large(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = sized(tmp_path / "s.table.jsonl", HEADER, SCRIPT_LIMITS.max_bytes + 1)
    err = one_line(capsys, "replay", str(path), "--json")
    assert f"at most {SCRIPT_LIMITS.max_bytes:,}" in err
    # as the 63 MB scripts: refused by their size, before a line is read
    big = sparse(tmp_path / "big.table.jsonl", HEADER, 63 * 1024 * 1024)
    assert "too large" in one_line(capsys, "replay", str(big))


def test_a_script_of_too_many_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    n = SCRIPT_LIMITS.max_lines
    path = tmp_path / "s.table.jsonl"
    path.write_text(HEADER + "#\n" * (n - 2) + '{"speech": 1}\n')
    assert len(load_table_script(path).inputs) == 1
    path.write_text(HEADER + "#\n" * (n - 1) + '{"speech": 1}\n')
    err = one_line(capsys, "replay", str(path))
    assert err == (f"narrator: {path}:{n + 1:}: cannot read the table script (too many lines: "
                   f"at most {n:,})\n")


def test_a_speech_of_too_many_phrases_names_its_line() -> None:
    with pytest.raises(NarratorError) as e:
        parse_table_script(HEADER + "\n" + speech(MAX_SAY + 1, "спасибо"), "t")
    assert str(e.value) == (f"t:3: say: a speech of {MAX_SAY + 1} phrases; a speech holds at "
                            f"most {MAX_SAY}")


def test_a_phrase_too_long_names_its_line_and_place() -> None:
    say = [[1.0, "выставляю пятого"], [2.0, "а" * (MAX_PHRASE + 1)]]
    line = json.dumps({"speech": 1, "say": say}, ensure_ascii=False)
    with pytest.raises(NarratorError) as e:
        parse_table_script(HEADER + line + "\n", "t")
    assert str(e.value) == (f"t:2: say: phrase 2 is {MAX_PHRASE + 1:,} characters long; a "
                            f"phrase is at most {MAX_PHRASE:,}")


# -- journals -----------------------------------------------------------------------------------

def test_a_journal_at_its_line_limit_is_read(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    n = JOURNAL_LIMITS.max_lines
    entry = '{"type":"action","t":1.0,"action":"timeup dealing"}\n'
    path = tmp_path / "j.jsonl"
    path.write_text(JOURNAL_HEADER + entry + "\n" * (n - 2))
    assert len(load_journal(path).entries) == 1
    path.write_text(JOURNAL_HEADER + entry + "\n" * (n - 1))
    err = one_line(capsys, "resume", str(path), "--json")
    assert err == (f"narrator: {path}:{n + 1}: cannot read the journal (too many lines: at most "
                   f"{n:,})\n")
    err = one_line(capsys, "resume", str(path))  # before anything is repaired or taken up
    assert f"{path}:" in err and "too many lines" in err


def test_a_journal_at_its_size_limit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    entry = '{"type":"action","t":1.0,"action":"timeup dealing"}\n'
    path = sized(tmp_path / "j.jsonl", JOURNAL_HEADER + entry, JOURNAL_LIMITS.max_bytes)
    with pytest.raises(NarratorError, match=r"j\.jsonl:3: not a journal entry"):
        load_journal(path)  # read to its last line: a comment is no entry
    path = sparse(tmp_path / "big.jsonl", JOURNAL_HEADER, JOURNAL_LIMITS.max_bytes + 1)
    for args in (["--json"], []):
        err = one_line(capsys, "resume", str(path), *args)
        assert "too large" in err and f"at most {JOURNAL_LIMITS.max_bytes:,}" in err


def test_a_journal_of_too_many_objects_and_arrays(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    # a press is kept whole for the resume: what it may hold is counted, ``[]`` by ``[]``
    most = JOURNAL_LIMITS.max_containers
    assert most is not None
    held = 3 + 2  # the header (itself, settings, roles), the press (itself, its list)
    path = tmp_path / "j.jsonl"

    def press(lists: int) -> str:
        return (JOURNAL_HEADER + '{"type":"pad","t":1.0,"seat":1,"do":"seen","junk":['
                + ",".join(["[]"] * lists) + "]}\n")

    path.write_text(press(most - held))
    assert len(load_journal(path).inputs) == 1
    path.write_text(press(most - held + 1))
    assert one_line(capsys, "resume", str(path), "--json") == (
        f"narrator: {path}:2: cannot read the journal (more than {most:,} JSON objects and "
        f"arrays in all)\n")


# -- sessions -----------------------------------------------------------------------------------

def session(tmp_path: Path) -> Path:
    with SessionRecorder(tmp_path / "s"):
        pass
    return tmp_path / "s"


def test_session_inputs_at_their_line_limit(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    folder = session(tmp_path)
    n = INPUT_LIMITS.max_lines
    (folder / INPUTS).write_text(TABLE + "\n" * (n - 1))
    assert [e.type for e in read_inputs(folder / INPUTS)] == ["table"]
    (folder / INPUTS).write_text(TABLE + "\n" * n)
    err = one_line(capsys, "export", "--format", "mafiaratings", str(folder))
    assert err == (f"narrator: {folder / INPUTS}:{n + 1}: cannot read the session inputs (too "
                   f"many lines: at most {n:,})\n")


def test_session_inputs_at_their_size_and_line_length(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    folder = session(tmp_path)
    long = TABLE + json.dumps({"type": "entry", "t": 1.0, "text": ""})[:-2]
    sized(folder / INPUTS, long, len(TABLE) + INPUT_LIMITS.max_line + 2)  # one byte too long
    err = one_line(capsys, "export", "--format", "mafiaratings", str(folder))
    assert err.startswith(f"narrator: {folder / INPUTS}:2: cannot read the session inputs (a "
                          f"line too long: at most {INPUT_LIMITS.max_line:,} bytes)")
    sparse(folder / INPUTS, TABLE, INPUT_LIMITS.max_bytes + 1)
    assert "too large" in one_line(capsys, "replay", str(folder))


def test_session_inputs_of_too_many_objects_and_arrays(tmp_path: Path) -> None:
    most = INPUT_LIMITS.max_containers
    assert most is not None
    folder = session(tmp_path)
    quarter = most // 4  # a line of each: the table (itself, its roles), then 4 of these
    gated = '{"type":"gated","t":1.0,"end":1.02,"x":[' + ",".join(["{}"] * quarter) + "]}\n"
    (folder / INPUTS).write_text(TABLE + gated * 4)
    with pytest.raises(NarratorError) as e:
        read_inputs(folder / INPUTS)
    assert str(e.value) == (f"{folder / INPUTS}:5: cannot read the session inputs (more than "
                            f"{most:,} JSON objects and arrays in all)")


def test_a_session_header_and_protocol_past_their_size(tmp_path: Path) -> None:
    folder = session(tmp_path)
    sparse(folder / "protocol.json", "{}", PROTOCOL_LIMIT + 1)
    with pytest.raises(NarratorError, match="protocol.json: cannot read the recorded protocol "
                                            r"\(too large"):
        SessionReader(folder).protocol()
    header = (folder / "session.json").read_text()
    sparse(folder / "session.json", header, META_LIMIT + 1)
    with pytest.raises(NarratorError, match=r"session.json: cannot read the session header"):
        SessionReader(folder)


@pytest.mark.parametrize("source", ["/dev/zero", "fifo"])
def test_export_of_something_that_never_ends_is_refused_at_once(tmp_path: Path,
                                                                source: str) -> None:
    if source == "fifo":
        source = str(tmp_path / "game.fifo")
        os.mkfifo(source)
    proc = subprocess.run([sys.executable, "-m", "narrator", "export", "--format",
                           "mafiaratings", source], capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert "not a regular file" in proc.stderr


# -- club files -----------------------------------------------------------------------------------

def test_a_rules_file_at_its_size_limit(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    path = sized(tmp_path / "club.toml", 'fouls = "sport"\n', club_file.MAX_BYTES)
    assert dict(read_club(path).options) == {"fouls": "sport"}
    sized(path, 'fouls = "sport"\n', club_file.MAX_BYTES + 1)
    err = one_line(capsys, "assist", "--rules-file", str(path))
    assert f"club.toml: cannot read the rules file (too large: {club_file.MAX_BYTES + 1:,} " in err


def test_a_rules_file_nested_too_deep_is_one_line(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "club.toml"
    path.write_text("speech = " + "[" * 20_000 + "]" * 20_000 + "\n")
    assert one_line(capsys, "assist", "--rules-file", str(path)) == (
        f"narrator: {path}: not a TOML file (nested too deep)\n")


@pytest.mark.parametrize("source", ["/dev/zero", "fifo"])
def test_a_rules_file_that_never_ends_is_refused_at_once(tmp_path: Path, source: str) -> None:
    if source == "fifo":
        source = str(tmp_path / "club.fifo")
        os.mkfifo(source)
    # in a process of its own, with its memory bounded: a reader that reads on would take it all
    code = ("import resource, sys; resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30)); "
            "from narrator.club.file import read_club; read_club(sys.argv[1])")
    proc = subprocess.run([sys.executable, "-c", code, source], capture_output=True, text=True,
                          timeout=60, stdin=subprocess.DEVNULL)
    assert proc.returncode == 1
    assert proc.stderr.splitlines()[-1] == (f"narrator.errors.NarratorError: {source}: cannot "
                                            f"read the rules file (not a regular file)")


# -- phrases on the command line ------------------------------------------------------------

def test_a_phrase_at_its_limit_is_parsed(capsys: pytest.CaptureFixture[str]) -> None:
    words = ("выставляю пятого " * MAX_PHRASE)[: MAX_PHRASE - 8] + " спасибо"
    assert main(["parse", "--json", words]) == 0
    out = capsys.readouterr().out.splitlines()
    assert json.loads(out[-1])["kind"] == "end_speech"
    err = one_line(capsys, "parse", words, "!")
    assert err == (f"narrator: the phrase is {MAX_PHRASE + 2:,} characters long; a phrase is at "
                   f"most {MAX_PHRASE:,}\n")
