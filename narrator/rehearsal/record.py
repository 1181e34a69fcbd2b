"""The listening test's session: the microphone's audio (``mic.wav``, as a game's session
records it) and ``listen.jsonl`` — what the audio cannot give back.

``listen.jsonl``: a header line (the language, the seats, the ruleset, the chunk size, the
model's name), then a line per phrase as its window closes (the phrase, and the chunks its
window opened and closed at, counted from the stream's first), and a line for each chunk of a
window the echo gate closed (its start on the stream's timeline). A replay feeds ``mic.wav``
through the same judge at the same chunks, and gives the same report.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from narrator.errors import NarratorError
from narrator.reading import BadJSON, Limits, loads, read_lines
from narrator.rehearsal.prompts import Prompt

LISTEN = "listen.jsonl"
#: a test of 26 phrases writes a few hundred lines; a long one some thousands
LIMITS = Limits("the listening test", max_bytes=4 * 1024 * 1024, max_lines=100_000)


@dataclass
class Window:
    """A phrase heard from chunk ``open`` to chunk ``close`` (both counted from 0)."""

    prompt: Prompt
    open: int
    close: int


@dataclass
class ListenSession:
    """What ``listen.jsonl`` holds."""

    header: dict[str, Any]
    windows: list[Window] = field(default_factory=list)
    gated: set[float] = field(default_factory=set)

    @property
    def lang(self) -> str:
        return str(self.header.get("lang", "ru"))

    @property
    def seats(self) -> int:
        return int(self.header.get("seats", 10))

    @property
    def rules(self) -> str:
        return str(self.header.get("rules", "crime-time"))

    @property
    def chunk_ms(self) -> int:
        return int(self.header["chunk_ms"])

    @property
    def model(self) -> str:
        return str(self.header.get("model", "?"))


class ListenWriter:
    """``listen.jsonl``, written a line at a time (a test stopped midway keeps its phrases),
    readable by its owner only."""

    def __init__(self, directory: Path, header: dict[str, Any]) -> None:
        path = directory / LISTEN
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        self._file: IO[str] | None = os.fdopen(fd, "w", encoding="utf-8")
        self._write({"listen_test": 1, **header})

    def _write(self, obj: dict[str, Any]) -> None:
        if self._file is not None:
            self._file.write(json.dumps(obj, ensure_ascii=False) + "\n")
            self._file.flush()

    def window(self, window: Window) -> None:
        self._write({"prompt": window.prompt.to_json(), "open": window.open,
                     "close": window.close})

    def gated(self, start: float, end: float) -> None:
        self._write({"gated": round(start, 6)})

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def read_session(directory: Path) -> ListenSession:
    """``listen.jsonl`` of ``directory``; a broken line is one NarratorError naming it."""
    path = directory / LISTEN
    session: ListenSession | None = None
    for n, line, _ in read_lines(path, LIMITS):
        if not line.strip():
            continue
        try:
            obj = loads(line)
            if not isinstance(obj, dict):
                raise ValueError("not a JSON object")
            if session is None:
                if obj.get("listen_test") != 1:
                    raise ValueError("expected the header of a listening test")
                int(obj["chunk_ms"])
                session = ListenSession(obj)
            elif "prompt" in obj:
                session.windows.append(Window(Prompt.from_json(obj["prompt"]),
                                              int(obj["open"]), int(obj["close"])))
            elif "gated" in obj:
                session.gated.add(round(float(obj["gated"]), 6))
            else:
                raise ValueError("neither a phrase nor a gated chunk")
        except (BadJSON, ValueError, KeyError, TypeError) as e:
            why = f"no {e}" if isinstance(e, KeyError) else str(e)
            raise NarratorError(f"{path}:{n}: {why}") from None
    if session is None:
        raise NarratorError(f"{path}: empty (no listening test was recorded)")
    return session


class RecordedGate:
    """The echo gate as it was: closed for the chunks it closed in the test."""

    def __init__(self, starts: set[float]) -> None:
        self.starts = starts

    def is_open(self, t: float) -> bool:
        return round(t, 6) not in self.starts

    def is_open_span(self, start: float, end: float) -> bool:
        return round(start, 6) not in self.starts
