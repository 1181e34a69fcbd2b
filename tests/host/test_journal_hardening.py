"""The journal under faults: a torn tail, a second writer, bad headers and lines, file modes,
and the timer a resumed game continues."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from narrator.cli import main
from narrator.clock import VirtualClock
from narrator.engine import EndSpeech, Game, Nominate, Role
from narrator.engine import waits as w
from narrator.errors import NarratorError
from narrator.host.driver import Driver
from narrator.host.host import Host
from narrator.host.intake import apply_input
from narrator.host.journal import Journal, load_journal, repair_torn_tail
from narrator.host.scheduler import Scheduler
from narrator.host.transcript import Transcript
from narrator.voice.manifest import default_manifest

ROLES = {1: Role.SHERIFF, 3: Role.DON, 5: Role.MAFIA, 9: Role.MAFIA}
SECRET = "SCDCMCCCMC"  # the roles in notation order: never printed


def driver_of(host: Host) -> Driver:
    return Driver(host.scheduler, lambda event: apply_input(host, event))


def day_one(path: Path) -> tuple[Host, Journal]:
    """A journaled game at the first day speech (the night run out on a virtual clock)."""
    game = Game(roles=ROLES)
    journal = Journal.for_game(path, game, fsync=False)
    host = Host(game, Scheduler(VirtualClock()), Transcript(default_manifest("ru")), journal)
    host.start()
    driver = driver_of(host)
    while isinstance(game.expect, w.Pause | w.Deal):
        driver.run_next()
    return host, journal


def resumed_host(path: Path, clock: VirtualClock | None = None) -> tuple[Host, Journal]:
    contents = load_journal(path)
    game = contents.game()
    journal = Journal(path, contents.header, fsync=False)
    host = Host(game, Scheduler(clock or VirtualClock()), Transcript(default_manifest("ru")),
                journal)
    host.resume(contents.time_left(game))
    return host, journal


# -- 1. a torn tail ---------------------------------------------------------------------------

def test_a_torn_tail_is_cut_on_open_and_nothing_after_it_is_lost(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    host, journal = day_one(path)
    host.apply(Nominate(5))
    journal.close()
    before = path.read_text()
    with path.open("a") as f:
        f.write('{"t": 12.0, "act')  # the process died mid-write
    host, journal = resumed_host(path)
    host.apply(EndSpeech())
    host.apply(Nominate(7))  # two more inputs after the resume: both must survive
    journal.close()
    contents = load_journal(path)
    assert [str(a) for _, a in contents.entries][-3:] == ["nominate 5", "end", "nominate 7"]
    assert load_journal(path).game().candidates == (5, 7)
    assert journal.note is not None and "torn" in journal.note and "\n" not in journal.note
    copy = Path(str(path) + ".torn")
    assert copy.read_text() == before + '{"t": 12.0, "act'  # the file as it was, kept
    assert stat.S_IMODE(copy.stat().st_mode) == 0o600


def test_repair_says_what_it_did_in_one_line_and_is_idempotent(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    _, journal = day_one(path)
    journal.close()
    assert repair_torn_tail(path) is None
    with path.open("a") as f:
        f.write('{"t": 3')
    note = repair_torn_tail(path)
    assert note is not None and note.count("\n") == 0 and str(path) in note
    assert repair_torn_tail(path) is None
    assert path.read_text().endswith("\n")


def test_a_complete_last_line_without_its_newline_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    host, journal = day_one(path)
    journal.close()
    with path.open("a") as f:
        f.write('{"t": 99.0, "action": "nominate 5"}')  # everything but the "\n"
    host, journal = resumed_host(path)
    host.apply(EndSpeech())
    journal.close()
    assert [str(a) for _, a in load_journal(path).entries][-2:] == ["nominate 5", "end"]


@pytest.mark.parametrize("last", ['{"t": 5.0, "action": "dance 3"}', '{"t": 5.0}',
                                  '{"t": "x", "action": "end"}', '[1, 2]', '"end"'])
def test_a_well_formed_but_invalid_last_line_is_reported(tmp_path: Path, last: str) -> None:
    path = tmp_path / "j.jsonl"
    _, journal = day_one(path)
    journal.close()
    n = len(path.read_text().splitlines()) + 1
    with path.open("a") as f:
        f.write(last + "\n")
    with pytest.raises(NarratorError) as e:
        load_journal(path)
    message = str(e.value)
    assert message.startswith(f"{path}:{n}: ") and "\n" not in message
    assert "not a journal entry" in message or "unknown action" in message


def test_engine_errors_name_the_file_and_its_line(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    host, journal = day_one(path)
    host.apply(Nominate(5))
    host.undo()
    journal.close()
    with path.open("a") as f:
        f.write("\n")  # a blank line
        f.write('{"t": 80.0, "action": "shot 5 2"}\n')  # nobody hunts by day
    n = len(path.read_text().splitlines())
    with pytest.raises(NarratorError) as e:
        load_journal(path).game()
    message = str(e.value)
    assert message.startswith(f"{path}:{n}: shot 5 2: the mafia is not hunting")
    assert SECRET not in message


# -- 2. one writer ----------------------------------------------------------------------------

def test_a_second_writer_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    _, first = day_one(path)
    contents = load_journal(path)
    with pytest.raises(NarratorError, match="in use by another narrator") as e:
        Journal(path, contents.header)
    assert "\n" not in str(e.value)
    first.close()
    Journal(path, contents.header).close()  # free again once the first has closed


def test_resume_of_a_journal_in_use_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    _, journal = day_one(path)
    proc = subprocess.run([sys.executable, "-m", "narrator", "resume", str(path), "--out-wav",
                           str(tmp_path / "o.wav")], capture_output=True, text=True,
                          timeout=120, stdin=subprocess.DEVNULL)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "in use by another narrator" in proc.stderr
    assert not (tmp_path / "o.wav").exists()
    journal.close()


# -- 3. owner only, and no roles in what is printed --------------------------------------------

def test_a_journal_is_created_owner_only(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    _, journal = day_one(path)
    journal.close()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_a_journal_left_readable_is_made_owner_only_when_resumed(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    _, journal = day_one(path)
    journal.close()
    os.chmod(path, 0o644)
    _, journal = resumed_host(path)
    journal.close()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_the_public_notation_has_no_roles() -> None:
    game = Game(roles=ROLES)
    game.start()
    assert SECRET in game.notation()
    public = game.notation(secret=False)
    assert public == "crime-time n1:dealing ++++++++++ noms=-"
    assert not any(letter in public.split()[2] for letter in "CSMD")


def test_an_engine_refusal_shows_no_roles() -> None:
    game = Game(roles=ROLES)
    game.start()
    with pytest.raises(NarratorError) as e:
        game.apply(Nominate(5))
    assert SECRET not in str(e.value) and "++++++++++" in str(e.value)


# -- header and mode ----------------------------------------------------------------------------

def _journal_with(tmp_path: Path, **changes: object) -> Path:
    path = tmp_path / "j.jsonl"
    _, journal = day_one(path)
    journal.close()
    lines = path.read_text().splitlines()
    head = json.loads(lines[0])
    head.update(changes)
    path.write_text("\n".join([json.dumps(head), *lines[1:]]) + "\n")
    return path


@pytest.mark.parametrize(("changes", "message"), [
    ({"mode": "poker"}, "mode: expected assist or play, got \"poker\""),
    ({"mode": {"x": 1}}, "mode: expected assist or play"),
    ({"rules": {"name": "crime-time"}}, "rules: expected a name"),
    ({"rules": "poker"}, "unknown rules 'poker'"),
    ({"seats": 0}, "seats: crime-time is played at 4..15 seats, not 0"),
    ({"seats": "10"}, "seats: crime-time is played at 4..15 seats"),
    ({"roles": {"5": "mafia"}}, "roles: expected 1 sheriff for crime-time, got 0"),
    ({"roles": {"²": "mafia"}}, "roles: "),
    ({"roles": {"5": "wizard"}}, "roles: "),
    ({"lang": "xx"}, "lang: expected ru or uk"),
    ({"settings": {"count_pace": -1}}, "settings: "),
    ({"settings": {"warp": 1}}, "settings: "),
    ({"settings": [1]}, "settings: "),
])
def test_a_bad_header_is_one_line_naming_line_1(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], changes: dict[str, object],
        message: str) -> None:
    path = _journal_with(tmp_path, **changes)
    assert main(["resume", str(path), "--json"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"narrator: {path}:1: ") and message in err


def test_hostile_journal_lines_are_one_line(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "j.jsonl"
    _, journal = day_one(path)
    journal.close()
    good = path.read_text()
    for bad in ('{"t": 1, "action": "nominate ' + "9" * 5000 + '"}',
                '{"t": ' + "9" * 5000 + ', "action": "end"}',
                '{"t": 1, "action": "nominate ²"}',
                '{"t": 1, "action": ' + "[" * 100_000 + "]" * 100_000 + "}",
                '{"t": NaN, "action": "end"}',
                '{"t": 1, "action": "end", "action": "end"}'):
        path.write_text(good + bad + "\n{\"t\": 2, \"action\": \"end\"}\n")
        assert main(["resume", str(path), "--json"]) == 2
        err = capsys.readouterr().err
        n = len(good.splitlines()) + 1
        assert err.count("\n") == 1 and err.startswith(f"narrator: {path}:{n}: "), err


def test_dev_zero_and_a_fifo_as_a_journal(tmp_path: Path) -> None:
    fifo = tmp_path / "j.fifo"
    os.mkfifo(fifo)
    for path in ("/dev/zero", str(fifo)):
        for more in (["--json"], []):  # read only, and before the journal is opened to go on
            proc = subprocess.run([sys.executable, "-m", "narrator", "resume", path, *more],
                                  capture_output=True, text=True, timeout=60,
                                  stdin=subprocess.DEVNULL)
            assert proc.returncode == 2 and proc.stderr.count("\n") == 1
            assert "not a regular file" in proc.stderr


# -- the running timer continues ------------------------------------------------------------------

def test_a_resumed_speech_continues_with_the_time_that_was_left(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    host, journal = day_one(path)
    started = host.timer_started
    driver_of(host).run_until(started + 20.0)
    host.apply(Nominate(5))  # journaled 20 s into the speech…
    journal.close()  # …and then the process dies
    resumed_clock = VirtualClock(1000.0)  # a new process: another clock
    host, journal = resumed_host(path, resumed_clock)
    assert host.time_left == pytest.approx(40.0)
    said: list[float] = []
    host.voice = type("V", (), {"say": lambda self, line, at: said.append(at)})()
    driver = driver_of(host)
    driver.run_until(1000.0 + 39.0)
    assert said == [pytest.approx(1030.0)]  # «Десять секунд» 50 s into the speech
    driver.run_until(1000.0 + 40.0)
    exp = host.game.expect
    assert isinstance(exp, w.Speech) and exp.seat == 2  # the speech ended 60 s after it began
    journal.close()
    entries = load_journal(path).entries
    assert str(entries[-1][1]) == "timeup speech"


def test_a_journal_without_timer_marks_restarts_the_timer_in_full(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    _, journal = day_one(path)
    journal.close()
    lines = [x for x in path.read_text().splitlines() if '"timer"' not in x]
    path.write_text("\n".join(lines) + "\n")
    contents = load_journal(path)
    assert contents.time_left(contents.game()) is None
