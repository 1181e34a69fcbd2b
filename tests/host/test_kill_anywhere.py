"""Kill anywhere, lose nothing: a host driven by recorded inputs is SIGKILLed at 200+ points of a
long game, resumed from its journal each time, and ends exactly where the uninterrupted run
ended — the same protocol, and every input and every timer's end at the same moment (so the
timer that was running went on with the time it had left, not a fresh one).

The inputs are a long random game's table inputs (shots, checks, hands, nominations, the ends
of speeches, fouls, removals) at random moments; the timers' ends come from the host's own
scheduler, as in every mode. Each run forks: the child plays on a virtual clock with its journal
and kills itself at its point — before a journal line, in the middle of one (a torn tail), or
right after one, before the input is acted on; the parent resumes as ``narrator resume`` does.
"""

from __future__ import annotations

import json
import os
import random
import signal
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from narrator.clock import VirtualClock
from narrator.engine import Game, TimeUp
from narrator.host.driver import Driver
from narrator.host.heartbeat import BEAT_EVERY, keep_heartbeat
from narrator.host.host import Host
from narrator.host.intake import apply_input
from narrator.host.journal import Journal, load_journal, locked, repair_torn_tail
from narrator.host.scheduler import Scheduler
from narrator.inputs import Input, action
from narrator.testing import random_action

POINTS = 220  # kill points per run: at least 200
QUIET_POINTS = 24  # kills at random moments, most of them in a quiet stretch
PHASES = ("before", "torn", "after")


class _Null:
    def say(self, line: Any, at: float) -> None:
        pass


def _host(game: Game, clock: VirtualClock, journal: Journal | None) -> tuple[Host, Driver]:
    host = Host(game, Scheduler(clock), _Null(), journal)
    return host, Driver(host.scheduler, lambda event: apply_input(host, event))


def reference_inputs(seed: int) -> tuple[list[Input], Game]:
    """A long random game as timed table inputs; the timers run out on their own."""
    rng = random.Random(seed)
    game = Game(rng=random.Random(seed))
    host, driver = _host(game, VirtualClock(), None)
    host.start()
    inputs: list[Input] = []
    while not game.is_over:
        picked = random_action(game, rng)
        left = host.time_left
        if isinstance(picked, TimeUp) or left is None or left < 0.05:
            driver.run_next()  # the table waits for the timer
            continue
        # an input some time into the running timer, never on its very end
        event = action(driver.now() + rng.uniform(0.0, min(left - 0.02, 6.0)), str(picked))
        driver.feed(event)
        inputs.append(event)
    return inputs, game


@dataclass
class Run:
    """An uninterrupted run's journal: (time, action) of every entry, and the protocol."""

    entries: list[tuple[float, str]]
    protocol: dict[str, Any]
    lines: int


def play(inputs: list[Input], path: Path, seed: int) -> Run:
    game = Game(rng=random.Random(seed))
    journal = Journal.for_game(path, game, fsync=False)
    host, driver = _host(game, VirtualClock(), journal)
    host.start()
    for event in inputs:
        driver.feed(event)
    while not game.is_over and driver.run_next():
        pass
    journal.close()
    contents = load_journal(path)
    return Run([(round(t, 3), str(a)) for t, a in contents.entries], game.protocol(),
               len(path.read_text().splitlines()))


