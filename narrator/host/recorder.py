"""The one recorder: input events written as JSON lines (read back by the replay).

The game journal and a recorded session's ``inputs.jsonl`` are both written here: each
:class:`~narrator.inputs.Input` is one line, flushed (the journal: synced too) before it is
acted on, so a killed process loses nothing it acted on. The files hold the dealt cards, so
they are created readable by their owner only.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any, Protocol

from narrator.errors import NarratorError
from narrator.inputs import Input


class InputLog(Protocol):
    """Where input events are written (a journal, a session, both)."""

    def write(self, event: Input) -> None: ...


class Recorder:
    """Appends events to ``path`` (after a ``header`` line when the file is new)."""

    def __init__(self, path: str | Path, *, header: Mapping[str, Any] | None = None,
                 fsync: bool = False) -> None:
        self.path = Path(path)
        self.fsync = fsync
        is_new = not self.path.exists() or self.path.stat().st_size == 0
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        self._file: IO[str] = os.fdopen(fd, "a", encoding="utf-8")
        if is_new and header is not None:
            self._line(json.dumps(dict(header), ensure_ascii=False))

    def _line(self, text: str) -> None:
        try:
            self._file.write(text + "\n")
            self._file.flush()
            if self.fsync:
                os.fsync(self._file.fileno())
        except OSError as e:  # a full disk: one line, and the game stops before acting
            raise NarratorError(f"{self.path}: cannot write ({e.strerror or e})") from None

    def write(self, event: Input) -> None:
        """Append one event and flush it."""
        self._line(event.dumps())

    def close(self) -> None:
        self._file.close()


class Fanout:
    """Every event to each of several logs (the journal and a session's inputs)."""

    def __init__(self, *logs: InputLog) -> None:
        self.logs = logs

    def write(self, event: Input) -> None:
        for log in self.logs:
            log.write(event)
