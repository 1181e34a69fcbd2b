"""``narrator tournament run``: its one-line errors, and the box killed and started again on
the same folder with every game it had stored."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from narrator.cli import main
from narrator.errors import NarratorError
from narrator.tournament.run_cli import open_store
from tests.tournament.director_helpers import NAMES, ROUNDS, body, run_args, write_plan

ROOT = Path(__file__).resolve().parents[2]


def _run(tmp_path: Path, *extra: str) -> list[str]:
    return ["tournament", "run", str(tmp_path / "t"), "--plan", str(tmp_path / "plan.json"),
            "--console", "127.0.0.1:0", *extra]


@pytest.mark.parametrize(("extra", "says"), [
    (("--final-from", "3"), "--final-from: expected a round from 1 to 2"),
    (("--hide-final",), "--hide-final need --final-from"),
    (("--final-from", "2", "--final-coefficient", "0"), "--final-coefficient: expected"),
    (("--scoring", "nothing"), "nothing: not a scoring system"),
    (("--tournament-id", "0"), "--tournament-id: expected a number from 1"),
])
def test_bad_options_are_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                             extra: tuple[str, ...], says: str) -> None:
    write_plan(tmp_path)
    assert main(_run(tmp_path, *extra)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and says in err
    assert not (tmp_path / "t" / "tournament.sqlite").exists()


def test_a_later_run_with_another_plan_is_one_line_and_exit_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_plan(tmp_path)
    store, _ = open_store(run_args(tmp_path), 0)
    store.close()
    write_plan(tmp_path, [ROUNDS[1], ROUNDS[0]])  # the same players, the rounds swapped
    assert main(_run(tmp_path)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "differs from the tournament's" in err
    write_plan(tmp_path, names=[*NAMES[:-1], "Новичок"])
    assert main(_run(tmp_path)) == 2
    assert "the players" in capsys.readouterr().err
    write_plan(tmp_path)
    assert main(_run(tmp_path, "--name", "Другой")) == 2
    assert "--name differs" in capsys.readouterr().err


def test_a_plan_that_does_not_read_is_one_line(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "plan.json").write_text('{"plan": 1, "rounds": []}', encoding="utf-8")
    assert main(_run(tmp_path)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "plan.json" in err


def _start(tmp_path: Path) -> tuple[subprocess.Popen[str], dict[str, str]]:
    """The box on a free port of 127.0.0.1; its links as it prints them."""
    box = subprocess.Popen([sys.executable, "-m", "narrator", *_run(tmp_path)], cwd=ROOT,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    links: dict[str, str] = {}
    timer = threading.Timer(60, box.kill)  # a box that never prints is not waited for forever
    timer.start()
    try:
        assert box.stdout is not None
        for line in box.stdout:
            found = re.match(r"(director|board|table \d+|player [^:]+):\s+(\S+)$", line.strip())
            if found:
                links[found.group(1)] = found.group(2)
            if f"player {NAMES[-1]}" in links:
                break
    finally:
        timer.cancel()
    assert f"player {NAMES[-1]}" in links, box.stderr.read() if box.stderr else ""
    return box, links


def _http(url: str, data: dict[str, Any] | None = None) -> tuple[int, Any]:
    request = urllib.request.Request(url, data=None if data is None else json.dumps(
        data).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=5) as answer:
        return answer.status, json.loads(answer.read())


def _kill(box: subprocess.Popen[str]) -> None:
    os.kill(box.pid, signal.SIGKILL)
    box.wait(timeout=10)
    for stream in (box.stdout, box.stderr):
        if stream is not None:
            stream.close()


def test_the_box_killed_and_started_again_still_has_the_game(tmp_path: Path) -> None:
    write_plan(tmp_path)
    box, links = _start(tmp_path)
    try:
        join = links["table 1"]
        status, plan = _http(join + "/plan")
        assert status == 200 and plan["table"] == 1 and plan["rounds"][0] == NAMES[:10]
        game = body(tmp_path, 1, 1)
        assert _http(join + "/games", game) == (200, {"stored": True})
    finally:
        _kill(box)
    assert box.returncode == -signal.SIGKILL
    box, again = _start(tmp_path)
    try:
        assert again["table 1"].rsplit("/", 1)[1] == join.rsplit("/", 1)[1]  # the same token
        assert _http(again["table 1"] + "/games", game) == \
            (200, {"stored": False, "already": True})
        _, board = _http(again["board"] + "/state.json")
        assert board["games"][0]["rounds"][0] == {"round": 1, "in": True}
    finally:
        box.send_signal(signal.SIGTERM)  # stopped as a director stops it
        assert box.wait(timeout=20) == 0
        for stream in (box.stdout, box.stderr):
            if stream is not None:
                stream.close()


def test_a_later_run_may_give_the_same_options_again(tmp_path: Path) -> None:
    write_plan(tmp_path)
    options: dict[str, Any] = {"name": "Кубок", "final_from": 2, "final_coefficient": 1.5,
                               "scoring": "fiim"}
    for made in (True, False):
        store, was_made = open_store(run_args(tmp_path, **options), 0)
        store.close()
        assert was_made is made
    store, _ = open_store(run_args(tmp_path), 0)  # or leave them out
    assert store.stages()[1].coefficient == 1.5
    store.close()
    with pytest.raises(NarratorError, match="--final-from differs"):
        open_store(run_args(tmp_path, **{**options, "final_coefficient": 2.0}), 0)
    with pytest.raises(NarratorError, match="--scoring differs"):
        open_store(run_args(tmp_path, scoring="points"), 0)
