"""The console's hub: the open sockets by identity, the latest view of each, and the way
presses go to the loop's thread and answers come back.

Presses arrive over the websocket, are stamped with the game clock on arrival and wait in their
socket's own queue; the loop that drives the host (``submit``) takes them in turns, one socket
after another, so a socket that floods delays another's press by one of its presses at most.
Nothing on the server's event loop ever waits for that loop: the hand-over is a thread of its
own, and at most one turn waits in its inbox. A socket owes an answer for every message read;
once it owes :data:`~narrator.console.sockets.MAX_OWED` (the game is busy, or its phone reads
slowly) its next message is left unread in the socket, so a flood waits on its own connection,
in bounded memory. A socket that sends too fast is answered ``too_fast`` and closed. The answer
and the new views come back from the loop's thread and are sent from the server's event loop
(see :class:`~narrator.console.sockets.Outbox`: every answer is sent or counted). A socket that
drops changes nothing in the game (what it pressed is still taken); a socket that (re)connects
gets its identity's latest view at once. A socket whose answers could not all be sent, or that
was closed for its pace, is one line on stderr.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import sys
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from starlette.websockets import WebSocket

from narrator.clock import Clock
from narrator.console.presses import Press
from narrator.console.sockets import (
    MAX_OWED,
    Outbox,
    RateLimit,
    parse_message,
    refusal,
)
from narrator.console.taking import Reply
from narrator.console.tokens import OPERATOR, Who
from narrator.console.view import Publish, View, dumps
from narrator.reasons import Reason

#: seconds a socket refused for its pace has to take its last answers before it is dropped
CLOSE_GRACE = 2.0
#: presses taken in one turn on the game's thread, one socket after another
TURN = 8
#: seconds the hand-over thread waits idle before it ends (it starts again when needed)
FEEDER_IDLE = 30.0

Submit = Callable[[Callable[[], object]], None]


class Served(Protocol):
    """What the server serves: one game's :class:`~narrator.console.table.ConsoleTable`, or an
    evening of games (:class:`narrator.evening.front.EveningFront`). Everything but ``clock``
    and ``final_protocol`` is called on the loop's thread."""

    publish: Publish

    @property
    def final_protocol(self) -> dict[str, Any] | None: ...

    @property
    def clock(self) -> Clock: ...

    @property
    def lang(self) -> str:
        """The pages' language: a reply carries its reason's words in it."""
        ...

    def handle(self, press: Press) -> Reply: ...

    def publish_views(self) -> None: ...


@dataclass(eq=False)
class _Job:
    """Something to run on the loop's thread for a socket: a press (``ident``: its id), or the
    first publication of the views."""

    run: Callable[[], object]
    press: bool = False
    ident: Any = None


@dataclass(eq=False)
class _Link:
    """One open socket: its outbox, its pace, its jobs waiting for the loop's thread."""

    who: Who
    box: Outbox
    meter: RateLimit
    jobs: deque[_Job] = field(default_factory=deque)
    queued: bool = False  # in the hub's ring (it has jobs)
    too_fast: bool = False  # refused for its pace
    too_fast_id: Any = None  # the id of the message that was one too many


def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _name(who: Who) -> str:
    if who == OPERATOR:
        return "the operator view"
    return f"seat {who}'s pad" if isinstance(who, int) else f"{who}'s pad"


