"""The director's web app: the tables' API (``/join/TOKEN/plan``, ``/join/TOKEN/games``,
``/join/TOKEN/status``) and
the pages (``/tv``, ``/p/TOKEN``, ``/director/TOKEN``), each page polling its
``…/state.json`` every two seconds.

Every answer of the API is JSON; an unknown token is 404 whatever was asked, a body that is
not a game 400, the same key with another journal 409, a body over :data:`MAX_BODY` 413. The
database is SQLite, so the handlers run on Starlette's thread pool, not on the event loop.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from narrator.console.app import HEADERS
from narrator.console.app import STATIC as CONSOLE_STATIC
from narrator.tournament.director import BadGame, Director, OtherJournal
from narrator.tournament.status import BadStatus
from narrator.words import script as words_script

STATIC = Path(__file__).parent / "static"
#: the largest body a table may post (a long game's journal is some 100 KB)
MAX_BODY = 2 * 1024 * 1024
UNKNOWN = "unknown token"
#: each page's title; one HTML shell serves them all (tournament.js reads ``data-page``)
TITLES = {"tv": "табло", "player": "игрок", "director": "директор"}


def _page(name: str) -> Response:
    """The shell of page ``name``, its title and ``data-page`` filled in."""
    shell = (STATIC / "page.html").read_text(encoding="utf-8")
    return HTMLResponse(shell.replace("{title}", TITLES[name]).replace("{page}", name),
                        headers=HEADERS)


def _json(body: dict[str, Any], status: int = 200) -> JSONResponse:
    return JSONResponse(body, status_code=status, headers=HEADERS)


def _error(message: str, status: int) -> JSONResponse:
    return _json({"error": message}, status)


async def _body(request: Request) -> bytes | None:
    """The body, or None when it is over :data:`MAX_BODY` (read no further than that)."""
    length = request.headers.get("content-length", "")
    if length.isdigit() and int(length) > MAX_BODY:
        return None
    got = bytearray()
    async for chunk in request.stream():
        got += chunk
        if len(got) > MAX_BODY:
            return None
    return bytes(got)


def build_app(director: Director) -> Starlette:
    """The routes of ``director``'s box."""

    async def not_found(request: Request) -> Response:
        return _error("no such page", 404)

    words = words_script()

    async def words_js(request: Request) -> Response:
        # the game's words (narrator/words.py), as the table's pages get them
        return Response(words, media_type="text/javascript", headers=HEADERS)

    return Starlette(routes=[
        *_api(director), *_pages(director),
        Route("/static/words.js", words_js),
        Mount("/static", StaticFiles(directory=CONSOLE_STATIC), name="static"),
        Mount("/tournament", StaticFiles(directory=STATIC), name="tournament"),
        Route("/{path:path}", not_found),
    ])


def _api(director: Director) -> list[Route]:
    """The tables' two endpoints."""

    async def plan(request: Request) -> Response:
        table = await run_in_threadpool(director.table_of, request.path_params["token"])
        if table is None:
            return _error(UNKNOWN, 404)
        return _json(await run_in_threadpool(director.plan_for, table))

    async def posted(request: Request, take: Callable[..., dict[str, Any]]) -> Response:
        """A table's POST: its token, a JSON body within :data:`MAX_BODY`, ``take`` it."""
        table = await run_in_threadpool(director.table_of, request.path_params["token"])
        if table is None:
            return _error(UNKNOWN, 404)
        raw = await _body(request)
        if raw is None:
            return _error(f"the body is over {MAX_BODY} bytes", 413)
        try:
            body = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
            return _error("the body is not JSON", 400)
        try:
            return _json(await run_in_threadpool(take, table, body))
        except (BadGame, BadStatus) as e:
            return _error(str(e), 400)
        except OtherJournal as e:
            return _error(str(e), 409)

    async def games(request: Request) -> Response:
        return await posted(request, director.receive)

    async def status(request: Request) -> Response:
        return await posted(request, director.take_status)

    return [Route("/join/{token}/plan", plan, methods=["GET"]),
            Route("/join/{token}/games", games, methods=["POST"]),
            Route("/join/{token}/status", status, methods=["POST"])]


def _pages(director: Director) -> list[Route]:
    """The board, a player's page, the director's, and the state each polls."""

    async def tv(request: Request) -> Response:
        return _page("tv")

    async def tv_state(request: Request) -> Response:
        return _json(await run_in_threadpool(director.view))

    async def player(request: Request) -> Response:
        if director.player_of(request.path_params["token"]) is None:
            return _error(UNKNOWN, 404)
        return _page("player")

    async def player_state(request: Request) -> Response:
        who = director.player_of(request.path_params["token"])
        if who is None:
            return _error(UNKNOWN, 404)
        return _json(await run_in_threadpool(director.player_view, who))

    def _is_director(request: Request) -> bool:
        return director.is_director(request.path_params["token"])

    async def overview(request: Request) -> Response:
        if not _is_director(request):
            return _error(UNKNOWN, 404)
        return _page("director")

    async def overview_state(request: Request) -> Response:
        if not _is_director(request):
            return _error(UNKNOWN, 404)
        return _json(await run_in_threadpool(director.director_view))

    return [Route("/tv", tv), Route("/tv/state.json", tv_state),
            Route("/p/{token}", player), Route("/p/{token}/state.json", player_state),
            Route("/director/{token}", overview),
            Route("/director/{token}/state.json", overview_state)]
