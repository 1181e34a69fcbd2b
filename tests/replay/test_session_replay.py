"""A recorded session replays to the very same recognition events; other formats are refused."""

from __future__ import annotations

import json
import wave
from pathlib import Path
from typing import Any

import pytest

from narrator.audio.format import AudioChunk
from narrator.audio.listener import EchoGate, Gate, Listener
from narrator.audio.recognizer import Final, RecognitionEvent
from narrator.audio.session import INPUTS, SessionReader, SessionRecorder
from narrator.audio.sources import PcmSource, pad
from narrator.audio.vosk_recognizer import VoskRecognizer
from narrator.cli import main
from narrator.errors import NarratorError
from narrator.host.recorder import InputLog, Recorder
from narrator.inputs import GATED, Input, action
from narrator.replay.session import RecordedGate, read_inputs

HELLO, THANKS = "안녕하세요", "감사합니다"


class NotingGate:
    """An echo gate that notes each chunk it silences, as the listening loop does."""

    def __init__(self, gate: Gate, log: InputLog) -> None:
        self.gate = gate
        self.log = log

    def is_open(self, t: float) -> bool:
        return self.gate.is_open(t)

    def is_open_span(self, start: float, end: float) -> bool:
        if self.gate.is_open_span(start, end):
            return True
        self.log.write(Input(GATED, start, {"end": end}))
        return False


def test_record_then_replay_gives_identical_events(
    tmp_path: Path, ko_model: Any, ko_grammar: list[str], ko_pcm: dict[str, bytes]
) -> None:
    start = 1234.5  # a monotonic-clock timeline, as from the microphone
    narrator = pad(ko_pcm[THANKS], 0.2, 0.0)
    mic = narrator + pad(ko_pcm[HELLO], 0.8, 1.2) + pad(ko_pcm["아니요"], 0.0, 1.2)

    with SessionRecorder(tmp_path / "s") as rec:
        inputs = Recorder(rec.dir / INPUTS)
        for chunk in PcmSource(mic, chunk_ms=100, start=start).chunks():
            rec.write_audio(chunk)
        gate = EchoGate()
        gate.close(start + 0.2, start + len(narrator) / 32000)
        inputs.write(action(start + 3.0, "hands 1 2"))
        live = Listener(PcmSource(mic, chunk_ms=100, start=start),
                        VoskRecognizer(ko_model, phrases=ko_grammar), NotingGate(gate, inputs))
        live_events: list[RecognitionEvent] = list(live.events())
        rec.write_protocol({"winner": None})
        inputs.close()

    live_finals = [e for e in live_events if isinstance(e, Final)]
    assert [f.text for f in live_finals] == [HELLO, "아니요"]

    reader = SessionReader(tmp_path / "s")
    assert reader.start == start
    recorded = read_inputs(reader.inputs_path)
    assert recorded[0].to_json() == {"type": "action", "t": start + 3.0, "action": "hands 1 2"}
    gated = {round(e.t, 6) for e in recorded if e.type == GATED}
    silenced = {round(c.timestamp, 6) for c in PcmSource(mic, chunk_ms=100, start=start).chunks()
                if not gate.is_open_span(c.timestamp, c.end)}
    assert gated == silenced and len(gated) > 10  # the narrator's 1.6 s and the gate's tail
    assert reader.protocol() == {"winner": None}
    assert (reader.dir / "protocol.json").stat().st_mode & 0o777 == 0o600  # it names the roles
    assert reader.inputs_path.stat().st_mode & 0o777 == 0o600
    replay = Listener(reader.source(chunk_ms=100), VoskRecognizer(ko_model, phrases=ko_grammar),
                      RecordedGate(gated))
    assert list(replay.events()) == live_events  # same texts, words, timings, confidences


def test_capture_gaps_are_written_as_silence(tmp_path: Path) -> None:
    with SessionRecorder(tmp_path) as rec:
        rec.write_audio(AudioChunk(b"\1\0" * 1600, timestamp=10.0))
        rec.write_audio(AudioChunk(b"\1\0" * 1600, timestamp=10.5))  # 0.4 s lost
        assert abs(rec.position - 10.6) < 1e-9
    with wave.open(str(tmp_path / "mic.wav")) as w:
        assert w.getnframes() == 16000 * 6 // 10
    chunks = list(SessionReader(tmp_path).source(chunk_ms=100).chunks())
    assert round(chunks[5].timestamp, 6) == 10.5 and chunks[5].audio[:2] == b"\1\0"
    assert chunks[2].audio == b"\0" * 3200