class Hub:
    """Open sockets by identity, the latest view of each identity, and the way presses go to
    the loop's thread and answers come back. ``rate()`` makes each socket's
    :class:`RateLimit` (by default on the game's clock); ``log`` gets the one line a socket may
    cost (default: stderr). ``dropped``: answers whose socket was gone before they were sent."""

    def __init__(self, table: Served, submit: Submit, *,
                 rate: Callable[[], RateLimit] | None = None,
                 log: Callable[[str], None] | None = None) -> None:
        self.table = table
        self.submit = submit
        self.clock = table.clock
        self.rate: Callable[[], RateLimit] = rate or (lambda: RateLimit(self.clock.now))
        self.log = log or _stderr
        self.outboxes: dict[Who, set[Outbox]] = {}
        self.views: dict[Who, str] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self.dropped = 0
        self._lock = threading.Lock()
        # sockets with presses waiting, in the order they are served; one turn at a time is
        # asked of the loop's thread, by the feeder (``submit`` may wait: never the event loop)
        self._ring: deque[_Link] = deque()
        self._turn_due = False
        self._wanted = threading.Event()
        self._feeder: threading.Thread | None = None
        #: the end's message once the evening or the game has ended (:meth:`end`): every page
        #: gets it in place of a view, every press from then on is answered with it
        self.ended: str | None = None
        self._end_text = ""
        self._links: set[_Link] = set()

    @property
    def connected(self) -> int:
        """Open sockets (pads and operator views)."""
        return sum(len(group) for group in self.outboxes.values())

    def _count_dropped(self, count: int) -> None:
        with self._lock:
            self.dropped += count

    # -- from the loop's thread -------------------------------------------------------------

    def publish(self, views: dict[Who, View]) -> None:
        """New views (called on the loop's thread): keep them, send those that changed (each
        view's message is made once, whatever number of sockets it goes to)."""
        changed: dict[Who, str] = {}
        with self._lock:
            if self.ended is not None:
                return  # (the end's message stays every page's last word)
            for who, view in views.items():
                text = view.message
                if self.views.get(who) != text:
                    self.views[who] = text
                    changed[who] = text
        loop = self.loop
        if changed and loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the server is closing
                loop.call_soon_threadsafe(self._send_all, changed)

    def _send_all(self, changed: dict[Who, str]) -> None:
        for who, text in changed.items():
            for box in self.outboxes.get(who, ()):
                box.put_view(text)

    def end(self, text: str) -> None:
        """The evening or the game has ended (from any thread), ``text`` says so: each page
        gets ``{"ended": text}`` in place of its view — it shows it and connects no more —,
        and every press not answered yet, or sent from now on, is answered with it (a second
        tap on «Да, закончить вечер» gets its answer, as the first did)."""
        message = dumps({"ended": text})
        with self._lock:
            self.ended, self._end_text = message, text
            for who in list(self.views):
                self.views[who] = message
        loop = self.loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._end_all)

    def _ended_reply(self, ident: Any) -> str:
        return dumps({"reply": ident, "ok": False, "reason": "ended",
                      "text": self._end_text, "ended": True})

    def _end_all(self) -> None:
        assert self.ended is not None
        for link in list(self._links):
            for job in self._unqueue(link):  # (the loop's thread takes no more presses)
                link.box.put_reply(self._ended_reply(job.ident))
            link.box.put_view(self.ended)

    def close(self, grace: float = 0.0) -> None:
        """The server stops (from any thread): every socket lets go, a reader that waits for
        room included (what it still owed is counted dropped). ``grace``: seconds at most that
        the answers and the end's message still waiting get to go out first."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        if grace > 0:
            with contextlib.suppress(RuntimeError, TimeoutError, concurrent.futures.TimeoutError):
                asyncio.run_coroutine_threadsafe(self._flushed(grace), loop).result(grace + 1)
        with contextlib.suppress(RuntimeError):  # closed already
            loop.call_soon_threadsafe(self._close_all)

    async def _flushed(self, grace: float) -> None:
        """Until every socket has sent what waits for it (``grace`` s at most)."""
        deadline = asyncio.get_running_loop().time() + grace
        while any(link.box.replies or link.box.view for link in self._links
                  if not link.box.closed):
            if asyncio.get_running_loop().time() > deadline:
                return
            await asyncio.sleep(0.02)

    def _close_all(self) -> None:
        for group in list(self.outboxes.values()):
            for box in list(group):
                box.close()

    def _turn(self) -> None:
        """Up to :data:`TURN` jobs, one socket's after another's (round robin)."""
        try:
            for _ in range(TURN):
                with self._lock:
                    if not self._ring:
                        break
                    link = self._ring.popleft()
                    job = link.jobs.popleft()
                    if link.jobs:
                        self._ring.append(link)
                    else:
                        link.queued = False
                job.run()
        finally:
            with self._lock:
                self._turn_due = bool(self._ring)
                if self._turn_due:
                    self._wake()

    def _wake(self) -> None:
        """Have the feeder ask for a turn (under the lock; it starts the feeder if it ended)."""
        self._wanted.set()
        if self._feeder is None:
            self._feeder = threading.Thread(target=self._feed, daemon=True,
                                            name="narrator-console-feed")
            self._feeder.start()

    # -- the hand-over thread -------------------------------------------------------------------

    def _feed(self) -> None:
        """Ask the loop's thread for a turn whenever one is wanted (``submit`` may wait while the
        loop's inbox is full: here, not on the event loop)."""
        while True:
            if not self._wanted.wait(FEEDER_IDLE):
                with self._lock:
                    if not self._wanted.is_set():
                        self._feeder = None
                        return
            self._wanted.clear()
            try:
                self.submit(self._turn)
            except Exception:  # the loop takes nothing more: the next press asks again
                with self._lock:
                    self._turn_due = False

    # -- on the server's event loop -----------------------------------------------------------

    def _queue(self, link: _Link, job: _Job) -> None:
        with self._lock:
            link.jobs.append(job)
            if not link.queued:
                link.queued = True
                self._ring.append(link)
            if not self._turn_due:
                self._turn_due = True
                self._wake()

    def _unqueue(self, link: _Link) -> list[_Job]:
        """Take back the socket's presses not taken yet (the first view still goes out)."""
        with self._lock:
            presses = [job for job in link.jobs if job.press]
            kept = [job for job in link.jobs if not job.press]
            link.jobs.clear()
            link.jobs.extend(kept)
            if link.queued and not kept:
                self._ring.remove(link)
                link.queued = False
        return presses

    async def serve(self, ws: WebSocket, who: Who) -> None:
        self.loop = asyncio.get_running_loop()
        await ws.accept()
        box = Outbox(self.clock.now, self._count_dropped)
        link = _Link(who, box, self.rate())
        self.outboxes.setdefault(who, set()).add(box)
        self._links.add(link)
        with self._lock:
            latest = self.ended or self.views.get(who)
        if latest is None:
            self._queue(link, _Job(self.table.publish_views))
        else:
            box.put_view(latest)  # a reconnecting pad gets its state back at once
        pump = asyncio.ensure_future(box.pump(ws))
        try:
            await self._read(ws, link)
            if link.too_fast:
                await self._refuse(link, pump)
        finally:
            pump.cancel()
            box.close()  # what was not sent is counted; what is still pressed still runs
            self.outboxes.get(who, set()).discard(box)
            self._links.discard(link)
            if link.too_fast:
                lost = f"; {box.dropped} answer(s) not sent" if box.dropped else ""
                self.log(f"console: {_name(who)} sent more than {link.meter.count} messages "
                         f"in {link.meter.window:g} s: refused (too_fast) and closed{lost}")
            elif box.dropped:
                self.log(f"console: {_name(who)} went away with {box.dropped} answer(s) not "
                         "sent")

    async def _read(self, ws: WebSocket, link: _Link) -> None:
        """Read the socket's messages until it ends, its sending fails or it sends too fast."""
        box = link.box
        while not box.closed:
            if box.owed >= MAX_OWED:  # the rest waits in the socket, unread
                await box.until(lambda: box.owed < MAX_OWED or box.closed)
                continue
            message = await ws.receive()
            if message["type"] != "websocket.receive":
                return  # websocket.disconnect
            t = self.clock.now()  # the server's stamp: a pad never says when
            box.owed += 1  # every message read is answered, or its answer counted dropped
            raw = message.get("text")
            if not link.meter.allow():
                parsed = parse_message(raw) if isinstance(raw, str) else None
                link.too_fast = True
                link.too_fast_id = parsed[0] if parsed is not None else None
                return
            self._received(link, raw if isinstance(raw, str) else None, t)

    async def _refuse(self, link: _Link, pump: asyncio.Future[None]) -> None:
        """Too fast: its presses not taken yet are refused with it, and the answers owed get
        :data:`CLOSE_GRACE` s to go out. Then the handler returns and the server drops the
        connection at once: no closing handshake, which would keep a flood that never reads
        being read (and thrown away) for uvicorn's 10 s close timeout."""
        box = link.box
        for job in self._unqueue(link):
            box.put_reply(refusal(job.ident, Reason.TOO_FAST, self.table.lang))
        box.put_reply(refusal(link.too_fast_id, Reason.TOO_FAST, self.table.lang))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(box.until(lambda: box.owed <= 0 or box.closed), CLOSE_GRACE)
        pump.cancel()
        box.close()

    def _received(self, link: _Link, raw: str | None, t: float) -> None:
        loop = asyncio.get_running_loop()
        box = link.box
        message = parse_message(raw) if raw is not None else None
        if message is None:
            box.put_reply(refusal(None, Reason.BAD_REQUEST, self.table.lang))
            return
        ident, do, data = message
        if self.ended is not None:  # nothing is taken any more: the end is the answer
            box.put_reply(self._ended_reply(ident))
            return
        press = Press(link.who, do, data, t)

        def run() -> None:
            try:
                reply = self.table.handle(press)
            except Exception:  # a bug must not stop the loop, nor the game
                reply = Reply(False, Reason.ERROR)
            text = dumps({"reply": ident, **reply.to_json(self.table.lang)})
            try:
                loop.call_soon_threadsafe(box.put_reply, text)
            except RuntimeError:  # the server has closed
                self._count_dropped(1)

        self._queue(link, _Job(run, press=True, ident=ident))
