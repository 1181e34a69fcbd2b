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
import wave
from collections.abc import Mapping
from pathlib import Path
from types import TracebackType
from typing import Any

from narrator.audio.format import RECOGNIZER_FORMAT, AudioChunk
from narrator.audio.listener import EchoGate
from narrator.audio.sources import DEFAULT_CHUNK_MS, PcmSource, load_pcm
from narrator.errors import NarratorError

MIC = "mic.wav"
INPUTS = "inputs.jsonl"
META = "session.json"
PROTOCOL = "protocol.json"


class SessionRecorder:
    """Writes a session folder while the game runs. Use it as a context manager."""

    def __init__(self, directory: str | Path, *, start: float | None = None) -> None:
        self.dir = Path(directory)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.start = start
        self._written = 0  # bytes of audio written
        self._wav: wave.Wave_write | None = None
        self._inputs = (self.dir / INPUTS).open("w", encoding="utf-8")

    def _open_wav(self, start: float) -> wave.Wave_write:
        self.start = start
        (self.dir / META).write_text(
            json.dumps({"start": start, "rate": RECOGNIZER_FORMAT.rate,
                        "width": RECOGNIZER_FORMAT.width,
                        "channels": RECOGNIZER_FORMAT.channels}) + "\n",
            encoding="utf-8",
        )
        w = wave.open(str(self.dir / MIC), "wb")  # noqa: SIM115 - open for the session
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
        (self.dir / PROTOCOL).write_text(
            json.dumps(protocol, ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
        )

    def close(self) -> None:
        """Finish the WAV and the inputs file."""
        if self._wav is not None:
            self._wav.close()
            self._wav = None
        elif not (self.dir / MIC).exists():
            # No audio at all: still leave a valid, empty session.
            self._open_wav(self.start or 0.0).close()
        self._inputs.close()

    def __enter__(self) -> SessionRecorder:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def read_inputs(directory: str | Path) -> list[dict[str, Any]]:
    """The timed inputs of a session folder, in order (none when it has no ``inputs.jsonl``);
    a broken line is a NarratorError naming it. The audio is not needed for this."""
    path = Path(directory) / INPUTS
    if not path.exists():
        return []
    out: list[dict[str, Any]] = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
            float(item["t"])
        except (ValueError, KeyError, TypeError) as e:
            raise NarratorError(f"{path}:{n}: not a timed input ({e})") from e
        out.append(item)
    return out


class SessionReader:
    """Reads a session folder back: the audio on its timeline, the inputs, the protocol."""

    def __init__(self, directory: str | Path) -> None:
        self.dir = Path(directory)
        meta_path = self.dir / META
        if not (self.dir / MIC).is_file() or not meta_path.is_file():
            raise NarratorError(f"not a recorded session (no {MIC} / {META}): {self.dir}")
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
            self.start = float(meta["start"])
        except (ValueError, KeyError, TypeError) as e:
            raise NarratorError(f"{meta_path}: broken session header ({e})") from e

    def source(self, *, chunk_ms: int = DEFAULT_CHUNK_MS) -> PcmSource:
        """The recorded audio as a source on the original stream timeline."""
        return PcmSource(load_pcm(self.dir / MIC), chunk_ms=chunk_ms, start=self.start)

    def inputs(self) -> list[dict[str, Any]]:
        """Every timed input, in order. A broken line is a NarratorError naming it."""
        return read_inputs(self.dir)

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
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        return data