def test_the_audio_is_read_as_it_is_replayed_not_whole(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    # a long game's hour of audio is 115 MB: read a chunk at a time, the same chunks
    audio = bytes(range(256)) * 250  # 2 s of a pattern, 64,000 bytes
    with SessionRecorder(tmp_path) as rec:
        rec.write_audio(AudioChunk(audio, timestamp=7.25))
    whole = list(PcmSource(audio, chunk_ms=30, start=7.25).chunks())

    def whole_file(*args: Any, **kwargs: Any) -> bytes:
        raise AssertionError("the whole recording read into memory")

    monkeypatch.setattr("narrator.audio.session.load_pcm", whole_file)
    assert list(SessionReader(tmp_path).source(chunk_ms=30).chunks()) == whole


def test_a_broken_session_is_a_one_line_error(tmp_path: Path) -> None:
    with pytest.raises(NarratorError, match="not a recorded session"):
        SessionReader(tmp_path)
    with SessionRecorder(tmp_path):
        pass
    (tmp_path / INPUTS).write_text('{"type": "entry", "t": 1.0, "text": "f 6"}\n{"foul": 7}\n')
    with pytest.raises(NarratorError, match=r"inputs.jsonl:2: input has no 'type'"):
        read_inputs(SessionReader(tmp_path).inputs_path)


def test_a_session_of_the_first_format_is_refused_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with SessionRecorder(tmp_path):
        pass
    meta = json.loads((tmp_path / "session.json").read_text())
    assert meta["format"] == 2
    del meta["format"]  # as written before the input events: operator entries by poll index
    (tmp_path / "session.json").write_text(json.dumps(meta))
    (tmp_path / INPUTS).write_text('{"t": 5.0, "poll": 3, "actions": ["foul 6"]}\n')
    assert main(["replay", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"narrator: {tmp_path}: a session in format 1; this narrator replays "
                   "format 2 only (record it again)"]


@pytest.mark.parametrize("text", ["{", "[1, 2]", '{"winner": NaN}', "", "\xff",
                                  '{"a": ' * 5000 + "1" + "}" * 5000])
def test_a_corrupt_protocol_is_one_line_naming_it(tmp_path: Path, text: str) -> None:
    with SessionRecorder(tmp_path):
        pass
    (tmp_path / "protocol.json").write_text(text, encoding="utf-8", errors="surrogateescape")
    with pytest.raises(NarratorError) as e:
        SessionReader(tmp_path).protocol()
    assert "\n" not in str(e.value) and "protocol.json" in str(e.value)


@pytest.mark.parametrize("text", ["{", '{"start": "x"}', "[]", '{"start": 1e999}',
                                  '{"format": 2}'])
def test_a_corrupt_session_header_is_one_line(tmp_path: Path, text: str) -> None:
    with SessionRecorder(tmp_path):
        pass
    (tmp_path / "session.json").write_text(text)
    with pytest.raises(NarratorError) as e:
        SessionReader(tmp_path)
    assert "\n" not in str(e.value) and "session.json" in str(e.value)


def test_session_inputs_count_file_lines(tmp_path: Path) -> None:
    with SessionRecorder(tmp_path):
        pass
    (tmp_path / INPUTS).write_text('{"type": "entry", "t": 1.0, "text": "выставляю\u2028 5"}\n'
                                   '{"foul": 7}\n', encoding="utf-8")
    with pytest.raises(NarratorError, match=r"inputs\.jsonl:2: "):
        read_inputs(SessionReader(tmp_path).inputs_path)


@pytest.mark.parametrize("line", ['{"type": "entry", "t": 1, "text": "x", "text": "y"}',
                                  '{"type": "entry", "t": ' + "9" * 5000 + ', "text": "x"}',
                                  '{"type": "entry", "t": 1, "text": ' + "[" * 10_000
                                  + "]" * 10_000 + "}"])
def test_hostile_session_inputs_are_one_line(tmp_path: Path, line: str) -> None:
    with SessionRecorder(tmp_path):
        pass
    (tmp_path / INPUTS).write_text(line + "\n")
    with pytest.raises(NarratorError, match=r"inputs\.jsonl:1: "):
        read_inputs(SessionReader(tmp_path).inputs_path)


def test_a_session_is_recorded_owner_only(tmp_path: Path) -> None:
    import stat

    folder = tmp_path / "s"
    with SessionRecorder(folder) as rec:
        rec.write_audio(AudioChunk(b"\1\0" * 1600, timestamp=10.0))
        rec.write_protocol({"winner": None})
    Recorder(folder / INPUTS).write(action(1.0, "foul 6"))
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    for path in folder.iterdir():
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path.name
