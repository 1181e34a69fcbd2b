"""``narrator parse``: JSON lines, readable lines, and a clear error for bad seats."""

from __future__ import annotations

import json

import pytest

from narrator.cli import main


def _json_lines(out: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in out.splitlines()]


def test_json_lines_in_order(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["parse", "--json", "выставляю", "пятого", "снимаю", "пятого", "спасибо"])
    assert code == 0
    out = capsys.readouterr().out
    assert _json_lines(out) == [
        {"kind": "nominate", "target": 5, "accepted": True, "reason": None},
        {"kind": "withdraw", "target": 5, "accepted": True, "reason": None},
        {"kind": "end_speech", "target": None, "accepted": True, "reason": None},
    ]
    assert out.splitlines()[0] == (
        '{"kind": "nominate", "target": 5, "accepted": true, "reason": null}'
    )


def test_json_refusal_and_none(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["parse", "--json", "выставлю пятого"]) == 0
    assert main(["parse", "--json", "пятый мафия"]) == 0
    assert _json_lines(capsys.readouterr().out) == [
        {"kind": "nominate", "target": 5, "accepted": False, "reason": "future_tense"},
        {"kind": "none", "target": None, "accepted": False, "reason": "no_intent"},
    ]


def test_ukrainian_and_seats(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["parse", "--lang", "uk", "--seats", "12", "--json", "Виставляю", "пʼятого"]) == 0
    assert main(["parse", "--lang", "uk", "--seats", "12", "--json", "виставляю 12"]) == 0
    assert main(["parse", "--lang", "uk", "--seats", "8", "--json", "виставляю 12"]) == 0
    lines = _json_lines(capsys.readouterr().out)
    assert [(d["target"], d["accepted"], d["reason"]) for d in lines] == [
        (5, True, None),
        (12, True, None),
        (12, False, "not_a_seat"),
    ]


def test_json_keeps_cyrillic_unescaped(capsys: pytest.CaptureFixture[str]) -> None:
    # ensure_ascii=False: nothing to escape in the JSON keys, but the flag must not break them.
    assert main(["parse", "--json", "я бы выставил 5"]) == 0
    assert '"reason": "subjunctive"' in capsys.readouterr().out


def test_readable_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["parse", "выставляю", "пятого", "я бы выставил седьмого"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    assert "nominate" in lines[0] and "5" in lines[0] and "accepted" in lines[0]
    assert "refused (subjunctive)" in lines[1] and "7" in lines[1]


@pytest.mark.parametrize("seats", ["0", "16", "-3"])
def test_bad_seats_is_one_line_error(capsys: pytest.CaptureFixture[str], seats: str) -> None:
    assert main(["parse", "--seats", seats, "выставляю пятого"]) == 2
    err = capsys.readouterr().err
    assert err == f"narrator: --seats must be 1..15, got {seats}\n"
