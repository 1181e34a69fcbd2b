"""The recorded seconds around a moment, cut from a session's ``mic.wav``.

The recorder writes the WAV gap-free, so sample ``n`` is at ``origin + n / rate``: a moment at
``t`` is at frame ``round((t - origin) * rate)``. A slice is written as a WAV of its own,
readable by its owner only (the table's talk is the judge's, like the cards).
"""

from __future__ import annotations

import wave
from dataclasses import dataclass
from pathlib import Path

from narrator.errors import NarratorError
from narrator.outputs import private_binary
from narrator.reading import open_binary

#: a recording of a whole evening at 16 kHz, 16 bits, is well under a gigabyte an eight hours
MAX_RECORDING = 4 << 30


@dataclass(frozen=True)
class Span:
    """Frames ``first`` to ``last`` (exclusive) of the recording: a slice."""

    first: int
    last: int
    rate: int

    @property
    def start(self) -> float:
        """Seconds into the recording."""
        return self.first / self.rate

    @property
    def seconds(self) -> float:
        return (self.last - self.first) / self.rate


def span_of(t: float, origin: float, *, before: float, after: float, rate: int,
            frames: int) -> Span:
    """The frames from ``before`` seconds before ``t`` to ``after`` seconds after it, within
    the recording's ``frames``."""
    at = round((t - origin) * rate)
    first = min(frames, max(0, at - round(before * rate)))
    last = min(frames, max(first, at + round(after * rate)))
    return Span(first, last, rate)


class Cutter:
    """Cuts slices of one WAV (open while it cuts: a context manager)."""

    def __init__(self, path: Path) -> None:
        # a regular file (a FIFO would wait, /dev/zero never end), then its header
        self._file = open_binary(path, "the recording", limit=MAX_RECORDING)
        try:
            self._wav = wave.open(self._file, "rb")  # noqa: SIM115 - closed by close()
        except (OSError, wave.Error, EOFError) as e:
            self._file.close()
            raise NarratorError(f"{path}: cannot read the recording ({e})") from None
        self.path = path
        self.rate = self._wav.getframerate()
        self.frames = self._wav.getnframes()
        self._params = self._wav.getparams()

    def span(self, t: float, origin: float, before: float, after: float) -> Span:
        return span_of(t, origin, before=before, after=after, rate=self.rate,
                       frames=self.frames)

    def read(self, span: Span) -> bytes:
        self._wav.setpos(span.first)
        return self._wav.readframes(span.last - span.first)

    def write(self, span: Span, out: Path) -> None:
        """The slice ``span`` as the WAV ``out`` (owner-only)."""
        with private_binary(out) as f, wave.open(f, "wb") as slice_wav:
            slice_wav.setparams(self._params)
            slice_wav.writeframes(self.read(span))

    def close(self) -> None:
        self._wav.close()
        self._file.close()  # (wave leaves a file it was given open)

    def __enter__(self) -> Cutter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
