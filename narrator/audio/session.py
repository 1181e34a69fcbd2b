"""Recording a session so that it can be replayed exactly.

A session folder holds:

- ``session.json`` — the audio format and where ``mic.wav`` starts on the stream timeline;
- ``mic.wav`` — the recognizer-format audio as captured (before the echo gate), gap-free: a
  gap in the capture timestamps is written as silence so that sample ``n`` is always at
  ``start + n / rate``;
- ``inputs.jsonl`` — every timed non-audio input, one ``{"t": seconds, ...}`` a line, in order
  (echo-gate spans are ``{"t": …, "gate": [start|null, end]}``), flushed line by line so that a
  killed process loses nothing already acted on;
- ``protocol.json`` — the game protocol, when the game ends.

Replay feeds the same WAV through the same listener and recognizer on a virtual clock.
"""

from __future__ import annotations

import json
import math
import os
import wave
from collections.abc import Mapping
from pathlib import Path
from types import TracebackType
from typing import IO, Any

from narrator.audio.format import RECOGNIZER_FORMAT, AudioChunk
from narrator.audio.listener import EchoGate
from narrator.audio.sources import DEFAULT_CHUNK_MS, PcmSource, load_pcm
from narrator.errors import NarratorError
from narrator.reading import BadJSON, lines, loads, read_text

MIC = "mic.wav"
INPUTS = "inputs.jsonl"
META = "session.json"
PROTOCOL = "protocol.json"


