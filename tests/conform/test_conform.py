"""``narrator conform``: every example through every front end, killed three times, is the same
game; a front end that plays another game is named with the first key where it differs; bad
input is one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from narrator.cli import main
from narrator.conform.check import KillPoint, cut, kill_points
from narrator.conform.compare import first_difference
from narrator.engine import Role
from narrator.engine import waits as w
from narrator.listening import ListeningLoop
from tests.helpers import EXAMPLES

SCRIPTS = sorted(str(p) for p in EXAMPLES.glob("*.table.jsonl"))
MODES = ("replay", "assist", "hostless", "pads")


def test_every_example_is_the_same_game_in_every_front_end_killed_three_times(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conform", *SCRIPTS, "--kill", "3", "--seed", "16"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "kills drawn from --seed 16"
    lines = out[1:-1]
    assert len(lines) == len(SCRIPTS) * len(MODES)
    for script in SCRIPTS:
        for mode in MODES:
            line = next(x for x in lines if x.startswith(f"{script}  {mode}: "))
            assert line.startswith(f"{script}  {mode}: same  [killed after lines "), line
    assert out[-1] == f"{len(lines)} same, 0 differ, 0 n/a"


def test_the_shot_sheriffs_check_is_asked_in_every_front_end(
        capsys: pytest.CaptureFixture[str]) -> None:
    script = str(EXAMPLES / "sheriff-shot-checks.table.jsonl")
    assert main(["conform", script, "--json", "--kill", "2", "--seed", "3"]) == 0
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [(r["mode"], r["result"]) for r in rows] == [(m, "same") for m in MODES]
    assert all(len(r["kills"]) == 2 and r["seed"] == 3 for r in rows)
    assert all(set(r) >= {"script", "mode", "result", "key", "left_out"} for r in rows)


def test_a_front_end_that_plays_another_game_is_named_with_the_first_differing_key(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # the listening loop's old rule: a checker shot in tonight's hunt was taken for gone (not
    # asked, its step taken as answered)
    after = ListeningLoop._after

    def gone_after(self: ListeningLoop) -> None:
        exp = self.game.expect
        if isinstance(exp, w.NightAct) and self.game.step != self._prompted:
            seat = self.game.seat_of(Role(exp.role))
            if seat is None or not self.game.is_alive(seat):
                self._prompted = self.game.step
                self.desk.answered()
                return
        after(self)

    monkeypatch.setattr(ListeningLoop, "_after", gone_after)
    script = str(EXAMPLES / "sheriff-shot-checks.table.jsonl")
    assert main(["conform", script, "--modes", "hostless,assist"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == [
        f'{script}  hostless: differs at nights[1].sheriff_check: {{"target": 8, "result": '
        f'false}} ≠ null',
        f"{script}  assist: same",
        "1 same, 1 differ, 0 n/a"]
    assert main(["conform", script, "--modes", "hostless", "--json"]) == 1
    row = json.loads(capsys.readouterr().out)
    assert row["result"] == "differs" and row["key"] == "nights[1].sheriff_check"
    assert row["replay"] == {"target": 8, "result": False} and row["got"] is None


def test_what_a_front_end_cannot_say_is_listed_and_left_out_of_the_comparison(
        capsys: pytest.CaptureFixture[str]) -> None:
    script = str(EXAMPLES / "civilians-win.table.jsonl")  # a future-tense nomination, refused
    assert main(["conform", script, "--json"]) == 0
    rows = {r["mode"]: r for r in map(json.loads, capsys.readouterr().out.splitlines())}
    refused = "refused phrases (a pad or a key cannot say one)"
    assert rows["pads"]["left_out"] == [refused] and rows["assist"]["left_out"] == [refused]
    assert rows["replay"]["left_out"] == [] and rows["hostless"]["left_out"] == []
    assert {r["result"] for r in rows.values()} == {"same"}


@pytest.mark.parametrize(("args", "message"), [
    (["nowhere.table.jsonl"], "nowhere.table.jsonl"),
    ([str(EXAMPLES / "car-crash.table.jsonl"), "--modes", "replay,radio"],
     "--modes: unknown mode radio (modes: replay, assist, hostless, pads)"),
    ([str(EXAMPLES / "car-crash.table.jsonl"), "--kill", "-1"], "--kill: expected a count"),
])
def test_bad_input_is_one_line_and_exit_2(args: list[str], message: str,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conform", *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("narrator: ") and message in captured.err
    assert captured.err.count("\n") == 1


def test_a_malformed_script_names_its_line(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.table.jsonl"
    bad.write_text('{"rules": "crime-time", "seats": 10}\n{"speech": 11}\n')
    assert main(["conform", str(bad)]) == 2
    assert capsys.readouterr().err.startswith(f"narrator: {bad}:2: ")


def test_a_cut_keeps_whole_lines_and_tears_the_next_one_in_half(tmp_path: Path) -> None:
    journal = tmp_path / "j.jsonl"
    journal.write_text('{"a": 1}\n{"b": 22222222}\n{"c": 3}\n')
    cut(journal, KillPoint(1, torn=True))
    assert journal.read_text() == '{"a": 1}\n{"b": 22'  # half of its 16 bytes
    journal.write_text('{"a": 1}\n{"b": 2}\n')
    cut(journal, KillPoint(1, torn=False))
    assert journal.read_text() == '{"a": 1}\n'


def test_kill_points_are_drawn_from_the_seed_in_order_and_inside_the_journal() -> None:
    import random

    points = kill_points(random.Random(5), 40, 3)
    assert points == kill_points(random.Random(5), 40, 3)
    assert [k.line for k in points] == sorted({k.line for k in points})
    assert all(1 <= k.line < 40 for k in points) and len(points) == 3
    # a journal too short for three: as many as it has places
    assert [k.line for k in kill_points(random.Random(5), 2, 3)] == [1]


def test_protocols_differ_first_at_the_first_key_in_order() -> None:
    assert first_difference({"a": 1, "b": [1, 2]}, {"a": 1, "b": [1, 2]}) is None
    assert first_difference({"a": 1, "b": [1, 2]}, {"a": 1, "b": [1, 3]})[:1] == ("b[1]",)
    assert first_difference({"a": [1]}, {"a": [1, 2]})[0] == "a[1]"
    assert first_difference({"a": 1}, {"a": True})[0] == "a"  # JSON tells 1 from true


RULESETS = ("crime-time", "professional", "vrn-closed", "vrn", "amateur")


@pytest.mark.parametrize("rules", RULESETS)
def test_random_games_of_every_ruleset_are_the_same_in_every_front_end_killed_three_times(
        rules: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.conform.random_scripts import script_of

    paths = []
    for seed in (1, 2):  # the random driver's games, written as table scripts
        text = script_of(rules, seed)
        assert text is not None
        path = tmp_path / f"{rules}-{seed}.table.jsonl"
        path.write_text(text, encoding="utf-8")
        paths.append(str(path))
    _all_same(paths, capsys)


@pytest.mark.parametrize("first_day", ["none", "lift_only"])
def test_random_games_with_the_clubs_first_day_are_the_same_in_every_front_end(
        first_day: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The club option first_day is the engine's alone: every front end plays the same game,
    before and after a kill."""
    from tests.conform.random_scripts import script_of

    paths = []
    for rules in ("crime-time", "professional", "vrn-closed"):
        text = script_of(rules, 3, {"first_day": first_day})
        assert text is not None and f'"first_day": "{first_day}"' in text.splitlines()[0]
        path = tmp_path / f"{rules}.table.jsonl"
        path.write_text(text, encoding="utf-8")
        paths.append(str(path))
    _all_same(paths, capsys)


