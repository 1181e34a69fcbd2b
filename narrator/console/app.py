"""The console's web app: its routes, and what each link may open.

Starlette serves the two pages and the assets shipped in the package (``static/``: no CDN, no
build step). A link carries one token, ``/pad/TOKEN`` or ``/op/TOKEN``; any failure — a missing,
wrong or other-kind token — gets the same refusal, which never says which part was wrong. Every
page goes with headers that keep it to this server (:data:`HEADERS`); a websocket from a page of
another site is refused; the websocket itself is the hub's (:mod:`narrator.console.hub`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from narrator.console.hub import Hub
from narrator.console.tokens import OPERATOR, Who
from narrator.reasons import Reason
from narrator.words import script as words_script

STATIC = Path(__file__).parent / "static"
REFUSAL = "This link is not valid for this table.\n"
HEADERS = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": ("default-src 'self'; connect-src 'self'; img-src 'self' data:; "
                                "frame-ancestors 'none'; base-uri 'none'; form-action 'none'"),
}


class TokenBook(Protocol):
    """Whose a presented token is: :data:`OPERATOR`, a seat, or an evening's player."""

    def who(self, presented: str | None) -> Who | None: ...


def _refuse() -> Response:
    return PlainTextResponse(REFUSAL, status_code=403, headers=HEADERS)


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
            return JSONResponse({"reason": Reason.NOT_OVER}, status_code=409, headers=HEADERS)
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

    words = words_script()

    async def words_js(request: Request) -> Response:
        # the game's words (narrator/words.py): the pages keep no table of their own
        return Response(words, media_type="text/javascript", headers=HEADERS)

    routes = [
        Route("/pad/{token}", pad),
        Route("/op/{token}", operator),
        Route("/op/{token}/protocol.json", protocol_file),
        WebSocketRoute("/ws/{token}", socket),
        Route("/static/words.js", words_js),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
        Route("/{path:path}", not_found),
    ]
    app = Starlette(routes=routes)
    app.state.hub = hub  # for ConsoleServer.stop
    return app
