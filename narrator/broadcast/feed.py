"""The delayed feed: the game's pictures and its scene changes, each stamped with the table's
clock and held back until ``stamp + delay`` on that clock.

The delay is what keeps the stream from telling the room anything early: a viewer in the hall
with the stream on his phone sees a shot a minute after the table did (the club's figure).
What is pushed is kept in order; :meth:`DelayedFeed.read` gives the latest picture due and the
scene changes due since the reader's last one. Pushed on the loop's thread, read on the
server's: one lock.
"""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass
from typing import Any

from narrator.clock import Clock

#: seconds a stream lags the table unless the club says otherwise
DEFAULT_DELAY = 60.0
#: scene changes kept for a page that (re)connects late
KEPT_SCENES = 50


@dataclass(frozen=True, slots=True)
class SceneChange:
    """The stream enters ``scene`` at ``at`` (the table's clock); ``seq``: its number."""

    seq: int
    scene: str
    at: float

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "scene": self.scene, "at": self.at}


@dataclass(frozen=True, slots=True)
class _Item:
    at: float
    serial: int
    picture: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Released:
    """What is due at a moment: the latest picture (None: nothing yet) and its number
    (``serial``: a new picture, a new number), the scene changes after the reader's last, and
    the delayed clock's time (the page's timer counts on it)."""

    now: float
    serial: int
    picture: dict[str, Any] | None
    scenes: tuple[SceneChange, ...]

    def to_json(self) -> dict[str, Any]:
        return {"now": round(self.now, 3), "serial": self.serial, "picture": self.picture,
                "scenes": [s.to_json() for s in self.scenes]}


class DelayedFeed:
    """Pictures held back ``delay`` seconds on ``clock``. A picture is a JSON object with its
    ``scene`` and its moment ``at``; one equal to the last pushed is not kept again."""

    def __init__(self, clock: Clock, delay: float = DEFAULT_DELAY) -> None:
        if delay < 0:
            raise ValueError(f"a delay of {delay} s")
        self.clock = clock
        self.delay = delay
        self._lock = threading.Lock()
        self._pending: deque[_Item] = deque()
        self._last_pushed: dict[str, Any] | None = None
        self._last_scene: str | None = None
        self._current: dict[str, Any] | None = None
        self._serial = 0  # of the current picture
        self._pushed = 0
        self._scenes: deque[SceneChange] = deque(maxlen=KEPT_SCENES)
        self._pending_scenes: deque[SceneChange] = deque()
        self._seq = 0

    def push(self, picture: dict[str, Any]) -> None:
        """A new picture, stamped with its ``at``; its scene, when new, is a scene change."""
        at = float(picture["at"])
        same = {k: v for k, v in picture.items() if k != "at"}
        with self._lock:
            if same == self._last_pushed:
                return  # nothing changed but the time
            self._last_pushed = same
            self._pushed += 1
            self._pending.append(_Item(at, self._pushed, picture))
            scene = str(picture["scene"])
            if scene != self._last_scene:
                self._last_scene = scene
                self._seq += 1
                self._pending_scenes.append(SceneChange(self._seq, scene, at))

    def _release(self, now: float) -> None:
        """Move what is due at ``now`` out of the pending queues (under the lock)."""
        due = now - self.delay
        while self._pending and self._pending[0].at <= due:
            item = self._pending.popleft()
            self._current, self._serial = item.picture, item.serial
        while self._pending_scenes and self._pending_scenes[0].at <= due:
            self._scenes.append(self._pending_scenes.popleft())

    def read(self, after: int = 0) -> Released:
        """What is due now: the latest picture, the scene changes numbered above ``after``."""
        now = self.clock.now()
        with self._lock:
            self._release(now)
            scenes = tuple(s for s in self._scenes if s.seq > after)
            return Released(now - self.delay, self._serial, self._current, scenes)

    @property
    def last_due(self) -> float | None:
        """When the last picture pushed is due (None: every one is out already)."""
        with self._lock:
            return self._pending[-1].at + self.delay if self._pending else None

    @property
    def waiting(self) -> int:
        """Pictures pushed and not yet due."""
        now = self.clock.now()
        with self._lock:
            self._release(now)
            return len(self._pending)
