"""The console's web server: pages, assets and one websocket per open pad or operator view.

Starlette serves the two pages and the assets shipped in the package (``static/``: no CDN, no
build step); uvicorn runs it on a thread of its own, bound to the address given (loopback by
default). A link carries one token, ``/pad/TOKEN`` or ``/op/TOKEN``; any failure — a missing,
wrong or other-kind token — gets the same refusal, which never says which part was wrong.

Presses arrive over the websocket, are stamped with the game clock on arrival and wait in their
socket's own queue; the loop that drives the host (``submit``) takes them in turns, one socket
after another, so a socket that floods delays another's press by one of its presses at most.
Nothing on the server's event loop ever waits for that loop: the hand-over is a thread of its
own, and at most one turn waits in its inbox. A socket owes an answer for every message read;
once it owes :data:`MAX_OWED` (the game is busy, or its phone reads slowly) its next message is
left unread in the socket, so a flood waits on its own connection, in bounded memory. A socket
that sends more than :data:`RATE_COUNT` messages within :data:`RATE_WINDOW` s (on the game's
clock) is answered ``too_fast`` and closed. The answer and the new views come back from the
loop's thread and are sent from the server's event loop (see :class:`Outbox`: every answer is
sent or counted). A socket that drops changes nothing in the game (what it pressed is still
taken); a socket that (re)connects gets its identity's latest view at once. A socket whose
answers could not all be sent, or that was closed for its pace, is one line on stderr.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from narrator.clock import Clock
from narrator.console.links import base_url, links, parse_address, public_host
from narrator.console.table import ConsoleTable, Press, Publish, Reply
from narrator.console.tokens import OPERATOR, Tokens, Who
from narrator.errors import NarratorError
from narrator.reasons import Reason

STATIC = Path(__file__).parent / "static"
REFUSAL = "This link is not valid for this table.\n"
MAX_MESSAGE = 1024  # bytes: a press is a few dozen
#: messages of one socket read and not yet answered on the wire (waiting for the game's thread,
#: or to be sent); at this many its next message is left unread, in the socket
MAX_OWED = 32
#: a socket sending more than RATE_COUNT messages within RATE_WINDOW seconds of the game's
#: clock (50 a second for 10 s) is refused ("too_fast") and closed; tapping 10 a second is 100
RATE_COUNT = 500
RATE_WINDOW = 10.0
#: seconds a socket refused for its pace has to take its last answers before it is dropped
CLOSE_GRACE = 2.0
#: presses taken in one turn on the game's thread, one socket after another
TURN = 8
#: seconds the hand-over thread waits idle before it ends (it starts again when needed)
FEEDER_IDLE = 30.0
HEADERS = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": ("default-src 'self'; connect-src 'self'; img-src 'self' data:; "
                                "frame-ancestors 'none'; base-uri 'none'; form-action 'none'"),
}

Submit = Callable[[Callable[[], object]], None]


class Served(Protocol):
    """What the server serves: one game's :class:`ConsoleTable`, or an evening of games
    (:class:`narrator.evening.front.EveningFront`). Everything but ``clock`` and
    ``final_protocol`` is called on the loop's thread."""

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


class TokenBook(Protocol):
    """Whose a presented token is: :data:`OPERATOR`, a seat, or an evening's player."""

    def who(self, presented: str | None) -> Who | None: ...


def _refuse() -> Response:
    return PlainTextResponse(REFUSAL, status_code=403, headers=HEADERS)


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


def _refusal(ident: Any, reason: Reason, lang: str) -> str:
    return json.dumps({"reply": ident, **Reply(False, reason).to_json(lang)}, ensure_ascii=False)


def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _name(who: Who) -> str:
    if who == OPERATOR:
        return "the operator view"
    return f"seat {who}'s pad" if isinstance(who, int) else f"{who}'s pad"


def stamped(view: str, now: float) -> str:
    """A view's message (``{"view": …}``) with the clock's ``now`` put first."""
    return f'{{"now": {round(now, 3)}, {view[1:]}'


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

    @property
    def connected(self) -> int:
        """Open sockets (pads and operator views)."""
        return sum(len(group) for group in self.outboxes.values())

    def _count_dropped(self, count: int) -> None:
        with self._lock:
            self.dropped += count

    # -- from the loop's thread -------------------------------------------------------------

    def publish(self, views: dict[Who, dict[str, Any]]) -> None:
        """New views (called on the loop's thread): keep them, send those that changed."""
        changed: dict[Who, str] = {}
        with self._lock:
            for who, view in views.items():
                text = json.dumps({"view": view}, ensure_ascii=False)
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

    def close(self) -> None:
        """The server stops (from any thread): every socket lets go, a reader that waits for
        room included (what it still owed is counted dropped)."""
        loop = self.loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # closed already
                loop.call_soon_threadsafe(self._close_all)

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
        with self._lock:
            latest = self.views.get(who)
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
                parsed = _message(raw) if isinstance(raw, str) else None
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
            box.put_reply(_refusal(job.ident, Reason.TOO_FAST, self.table.lang))
        box.put_reply(_refusal(link.too_fast_id, Reason.TOO_FAST, self.table.lang))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(box.until(lambda: box.owed <= 0 or box.closed), CLOSE_GRACE)
        pump.cancel()
        box.close()

    def _received(self, link: _Link, raw: str | None, t: float) -> None:
        loop = asyncio.get_running_loop()
        box = link.box
        message = _message(raw) if raw is not None else None
        if message is None:
            box.put_reply(_refusal(None, Reason.BAD_REQUEST, self.table.lang))
            return
        ident, do, data = message
        press = Press(link.who, do, data, t)

        def run() -> None:
            try:
                reply = self.table.handle(press)
            except Exception:  # a bug must not stop the loop, nor the game
                reply = Reply(False, Reason.ERROR)
            text = json.dumps({"reply": ident, **reply.to_json(self.table.lang)},
                              ensure_ascii=False)
            try:
                loop.call_soon_threadsafe(box.put_reply, text)
            except RuntimeError:  # the server has closed
                self._count_dropped(1)

        self._queue(link, _Job(run, press=True, ident=ident))


