"""Audio sources: chunking, conversion, timelines; the microphone's one-line errors."""

from __future__ import annotations

import itertools
import wave
from pathlib import Path

import numpy as np
import pytest

from narrator.audio.format import RECOGNIZER_FORMAT
from narrator.audio.sources import (
    AudioSource,
    MicrophoneSource,
    PcmSource,
    WavFileSource,
    load_pcm,
    pad,
    silence,
)
from narrator.errors import NarratorError
from narrator.testing import ConcatSource, SilenceSource


def write_wav(path: Path, rate: int, channels: int, seconds: float) -> Path:
    n = int(rate * seconds)
    t = np.arange(n) / rate
    tone = (np.sin(2 * np.pi * 440 * t) * 8000).astype("<i2")
    frames = np.repeat(tone, channels) if channels > 1 else tone
    with wave.open(str(path), "wb") as w:
        w.setnchannels(channels)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(frames.tobytes())
    return path


def test_wav_file_is_converted_and_chunked_on_its_timeline(tmp_path: Path) -> None:
    src = WavFileSource(write_wav(tmp_path / "a.wav", 22050, 2, 1.0), chunk_ms=100, start=5.0,
                        pad_after=0.25)
    assert isinstance(src, AudioSource)
    chunks = list(src.chunks())
    assert all(c.format == RECOGNIZER_FORMAT for c in chunks)
    assert len(chunks) == 13  # 1.25 s in 100 ms chunks
    assert [round(c.timestamp, 6) for c in chunks[:3]] == [5.0, 5.1, 5.2]
    assert all(abs(a.end - b.timestamp) < 1e-9 for a, b in itertools.pairwise(chunks))
    assert abs(chunks[-1].end - 6.25) < 1e-3
    assert chunks[-1].audio == b"\0" * len(chunks[-1].audio)  # the padding


def test_missing_or_broken_file_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(NarratorError, match="audio file not found"):
        load_pcm(tmp_path / "nope.wav")
    (tmp_path / "bad.wav").write_bytes(b"RIFF not really")
    with pytest.raises(NarratorError) as e:
        load_pcm(tmp_path / "bad.wav")
    assert "\n" not in str(e.value)


def test_silence_pad_and_concat_keep_one_timeline() -> None:
    assert silence(0.5) == b"\0" * 16000
    assert len(pad(b"\1\0" * 10, 0.1, 0.2)) == 20 + 3200 + 6400
    parts = ConcatSource([PcmSource(b"\1\0" * 1600, chunk_ms=50), SilenceSource(0.1)], start=2.0)
    stamps = [round(c.timestamp, 6) for c in parts.chunks()]
    assert stamps == [2.0, 2.05, 2.1]


def test_pcm_must_be_whole_frames() -> None:
    with pytest.raises(ValueError):
        PcmSource(b"\0\0\0")


def test_close_stops_a_source() -> None:
    src = SilenceSource(1.0)
    it = src.chunks()
    next(it)
    src.close()
    assert list(it) == []


def test_no_input_device_is_a_one_line_error(monkeypatch: pytest.MonkeyPatch,
                                             tmp_path: Path) -> None:
    # A capture device name that does not exist, whatever hardware the machine has.
    with pytest.raises(NarratorError, match=r"^no audio input device: ") as e:
        next(MicrophoneSource(device="no such microphone").chunks())
    assert "\n" not in str(e.value)
