"""``narrator tournament score`` and ``convert`` on files the tests write."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from narrator.cli import main
from narrator.seating.formats import read_seating, seating_texts
from narrator.seating.player import worst
from narrator.seating.score import score
from narrator.seating.value import Seating
from tests.seating.test_formats import example


def _plan_file(tmp_path: Path, plan: Seating, fmt: str = "ours-json",
               name: str = "plan.json") -> Path:
    out = tmp_path / name
    for path, text in seating_texts(plan, fmt, out):
        path.write_text(text, encoding="utf-8")
    return out


def _roster(tmp_path: Path, plan: Seating) -> Path:
    path = tmp_path / "roster.csv"
    lines = ["nickname,mafiaratings_id"] + [
        f'"{n.replace(chr(34), chr(34) * 2)}",{i}' for n, i in zip(plan.names, plan.ids,
                                                                strict=True)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_score_in_json_is_the_plans_score_and_its_worst_player(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plan = example()
    path = _plan_file(tmp_path, plan, "mafiaratings", "mr.json")
    assert main(["tournament", "score", str(path), "--json",
                 "--roster", str(_roster(tmp_path, plan))]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["format"] == "mafiaratings"
    assert (doc["players"], doc["tables"], doc["rounds"], doc["games"]) == (20, 2, 10, 10)
    assert doc["score"] == score(plan.rounds, plan.shape()).to_json()
    fig = worst(plan.rounds, plan.shape())
    assert doc["worst"]["player"] == plan.names[fig.player]
    assert doc["worst"]["seats"] == list(fig.seats) and sum(fig.seats) == 10
    # the groups kept apart: {0, 1, 2} and {5, 9}, met where the random plan seats them
    met = {frozenset(p) for p in doc["apart_met"]}
    assert met and met <= {frozenset({plan.names[a], plan.names[b]})
                           for a, b in [(0, 1), (0, 2), (1, 2), (5, 9)]}


def test_the_worst_player_is_the_one_of_the_largest_own_gap(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plan = example(apart=False)
    path = _plan_file(tmp_path, plan)
    assert main(["tournament", "score", str(path), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)["worst"]
    # his own figures, counted from the plan here
    p = plan.names.index(doc["player"])
    seats = [sum(1 for rnd in plan.rounds for t in rnd if t[s] == p) for s in range(10)]
    assert doc["seats"] == seats
    met = {q: sum(1 for rnd in plan.rounds for t in rnd if p in t and q in t)
           for q in range(20) if q != p}
    assert doc["most_met"]["games"] == max(met.values())
    assert doc["least_met"]["games"] == min(met.values())
    assert met[plan.names.index(doc["most_met"]["player"])] == max(met.values())


def test_score_as_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plan = example()
    path = _plan_file(tmp_path, plan)
    assert main(["tournament", "score", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    result = score(plan.rounds, plan.shape())
    assert out[0] == (f"{path} (ours-json): 20 players, 2 table(s), 10 round(s), 10 game(s) "
                      f"a player")
    assert out[1].split()[:2] == ["players", f"{result.players:.2f}"]
    assert out[3].split()[:2] == ["tables", "0.00"] and "not shown" in out[3]
    assert out[4].split()[:2] == ["total", f"{result.total:.2f}"]
    assert any(line.startswith("worst off: «") for line in out)


@pytest.mark.parametrize("fmt", ["ours-csv", "mafiaratings", "web-schedule", "ours-json"])
def test_convert_and_back(fmt: str, tmp_path: Path,
                          capsys: pytest.CaptureFixture[str]) -> None:
    plan = example(apart=False)
    src = _plan_file(tmp_path, plan)
    roster = _roster(tmp_path, plan)
    out = tmp_path / "out" / f"converted.{'csv' if fmt == 'ours-csv' else 'json'}"
    out.parent.mkdir()
    assert main(["tournament", "convert", str(src), "--to", fmt, "-o", str(out)]) == 0
    assert f"narrator: written {out}" in capsys.readouterr().err
    if fmt == "web-schedule":
        assert (out.parent / "converted.players.json").is_file()
    back = tmp_path / "back.json"
    assert main(["tournament", "convert", str(out), "--from", fmt, "--to", "ours-json",
                 "-o", str(back), "--roster", str(roster)]) == 0
    again, _ = read_seating(back)
    assert again.named_rounds() == plan.named_rounds()
    assert dict(zip(again.names, again.ids, strict=True)) == dict(zip(plan.names, plan.ids,
                                                                      strict=True))


def test_convert_says_what_a_format_cannot_keep(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    src = _plan_file(tmp_path, example())
    assert main(["tournament", "convert", str(src), "--to", "web-schedule",
                 "-o", str(tmp_path / "s.json"), "--out-players", str(tmp_path / "p.json")]) == 0
    err = capsys.readouterr().err
    assert "web-schedule keeps no groups kept apart: 2 left out" in err
    assert (tmp_path / "p.json").is_file() and not (tmp_path / "s.players.json").exists()


def test_bad_input_is_one_line_and_exit_2(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("round,table,seat,player\n1,1,0,Ника\n", encoding="utf-8")
    assert main(["tournament", "score", str(bad)]) == 2
    assert capsys.readouterr().err == f'narrator: {bad}:2: seat: "0" is not 1–10\n'
    missing = tmp_path / "none.json"
    assert main(["tournament", "convert", str(missing), "--to", "ours-csv",
                 "-o", str(tmp_path / "x.csv")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"narrator: {missing}: ") and err.count("\n") == 1
    # a plan read as the wrong format says so in the format's own terms
    src = _plan_file(tmp_path, example())
    assert main(["tournament", "score", str(src), "--from", "web-schedule"]) == 2
    assert capsys.readouterr().err == (f"narrator: {src}: configuration: null is not an "
                                       f"object\n")
    # the output is never the file being read
    assert main(["tournament", "convert", str(src), "--to", "ours-json", "-o", str(src)]) == 2
    assert "is the plan being read" in capsys.readouterr().err
    assert read_seating(src)[0] == example()
    roster = tmp_path / "r.csv"
    roster.write_text("nickname,mafiaratings_id\nНика,abc\n", encoding="utf-8")
    assert main(["tournament", "score", str(src), "--roster", str(roster)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"narrator: {roster}:2:") and err.count("\n") == 1
