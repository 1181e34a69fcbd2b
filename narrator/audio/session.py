"""Recording a session's audio so that it can be replayed exactly.

A session folder holds:

- ``session.json`` — the format version, the audio format and where ``mic.wav`` starts on the
  stream timeline;
- ``mic.wav`` — the recognizer-format audio as captured (before the echo gate), gap-free: a
  gap in the capture timestamps is written as silence so that sample ``n`` is always at
  ``start + n / rate``;
- ``inputs.jsonl`` — every input event of the game, one :class:`~narrator.inputs.Input` a line
  (written by the host's recorder, :mod:`narrator.host.recorder`);
- ``protocol.json`` — the game protocol, when the game ends.

Replay feeds the same WAV through the same recognizer on a virtual clock.
"""

from __future__ import annotations

import json
import os
import wave
from collections.abc import Mapping
from pathlib import Path
from types import TracebackType
from typing import Any

from narrator.audio.format import RECOGNIZER_FORMAT, AudioChunk
from narrator.audio.sources import DEFAULT_CHUNK_MS, PcmSource, load_pcm
from narrator.errors import NarratorError
from narrator.inputs import FORMAT_VERSION

MIC = "mic.wav"
INPUTS = "inputs.jsonl"
META = "session.json"
PROTOCOL = "protocol.json"


class SessionRecorder:
    """Writes a session folder's audio and protocol while the game runs (a context manager)."""

    def __init__(self, directory: str | Path, *, start: float | None = None) -> None:
        self.dir = Path(directory)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.start = start
        self._written = 0  # bytes of audio written
        self._wav: wave.Wave_write | None = None

    def _open_wav(self, start: float) -> wave.Wave_write:
        self.start = start
        (self.dir / META).write_text(
            json.dumps({"format": FORMAT_VERSION, "start": start, "rate": RECOGNIZER_FORMAT.rate,
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
        """Append one captured chunk, as captured (before the echo gate)."""
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

    def write_protocol(self, protocol: Mapping[str, Any]) -> None:
        """Write the game protocol (``protocol.json``): it names every role, so it is readable
        by its owner only."""
        path = self.dir / PROTOCOL
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.chmod(path, 0o600)  # an existing file keeps its mode otherwise
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(json.dumps(protocol, ensure_ascii=False, indent=2) + "\n")

    def close(self) -> None:
        """Finish the WAV."""
        if self._wav is not None:
            self._wav.close()
            self._wav = None
        elif not (self.dir / MIC).exists():
            # No audio at all: still leave a valid, empty session.
            self._open_wav(self.start or 0.0).close()

    def __enter__(self) -> SessionRecorder:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


class SessionReader:
    """Reads a session folder back: the audio on its timeline, the protocol.

    A folder of another format version (sessions recorded before version 2 kept the operator's
    entries by poll) is refused in one line naming its version.
    """

    def __init__(self, directory: str | Path) -> None:
        self.dir = Path(directory)
        meta_path = self.dir / META
        if not (self.dir / MIC).is_file() or not meta_path.is_file():
            raise NarratorError(f"not a recorded session (no {MIC} / {META}): {self.dir}")
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
            self.start = float(meta["start"])
            version = meta.get("format", 1)
        except (ValueError, KeyError, TypeError, AttributeError) as e:
            raise NarratorError(f"{meta_path}: broken session header ({e})") from e
        if version != FORMAT_VERSION:
            raise NarratorError(f"{self.dir}: a session in format {version}; this narrator "
                                f"replays format {FORMAT_VERSION} only (record it again)")

    @property
    def inputs_path(self) -> Path:
        """The session's input events (``inputs.jsonl``)."""
        return self.dir / INPUTS

    def source(self, *, chunk_ms: int = DEFAULT_CHUNK_MS) -> PcmSource:
        """The recorded audio as a source on the original stream timeline."""
        return PcmSource(load_pcm(self.dir / MIC), chunk_ms=chunk_ms, start=self.start)

    def protocol(self) -> dict[str, Any] | None:
        """The recorded protocol, or None when the game did not finish."""
        path = self.dir / PROTOCOL
        if not path.exists():
            return None
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        return data
