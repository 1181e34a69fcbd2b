"""Hostile table scripts: every one is one line naming file and line, exit 2, never a traceback
and never a hang."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from narrator.cli import main
from narrator.errors import NarratorError, ScriptError
from narrator.replay.script import load_table_script, parse_table_script

HEADER = '{"rules": "crime-time", "roles": {"don": 3, "mafia": [5, 9], "sheriff": 1}}'
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "car-crash.table.jsonl"


def refused(text: str) -> str:
    """The one-line message ``narrator replay`` prints for a script of ``text``."""
    with pytest.raises(ScriptError) as e:
        parse_table_script(text, "t.jsonl")
    message = str(e.value)
    assert "\n" not in message and message.startswith("t.jsonl:")
    return message


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\u0085"])
def test_line_numbers_count_newlines_only(separator: str) -> None:
    text = (f'{HEADER}\n{{"speech": 1, "say": [[1.0, "выставляю{separator}пятого"]]}}\n'
            '{"speech": 22}\n')
    assert refused(text).startswith("t.jsonl:3: speech: seat 22 does not exist")


@pytest.mark.parametrize("control", ["\x0b", "\x0c", "\x1c", "\x1d", "\x1e"])
def test_a_control_character_in_a_string_is_bad_json_on_its_own_line(control: str) -> None:
    text = (f'{HEADER}\n{{"speech": 1, "say": [[1.0, "выставляю{control}пятого"]]}}\n'
            '{"speech": 22}\n')
    assert refused(text).startswith("t.jsonl:2: expected a JSON object, got bad JSON")


def test_a_separator_outside_strings_does_not_split_a_line() -> None:
    text = f'{HEADER}\u2028\n{{"speech": 1}}\u0085\n{{"speech": 22}}\n'
    assert refused(text).startswith("t.jsonl:3:")
    # inside an object it is no JSON whitespace: bad JSON, on the line it is on
    text = f'{HEADER}\n{{"speech": 1,\u2029"say": []}}\n'
    assert refused(text).startswith("t.jsonl:2: expected a JSON object, got bad JSON")


@pytest.mark.parametrize("vote", ['{"5": [1], "5": [2]}', '{"5": [1], "05": [2]}',
                                  '{"7": [1], "007": [2, 3]}'])
def test_a_candidate_named_twice_is_refused(vote: str) -> None:
    message = refused(f'{HEADER}\n{{"speech": 1}}\n{{"vote": {vote}}}\n')
    assert message.startswith("t.jsonl:3: ") and "twice" in message


def test_a_key_given_twice_is_refused() -> None:
    assert "twice" in refused(f'{HEADER}\n{{"speech": 1, "speech": 2}}\n')
    assert "twice" in refused('{"seats": 10, "seats": 12}\n')


@pytest.mark.parametrize("seat", ["²", "⁶", "①", "٥", "５", "1²", "-1", "+3", " 5", "5.0", ""])
def test_digits_int_refuses_or_misreads_are_not_seats(seat: str) -> None:
    message = refused(f'{HEADER}\n{{"speech": "{seat}"}}\n')
    assert message.startswith("t.jsonl:2: speech: expected a seat number")
    message = refused(f'{HEADER}\n{{"speech": 1}}\n{{"vote": {{"{seat}": [1]}}}}\n')
    assert message.startswith("t.jsonl:3: ")


@pytest.mark.parametrize("line", [
    '{"speech": ' + "9" * 5000 + "}",
    '{"speech": 1, "say": [[' + "9" * 5000 + ', "x"]]}',
    '{"foul": -' + "9" * 400 + "}",
])
def test_huge_integers_are_one_line(line: str) -> None:
    assert refused(f"{HEADER}\n{line}\n").startswith("t.jsonl:2: ")


def test_a_huge_seed_is_one_line() -> None:
    assert refused('{"seed": ' + "9" * 4400 + "}\n").startswith("t.jsonl:1: ")


@pytest.mark.parametrize("time", ["1e999", "-1e999", "NaN", "Infinity", "-Infinity"])
def test_times_that_are_not_finite_are_refused(time: str) -> None:
    message = refused(f'{HEADER}\n{{"speech": 1, "say": [[{time}, "спасибо"]]}}\n')
    assert message.startswith("t.jsonl:2: ")


@pytest.mark.parametrize("depth", [100, 1000, 100_000])
def test_deeply_nested_json_is_one_line(depth: int) -> None:
    line = '{"speech": ' + "[" * depth + "]" * depth + "}"
    assert refused(f"{HEADER}\n{line}\n").startswith("t.jsonl:2: ")
    line = '{"night": ' + '{"a": ' * depth + "1" + "}" * depth + "}"
    assert refused(f"{HEADER}\n{line}\n").startswith("t.jsonl:2: ")


@pytest.mark.parametrize("rules", ['{"name": "crime-time"}', '["crime-time"]', "7", "null"])
def test_rules_that_are_not_a_name(rules: str) -> None:
    assert refused(f'{{"rules": {rules}}}\n').startswith("t.jsonl:1: rules: expected a name")


def _replay_in_a_process(path: str, *more: str, stdout: int | None = None,
                         timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "narrator", "replay", path, *more],
                          stdout=stdout if stdout is not None else subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL)


def test_dev_zero_as_a_script_is_refused_at_once() -> None:
    proc = _replay_in_a_process("/dev/zero", timeout=30)
    assert proc.returncode == 2
    assert proc.stderr == "narrator: /dev/zero: cannot read the table script (not a regular file)\n"


def test_a_fifo_as_a_script_is_refused_without_waiting(tmp_path: Path) -> None:
    fifo = tmp_path / "script.fifo"
    os.mkfifo(fifo)
    proc = _replay_in_a_process(str(fifo), timeout=30)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert "not a regular file" in proc.stderr


def test_a_huge_file_is_refused_by_size(tmp_path: Path) -> None:
    big = tmp_path / "big.table.jsonl"
    with big.open("wb") as f:
        f.write((HEADER + "\n").encode())
        f.truncate(200 * 1024 * 1024)  # sparse: no disk used
    with pytest.raises(NarratorError, match="too large"):
        load_table_script(big)


def test_a_script_that_is_not_utf8_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.table.jsonl"
    bad.write_bytes(HEADER.encode() + b"\n\xff\xfe\n")
    with pytest.raises(NarratorError, match="not UTF-8"):
        load_table_script(bad)


def test_stdout_on_a_full_disk_is_one_line() -> None:
    with open("/dev/full", "w") as full:
        proc = _replay_in_a_process(str(EXAMPLE), "--json", stdout=full.fileno())
    assert proc.returncode == 2
    assert proc.stderr == "narrator: cannot write the output (No space left on device)\n"


def test_stdout_closed_early_is_quiet() -> None:
    # `narrator replay … | head -1`: the reader goes away; no traceback, no noise
    proc = subprocess.run(f"{sys.executable} -m narrator replay {EXAMPLE} | head -c 10",
                          shell=True, capture_output=True, text=True, timeout=60)
    assert proc.stderr == ""


def test_the_cli_prints_one_line_for_each(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "deep.table.jsonl"
    script.write_text(HEADER + "\n" + '{"speech": ' + "[" * 100_000 + "]" * 100_000 + "}\n")
    assert main(["replay", str(script)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"narrator: {script}:2: ")
