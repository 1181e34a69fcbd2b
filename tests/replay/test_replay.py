"""``narrator replay``: examples, determinism, transcripts and one-line script errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from narrator.cli import main
from tests.helpers import SCRIPT_ROLES

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def replay_json(path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    assert main(["replay", str(path), "--json"]) == 0
    out: dict[str, object] = json.loads(capsys.readouterr().out)
    return out


@pytest.mark.parametrize(("name", "winner"), [("civilians-win", "civilians"),
                                              ("mafia-wins", "mafia"),
                                              ("car-crash", "civilians")])
def test_examples_replay_to_their_winner(name: str, winner: str,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    protocol = replay_json(EXAMPLES / f"{name}.table.jsonl", capsys)
    assert protocol["winner"] == winner
    assert set(protocol) >= {"rules", "winner", "seats", "days", "nights", "said"}


def test_car_crash_example_has_a_passed_crash(capsys: pytest.CaptureFixture[str]) -> None:
    protocol = replay_json(EXAMPLES / "car-crash.table.jsonl", capsys)
    day1 = protocol["days"][0]  # type: ignore[index]
    assert day1["crash"] == {"for": 7, "against": 3, "passed": True}
    assert day1["out"] == [4, 5]


def test_replay_is_byte_for_byte_deterministic(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(EXAMPLES / "civilians-win.table.jsonl")
    main(["replay", path, "--json"])
    first = capsys.readouterr().out
    main(["replay", path, "--json"])
    assert capsys.readouterr().out == first


def test_random_deal_is_reproducible_with_a_seed(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "g.table.jsonl"
    script.write_text('{"rules": "crime-time", "seed": 42}\n{"speech": 1}\n')
    a = replay_json(script, capsys)
    b = replay_json(script, capsys)
    assert a["seats"] == b["seats"]


def test_transcript_lists_speech_nominations_votes_and_outs(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(EXAMPLES / "civilians-win.table.jsonl")]) == 0
    out = capsys.readouterr().out
    assert "«Наступает ночь Город спит»" in out
    assert "seat 1 nominates 5" in out
    assert "refused: seat 2 nominate 9 (future_tense)" in out
    assert "5: 6 vote(s)" in out and "seat 5 is out (vote)" in out
    assert out.rstrip().endswith("winner: civilians")


HEADER = json.dumps({"rules": "crime-time", "roles": SCRIPT_ROLES})


@pytest.mark.parametrize(("body", "line", "message"), [
    ('{"speech": 1}\n{"speech": 2\n', 3, "bad JSON"),
    ('{"speech": 1, "sya": []}\n', 2, "speech: unknown key(s) sya"),
    ('{"speech": 11}\n', 2, "seat 11 does not exist (seats 1..10)"),
    ('{"speech": 2}\n', 2, "expected the day speech of seat 1, got a speech of seat 2"),
    ('{"vote": {"5": [1]}}\n', 2, "expected the day speech of seat 1, got a vote"),
    ('{"dance": 1}\n', 2, "expected one of best_move, crash, foul, mark, night, on_record, remove, speech, vote"),
    ('{"night": {"shots": {"3": 7}, "doctor": 2}}\n', 2, "night: unknown key(s) doctor"),
    ('{"speech": 1, "say": [[5, "пас"], [2, "спасибо"]]}\n', 2, "out of order"),
])
def test_malformed_scripts_give_one_line_naming_file_and_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        body: str, line: int, message: str) -> None:
    script = tmp_path / "bad.table.jsonl"
    script.write_text(HEADER + "\n" + body)
    assert main(["replay", str(script)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"narrator: {script}:{line}: ") and message in err


@pytest.mark.parametrize(("header", "message"), [
    ('{"rules": "crime-time", "roles": {"don": 3, "mafia": [5], "sheriff": 1}}',
     "roles: expected 2 mafia for crime-time, got 1"),
    ('{"rules": "crime-time", "roles": {"don": 3, "mafia": [3, 9], "sheriff": 1}}',
     "seat 3 is both don and mafia"),
    ('{"rules": "poker"}', "unknown rules 'poker'"),
    ('{"seats": 30}', "seats: expected 4..15, got 30"),
])
def test_bad_headers(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                     header: str, message: str) -> None:
    script = tmp_path / "bad.table.jsonl"
    script.write_text(header + "\n")
    assert main(["replay", str(script)]) == 2
    err = capsys.readouterr().err
    assert f"{script}:1: " in err and message in err


def test_missing_script_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "/nonexistent/game.table.jsonl"]) == 2
    assert "cannot read the table script" in capsys.readouterr().err
