"""The console's web server: pages, assets and one websocket per open pad or operator view.

Starlette serves the two pages and the assets shipped in the package (``static/``: no CDN, no
build step); uvicorn runs it on a thread of its own, bound to the address given (loopback by
default). A link carries one token, ``/pad/TOKEN`` or ``/op/TOKEN``; any failure — a missing,
wrong or other-kind token — gets the same refusal, which never says which part was wrong.

Presses arrive over the websocket, are stamped with the game clock on arrival and handed to the
loop that drives the host (``submit``); the answer and the new views come back from that thread
and are sent from the server's event loop. A socket that drops changes nothing in the game; a
socket that (re)connects gets its identity's latest view at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from narrator.console.links import base_url, links, parse_address, public_host
from narrator.console.table import ConsoleTable, Press, Reply
from narrator.console.tokens import OPERATOR, Tokens, Who
from narrator.errors import NarratorError

STATIC = Path(__file__).parent / "static"
REFUSAL = "This link is not valid for this table.\n"
MAX_MESSAGE = 1024  # bytes: a press is a few dozen
HEADERS = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": ("default-src 'self'; connect-src 'self'; img-src 'self' data:; "
                                "frame-ancestors 'none'; base-uri 'none'; form-action 'none'"),
}

Submit = Callable[[Callable[[], object]], None]


def _refuse() -> Response:
    return PlainTextResponse(REFUSAL, status_code=403, headers=HEADERS)


class Outbox:
    """What waits to go out on one socket: answers in order, and only the newest view (a slow
    phone skips views it had no time for, never an answer). A view goes out with the game
    clock's ``now`` at the moment it is sent: its timers are deadlines on that clock."""

    def __init__(self, now: Callable[[], float]) -> None:
        self.now = now
        self.replies: deque[str] = deque(maxlen=64)
        self.view: str | None = None
        self.ready = asyncio.Event()

    def put_view(self, text: str) -> None:
        self.view = text
        self.ready.set()

    def put_reply(self, text: str) -> None:
        self.replies.append(text)
        self.ready.set()

    async def pump(self, ws: WebSocket) -> None:
        """Send until the socket fails (its pad reconnects and gets its view again)."""
        try:
            while True:
                await self.ready.wait()
                self.ready.clear()
                while self.replies:
                    await ws.send_text(self.replies.popleft())
                view, self.view = self.view, None
                if view is not None:
                    await ws.send_text(stamped(view, self.now()))
        except Exception:  # a dropped socket: the reader sees it too and cleans up
            return


def stamped(view: str, now: float) -> str:
    """A view's message (``{"view": …}``) with the clock's ``now`` put first."""
    return f'{{"now": {round(now, 3)}, {view[1:]}'


class Hub:
    """Open sockets by identity, the latest view of each identity, and the way presses go to
    the loop's thread and answers come back."""

    def __init__(self, table: ConsoleTable, submit: Submit) -> None:
        self.table = table
        self.submit = submit
        self.clock = table.host.clock
        self.outboxes: dict[Who, set[Outbox]] = {}
        self.views: dict[Who, str] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self._lock = threading.Lock()

    @property
    def connected(self) -> int:
        """Open sockets (pads and operator views)."""
        return sum(len(group) for group in self.outboxes.values())

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

    # -- on the server's event loop -----------------------------------------------------------

    async def serve(self, ws: WebSocket, who: Who) -> None:
        self.loop = asyncio.get_running_loop()
        await ws.accept()
        box = Outbox(self.clock.now)
        self.outboxes.setdefault(who, set()).add(box)
        with self._lock:
            latest = self.views.get(who)
        if latest is None:
            self.submit(self.table.publish_views)
        else:
            box.put_view(latest)  # a reconnecting pad gets its state back at once
        pump = asyncio.ensure_future(box.pump(ws))
        try:
            while True:
                raw = await ws.receive_text()
                t = self.clock.now()  # the server's stamp: a pad never says when
                self._received(box, who, raw, t)
        except WebSocketDisconnect:
            pass
        finally:
            pump.cancel()
            self.outboxes.get(who, set()).discard(box)

    def _received(self, box: Outbox, who: Who, raw: str, t: float) -> None:
        loop = asyncio.get_running_loop()
        message = _message(raw)
        if message is None:
            box.put_reply(json.dumps({"reply": None, "ok": False, "reason": "bad_request"}))
            return
        ident, do, data = message
        press = Press(who, do, data, t)

        def run() -> None:
            try:
                reply = self.table.handle(press)
            except Exception:  # a bug must not stop the loop, nor the game
                reply = Reply(False, "error")
            text = json.dumps({"reply": ident, **reply.to_json()}, ensure_ascii=False)
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(box.put_reply, text)

        self.submit(run)


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


def build_app(hub: Hub, tokens: Tokens) -> Starlette:
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
    return Starlette(routes=routes)


class ConsoleServer:
    """The app on uvicorn, on a thread of its own; :meth:`start` returns once it listens."""

    def __init__(self, app: Starlette, host: str = "127.0.0.1", port: int = 0) -> None:
        config = uvicorn.Config(app, host=host, port=port, log_level="critical",
                                access_log=False,  # the path holds the secret token
                                ws_max_size=MAX_MESSAGE * 4, lifespan="off")
        self.server = uvicorn.Server(config)
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
        self.server.should_exit = True
        self._thread.join(timeout=5)


@dataclass
class Console:
    """A running console: its tokens, table, hub, server and links."""

    tokens: Tokens
    table: ConsoleTable
    hub: Hub
    server: ConsoleServer
    links: dict[str, Any]

    def stop(self) -> None:
        self.server.stop()


def start_console(table: ConsoleTable, submit: Submit, address: str = "127.0.0.1:0", *,
                  tokens: Tokens | None = None) -> Console:
    """Serve ``table``: presses run through ``submit`` (the loop's thread)."""
    host, port = parse_address(address)
    tokens = tokens or Tokens.new(table.game.seats)
    hub = Hub(table, submit)
    table.publish = hub.publish
    server = ConsoleServer(build_app(hub, tokens), host, port).start()
    submit(table.publish_views)
    return Console(tokens, table, hub, server,
                   links(tokens, base_url(public_host(host), server.port)))
