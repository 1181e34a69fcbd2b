"""The broadcast's web app: one page and its feed, behind one token, and nothing else.

``/broadcast/TOKEN/`` is the page (made for an OBS browser source at 1920×1080; without the
slash, a redirect to it), ``/broadcast/TOKEN/feed.json?after=N`` what is due of the delayed
feed (an ``after`` that is not a whole number from 0 is a JSON 400, read as every request's
input is: :mod:`narrator.console.requests`), and the page's two assets under the same token
(its relative links). Every other path, and any other token — a console's among them — is a
404 that says nothing: the stream's address must not even tell it is one.
"""

from __future__ import annotations

import hmac
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import (
    FileResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
)
from starlette.routing import Route

from narrator.broadcast.feed import DelayedFeed
from narrator.console.requests import BadRequest, json_errors, whole_number
from narrator.words import script as words_script

STATIC = Path(__file__).parent / "static"
#: the largest ``after`` a page may ask from (a scene change's number never comes near it)
MAX_AFTER = 2**63 - 1
ASSETS = {"broadcast.js": "text/javascript", "broadcast.css": "text/css",
          "words.js": "text/javascript"}
#: the game's words (narrator/words.py), made once: the page keeps no table of its own
WORDS_JS = words_script()
HEADERS = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": ("default-src 'self'; connect-src 'self'; img-src 'self' data:; "
                                "frame-ancestors 'none'; base-uri 'none'; form-action 'none'"),
}


def _missing() -> Response:
    return PlainTextResponse("Not Found\n", status_code=404, headers=HEADERS)


def build_app(feed: DelayedFeed, token: str) -> Starlette:
    """The broadcast's routes for the holder of ``token``."""

    def ours(request: Request) -> bool:
        given = str(request.path_params.get("token", "")).encode("utf-8", "replace")
        return hmac.compare_digest(given, token.encode())

    async def bare(request: Request) -> Response:
        if not ours(request):
            return _missing()
        return RedirectResponse(f"/broadcast/{request.path_params['token']}/",
                                headers=HEADERS)

    async def page(request: Request) -> Response:
        if not ours(request):
            return _missing()
        return FileResponse(STATIC / "broadcast.html", headers=HEADERS)

    async def asset(request: Request) -> Response:
        name = request.path_params["name"]
        if not ours(request) or name not in ASSETS:
            return _missing()
        if name == "words.js":
            return Response(WORDS_JS, media_type=ASSETS[name], headers=HEADERS)
        return FileResponse(STATIC / name, media_type=ASSETS[name], headers=HEADERS)

    async def state(request: Request) -> Response:
        if not ours(request):
            return _missing()
        after = whole_number(request, "after", default=0, most=MAX_AFTER)
        return JSONResponse(feed.read(after).to_json(), headers=HEADERS)

    async def not_found(request: Request) -> Response:
        return _missing()

    routes = [
        Route("/broadcast/{token}", bare),
        Route("/broadcast/{token}/", page),
        Route("/broadcast/{token}/feed.json", state),
        Route("/broadcast/{token}/{name}", asset),
        Route("/{path:path}", not_found),
    ]
    # a bad ``after`` is a JSON 400 to the token's holder (its page); the rest says nothing
    app = Starlette(routes=routes,
                    exception_handlers={BadRequest: json_errors(HEADERS)[BadRequest]})
    app.router.redirect_slashes = False  # (a wrong token's path gets a 404, not a redirect)
    return app
