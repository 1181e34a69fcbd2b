"""MafiaRatings' export of the colours left on record (6.7): each speech's colours are a
player's ``record`` (a red seat its number, a black one its negative), with ``o`` in the
record's ``features``, as its judge app writes them (``js/src/game.js``, ``gameSetOnRecord``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.replay.test_export import export

GAME = "\n".join([
    '{"rules": "crime-time", "roles": {"don": 3, "mafia": [5, 9], "sheriff": 1}, '
    '"options": {"fouls": "sport", "on_record": "all"}}',
    '{"on_record": {"seat": 1, "red": [2], "black": [3]}}',
    '{"on_record": {"seat": 1, "red": [3, 4]}}',  # 3 again, now red: one record
    *(f'{{"speech": {s}}}' for s in range(1, 11)),
    '{"night": {"shots": {"3": 7, "5": 7, "9": 7}, "don": 1, "sheriff": 3}}',
    '{"on_record": {"seat": 7, "black": [3, 5]}}',
    '{"speech": 7}',
    '{"speech": 2}',
    *['{"foul": 8}'] * 4,
    *(f'{{"speech": {s}}}' for s in (3, 4, 5, 6, 9, 10, 1)),
    '{"night": {"shots": {"3": 2, "5": 2, "9": 2}}}',
    '{"speech": 2}',
    '{"speech": 3, "say": [[5, "выставляю номер один"], [9, "спасибо"]]}',
    *(f'{{"speech": {s}}}' for s in (4, 5, 6, 9, 10, 1)),
    '{"vote": {"1": [3, 4, 5, 6, 9, 10]}}',
]) + "\n"


def test_colours_on_record_are_each_players_record(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """6.7.5: seat 1's day speech (2 red, 3 black then red, 4 red), seat 7's last word (3 and
    5 black)."""
    path = tmp_path / "on-record.table.jsonl"
    path.write_text(GAME, encoding="utf-8")
    record = export(path, capsys)
    assert record["features"].endswith("o")
    players = record["players"]
    assert players[0]["record"] == [{"round": 0, "time": "speaking", "record": [2, 3, 4]}]
    assert players[6]["record"] == [
        {"round": 1, "time": "night kill speaking", "record": [-3, -5]}]
    assert all("record" not in p for i, p in enumerate(players) if i not in (0, 6))
    assert json.dumps(record)  # (JSON as it is sent)
