"""Voice activity: how long has the speaker been quiet? (The early decision waits for a pause.)

A :class:`Vad` is fed the audio the recognizer hears and answers :attr:`Vad.quiet`, the seconds
of speechless audio up to now (0 while someone speaks).

- :class:`LevelVad`: a chunk quieter than a fixed level is quiet. Simple, and wrong at a noisy
  table: chairs, cups and the room are louder than the level.
- :class:`EnergyVad`: follows the room's own level — the quietest 10 ms frame of the last few
  seconds — and takes a run of frames well above it as speech. With the recognizer ending the
  utterance after 120 ms of its quiet, it decides ~130 ms after the last word, clean or over
  table noise (``scripts/bench_latency.py``; the Silero neural detector measured slower there:
  it takes ~200 ms to call the end of speech).
"""

from __future__ import annotations

import math
from collections import deque
from typing import Any, Protocol

import numpy as np

from narrator.audio.format import RECOGNIZER_FORMAT


class Vad(Protocol):
    """Voice activity over the audio fed so far."""

    quiet: float

    def feed(self, audio: bytes) -> None:
        """Take the next s16le mono samples at 16 kHz (any length)."""
        ...


class LevelVad:
    """A whole chunk below ``quiet_dbfs`` (RMS) is quiet; any louder chunk is speech."""

    def __init__(self, quiet_dbfs: float = -40.0) -> None:
        self.quiet_rms = 32768.0 * 10 ** (quiet_dbfs / 20.0)
        self.quiet = 0.0

    def feed(self, audio: bytes) -> None:
        samples = np.frombuffer(audio, dtype="<i2").astype(np.float64)
        rms = math.sqrt(float(np.mean(samples * samples))) if samples.size else 0.0
        seconds = RECOGNIZER_FORMAT.duration(len(audio))
        self.quiet = self.quiet + seconds if rms < self.quiet_rms else 0.0


class _Frames:
    """Cuts a byte stream into whole frames of ``size`` samples, keeping the rest."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._rest = np.zeros(0, dtype=np.float32)

    def split(self, audio: bytes) -> np.ndarray[Any, np.dtype[np.float32]]:
        samples = np.concatenate(
            [self._rest, np.frombuffer(audio, dtype="<i2").astype(np.float32) / 32768.0])
        whole = len(samples) // self.size * self.size
        self._rest = samples[whole:]
        return samples[:whole].reshape(-1, self.size)


class EnergyVad:
    """Speech / no speech per 10 ms frame, against a sliding-minimum noise floor.

    ``margin_db``: how far above the floor a frame must be to be loud; ``min_dbfs``: never
    loud below this. Speech is ``min_speech_ms`` of loud frames in a row: a knock on the table
    is shorter than a syllable. The floor is the quietest frame of the last ``window_s``
    seconds, no lower than ``floor_dbfs``; digital silence (between speeches, a chunk the echo
    gate blanked) counts as that quietest room. So the floor comes from the pauses of the audio,
    never from a phrase heard alone — a room louder than ``min_dbfs`` reads as speech for the
    first ``window_s`` after silence, which only makes the decision wait for Vosk's endpoint.
    """

    def __init__(self, *, margin_db: float = 10.0, min_dbfs: float = -50.0,
                 min_speech_ms: float = 50.0, floor_dbfs: float = -60.0, window_s: float = 1.0,
                 frame_ms: int = 10) -> None:
        self.margin_db = margin_db
        self.min_dbfs = min_dbfs
        self.floor_dbfs = floor_dbfs
        self.frame_s = frame_ms / 1000
        self.window = max(1, round(window_s / self.frame_s))
        self.min_run = max(1, round(min_speech_ms / frame_ms))
        self.quiet = 0.0
        self._run = 0  # loud frames in a row
        self._n = 0
        self._mins: deque[tuple[int, float]] = deque()  # the sliding minimum, increasing
        self._frames = _Frames(RECOGNIZER_FORMAT.rate * frame_ms // 1000)

    @property
    def floor(self) -> float:
        """The room's level now (dBFS)."""
        return self._mins[0][1] if self._mins else self.floor_dbfs

    def feed(self, audio: bytes) -> None:
        frames = self._frames.split(audio)
        if not len(frames):
            return
        levels = 10.0 * np.log10(np.mean(frames * frames, axis=1) + 1e-12)
        for level in np.maximum(levels, self.floor_dbfs).tolist():
            loud = level >= max(self.floor + self.margin_db, self.min_dbfs)
            self._run = self._run + 1 if loud else 0
            self.quiet = 0.0 if self._run >= self.min_run else self.quiet + self.frame_s
            self._n += 1
            if self._mins and self._mins[0][0] <= self._n - self.window:
                self._mins.popleft()
            while self._mins and self._mins[-1][1] >= level:
                self._mins.pop()
            self._mins.append((self._n, level))
