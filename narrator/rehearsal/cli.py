"""The listening test's files and the replay of its recorded session (the command at the table
is :mod:`narrator.play.listen_test`'s).

Start-up as a hostless game's: the model (found, takes runtime grammars), the microphone and
the speaker, then the model is loaded and each phrase's reading rendered. The session goes to
a new folder (``mic.wav``, ``session.json``, ``listen.jsonl``: readable by its owner only) with
the report beside it: ``report.txt`` as printed and ``report.json``, the small file a club can
send (no audio; ``--with-audio`` packs the session with it into ``send.zip``). ``narrator
replay`` of the folder prints the same report, byte for byte.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

from narrator.errors import NarratorError
from narrator.host.hearing import Hearing, game_hearing
from narrator.rehearsal.judge import Judge
from narrator.rehearsal.prompts import Prompt
from narrator.rehearsal.record import LISTEN, RecordedGate, read_session
from narrator.rehearsal.report import Report

REPORT_TXT, REPORT_JSON, SEND_ZIP = "report.txt", "report.json", "send.zip"


def say(text: str) -> None:
    print(text, flush=True)


def model_name(path: Path) -> str:
    """The model as the report names it: its folder (a package's ``model`` folder: the
    package)."""
    return path.parent.name if path.name == "model" else path.name


def model_folder(lang: str, explicit: str | None) -> Path:
    """The model to listen with; one line when it is missing or takes no runtime grammar."""
    from narrator.audio.models import find_model, grammar_support

    try:
        path = find_model(lang, explicit)
    except NarratorError as e:
        raise NarratorError(f"{e}; without a model the table plays with --listen off "
                            "(the speeches are ended on the seat pads)") from None
    if not (path / "am" / "final.mdl").is_file():
        raise NarratorError(f"{path} is not a Vosk model (no am/final.mdl)")
    if not grammar_support(path):
        raise NarratorError(f"{path} does not support runtime grammars; "
                            f"use a small model: `narrator models fetch {lang}`")
    return path


def write_report(folder: Path, report: Report, *, with_audio: bool = False) -> None:
    """``report.txt`` and ``report.json`` in ``folder`` (and ``send.zip``, with the audio)."""
    (folder / REPORT_TXT).write_text(report.text(), encoding="utf-8")
    (folder / REPORT_JSON).write_text(
        json.dumps(report.to_json(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    if with_audio:
        from narrator.audio.session import META, MIC

        with zipfile.ZipFile(folder / SEND_ZIP, "w", zipfile.ZIP_DEFLATED) as z:
            for name in (REPORT_JSON, REPORT_TXT, LISTEN, META, MIC):
                if (folder / name).is_file():
                    z.write(folder / name, name)


def replay(folder: Path, *, model: Any = None, model_path: str | None = None,
           hearing: Hearing | None = None) -> Report:
    """The recorded test heard again, at the same chunks, through the same judge; ``model``:
    a loaded Vosk model (else found as the test found it)."""
    from narrator.audio.session import SessionReader
    from narrator.audio.vosk_recognizer import load_model, table_recognizer

    session = read_session(folder)
    reader = SessionReader(folder)
    name = session.model
    if model is None:
        path = model_folder(session.lang, model_path)
        model, name = load_model(path), model_name(path)
    hearing = hearing or game_hearing(session.lang, session.seats)
    judge = Judge(table_recognizer(model, list(hearing.phrases)), hearing,
                  seats=session.seats, rules=session.rules, echo=RecordedGate(session.gated))
    windows = iter(session.windows)
    window = next(windows, None)
    for k, chunk in enumerate(reader.source(chunk_ms=session.chunk_ms).chunks()):
        if window is None:
            break
        if k == window.open:
            judge.open(window.prompt, chunk.timestamp)
        judge.hear(chunk)
        if k == window.close:
            judge.close(chunk.end)
            window = next(windows, None)
    if window is not None:
        raise NarratorError(f"{folder}: the recorded audio ends before phrase "
                            f"{window.prompt.n}'s window")
    return Report(judge.outcomes, session.lang, session.seats, name)


def is_listen_session(folder: Path) -> bool:
    """Whether ``folder`` holds a listening test (not a game's session)."""
    return (folder / LISTEN).is_file()


__all__ = [
    "Prompt",
    "is_listen_session",
    "model_folder",
    "model_name",
    "replay",
    "say",
    "write_report",
]
