"""Audio as data: a format and chunks that know their rate and duration."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class AudioFormat:
    """PCM format: signed little-endian integers."""

    rate: int = 16000
    width: int = 2  # bytes per sample
    channels: int = 1

    @property
    def bytes_per_second(self) -> int:
        return self.rate * self.width * self.channels

    def duration(self, nbytes: int) -> float:
        """Seconds of audio in ``nbytes`` bytes of this format."""
        return nbytes / self.bytes_per_second


RECOGNIZER_FORMAT = AudioFormat(rate=16000, width=2, channels=1)


@dataclass(frozen=True, slots=True)
class AudioChunk:
    """A piece of audio and where it starts on the stream's own timeline (seconds)."""

    audio: bytes
    format: AudioFormat = RECOGNIZER_FORMAT
    timestamp: float = 0.0

    @property
    def duration(self) -> float:
        return self.format.duration(len(self.audio))

    @property
    def end(self) -> float:
        return self.timestamp + self.duration
