"""Where the narrator's audio goes: the sound card or a WAV file.

A sink takes :class:`~narrator.audio.format.AudioChunk` s of mono 16-bit PCM in its own
``format`` (the player resamples clips to ``sink.format.rate``).
"""

from __future__ import annotations

import contextlib
import struct
from pathlib import Path
from typing import Any, BinaryIO, Protocol

import numpy as np

from narrator.audio.devices import import_sounddevice, output_device
from narrator.audio.format import AudioChunk, AudioFormat
from narrator.errors import NarratorError
from narrator.outputs import private_binary

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


def wav_header(rate: int, data_bytes: int) -> bytes:
    """The 44-byte header of a mono 16-bit PCM WAV holding ``data_bytes`` of samples."""
    return (b"RIFF" + struct.pack("<I", 36 + data_bytes) + b"WAVE"
            + b"fmt " + struct.pack("<IHHIIHH", 16, 1, 1, rate, rate * 2, 2, 16)
            + b"data" + struct.pack("<I", data_bytes))


#: a RIFF file counts its bytes in 32 bits
_WAV_LIMIT = 0xFFFFFFFF - 36


class WavFileSink:
    """Writes everything to one WAV file (``--out-wav``): mono 16-bit at ``rate``.

    The file is a playable WAV at every moment: the header is written first and its sizes
    are brought up to date (after the samples they count have reached the file) every
    ``header_every`` seconds of audio, so a killed process leaves all but the last moments.
    Any failure to write — a directory, a full disk — is one NarratorError naming the file.
    """

    def __init__(self, path: Path | str, rate: int = DEFAULT_RATE, *,
                 header_every: float = 0.5) -> None:
        self.path = Path(path)
        self.format = AudioFormat(rate=rate, width=2, channels=1)
        self.frames = 0
        self._file: BinaryIO | None = None
        self._counted = 0  # data bytes the header counts
        self._every = max(2, int(header_every * rate) * 2)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # Kept open across writes on purpose: closed in close().
            self._file = private_binary(self.path)
            self._file.write(wav_header(rate, 0))
            self._file.flush()
        except OSError as e:
            self._abandon()
            raise self._error(e) from None

    def _error(self, e: OSError) -> NarratorError:
        return NarratorError(f"{self.path}: cannot write the WAV file ({e.strerror or e})")

    def _abandon(self) -> None:
        f, self._file = self._file, None
        if f is not None:
            with contextlib.suppress(OSError):
                f.close()

    def _update_header(self) -> None:
        f = self._file
        assert f is not None
        data = self.frames * 2
        f.flush()  # the samples first: the header never counts bytes the file lacks
        f.seek(4)
        f.write(struct.pack("<I", 36 + data))
        f.seek(40)
        f.write(struct.pack("<I", data))
        f.seek(0, 2)
        f.flush()
        self._counted = data

    def write(self, chunk: AudioChunk) -> None:
        """Append ``chunk`` to the file."""
        check_format(self, chunk)
        if self._file is None:
            raise ValueError(f"{self.path}: sink is closed")
        if (self.frames * 2 + len(chunk.audio)) > _WAV_LIMIT:
            self._abandon()
            raise NarratorError(f"{self.path}: the WAV file reached its 4 GB limit")
        try:
            self._file.write(chunk.audio)
            self.frames += len(chunk.audio) // 2
            if self.frames * 2 - self._counted >= self._every:
                self._update_header()
        except OSError as e:
            self._abandon()
            raise self._error(e) from None

    def close(self) -> None:
        """Finish the WAV header; idempotent."""
        if self._file is None:
            return
        try:
            self._update_header()
            self._file.close()
        except OSError as e:
            raise self._error(e) from None
        finally:
            self._abandon()


class OutputLost(NarratorError):
    """The sound card went away while playing (unplugged, its server gone)."""


def _first_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else type(e).__name__


class SoundDeviceSink:
    """Plays through the sound card (sounddevice ``OutputStream``, blocking writes).

    Raises NarratorError "no audio output device: ..." when there is none. A device that goes
    away while playing makes :meth:`write` raise :class:`OutputLost`; :meth:`reopen` tries to
    get one again (the player does, until one is back).
    """

    def __init__(
        self,
        rate: int = DEFAULT_RATE,
        device: int | str | None = None,
        latency: str | float = "low",
    ) -> None:
        output_device(device)
        self.format = AudioFormat(rate=rate, width=2, channels=1)
        self.underflows = 0
        self._device, self._latency = device, latency
        try:
            self._stream: Any = self._open()
        except Exception as e:
            raise NarratorError(f"no audio output device: {_first_line(e)}") from e
        self._closed = False

    def _open(self) -> Any:
        sd = import_sounddevice()
        stream = sd.OutputStream(samplerate=self.format.rate, channels=1, dtype="int16",
                                 device=self._device, latency=self._latency)
        stream.start()
        return stream

    def reopen(self) -> None:
        """Open the device again after :class:`OutputLost`; OutputLost while it is still gone."""
        old, self._stream = self._stream, None
        with contextlib.suppress(Exception):  # what is left of the lost stream
            old.close(ignore_errors=True)
        try:
            self._stream = self._open()
        except Exception as e:
            raise OutputLost(f"audio output still gone: {_first_line(e)}") from None

    @property
    def latency(self) -> float:
        """The device's output latency in seconds (what sits in its buffer)."""
        return float(self._stream.latency)

    def write(self, chunk: AudioChunk) -> None:
        """Queue ``chunk`` for playback; blocks while the device buffer is full."""
        check_format(self, chunk)
        if self._stream is None:
            raise OutputLost("audio output lost")
        data = np.frombuffer(chunk.audio, dtype="<i2").reshape(-1, 1)
        try:
            # An underflow is a glitch already heard; counting it is all that is left to do.
            if self._stream.write(data):
                self.underflows += 1
        except Exception as e:  # PortAudioError: the device is gone
            raise OutputLost(f"audio output lost: {_first_line(e)}") from None

    def close(self) -> None:
        """Play out what is buffered, then release the device; idempotent."""
        if self._closed:
            return
        self._closed = True
        stream, self._stream = self._stream, None
        if stream is None:
            return
        try:
            stream.stop(ignore_errors=True)
        finally:
            stream.close(ignore_errors=True)
