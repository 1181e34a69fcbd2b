"""Audio sources: chunking, conversion, timelines; the microphone's one-line errors."""

from __future__ import annotations

import itertools
import wave
from pathlib import Path
from typing import Any

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


class _Status:
    input_overflow = False


def test_the_microphone_queue_is_bounded_and_keeps_the_timeline() -> None:
    # A capture faster than the consumer (a virtual device that is not real-time) must not
    # grow memory without end: what does not fit is dropped, and the timeline skips it.
    src = MicrophoneSource(chunk_ms=40)
    block = b"\1\0" * 640  # 40 ms at 16 kHz
    for _ in range(10_000):
        src._on_audio(block, _Status())
    assert src._queue.qsize() <= MicrophoneSource.MAX_QUEUED
    assert src.dropped == 10_000 - src._queue.qsize()
    first = next(src._drain())
    assert first.timestamp == 0.0
    stamps = [c.timestamp for c in itertools.islice(src._drain(), 3)]
    assert stamps[0] == pytest.approx(0.04)
    src.close()


class _DeadAfter:
    """A capture queue on a virtual clock: ``blocks`` blocks, then nothing for ``silent``
    seconds (the microphone stopped delivering), then blocks again."""

    def __init__(self, clock: Any, blocks: int, silent: float) -> None:
        self.clock, self.blocks, self.silent = clock, blocks, silent
        self.quiet_since: float | None = None
        self.after = 3

    def get(self, timeout: float) -> Any:
        import queue as q

        if self.blocks:
            self.blocks -= 1
            self.clock.advance(0.04)
            return (0, b"\0\0" * 640, self.clock.now())
        if self.quiet_since is None:
            self.quiet_since = self.clock.now()
        if self.clock.now() - self.quiet_since < self.silent:
            self.clock.advance(timeout)  # the reader's wait, on the virtual clock
            raise q.Empty
        if self.after:
            self.after -= 1
            return (0, b"\0\0" * 640, self.clock.now())
        return None  # closed


def test_a_microphone_that_stops_delivering_is_noticed_within_a_second() -> None:
    from narrator.clock import VirtualClock

    clock = VirtualClock()
    told: list[tuple[float, bool, str]] = []
    src = MicrophoneSource(chunk_ms=40, clock=clock,
                           on_stall=lambda back, why: told.append((clock.now(), back, why)))
    dead = _DeadAfter(clock, blocks=25, silent=3.0)
    src._queue = dead  # type: ignore[assignment]
    chunks = list(src._drain())
    assert len(chunks) == 25 + 3
    (at, back, why), (at2, back2, why2) = told
    assert not back and "microphone" in why and "nothing" in why
    assert dead.quiet_since is not None and at - dead.quiet_since <= 1.0  # within a second
    assert back2 and "again" in why2 and at2 >= dead.quiet_since + 3.0


@pytest.mark.parametrize("ppm", [100.0, -100.0])
def test_the_microphone_timeline_stays_on_the_clock_though_the_card_drifts(ppm: float) -> None:
    # half an hour at 100 ppm is 0.18 s on the sample count alone
    from narrator.clock import VirtualClock
    from narrator.testing import DriftingCard

    clock = VirtualClock(1000.0)
    card = DriftingCard(clock, 1800.0, ppm=ppm, block_ms=100, seed=3)
    rate = 16000 * (1 + ppm / 1e6)
    worst = 0.0
    for n, chunk in enumerate(card.chunks()):
        captured = 1000.0 + n * 1600 / rate  # when its first sample was captured
        if chunk.timestamp - 1000.0 > 60.0:  # (the first minute: the anchor finds its floor)
            worst = max(worst, abs(chunk.timestamp - captured))
    assert worst < 0.02


def test_a_card_that_stalls_is_taken_up_at_the_time_it_comes_back() -> None:
    from narrator.clock import VirtualClock
    from narrator.testing import DriftingCard

    clock = VirtualClock()
    card = DriftingCard(clock, 60.0, block_ms=100, stalls=[(20.0, 2.0)])
    chunks = list(card.chunks())
    # the capture lost two seconds: once the anchor has seen a window of it (5 s), the audio
    # after them has its true time again (the sample count alone puts it 2 s early for good)
    late = [c for c in chunks if c.timestamp > 32.0]
    assert late and all(abs(c.timestamp - (22.0 + 0.1 * round((c.timestamp - 22.0) / 0.1)))
                        < 0.02 for c in late)
    assert chunks[-1].timestamp == pytest.approx(59.9, abs=0.02)


def test_a_card_that_starts_late_is_put_on_the_clock() -> None:
    from narrator.clock import VirtualClock
    from narrator.testing import DriftingCard

    clock = VirtualClock()
    card = DriftingCard(clock, 20.0, block_ms=100, starts_after=0.35)
    # its first sample was captured 0.35 s after the stream opened, not at its opening
    chunks = list(card.chunks())
    late = [c for c in chunks if c.timestamp > 10.0]
    assert late and all(abs(c.timestamp - (0.35 + 0.1 * round((c.timestamp - 0.35) / 0.1)))
                        < 0.02 for c in late)
    assert chunks[-1].timestamp == pytest.approx(0.35 + 19.9, abs=0.02)
