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
from typing import IO, Any

from narrator.audio.format import RECOGNIZER_FORMAT, AudioChunk
from narrator.audio.sources import DEFAULT_CHUNK_MS, PcmSource, WavStreamSource, load_pcm
from narrator.errors import NarratorError
from narrator.inputs import FORMAT_VERSION
from narrator.outputs import private_fd, private_file, private_folder
from narrator.reading import BadJSON, Limits, loads, read_text

MIC = "mic.wav"
INPUTS = "inputs.jsonl"
META = "session.json"
PROTOCOL = "protocol.json"

# What a reader takes of a session's files. A game of an hour and a half at the table writes
# some 50,000 events (most of them the echo gate's 20 ms chunks while the narrator speaks),
# 4 MB; its protocol is some 20 KB, its header a line.
#: ``inputs.jsonl``: a line as long as a table with a long history of actions, and more; about
#: one JSON object a line (the table's line has a few more)
INPUT_LIMITS = Limits("the session inputs", max_bytes=16 * 1024 * 1024, max_lines=200_000,
                      max_line=1024 * 1024, max_containers=400_000)
#: ``session.json``
META_LIMIT = 64 * 1024
#: ``protocol.json``
PROTOCOL_LIMIT = 4 * 1024 * 1024


class SessionRecorder:
    """Writes a session folder's audio and protocol while the game runs (a context manager).

    The folder (when it makes it) and every file in it are readable by their owner only: the
    inputs and the protocol name the dealt roles.
    """

    def __init__(self, directory: str | Path, *, start: float | None = None) -> None:
        self.dir = Path(directory)
        if not self.dir.is_dir():
            private_folder(self.dir, parents=True)  # (a session holds the roles)
        self.start = start
        self._written = 0  # bytes of audio written
        self._wav: wave.Wave_write | None = None
        self._wav_file: IO[bytes] | None = None

    def _open_wav(self, start: float) -> wave.Wave_write:
        self.start = start
        with os.fdopen(private_fd(self.dir / META), "w", encoding="utf-8") as meta:
            meta.write(json.dumps({"format": FORMAT_VERSION, "start": start,
                                   "rate": RECOGNIZER_FORMAT.rate,
                                   "width": RECOGNIZER_FORMAT.width,
                                   "channels": RECOGNIZER_FORMAT.channels}) + "\n")
        self._wav_file = os.fdopen(private_fd(self.dir / MIC), "wb")
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
        with private_file(path) as f:
            f.write(json.dumps(protocol, ensure_ascii=False, indent=2) + "\n")

    def close(self) -> None:
        """Finish the WAV."""
        if self._wav is not None:
            self._wav.close()
            self._wav = None
        elif not (self.dir / MIC).exists():
            # No audio at all: still leave a valid, empty session.
            self._open_wav(self.start or 0.0).close()
        if self._wav_file is not None:
            self._wav_file.close()  # wave does not close a file it was handed
            self._wav_file = None

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
            meta = loads(read_text(meta_path, "the session header", limit=META_LIMIT))
            if not isinstance(meta, dict):
                raise ValueError("not a JSON object")
            start = meta["start"]
            if isinstance(start, bool) or not isinstance(start, int | float):
                raise ValueError(f"start: expected seconds, got {start!r}")
            self.start = float(start)
            version = meta.get("format", 1)
        except (BadJSON, ValueError, KeyError, TypeError) as e:
            why = f"no {e}" if isinstance(e, KeyError) else str(e)
            raise NarratorError(f"{meta_path}: broken session header ({why})") from None
        if version != FORMAT_VERSION:
            raise NarratorError(f"{self.dir}: a session in format {version}; this narrator "
                                f"replays format {FORMAT_VERSION} only (record it again)")

    @property
    def inputs_path(self) -> Path:
        """The session's input events (``inputs.jsonl``)."""
        return self.dir / INPUTS

    def source(self, *, chunk_ms: int = DEFAULT_CHUNK_MS) -> WavStreamSource | PcmSource:
        """The recorded audio as a source on the original stream timeline, read from the file
        as it is replayed (a long game's hour of audio, 115 MB, is never held whole)."""
        try:
            return WavStreamSource(self.dir / MIC, chunk_ms=chunk_ms, start=self.start)
        except ValueError:  # not as the recorder writes it: converted, in memory
            return PcmSource(load_pcm(self.dir / MIC), chunk_ms=chunk_ms, start=self.start)

    def protocol(self) -> dict[str, Any] | None:
        """The recorded protocol, or None when the game did not finish."""
        path = self.dir / PROTOCOL
        if not path.exists():
            return None
        try:
            data = loads(read_text(path, "the recorded protocol", limit=PROTOCOL_LIMIT))
        except BadJSON as e:
            raise NarratorError(f"{path}: not a protocol ({e})") from None
        if not isinstance(data, dict):
            raise NarratorError(f"{path}: not a protocol (not a JSON object)")
        return data
