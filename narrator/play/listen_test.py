"""``narrator listen test`` at the table: the microphone, the speaker and the model checked,
the phrases read out and listened for (:mod:`narrator.rehearsal`), the report written beside
the recording. Its clock is the real table's (:func:`~narrator.table.session.table_clock`)."""

from __future__ import annotations

import time

from narrator.arguments import ListenTestArgs
from narrator.errors import NarratorError
from narrator.host.hearing import game_hearing
from narrator.rehearsal.cli import (
    REPORT_JSON,
    REPORT_TXT,
    model_folder,
    model_name,
    say,
    write_report,
)
from narrator.rehearsal.prompts import prompt_list
from narrator.rehearsal.record import ListenWriter
from narrator.rehearsal.report import Report
from narrator.table.session import table_clock


def run(args: ListenTestArgs) -> int:
    """The test at the table: the phrases, the figures, the verdict."""
    from narrator.audio.devices import input_device, output_device
    from narrator.audio.session import SessionRecorder
    from narrator.audio.sources import MicrophoneSource
    from narrator.audio.vosk_recognizer import TABLE_CHUNK_MS, load_model, table_recognizer
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
    clock = table_clock()  # the real table's
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
