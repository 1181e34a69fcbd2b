"""``narrator tournament plan``: the files it writes read back, what it prints, its one-line
errors."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from narrator.cli import main


def _players(tmp_path: Path, count: int) -> Path:
    path = tmp_path / "players.txt"
    path.write_text("# the tournament's players\n\n" + "".join(f"Игрок {i}\n" for i in
                                                              range(1, count + 1)),
                    encoding="utf-8")
    return path


def test_the_plan_is_written_as_json_and_csv_that_read_back(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    players = _players(tmp_path, 30)
    out = tmp_path / "plan"
    assert main(["tournament", "plan", "--players", str(players), "--tables", "3", "--games",
                 "2", "--apart", "Игрок 1+Игрок 2+игрок 3", "--seed", "4", "-o", str(out)]) == 0
    doc = json.loads((tmp_path / "plan.json").read_text(encoding="utf-8"))
    assert doc["plan"] == 1 and doc["tables"] == 3 and doc["games"] == 2 and doc["seed"] == 4
    assert doc["players"] == [f"Игрок {i}" for i in range(1, 31)]
    assert doc["apart"] == [["Игрок 1", "Игрок 2", "Игрок 3"]]
    assert len(doc["rounds"]) == 2
    for rnd in doc["rounds"]:
        assert sorted(p for table in rnd for p in table) == sorted(doc["players"])
        for table in rnd:
            assert len(table) == 10 and len({"Игрок 1", "Игрок 2", "Игрок 3"} & set(table)) <= 1
    assert set(doc["score"]) >= {"players", "numbers", "tables", "total", "quality"}
    with (tmp_path / "plan.csv").open(encoding="utf-8") as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["round", "table", "seat", "player"]
    assert len(rows) == 1 + 2 * 3 * 10
    body = [(int(r), int(t), int(s), p) for r, t, s, p in rows[1:]]
    assert {r for r, *_ in body} == {1, 2} and {t for _, t, _, _ in body} == {1, 2, 3}
    assert {s for _, _, s, _ in body} == set(range(1, 11))
    assert [p for r, t, s, p in body if (r, t) == (2, 1)] == doc["rounds"][1][0]
    printed = capsys.readouterr().out
    assert "players" in printed and "numbers" in printed and "tables" in printed
    assert f"total    {doc['score']['total']:10.2f}" in printed
    assert "worst off: «Игрок" in printed and "searched " in printed


def test_a_roster_gives_the_players_and_their_ids_its_moderator_plays_not(
        tmp_path: Path) -> None:
    roster = tmp_path / "roster.csv"
    roster.write_text("nickname,mafiaratings_id,role\nВедущий,999,moderator\n" +
                      "".join(f"P{i},{100 + i}\n" for i in range(10)), encoding="utf-8")
    assert main(["tournament", "plan", "--players", str(roster), "--tables", "1", "--games",
                 "2", "-o", str(tmp_path / "t.json"), "--quiet"]) == 0
    doc = json.loads((tmp_path / "t.json").read_text(encoding="utf-8"))
    assert doc["players"] == [f"P{i}" for i in range(10)]
    assert doc["ids"] == [100 + i for i in range(10)]
    assert (tmp_path / "t.csv").is_file()


def test_the_same_seed_writes_the_same_plan(tmp_path: Path) -> None:
    players = _players(tmp_path, 10)
    for name in ("a", "b"):
        assert main(["tournament", "plan", "--players", str(players), "--tables", "1",
                     "--games", "3", "--seed", "9", "-o", str(tmp_path / name)]) == 0
    assert (tmp_path / "a.csv").read_text() == (tmp_path / "b.csv").read_text()


@pytest.mark.parametrize("count, extra, words", [
    (15, ["--tables", "2", "--games", "2"], "15 players cannot fill 2 table(s)"),
    (21, ["--tables", "2", "--games", "3"], "not whole rounds"),
    (20, ["--tables", "2", "--games", "2", "--apart", "Игрок 1+Bob"], "'Bob' is not among"),
    (20, ["--tables", "2", "--games", "2", "--apart", "Игрок 1"], "two nicknames or more"),
    (20, ["--tables", "2", "--games", "2", "--apart", "Игрок 1+игрок  1"], "one player only"),
    (20, ["--tables", "2", "--games", "2", "--apart", "Игрок 1+Игрок 2+Игрок 3"],
     "3 players kept apart"),
    (20, ["--tables", "0", "--games", "2"], "--tables: expected a whole number from 1"),
])
def test_impossible_plans_are_one_line_and_exit_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], count: int, extra: list[str],
        words: str) -> None:
    players = _players(tmp_path, count)
    assert main(["tournament", "plan", "--players", str(players), *extra,
                 "-o", str(tmp_path / "plan")]) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and "\n" not in err and "Traceback" not in err
    assert not (tmp_path / "plan.json").exists()


def test_a_nickname_twice_names_its_lines(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    players = tmp_path / "p.txt"
    players.write_text("A\nB\n  a \n", encoding="utf-8")
    assert main(["tournament", "plan", "--players", str(players), "--tables", "1", "--games",
                 "1", "-o", str(tmp_path / "x")]) == 2
    assert f"{players}:3: 'a' is on line 1 already" in capsys.readouterr().err


def test_a_player_who_judges_a_table_never_plays_there(tmp_path: Path) -> None:
    players = _players(tmp_path, 20)
    assert main(["tournament", "plan", "--players", str(players), "--tables", "2", "--games",
                 "2", "--judges", "Игрок 1=1, Игрок 2=2", "--seed", "3", "--quiet",
                 "-o", str(tmp_path / "j")]) == 0
    doc = json.loads((tmp_path / "j.json").read_text(encoding="utf-8"))
    for rnd in doc["rounds"]:
        assert "Игрок 1" not in rnd[0] and "Игрок 2" not in rnd[1]


@pytest.mark.parametrize(("judges", "words"), [
    ("Никто=1", "--judges: 'Никто' is not among the players"),
    ("Игрок 1=3", "a table from 1 to 2"),
    ("Игрок 1", "expected NICKNAME=TABLE")])
def test_a_bad_judge_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                 judges: str, words: str) -> None:
    players = _players(tmp_path, 20)
    assert main(["tournament", "plan", "--players", str(players), "--tables", "2", "--games",
                 "2", "--judges", judges, "--quiet", "-o", str(tmp_path / "j")]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1


@pytest.mark.parametrize("count", [2_001, 3_000, 100_000])
def test_more_players_than_a_plan_seats_are_refused_at_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], count: int) -> None:
    """Refused when the list is read, before any search (the search of 3,000 took 10.9 s and
    317 MB before it said so): well within a CPU second, whatever the machine's load."""
    import time

    players = tmp_path / "players.txt"
    players.write_text("".join(f"P{n}\n" for n in range(count)), encoding="utf-8")
    started = time.process_time()
    assert main(["tournament", "plan", "--players", str(players), "--tables", "10",
                 "--games", "10", "--time-limit", "2", "--out", str(tmp_path / "plan"),
                 "--quiet"]) == 2
    assert time.process_time() - started < 1.0
    assert capsys.readouterr().err == (f"narrator: {players}: {count:,} players; a plan seats "
                                       f"at most 2,000\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["players.txt"]
