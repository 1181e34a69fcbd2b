"""Phones and boxes of a tournament for the end-to-end test: a page of a table's console held
as a websocket client (a player's pad, the operator's view) that comes back by itself when
its box does, and the boxes themselves (``narrator tournament run``, ``narrator evening
--join``) as processes that can be killed and started again. Every wait is bounded."""

from __future__ import annotations

import itertools
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from websockets.exceptions import WebSocketException
from websockets.sync.client import ClientConnection, connect

from tests.console.browser import REPO

_IDS = itertools.count(1)


def until(what: Callable[[], Any], timeout: float, why: str, pause: float = 0.05) -> Any:
    """Poll ``what`` until it is truthy (its value returned); AssertionError after ``timeout``
    seconds saying ``why``."""
    deadline = time.monotonic() + timeout
    while True:
        got = what()
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout:g} s: {why}")
        time.sleep(pause)


def get_json(url: str) -> Any:
    """A page's state (None: no answer now — a box down)."""
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:
            return json.loads(answer.read())
    except (urllib.error.URLError, OSError, ValueError):
        return None


def get_status(url: str) -> int:
    """The HTTP status of a GET (0: no answer)."""
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as e:
        return int(e.code)
    except (urllib.error.URLError, OSError):
        return 0


class Page:
    """A console page (``http://HOST:PORT/pad/TOKEN`` or ``/op/TOKEN``) on a websocket of its
    own: ``view`` is the last view it was sent; a dropped socket is opened again."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self.url = url
        self.ws_url = f"ws://{parts.netloc}/ws/{parts.path.rsplit('/', 1)[1]}"
        self.view: dict[str, Any] | None = None
        self.replies: list[dict[str, Any]] = []
        self.connects = 0
        self._ws: ClientConnection | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True, name=f"pad {url[-6:]}")
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                with connect(self.ws_url, proxy=None, open_timeout=5, close_timeout=1) as ws:
                    self._ws = ws
                    self.connects += 1
                    for raw in ws:
                        message = json.loads(raw)
                        if "view" in message:
                            self.view = message["view"]
                        elif "reply" in message:
                            self.replies.append(message)
            except (OSError, WebSocketException, TimeoutError):
                pass
            self._ws = None
            self._stop.wait(0.2)

    @property
    def up(self) -> bool:
        return self._ws is not None and self.view is not None

    def press(self, do: str, **data: Any) -> bool:
        """Send a press (False: no socket now; the caller tries again at its next turn)."""
        ws = self._ws
        if ws is None:
            return False
        try:
            ws.send(json.dumps({"do": do, "id": next(_IDS), **data}))
        except (OSError, WebSocketException):
            return False
        return True

    def close(self) -> None:
        self._stop.set()
        ws = self._ws
        if ws is not None:
            ws.close()
        self._thread.join(5)


class Box:
    """A ``narrator`` process: its output read on a thread (``lines``), killed or stopped."""

    def __init__(self, argv: list[str], cwd: Path) -> None:
        self.argv = argv
        self.cwd = cwd
        self.lines: list[str] = []
        self.proc: subprocess.Popen[str] | None = None

    def start(self) -> Box:
        """Start the process (again: what the last run printed is forgotten)."""
        self.lines = []
        self.proc = subprocess.Popen([sys.executable, "-m", "narrator", *self.argv],
                                     cwd=self.cwd, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                     env={**os.environ, "PYTHONPATH": str(REPO)})
        threading.Thread(target=self._read, args=(self.proc,), daemon=True).start()
        return self

    def _read(self, proc: subprocess.Popen[str]) -> None:
        assert proc.stdout is not None
        lines = self.lines  # (this run's)
        for line in proc.stdout:
            lines.append(line.rstrip("\n"))

    def found(self, pattern: str) -> re.Match[str] | None:
        return next((m for m in map(re.compile(pattern).search, list(self.lines)) if m), None)

    def wait_for(self, pattern: str, timeout: float = 60) -> re.Match[str]:
        def seen() -> re.Match[str] | None:
            assert self.proc is not None and self.proc.poll() is None, "\n".join(self.lines)
            return self.found(pattern)
        found: re.Match[str] = until(seen, timeout, f"{pattern!r} in {self.argv[:2]}")
        return found

    def kill(self) -> None:
        """SIGKILL: the box dies as a power cut takes it, nothing written on the way out."""
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)
        self.lines.append("-- killed --")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        for stream in (self.proc.stdin, self.proc.stdout) if self.proc else ():
            if stream is not None:
                stream.close()