def killed_at(inputs: list[Input], path: Path, seed: int, line: int, phase: str) -> None:
    """Fork a child that plays with its journal and SIGKILLs itself at ``line``/``phase``."""
    pid = os.fork()
    if pid == 0:  # the child: never returns
        try:
            game = Game(rng=random.Random(seed))
            journal = Journal.for_game(path, game, fsync=False)
            written = [0]
            plain = journal._line

            def dying(text: str) -> None:
                written[0] += 1
                if written[0] == line:
                    if phase == "torn":
                        journal._file.write(text[: max(1, len(text) // 2)])
                        journal._file.flush()
                    if phase in ("before", "torn"):
                        os.kill(os.getpid(), signal.SIGKILL)
                plain(text)
                if written[0] == line:  # "after": written, not acted on
                    os.kill(os.getpid(), signal.SIGKILL)

            journal._line = dying  # type: ignore[method-assign]
            host, driver = _host(game, VirtualClock(), journal)
            host.start()
            for event in inputs:
                driver.feed(event)
            while not game.is_over and driver.run_next():
                pass
        finally:
            os._exit(3)  # the kill point was never reached
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, (line, phase)


def resume_and_finish(inputs: list[Input], path: Path) -> tuple[Game, str | None]:
    """What ``narrator resume`` does, then the rest of the table's inputs at their moments."""
    with locked(path):
        note = repair_torn_tail(path)
    contents = load_journal(path)
    game = contents.game()
    journal = Journal(path, contents.header, fsync=False)
    host, driver = _host(game, VirtualClock(contents.last_t), journal)
    host.resume(contents.time_left(game))
    taken = sum(1 for _, a in contents.entries if not isinstance(a, TimeUp))
    for event in inputs[taken:]:
        driver.feed(event)
    while not game.is_over and driver.run_next():
        pass
    journal.close()
    return game, note


@pytest.fixture(scope="module")
def long_game(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[Input], Run, int]:
    # the longest of a few seeded games: the more lines, the more places to die in
    seed = max(range(30), key=lambda s: len(reference_inputs(s)[0]))
    inputs, game = reference_inputs(seed)
    run = play(inputs, tmp_path_factory.mktemp("ref") / "j.jsonl", seed)
    assert run.protocol == game.protocol()  # the journaled run is the game the inputs make
    assert run.lines > 150
    return inputs, run, seed


def test_the_reference_run_is_long_and_uses_every_kind_of_input(
        long_game: tuple[list[Input], Run, int]) -> None:
    inputs, run, _ = long_game
    kinds = {str(e.get("action")).split()[0] for e in inputs}
    assert {"nominate", "end", "hands", "shot", "check"} <= kinds
    assert sum(1 for _, a in run.entries if a.startswith("timeup")) > 30


def test_killed_anywhere_the_resumed_game_ends_the_same(
        long_game: tuple[list[Input], Run, int], tmp_path: Path) -> None:
    inputs, run, seed = long_game
    rng = random.Random(12)
    points = sorted({(rng.randint(1, run.lines - 1), rng.choice(PHASES))
                     for _ in range(POINTS * 2)})
    points = rng.sample(points, POINTS)
    torn_notes = 0
    for n, (line, phase) in enumerate(points):
        path = tmp_path / f"j{n}.jsonl"
        killed_at(inputs, path, seed, line, phase)
        game, note = resume_and_finish(inputs, path)
        where = f"killed {phase} line {line}"
        assert game.protocol() == run.protocol, where
        entries = [(round(t, 3), str(a)) for t, a in load_journal(path).entries]
        # every input and every timer's end at the very moment of the uninterrupted run
        assert entries == run.entries, where
        if phase == "torn":
            assert note is not None and "torn" in note, where
            torn_notes += 1
        else:
            assert note is None, where
    assert torn_notes > 40


def killed_at_a_moment(inputs: list[Input], path: Path, seed: int, when: float,
                       report: Path) -> None:
    """Fork a child that plays with its journal and its heartbeat, and SIGKILLs itself at the
    game's time ``when`` (wherever that falls: mostly between two lines); it writes the time
    its timer had left then to ``report`` first."""
    pid = os.fork()
    if pid == 0:  # the child: never returns
        try:
            game = Game(rng=random.Random(seed))
            journal = Journal.for_game(path, game, fsync=False)
            host, driver = _host(game, VirtualClock(), journal)
            keep_heartbeat(host, journal)

            def die() -> None:
                report.write_text(json.dumps({"left": host.time_left}))
                os.kill(os.getpid(), signal.SIGKILL)

            host.scheduler.call_at(when, "kill", die)
            host.start()
            for event in inputs:
                driver.feed(event)
            while not game.is_over and driver.run_next():
                pass
        finally:
            os._exit(3)  # the kill point was never reached
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, when


def test_killed_after_a_quiet_stretch_the_timer_comes_back_within_a_second(
        long_game: tuple[list[Input], Run, int], tmp_path: Path) -> None:
    inputs, run, seed = long_game
    end = run.entries[-1][0]
    rng = random.Random(25)
    errors = []
    for n in range(QUIET_POINTS):
        when = rng.uniform(1.0, end - 1.0)
        path, report = tmp_path / f"q{n}.jsonl", tmp_path / f"q{n}.json"
        killed_at_a_moment(inputs, path, seed, when, report)
        left = json.loads(report.read_text())["left"]
        contents = load_journal(path)
        resumed = contents.time_left(contents.game())
        if left is None:
            continue
        assert resumed is not None, when
        # never less time than was left, never more than a beat's worth
        errors.append(resumed - left)
        assert -1e-6 <= resumed - left <= BEAT_EVERY + 1e-6, (when, resumed, left)
        if n % 4 == 0:  # and the game goes on to the same end (a few of them: it takes time)
            game, _ = resume_and_finish(inputs, path)
            assert game.protocol() == run.protocol, when
    assert len(errors) > QUIET_POINTS // 2
    assert max(errors) > 0.2  # the kills fell between lines, not on them