def _message(raw: str) -> tuple[Any, str, dict[str, Any]] | None:
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


def _same_origin(ws: WebSocket) -> bool:
    """A browser's websocket must come from a page of this server (no cross-site sockets)."""
    origin = ws.headers.get("origin")
    if origin is None:
        return True  # not a browser: the token alone decides
    return urlsplit(origin).netloc == ws.headers.get("host", "")


def build_app(hub: Hub, tokens: TokenBook) -> Starlette:
    """The console's routes; the protocol is served once the game is over (it holds every
    role and every night)."""

    async def pad(request: Request) -> Response:
        who = tokens.who(request.path_params["token"])
        if who is None or who == OPERATOR:
            return _refuse()
        return FileResponse(STATIC / "pad.html", headers=HEADERS)

    async def operator(request: Request) -> Response:
        if tokens.who(request.path_params["token"]) != OPERATOR:
            return _refuse()
        return FileResponse(STATIC / "operator.html", headers=HEADERS)

    async def protocol_file(request: Request) -> Response:
        if tokens.who(request.path_params["token"]) != OPERATOR:
            return _refuse()
        final = hub.table.final_protocol  # set on the loop's thread once the game is over
        if final is None:
            return JSONResponse({"reason": "not_over"}, status_code=409, headers=HEADERS)
        headers = {**HEADERS, "Content-Disposition": 'attachment; filename="protocol.json"'}
        return JSONResponse(final, headers=headers)

    async def socket(ws: WebSocket) -> None:
        who = tokens.who(ws.path_params["token"])
        if who is None or not _same_origin(ws):
            await ws.close(code=1008)  # policy violation; says nothing more
            return
        await hub.serve(ws, who)

    async def not_found(request: Request) -> Response:
        return _refuse()

    routes = [
        Route("/pad/{token}", pad),
        Route("/op/{token}", operator),
        Route("/op/{token}/protocol.json", protocol_file),
        WebSocketRoute("/ws/{token}", socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
        Route("/{path:path}", not_found),
    ]
    app = Starlette(routes=routes)
    app.state.hub = hub  # for ConsoleServer.stop
    return app


class ConsoleServer:
    """The app on uvicorn, on a thread of its own; :meth:`start` returns once it listens."""

    def __init__(self, app: Starlette, host: str = "127.0.0.1", port: int = 0) -> None:
        config = uvicorn.Config(app, host=host, port=port, log_level="critical",
                                access_log=False,  # the path holds the secret token
                                ws_max_size=MAX_MESSAGE * 4, lifespan="off")
        self.server = uvicorn.Server(config)
        self.app = app
        self.host = host
        self.port = port
        self._thread = threading.Thread(target=self.server.run, name="narrator-console",
                                        daemon=True)

    def start(self, timeout: float = 10.0) -> ConsoleServer:
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self.server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise NarratorError(f"the console cannot listen on {self.host}:{self.port} "
                                    "(the port is in use, or not an address of this machine)")
            time.sleep(0.02)
        sockets = [s for srv in self.server.servers for s in srv.sockets]
        self.port = int(sockets[0].getsockname()[1])
        return self

    def stop(self) -> None:
        """Let every socket go (a reader waiting for room would not see uvicorn's goodbye),
        then stop the server."""
        hub = getattr(self.app.state, "hub", None)
        if isinstance(hub, Hub):
            hub.close()
        self.server.should_exit = True
        self._thread.join(timeout=5)


@dataclass
class Console:
    """A running console: its tokens, table, hub, server and links."""

    tokens: TokenBook
    table: ConsoleTable
    hub: Hub
    server: ConsoleServer
    links: dict[str, Any]

    def stop(self) -> None:
        self.server.stop()


def start_console(table: ConsoleTable, submit: Submit, address: str = "127.0.0.1:0", *,
                  tokens: Tokens | None = None,
                  rate: Callable[[], RateLimit] | None = None) -> Console:
    """Serve ``table``: presses run through ``submit`` (the loop's thread); ``rate``: each
    socket's :class:`RateLimit` (by default :data:`RATE_COUNT` in :data:`RATE_WINDOW` s)."""
    tokens = tokens or Tokens.new(table.game.seats)
    hub, server, base = serve(table, submit, address, tokens, rate=rate)
    return Console(tokens, table, hub, server, links(tokens, base))


def serve(front: Served, submit: Submit, address: str, tokens: TokenBook, *,
          rate: Callable[[], RateLimit] | None = None) -> tuple[Hub, ConsoleServer, str]:
    """Serve ``front`` at ``address`` to the holders of ``tokens``: its hub, its running
    server and the base URL of its links (the phones' address)."""
    host, port = parse_address(address)
    hub = Hub(front, submit, rate=rate)
    front.publish = hub.publish
    server = ConsoleServer(build_app(hub, tokens), host, port).start()
    submit(front.publish_views)
    return hub, server, base_url(public_host(host), server.port)
