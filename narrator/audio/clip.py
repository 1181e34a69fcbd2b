"""Decoded audio clips: mono int16 PCM in a numpy array, plus WAV input and output.

Everything the narrator plays is an :class:`AudioClip`. Clips are immutable by convention (the
arrays are marked read-only) so a pack can cache them and several queued lines can share one.
"""

from __future__ import annotations

import math
import wave
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from narrator.errors import NarratorError

Samples = npt.NDArray[np.int16]

#: The rate the default packs are rendered at (espeak-ng's native rate: no resampling).
PACK_RATE = 22050


def _frozen(samples: Samples) -> Samples:
    samples.setflags(write=False)
    return samples


def import_pydub() -> Any:
    """Import pydub without its import-time warning about ffmpeg (WAV needs no ffmpeg)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        import pydub
        import pydub.effects
        import pydub.silence
    return pydub


#: sample rates a clip may have; a header outside them is damaged, not exotic
MIN_RATE, MAX_RATE = 1000, 384_000


def _check_header(path: Path, channels: int, rate: int) -> None:
    """A header with no channels or no rate would divide by zero later: refuse it here."""
    if channels < 1:
        raise NarratorError(f"{path}: not a readable WAV file ({channels} channels)")
    if not MIN_RATE <= rate <= MAX_RATE:
        raise NarratorError(f"{path}: not a readable WAV file (sample rate {rate} Hz)")


@dataclass(frozen=True, eq=False)
class AudioClip:
    """Mono signed 16-bit audio at ``rate`` Hz."""

    samples: Samples
    rate: int

    def __post_init__(self) -> None:
        if self.samples.dtype != np.int16 or self.samples.ndim != 1:
            raise ValueError("an AudioClip holds a 1-D int16 array")
        if self.rate <= 0:
            raise ValueError(f"an AudioClip needs a sample rate, not {self.rate}")
        if self.samples.flags.writeable:
            _frozen(self.samples)

    @classmethod
    def silence(cls, seconds: float, rate: int) -> AudioClip:
        """``seconds`` of digital silence."""
        return cls(np.zeros(max(0, round(seconds * rate)), dtype=np.int16), rate)

    @classmethod
    def from_float(cls, samples: npt.NDArray[np.floating[Any]], rate: int) -> AudioClip:
        """From floats in [-1, 1] (clipped)."""
        scaled = np.clip(np.asarray(samples, dtype=np.float64) * 32767.0, -32768, 32767)
        return cls(scaled.astype(np.int16), rate)

    @property
    def duration(self) -> float:
        """Length in seconds."""
        return len(self.samples) / self.rate

    def rms(self) -> float:
        """Root mean square level, as a fraction of full scale (0 for an empty clip)."""
        if len(self.samples) == 0:
            return 0.0
        x = self.samples.astype(np.float64)
        return math.sqrt(float(np.mean(x * x))) / 32768.0

    def rms_dbfs(self) -> float:
        """RMS level in dBFS (``-inf`` for silence)."""
        r = self.rms()
        return 20.0 * math.log10(r) if r > 0 else -math.inf

    def resampled(self, rate: int) -> AudioClip:
        """This clip at ``rate`` Hz (linear interpolation: cheap, deterministic, fine for voice)."""
        if rate == self.rate or len(self.samples) == 0:
            return self if rate == self.rate else AudioClip(self.samples, rate)
        n = max(1, round(len(self.samples) * rate / self.rate))
        src = np.arange(len(self.samples), dtype=np.float64)
        pos = np.arange(n, dtype=np.float64) * (self.rate / rate)
        out = np.interp(pos, src, self.samples.astype(np.float64))
        return AudioClip(np.round(out).astype(np.int16), rate)

    def to_bytes(self) -> bytes:
        """Little-endian PCM bytes."""
        return self.samples.astype("<i2", copy=False).tobytes()

    def write_wav(self, path: Path) -> None:
        """Write as a mono 16-bit WAV (atomically: a half-written clip never looks complete)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".part")
        with wave.open(str(tmp), "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(self.rate)
            w.writeframes(self.to_bytes())
        tmp.replace(path)

    @classmethod
    def read_wav(cls, path: Path) -> AudioClip:
        """Read a WAV file, mixing down to mono 16-bit; NarratorError if it cannot be read."""
        try:
            with wave.open(str(path), "rb") as w:
                width, channels, rate = w.getsampwidth(), w.getnchannels(), w.getframerate()
                frames = w.readframes(w.getnframes())
        except (OSError, EOFError, wave.Error) as e:
            raise NarratorError(f"{path}: not a readable WAV file ({e})") from e
        _check_header(path, channels, rate)
        if width != 2:
            return cls._read_other(path)
        data = np.frombuffer(frames, dtype="<i2")
        if channels > 1:
            usable = len(data) - len(data) % channels
            data = data[:usable].reshape(-1, channels).astype(np.int32).mean(axis=1)
        return cls(np.array(data, dtype=np.int16), rate)

    @classmethod
    def _read_other(cls, path: Path) -> AudioClip:
        # 8/24/32-bit WAVs (e.g. a club's own recordings): pydub converts without ffmpeg.
        pydub = import_pydub()
        try:
            seg = pydub.AudioSegment.from_wav(str(path))
        except Exception as e:
            raise NarratorError(f"{path}: not a readable WAV file ({e})") from e
        _check_header(path, seg.channels, seg.frame_rate)
        return cls.from_segment(seg)

    @classmethod
    def from_segment(cls, seg: Any) -> AudioClip:
        """From a pydub ``AudioSegment`` (any width or channel count)."""
        seg = seg.set_channels(1).set_sample_width(2)
        return cls(np.frombuffer(seg.raw_data, dtype="<i2").astype(np.int16), seg.frame_rate)

    def to_segment(self) -> Any:
        """As a pydub ``AudioSegment``."""
        pydub = import_pydub()
        return pydub.AudioSegment(
            data=self.to_bytes(), sample_width=2, frame_rate=self.rate, channels=1
        )


def concat(parts: list[AudioClip], gap: float | Sequence[float],
           rate: int) -> tuple[AudioClip, list[int]]:
    """Join clips (resampled to ``rate``) with ``gap`` seconds of silence between them (one
    figure, or one per boundary: ``len(parts) - 1`` of them).

    Returns the joined clip and the sample offset where each part starts.
    """
    gaps = [float(gap)] * max(0, len(parts) - 1) if isinstance(gap, int | float) else list(gap)
    if len(gaps) != max(0, len(parts) - 1):
        raise ValueError(f"{len(parts)} parts need {len(parts) - 1} gaps, not {len(gaps)}")
    pieces: list[Samples] = []
    starts: list[int] = []
    at = 0
    for i, part in enumerate(parts):
        if i:
            pause = np.zeros(round(gaps[i - 1] * rate), dtype=np.int16)
            pieces.append(pause)
            at += len(pause)
        starts.append(at)
        s = part.resampled(rate).samples
        pieces.append(s)
        at += len(s)
    joined = np.concatenate(pieces) if pieces else np.zeros(0, dtype=np.int16)
    return AudioClip(joined.astype(np.int16, copy=False), rate), starts
