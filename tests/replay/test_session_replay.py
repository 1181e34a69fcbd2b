"""A recorded session replays to the very same recognition events."""

from __future__ import annotations

import wave
from pathlib import Path
from typing import Any

import pytest

from narrator.audio.format import AudioChunk
from narrator.audio.listener import EchoGate, Listener
from narrator.audio.recognizer import Final, RecognitionEvent, Recognizer
from narrator.audio.session import SessionReader, SessionRecorder
from narrator.audio.sources import PcmSource, pad
from narrator.errors import NarratorError

HELLO, THANKS = "안녕하세요", "감사합니다"


def test_record_then_replay_gives_identical_events(
    tmp_path: Path, ko_model: Any, ko_grammar: list[str], ko_pcm: dict[str, bytes]
) -> None:
    start = 1234.5  # a monotonic-clock timeline, as from the microphone
    narrator = pad(ko_pcm[THANKS], 0.2, 0.0)
    mic = narrator + pad(ko_pcm[HELLO], 0.8, 1.2) + pad(ko_pcm["아니요"], 0.0, 1.2)

    with SessionRecorder(tmp_path / "s") as rec:
        gate = EchoGate(on_close=rec.record_gate)
        gate.close(start + 0.2, start + len(narrator) / 32000)
        rec.record_input(start + 3.0, vote={"5": [1, 2]})
        live = Listener(PcmSource(mic, chunk_ms=100, start=start),
                        Recognizer(ko_model, phrases=ko_grammar), gate, on_chunk=rec.write_audio)
        live_events: list[RecognitionEvent] = list(live.events())
        rec.write_protocol({"winner": None})

    live_finals = [e for e in live_events if isinstance(e, Final)]
    assert [f.text for f in live_finals] == [HELLO, "아니요"]

    reader = SessionReader(tmp_path / "s")
    assert reader.start == start
    assert reader.inputs()[1] == {"t": start + 3.0, "vote": {"5": [1, 2]}}
    assert reader.protocol() == {"winner": None}
    replay = Listener(reader.source(chunk_ms=100), Recognizer(ko_model, phrases=ko_grammar),
                      reader.gate())
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


def test_a_broken_session_is_a_one_line_error(tmp_path: Path) -> None:
    with pytest.raises(NarratorError, match="not a recorded session"):
        SessionReader(tmp_path)
    with SessionRecorder(tmp_path) as rec:
        rec.record_input(1.0, foul=6)
    (tmp_path / "inputs.jsonl").write_text('{"t": 1.0, "foul": 6}\n{"foul": 7}\n')
    with pytest.raises(NarratorError, match=r"inputs.jsonl:2: "):
        SessionReader(tmp_path).inputs()