def _private_fd(path: Path) -> int:
    """``path`` opened for writing, readable by its owner only (a session holds the roles)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(fd, 0o600)
    return fd


def _private(path: Path) -> IO[str]:
    return os.fdopen(_private_fd(path), "w", encoding="utf-8")


def _private_binary(path: Path) -> IO[bytes]:
    return os.fdopen(_private_fd(path), "wb")


class SessionRecorder:
    """Writes a session folder while the game runs. Use it as a context manager.

    The folder (when it makes it) and every file in it are readable by their owner only: the
    inputs name the dealt roles.
    """

    def __init__(self, directory: str | Path, *, start: float | None = None) -> None:
        self.dir = Path(directory)
        if not self.dir.is_dir():
            self.dir.mkdir(parents=True, mode=0o700)
            os.chmod(self.dir, 0o700)  # mkdir's mode passes through the umask
        self.start = start
        self._written = 0  # bytes of audio written
        self._wav: wave.Wave_write | None = None
        self._wav_file: IO[bytes] | None = None
        self._inputs = _private(self.dir / INPUTS)

    def _open_wav(self, start: float) -> wave.Wave_write:
        self.start = start
        with _private(self.dir / META) as meta:
            meta.write(json.dumps({"start": start, "rate": RECOGNIZER_FORMAT.rate,
                                   "width": RECOGNIZER_FORMAT.width,
                                   "channels": RECOGNIZER_FORMAT.channels}) + "\n")
        self._wav_file = _private_binary(self.dir / MIC)
        w = wave.open(self._wav_file, "wb")  # noqa: SIM115 - open for the session
        w.setnchannels(RECOGNIZER_FORMAT.channels)
        w.setsampwidth(RECOGNIZER_FORMAT.width)
        w.setframerate(RECOGNIZER_FORMAT.rate)
        return w

    @property
    def position(self) -> float:
        """Stream time of the end of the audio written so far."""
        return (self.start or 0.0) + RECOGNIZER_FORMAT.duration(self._written)

    def write_audio(self, chunk: AudioChunk) -> None:
        """Append one captured chunk (pass it as ``Listener(on_chunk=...)``)."""
        if chunk.format != RECOGNIZER_FORMAT:
            raise ValueError(f"session audio must be {RECOGNIZER_FORMAT}, got {chunk.format}")
        if self._wav is None:
            self._wav = self._open_wav(chunk.timestamp if self.start is None else self.start)
        frame = RECOGNIZER_FORMAT.width * RECOGNIZER_FORMAT.channels
        gap = chunk.timestamp - self.position
        audio = chunk.audio
        if gap > 0.5 / RECOGNIZER_FORMAT.rate:
            # Lost capture (overflow): keep the timeline by writing silence for the gap.
            self._wav.writeframes(b"\0" * (round(gap * RECOGNIZER_FORMAT.rate) * frame))
            self._written += round(gap * RECOGNIZER_FORMAT.rate) * frame
        elif gap < -0.5 / RECOGNIZER_FORMAT.rate:
            # Overlap with what is written already: keep only the new part.
            skip = round(-gap * RECOGNIZER_FORMAT.rate) * frame
            audio = audio[skip:]
        # wave patches the header on every write, so a killed process leaves a valid file.
        self._wav.writeframes(audio)
        self._written += len(audio)

    def record_input(self, t: float, **fields: Any) -> None:
        """Append one timed input ``{"t": t, **fields}`` and flush it."""
        self._inputs.write(json.dumps({"t": t, **fields}, ensure_ascii=False) + "\n")
        self._inputs.flush()

    def record_gate(self, start: float, end: float) -> None:
        """Log an echo-gate span (pass it as ``EchoGate(on_close=...)``)."""
        t = end if math.isinf(start) else start
        self.record_input(t, gate=[None if math.isinf(start) else start, end])

    def write_protocol(self, protocol: Mapping[str, Any]) -> None:
        """Write the game protocol (``protocol.json``)."""
        with _private(self.dir / PROTOCOL) as f:
            f.write(json.dumps(protocol, ensure_ascii=False, indent=2) + "\n")

    def close(self) -> None:
        """Finish the WAV and the inputs file."""
        if self._wav is None and not (self.dir / MIC).exists():
            # No audio at all: still leave a valid, empty session.
            self._wav = self._open_wav(self.start or 0.0)
        if self._wav is not None:
            self._wav.close()  # wave does not close a file it was given
            self._wav = None
        if self._wav_file is not None:
            self._wav_file.close()
            self._wav_file = None
        self._inputs.close()

    def __enter__(self) -> SessionRecorder:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


class SessionReader:
    """Reads a session folder back: the audio on its timeline, the inputs, the protocol."""

    def __init__(self, directory: str | Path) -> None:
        self.dir = Path(directory)
        meta_path = self.dir / META
        if not (self.dir / MIC).is_file() or not meta_path.is_file():
            raise NarratorError(f"not a recorded session (no {MIC} / {META}): {self.dir}")
        try:
            meta = loads(read_text(meta_path, "the session header"))
            start = meta["start"]
            if isinstance(start, bool) or not isinstance(start, int | float):
                raise ValueError(f"start: expected seconds, got {start!r}")
            self.start = float(start)
        except (BadJSON, ValueError, KeyError, TypeError) as e:
            why = f"no {e}" if isinstance(e, KeyError) else str(e)
            raise NarratorError(f"{meta_path}: broken session header ({why})") from None

    def source(self, *, chunk_ms: int = DEFAULT_CHUNK_MS) -> PcmSource:
        """The recorded audio as a source on the original stream timeline."""
        return PcmSource(load_pcm(self.dir / MIC), chunk_ms=chunk_ms, start=self.start)

    def inputs(self) -> list[dict[str, Any]]:
        """Every timed input, in order. A broken line is a NarratorError naming it."""
        path = self.dir / INPUTS
        if not path.exists():
            return []
        out: list[dict[str, Any]] = []
        for n, line in enumerate(lines(read_text(path, "the session inputs")), 1):
            if not line.strip():
                continue
            try:
                item = loads(line)
                float(item["t"])
            except (BadJSON, ValueError, KeyError, TypeError) as e:
                why = f"no {e}" if isinstance(e, KeyError) else str(e)
                raise NarratorError(f"{path}:{n}: not a timed input ({why})") from None
            out.append(item)
        return out

    def gate(self) -> EchoGate:
        """An echo gate closed over the same spans as during the recording (tails included)."""
        g = EchoGate(tail=0.0)
        for item in self.inputs():
            span = item.get("gate")
            if span is not None:
                start = float("-inf") if span[0] is None else float(span[0])
                g.close(start, float(span[1]))
        return g

    def protocol(self) -> dict[str, Any] | None:
        """The recorded protocol, or None when the game did not finish."""
        path = self.dir / PROTOCOL
        if not path.exists():
            return None
        try:
            data = loads(read_text(path, "the recorded protocol"))
        except BadJSON as e:
            raise NarratorError(f"{path}: not a protocol ({e})") from None
        if not isinstance(data, dict):
            raise NarratorError(f"{path}: not a protocol (not a JSON object)")
        return data
