"""On-the-fly speech synthesis with pyttsx3 (espeak-ng), in one long-lived worker subprocess.

Starting a process and an engine costs ~100 ms; a phrase costs ~10 ms. So a
:class:`Synthesizer` starts its worker once (lazily, or eagerly with :meth:`Synthesizer.start`)
and sends it one phrase at a time. Calls are serialised by a lock, so a Synthesizer can be
shared between threads.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import IO, Any

from narrator.audio.clip import AudioClip
from narrator.errors import NarratorError
from narrator.voice.dsp import trim_and_normalise

#: Seconds to wait for the worker to start, and for one phrase.
START_TIMEOUT = 20.0
PHRASE_TIMEOUT = 20.0


class Synthesizer:
    """Renders text in ``lang`` (an espeak-ng voice: ``ru``, ``uk``) to clips."""

    def __init__(self, lang: str, *, rate: int = 0, clean: bool = True) -> None:
        """``rate``: words per minute (0 = engine default); ``clean``: trim and normalise."""
        self.lang = lang
        self.rate = rate
        self.clean = clean
        self.voice_id: str | None = None
        self._proc: subprocess.Popen[str] | None = None
        self._lock = threading.Lock()
        self._tmp = Path(tempfile.mkdtemp(prefix="narrator-synth-"))
        self._n = 0

    def start(self) -> None:
        """Start the worker now (otherwise the first phrase does)."""
        with self._lock:
            self._ensure()

    def _ensure(self) -> subprocess.Popen[str]:
        if self._proc is not None and self._proc.poll() is None:
            return self._proc
        cmd = [sys.executable, "-m", "narrator.voice.synth_worker", self.lang, str(self.rate)]
        proc = subprocess.Popen(
            cmd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            encoding="utf-8",
            bufsize=1,
        )
        self._proc = proc
        reply = self._read(proc, START_TIMEOUT, "start")
        if "error" in reply:
            self._kill()
            raise NarratorError(f"speech synthesis ({self.lang}): {reply['error']}")
        self.voice_id = str(reply.get("voice"))
        return proc

    def _read(self, proc: subprocess.Popen[str], timeout: float, what: str) -> dict[str, Any]:
        out: IO[str] | None = proc.stdout
        assert out is not None
        ready, _, _ = select.select([out], [], [], timeout)
        line = out.readline() if ready else ""
        if not line:
            self._kill()
            why = "timed out" if not ready else "stopped"
            raise NarratorError(
                f"speech synthesis ({self.lang}): the pyttsx3 worker {why} at {what}"
                " (is libespeak-ng1 installed?)"
            )
        reply: dict[str, Any] = json.loads(line)
        return reply

    def render_to_file(self, text: str, path: Path) -> None:
        """Write the raw engine output for ``text`` to ``path`` (a WAV, 22050 Hz mono)."""
        with self._lock:
            proc = self._ensure()
            assert proc.stdin is not None
            try:
                proc.stdin.write(json.dumps({"text": text, "path": str(path)}) + "\n")
                proc.stdin.flush()
            except BrokenPipeError:
                self._kill()
                raise NarratorError(
                    f"speech synthesis ({self.lang}): the pyttsx3 worker died"
                ) from None
            reply = self._read(proc, PHRASE_TIMEOUT, repr(text))
        if "error" in reply:
            raise NarratorError(f"speech synthesis ({self.lang}) of {text!r}: {reply['error']}")

    def synthesize(self, text: str) -> AudioClip:
        """``text`` as a clip (trimmed and normalised unless ``clean=False``)."""
        with self._lock:
            self._n += 1
            path = self._tmp / f"{self._n}.wav"
        try:
            self.render_to_file(text, path)
            clip = AudioClip.read_wav(path)
        finally:
            path.unlink(missing_ok=True)
        return trim_and_normalise(clip) if self.clean else clip

    def _kill(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        for stream in (proc.stdin, proc.stdout):
            if stream is not None:
                stream.close()

    def close(self) -> None:
        """Stop the worker and remove temporary files."""
        with self._lock:
            proc = self._proc
            if proc is not None and proc.poll() is None and proc.stdin is not None:
                # Closing stdin ends the worker's loop; kill only if it does not go.
                proc.stdin.close()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(timeout=2)
            self._kill()
            shutil.rmtree(self._tmp, ignore_errors=True)

    def __enter__(self) -> Synthesizer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        # Best effort for a forgotten close(): never leave a worker behind.
        proc = getattr(self, "_proc", None)
        if proc is not None and proc.poll() is None:
            proc.kill()
        tmp = getattr(self, "_tmp", None)
        if tmp is not None and os.path.isdir(tmp):
            shutil.rmtree(tmp, ignore_errors=True)
