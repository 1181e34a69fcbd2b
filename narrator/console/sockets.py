"""One open socket: what waits to go out on it, its pace, and the form of its messages.

A socket owes an answer for every message read; :class:`Outbox` keeps its answers in order and
only its identity's newest view (a slow phone skips views, never an answer), and counts every
answer that could not be sent. :class:`RateLimit` is its pace on the game's clock: a socket that
sends more than :data:`RATE_COUNT` messages within :data:`RATE_WINDOW` s is answered
``too_fast`` and closed. A message is ``{"id": 7, "do": "vote", "candidate": 5}``
(:func:`parse_message`); what its fields mean is the press's (:mod:`narrator.console.presses`).
"""

from __future__ import annotations

import asyncio
import json
from collections import deque
from collections.abc import Callable
from typing import Any

from starlette.websockets import WebSocket

from narrator.console.taking import Reply
from narrator.console.view import dumps
from narrator.reasons import Reason

MAX_MESSAGE = 1024  # bytes: a press is a few dozen
#: messages of one socket read and not yet answered on the wire (waiting for the game's thread,
#: or to be sent); at this many its next message is left unread, in the socket
MAX_OWED = 32
#: a socket sending more than RATE_COUNT messages within RATE_WINDOW seconds of the game's
#: clock (50 a second for 10 s) is refused ("too_fast") and closed; tapping 10 a second is 100
RATE_COUNT = 500
RATE_WINDOW = 10.0


class Outbox:
    """What waits to go out on one socket: answers in order, and only the newest view (a slow
    phone skips views it had no time for, never an answer). A view goes out with the game
    clock's ``now`` at the moment it is sent: its timers are deadlines on that clock.

    No answer is skipped: ``owed`` counts the socket's messages read and not yet answered on
    the wire, and the hub reads no further message from a socket that owes :data:`MAX_OWED`, so
    answers never pile up here — a phone that reads slowly holds up its own socket only. An
    answer is dropped only when its socket is gone before it could be sent (the phone left,
    a send failed, or the socket was closed for its pace); each drop is counted, in
    ``dropped`` and through ``on_drop`` in :attr:`Hub.dropped`. ``sent``: answers sent."""

    def __init__(self, now: Callable[[], float],
                 on_drop: Callable[[int], None] | None = None) -> None:
        self.now = now
        self.on_drop = on_drop or (lambda count: None)
        self.replies: deque[str] = deque()
        self.view: str | None = None
        self.ready = asyncio.Event()
        self.owed = 0
        self.sent = 0
        self.dropped = 0
        self.closed = False
        self._moved = asyncio.Event()  # owed went down, or the box closed

    def put_view(self, text: str) -> None:
        if not self.closed:
            self.view = text
            self.ready.set()

    def put_reply(self, text: str) -> None:
        if self.closed:
            self._drop(1)
            return
        self.replies.append(text)
        self.ready.set()

    def _drop(self, count: int) -> None:
        self.dropped += count
        self.owed -= count
        self.on_drop(count)
        self._moved.set()

    def close(self) -> None:
        """No more sending: what waits is dropped (counted), and so is every later answer."""
        if self.closed:
            return
        self.closed = True
        self.view = None
        if self.replies:
            count = len(self.replies)
            self.replies.clear()
            self._drop(count)
        self.ready.set()
        self._moved.set()

    async def until(self, test: Callable[[], bool]) -> None:
        """Wait until ``test()`` holds (checked each time ``owed`` goes down or the box closes)."""
        while not test():
            self._moved.clear()
            await self._moved.wait()

    async def pump(self, ws: WebSocket) -> None:
        """Send until the socket fails (its pad reconnects and gets its view again) or the box
        is closed. The event loop runs between two sends: a socket that died is known before
        the next one, which then fails at once instead of writing into a dead connection."""
        try:
            while not self.closed:
                await self.ready.wait()
                self.ready.clear()
                while self.replies and not self.closed:
                    await ws.send_text(self.replies[0])
                    self.replies.popleft()
                    self.sent += 1
                    self.owed -= 1
                    self._moved.set()
                    await asyncio.sleep(0)
                view, self.view = self.view, None
                if view is not None and not self.closed:
                    await ws.send_text(stamped(view, self.now()))
                    await asyncio.sleep(0)
        except Exception:  # a dropped socket: the reader sees it too and cleans up
            pass
        finally:
            self.close()


class RateLimit:
    """One socket's pace on the clock ``now``: more than ``count`` messages within ``window``
    seconds is too fast (by default :data:`RATE_COUNT` in :data:`RATE_WINDOW`: 50 a second for
    10 s). A pad tapping 10 times a second never comes near it; a flood is caught at its
    501st message, however fast it comes."""

    def __init__(self, now: Callable[[], float], count: int | None = None,
                 window: float | None = None) -> None:
        self.now = now
        self.count = RATE_COUNT if count is None else count
        self.window = RATE_WINDOW if window is None else window
        self._times: deque[float] = deque(maxlen=self.count + 1)

    def allow(self) -> bool:
        """One more message now: False when it is one too many."""
        t = self.now()
        self._times.append(t)
        return len(self._times) <= self.count or t - self._times[0] >= self.window


def stamped(view: str, now: float) -> str:
    """A view's message (``{"view": …}``) with the clock's ``now`` put first."""
    return f'{{"now": {round(now, 3)}, {view[1:]}'


def parse_message(raw: str) -> tuple[Any, str, dict[str, Any]] | None:
    """``{"id": 7, "do": "vote", "candidate": 5}`` → (7, "vote", {...}); None if malformed."""
    if len(raw) > MAX_MESSAGE:
        return None
    try:
        obj = json.loads(raw)
    except ValueError:
        return None
    if not isinstance(obj, dict) or not isinstance(obj.get("do"), str) or len(obj["do"]) > 16:
        return None
    ident = obj.get("id")
    if not (ident is None or (isinstance(ident, int) and not isinstance(ident, bool))):
        return None
    data = {k: v for k, v in obj.items() if k not in ("id", "do")}
    return ident, obj["do"], data


def refusal(ident: Any, reason: Reason, lang: str) -> str:
    """The answer to message ``ident`` refused for ``reason`` before any press was read."""
    return dumps({"reply": ident, **Reply(False, reason).to_json(lang)})
