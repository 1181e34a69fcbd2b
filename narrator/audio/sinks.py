"""Where the narrator's audio goes: the sound card or a WAV file.

A sink takes :class:`~narrator.audio.format.AudioChunk` s of mono 16-bit PCM in its own
``format`` (the player resamples clips to ``sink.format.rate``).
"""

from __future__ import annotations

import wave
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from narrator.audio.devices import import_sounddevice, output_device
from narrator.audio.format import AudioChunk, AudioFormat
from narrator.errors import NarratorError

#: The rate sinks default to: the packs' own rate, so clips need no resampling.
DEFAULT_RATE = 22050


class Sink(Protocol):
    """Receives the narrator's audio, chunk by chunk, in ``format``."""

    format: AudioFormat

    def write(self, chunk: AudioChunk) -> None:
        """Take one chunk (may block while a device drains its buffer)."""
        ...

    def close(self) -> None:
        """Flush and release the device or file."""
        ...


def check_format(sink: Sink, chunk: AudioChunk) -> None:
    """ValueError unless ``chunk`` is in the sink's own format (the player resamples first)."""
    if chunk.format != sink.format:
        raise ValueError(f"chunk format {chunk.format} does not match the sink's {sink.format}")


class WavFileSink:
    """Writes everything to one WAV file (``--out-wav``): mono 16-bit at ``rate``."""

    def __init__(self, path: Path | str, rate: int = DEFAULT_RATE) -> None:
        self.path = Path(path)
        self.format = AudioFormat(rate=rate, width=2, channels=1)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # Kept open across writes on purpose: closed in close().
            self._wav: wave.Wave_write | None = wave.open(str(self.path), "wb")  # noqa: SIM115
        except OSError as e:
            raise NarratorError(f"{self.path}: cannot write the WAV file ({e.strerror})") from e
        self._wav.setnchannels(1)
        self._wav.setsampwidth(2)
        self._wav.setframerate(rate)
        self.frames = 0

    def write(self, chunk: AudioChunk) -> None:
        """Append ``chunk`` to the file."""
        check_format(self, chunk)
        if self._wav is None:
            raise ValueError(f"{self.path}: sink is closed")
        self._wav.writeframesraw(chunk.audio)
        self.frames += len(chunk.audio) // 2

    def close(self) -> None:
        """Finish the WAV header; idempotent."""
        if self._wav is not None:
            self._wav.close()
            self._wav = None


class SoundDeviceSink:
    """Plays through the sound card (sounddevice ``OutputStream``, blocking writes).

    Raises NarratorError "no audio output device: ..." when there is none.
    """

    def __init__(
        self,
        rate: int = DEFAULT_RATE,
        device: int | str | None = None,
        latency: str | float = "low",
    ) -> None:
        output_device(device)
        sd = import_sounddevice()
        self.format = AudioFormat(rate=rate, width=2, channels=1)
        self.underflows = 0
        try:
            self._stream: Any = sd.OutputStream(
                samplerate=rate, channels=1, dtype="int16", device=device, latency=latency
            )
            self._stream.start()
        except Exception as e:
            raise NarratorError(f"no audio output device: {str(e).splitlines()[0]}") from e
        self._closed = False

    @property
    def latency(self) -> float:
        """The device's output latency in seconds (what sits in its buffer)."""
        return float(self._stream.latency)

    def write(self, chunk: AudioChunk) -> None:
        """Queue ``chunk`` for playback; blocks while the device buffer is full."""
        check_format(self, chunk)
        data = np.frombuffer(chunk.audio, dtype="<i2").reshape(-1, 1)
        # An underflow is a glitch already heard; counting it is all that is left to do.
        if self._stream.write(data):
            self.underflows += 1

    def close(self) -> None:
        """Play out what is buffered, then release the device; idempotent."""
        if self._closed:
            return
        self._closed = True
        try:
            self._stream.stop()
        finally:
            self._stream.close()
