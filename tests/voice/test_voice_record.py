"""Recording into a pack, with a fake microphone."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from narrator.audio.clip import AudioClip
from narrator.errors import NarratorError
from narrator.voice.manifest import load_manifest
from narrator.voice.pack import VoicePack
from narrator.voice.record import (
    FrameSource,
    capture,
    finish_take,
    keys_to_record,
    record_session,
    save_take,
)

RATE = 16000


class FakeStream:
    """Plays back a prepared signal as a microphone would, block by block."""

    def __init__(self, signal: np.ndarray[Any, np.dtype[np.int16]]) -> None:
        self.signal = signal
        self.at = 0
        self.exhausted = threading.Event()

    def read(self, frames: int) -> tuple[np.ndarray[Any, np.dtype[np.int16]], bool]:
        block = np.zeros((frames, 1), dtype=np.int16)
        piece = self.signal[self.at : self.at + frames]
        block[: len(piece), 0] = piece
        self.at += frames
        if self.at >= len(self.signal):
            self.exhausted.set()
        return block, False


def speech_like(
    seconds: float = 0.8, lead: float = 0.5, tail: float = 0.7
) -> np.ndarray[Any, np.dtype[np.int16]]:
    """Quiet room, a tone burst, quiet room."""
    rng = np.random.default_rng(1)
    t = np.arange(round(seconds * RATE)) / RATE
    tone = (0.3 * np.sin(2 * np.pi * 220 * t) * 32767).astype(np.int16)

    def room(s: float) -> np.ndarray[Any, np.dtype[np.int16]]:
        return rng.normal(0, 30, round(s * RATE)).astype(np.int16)

    return np.concatenate([room(lead), tone, room(tail)]).astype(np.int16)


def reads_until(n: int) -> Any:
    calls = {"n": 0}

    def stop() -> bool:
        calls["n"] += 1
        return calls["n"] > n

    return stop


def test_capture_trim_normalise() -> None:
    signal = speech_like()
    raw = capture(FakeStream(signal), RATE, reads_until(40), block=0.05)
    assert raw.rate == RATE and len(raw.samples) == 40 * 800
    take = finish_take(raw)
    assert take.problem is None
    assert take.clip.rate == 22050
    assert 0.78 < take.clip.duration < 0.9  # the room noise is cut, a little edge pad kept
    assert -20.0 < take.clip.rms_dbfs() < -16.0


def test_silent_take_is_refused() -> None:
    take = finish_take(capture(FakeStream(np.zeros(RATE, np.int16)), RATE, reads_until(10)))
    assert take.problem is not None and "nothing" in take.problem


def test_save_take_writes_clip_index_and_manifest(tmp_path: Path) -> None:
    m = load_manifest(Path(__file__).resolve().parents[2] / "voices" / "ru")
    take = finish_take(capture(FakeStream(speech_like()), RATE, reads_until(40)))
    out = save_take(tmp_path / "club", m, "accepted", take.clip)
    assert out == tmp_path / "club" / "clips" / "accepted.wav"
    pack = VoicePack.load(tmp_path / "club", synthesize=False)
    assert pack.lang == "ru" and pack.keys() == m.keys()
    assert pack.clip("accepted") is not None
    report = pack.check()
    assert "accepted" not in report.missing and not report.stale
    index = json.loads((tmp_path / "club" / "clips" / "index.json").read_text())
    assert index["accepted"] == m.text_hash("accepted")
    with pytest.raises(NarratorError):
        save_take(tmp_path / "club", m, "nope", take.clip)


def test_session_is_scripted_and_resumable(tmp_path: Path) -> None:
    m = load_manifest(Path(__file__).resolve().parents[2] / "voices" / "ru")
    out = tmp_path / "club"

    streams: list[FakeStream] = []

    @contextmanager
    def mic(rate: int) -> Iterator[FrameSource]:
        streams.append(FakeStream(speech_like()))
        yield streams[-1]

    # Keep the 1st; redo, then keep the 2nd; skip the 3rd; keep the 4th and quit.
    answers = iter(["", "", "", "r", "", "", "s", "", "q"])

    def ask(prompt: str) -> str:
        if "recording" in prompt:
            # "Enter to stop" once the fake microphone has delivered its whole signal.
            assert streams[-1].exhausted.wait(timeout=10)
            return ""
        return next(answers)

    said: list[str] = []
    saved = record_session(m, out, only=None, open_stream=mic, ask=ask, say=said.append)
    keys = m.keys()
    assert saved == 3
    assert [k for k in keys[:4] if (out / "clips" / f"{k}.wav").is_file()] == [
        keys[0],
        keys[1],
        keys[3],
    ]
    # Resumable: the next session starts at what is missing; --only redoes a recorded key.
    assert keys_to_record(m, out, None)[:2] == [keys[2], keys[4]]
    assert keys_to_record(m, out, [keys[0]]) == [keys[0]]
    with pytest.raises(NarratorError, match="no phrase"):
        keys_to_record(m, out, ["nope"])


def test_clip_roundtrip(tmp_path: Path) -> None:
    clip = AudioClip(np.arange(-500, 500, dtype=np.int16), 16000)
    clip.write_wav(tmp_path / "a.wav")
    back = AudioClip.read_wav(tmp_path / "a.wav")
    assert back.rate == 16000 and np.array_equal(back.samples, clip.samples)
