"""``narrator listen test`` at the table, and the replay of its recorded session.

Start-up as a hostless game's: the model (found, takes runtime grammars), the microphone and
the speaker, then the model is loaded and each phrase's reading rendered. The session goes to
a new folder (``mic.wav``, ``session.json``, ``listen.jsonl``: readable by its owner only) with
the report beside it: ``report.txt`` as printed and ``report.json``, the small file a club can
send (no audio; ``--with-audio`` packs the session with it into ``send.zip``). ``narrator
replay`` of the folder prints the same report, byte for byte.
"""

from __future__ import annotations

import json
import time
import zipfile
from pathlib import Path
from typing import Any

from narrator.arguments import ListenTestArgs
from narrator.errors import NarratorError
from narrator.host.hearing import Hearing, game_hearing
from narrator.rehearsal.judge import Judge
from narrator.rehearsal.prompts import Prompt, prompt_list
from narrator.rehearsal.record import LISTEN, ListenWriter, RecordedGate, read_session
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


def run(args: ListenTestArgs) -> int:
    """The test at the table: the phrases, the figures, the verdict."""
    from narrator.audio.devices import input_device, output_device
    from narrator.audio.session import SessionRecorder
    from narrator.audio.sources import MicrophoneSource
    from narrator.audio.vosk_recognizer import TABLE_CHUNK_MS, load_model, table_recognizer
    from narrator.clock import MonotonicClock
    from narrator.host.speaker import speaker_narration
    from narrator.outputs import check_new_session_folder
    from narrator.rehearsal.run import ListenRun, Timing

    begun = time.perf_counter()
    if args.window < 2.0:
        raise NarratorError(f"--window {args.window}: give each phrase at least 2 seconds")
    prompts = prompt_list(args.lang, args.seats)
    folder = check_new_session_folder(args.out, "--out")
    path = model_folder(args.lang, args.model)
    input_device()
    output_device()
    clock = MonotonicClock()
    narration = speaker_narration(clock, lang=args.lang, voices=args.voices,
                                  night_music=args.night_music)
    hearing = game_hearing(args.lang, args.seats)
    recognizer = table_recognizer(load_model(path), list(hearing.phrases), model_path=path)
    synth = narration.pack.synthesizer()
    readings = {p.n: synth.synthesize(p.text) for p in prompts}  # before the first phrase
    say(f"ready to listen in {time.perf_counter() - begun:.1f} s (model {path})")
    say(f"{len(prompts)} phrases: the narrator reads each out, then the seat it names reads "
        "it at their own place, as in a game; Ctrl+C stops (what was heard is reported)")
    folder.mkdir(parents=True, exist_ok=True)
    header = {"lang": args.lang, "seats": args.seats, "rules": "crime-time",
              "chunk_ms": TABLE_CHUNK_MS, "model": model_name(path),
              "window": args.window}
    session = SessionRecorder(folder)
    writer = ListenWriter(folder, header)
    test = ListenRun(
        prompts, source=MicrophoneSource(clock=clock, chunk_ms=TABLE_CHUNK_MS,
                                         on_stall=lambda back, why: say(why)),
        clock=clock, recognizer=recognizer, hearing=hearing, seats=args.seats,
        chunk_ms=TABLE_CHUNK_MS, narration=narration,
        announce=lambda p: [f"speech.{p.seat}", readings[p.n]], session=session,
        writer=writer, log=say, timing=Timing(window=args.window), music=args.music)
    narration.player.start()
    try:
        test.run()
    except KeyboardInterrupt:
        say("stopped: the phrases heard so far are reported")
    finally:
        narration.player.stop()
        narration.close()
        session.close()
        writer.close()
    report = Report(test.judge.outcomes, args.lang, args.seats, model_name(path))
    print(report.text(), end="")
    write_report(folder, report, with_audio=args.with_audio)
    say(f"the report: {folder / REPORT_TXT} and {folder / REPORT_JSON} (no audio: send "
        f"{REPORT_JSON}); `narrator replay {folder}` prints it again")
    return 0


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


__all__ = ["Prompt", "is_listen_session", "replay", "run", "write_report"]