#: the discussion's groups of the rule catalogue (6.3, 6.7, 6.8, 7.5, 8.17) as clubs name them
DISCUSSION = [{"withdraw": "auto", "rotation": "last", "on_record": "all", "on_record_count": 3,
               "best_move": True}, {"withdraw": "no", "on_record": "killed"}]


@pytest.mark.parametrize("options", DISCUSSION, ids=["auto-last-all", "no-killed"])
def test_random_games_with_the_clubs_discussion_are_the_same_in_every_front_end(
        options: dict[str, object], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """withdraw (7.5), rotation (6.3), colours on record (6.7, 6.8): the engine's alone, and
    the colours entered on every front end (a pad, assist's keys, the operator's line)."""
    from tests.conform.random_scripts import script_of

    paths = []
    for rules, seed in (("crime-time", 1), ("crime-time", 3), ("professional", 2)):
        text = script_of(rules, seed, options)
        assert text is not None
        path = tmp_path / f"{rules}-{seed}.table.jsonl"
        path.write_text(text, encoding="utf-8")
        paths.append(str(path))
    _all_same(paths, capsys)


#: the vote's catalogue groups (7.16, 7.18, 7.21-7.23), each group off its ruleset's variant
VOTE_GROUPS = {"first_voting": "no_breaking", "split_order": "reverse", "kill_all": "draw",
               "split_on_four": "allowed", "split_on_nine": "after1"}


@pytest.mark.parametrize("groups", [VOTE_GROUPS, {"first_voting": "breaking_to_themself",
                                                  "split_on_nine": "no"}])
def test_random_games_with_the_clubs_vote_groups_are_the_same_in_every_front_end(
        groups: dict[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """7.16.3, 7.16.4 (the assist names the hands of day 1 by seat: a count cannot tell
    whether the leader voted for himself), 7.18.2, 7.21.2, 7.22.1, 7.23.2 and "after1" are
    the engine's alone: every front end plays the same game, before and after a kill."""
    from tests.conform.random_scripts import script_of

    paths = []
    for rules in ("crime-time", "professional", "vrn-closed"):
        text = script_of(rules, 3, groups)
        assert text is not None and '"split_on_nine"' in text.splitlines()[0]
        path = tmp_path / f"{rules}.table.jsonl"
        path.write_text(text, encoding="utf-8")
        paths.append(str(path))
    _all_same(paths, capsys)


def test_a_foul_during_ones_own_last_word_is_the_same_game_in_every_front_end(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """MafiaRatings' sample game 1 stopped on the pads: the operator's foul on a seat during
    his own last word was refused there (``seat_out``) and taken everywhere else (1.4: he is
    at the table until his last word ends)."""
    lines = (EXAMPLES / "mafia-wins.table.jsonl").read_text(encoding="utf-8").splitlines()
    vote = next(i for i, x in enumerate(lines) if x.startswith('{"vote"'))
    script = tmp_path / "last-word-foul.table.jsonl"
    script.write_text("\n".join([*lines[:vote + 1], '{"foul": 4}',
                                 '{"speech": 4, "say": [[25.0, "спасибо"]]}']) + "\n",
                      encoding="utf-8")
    assert main(["conform", str(script), "--json", "--kill", "2", "--seed", "5"]) == 0
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [(r["mode"], r["result"]) for r in rows] == [(m, "same") for m in MODES]


#: the catalogue's fouls and the end of the game (9.5, 9.6, 8.19), as conform plays them
FOUL_VARIANTS = (
    {"fouls": "sport", "three_fouls": "short_speech", "tech_fouls": "yes",
     "game_end_speech": "yes"},
    {"fouls": "sport", "three_fouls": "lose_speech", "tech_fouls": "yes"},
)


@pytest.mark.parametrize("options", FOUL_VARIANTS, ids=["short_speech", "lose_speech"])
def test_random_games_with_the_clubs_fouls_are_the_same_in_every_front_end(
        options: dict[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """9.5.1, 9.5.2, 9.6.2, 8.19.1 are the engine's alone: every front end (its technical
    foul key or button beside the foul's) plays the same game, killed and resumed."""
    from tests.conform.random_scripts import script_of

    paths = []
    for seed in (3, 7, 11):  # a 3rd foul's turn (3, 11), a 2nd technical foul (7)
        text = script_of("crime-time", seed, options)
        assert text is not None and '"tech_fouls": "yes"' in text.splitlines()[0]
        path = tmp_path / f"fouls-{seed}.table.jsonl"
        path.write_text(text, encoding="utf-8")
        paths.append(str(path))
    _all_same(paths, capsys)


def _all_same(paths: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """``paths`` played in every front end, killed three times: the same game everywhere."""
    code = main(["conform", *paths, "--kill", "3", "--seed", "7"])
    out = capsys.readouterr().out.splitlines()
    assert code == 0, "\n".join(x for x in out if ": same" not in x)
    assert out[-1] == f"{len(paths) * len(MODES)} same, 0 differ, 0 n/a"


def test_the_hosts_marks_after_the_game_are_the_same_in_every_front_end(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The example with the host's marks after it (one replaced, one taken away): assist's
    ``m`` line, the operator view's form, the terminal's ``m`` line give the same protocol,
    killed and resumed on the way."""
    lines = (EXAMPLES / "civilians-win.table.jsonl").read_text(encoding="utf-8").splitlines()
    marks = [{"seat": 4, "points": 0.3, "titles": ["best_player"], "comment": "нашла шерифа"},
             {"seat": 7, "points": -0.2, "comment": "ушёл не туда"},
             {"seat": 2, "titles": ["best_move", "worst_move"], "comment": "и то, и другое"},
             {"seat": 7}, {"seat": 4, "points": 0.5, "comment": "лучший за столом"}]
    script = tmp_path / "marks.table.jsonl"
    script.write_text("\n".join([*lines, *(json.dumps({"mark": m}, ensure_ascii=False)
                                           for m in marks)]) + "\n", encoding="utf-8")
    assert main(["conform", str(script), "--json", "--kill", "3", "--seed", "7"]) == 0
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [(r["mode"], r["result"]) for r in rows] == [(m, "same") for m in MODES]


def _best_move_line_script(tmp_path: Path) -> str:
    """examples/best-move with the best move as a table script line instead of a phrase."""
    lines = (EXAMPLES / "best-move.table.jsonl").read_text(encoding="utf-8").splitlines()
    out = []
    for line in lines:
        if "лучший ход" in line:
            out.append('{"best_move": [2, 6, 9]}')
            line = line.replace('[4.0, "мой лучший ход: два, шесть, девять"], ', "")
        out.append(line)
    path = tmp_path / "best-move-line.table.jsonl"
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return str(path)


def test_the_best_move_is_given_in_every_front_end_and_compared(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """8.17: the victim's pad, assist's «2,6,9 b», the phrase «лучший ход …» (the example's own,
    or said for a table script's best_move line); nothing is left out for it."""
    paths = [str(EXAMPLES / "best-move.table.jsonl"), _best_move_line_script(tmp_path)]
    assert main(["conform", *paths, "--json", "--kill", "2", "--seed", "4"]) == 0
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [r["result"] for r in rows] == ["same"] * 2 * len(MODES)
    assert not any("best_move" in why for r in rows for why in r["left_out"])


def test_a_front_end_that_names_another_best_move_differs_at_it(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The best move is compared like the rest of the protocol (it was left out once)."""
    from narrator.conform.assist import Assist
    from narrator.conform.runs import Run

    run = Assist._run

    def wrong(self: Assist, *args: object) -> Run:
        got = run(self, *args)  # type: ignore[arg-type]
        got.protocol["best_move"] = {**got.protocol["best_move"], "named": [2, 6, 7]}
        return got

    monkeypatch.setattr(Assist, "_run", wrong)
    script = str(EXAMPLES / "best-move.table.jsonl")
    assert main(["conform", script, "--modes", "assist", "--json"]) == 1
    row = json.loads(capsys.readouterr().out)
    assert row["result"] == "differs" and row["key"] == "best_move.named[2]"
    assert row["replay"] == 9 and row["got"] == 7
