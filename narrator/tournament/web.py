"""The director's web app: the tables' API (``/join/TOKEN/plan``, ``/join/TOKEN/games``,
``/join/TOKEN/status``) and
the pages (``/tv``, ``/p/TOKEN``, ``/director/TOKEN``), each page polling its
``…/state.json`` every two seconds.

Every answer of the API is JSON, errors too (``{"error": "…"}``): an unknown token is 404
whatever was asked, a body that is not JSON or not a game 400 (read as every request's body
is, :mod:`narrator.console.requests`), a game the plan does not hold 400 or 409 (see
:meth:`~narrator.tournament.director.Director.receive`), the same key with another journal
409, a body over :data:`MAX_BODY` 413, a method a route does not take 405. The database is
SQLite, so the handlers run on Starlette's thread pool, not on the event loop.
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

from narrator.bidi import neutral
from narrator.console.app import HEADERS
from narrator.console.app import STATIC as CONSOLE_STATIC
from narrator.console.requests import json_body, json_errors
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


class _Neutral(JSONResponse):
    """JSON without bidirectional controls: the nicknames are the tables' text."""

    def render(self, content: Any) -> bytes:
        return neutral(json.dumps(content, ensure_ascii=False, separators=(",", ":"))).encode()


def _json(body: dict[str, Any], status: int = 200) -> JSONResponse:
    return _Neutral(body, status_code=status, headers=HEADERS)


def _error(message: str, status: int) -> JSONResponse:
    return _json({"error": message}, status)


def build_app(director: Director) -> Starlette:
    """The routes of ``director``'s box."""

    async def not_found(request: Request) -> Response:
        return _error("no such page", 404)

    words = words_script()

    async def words_js(request: Request) -> Response:
        # the game's words (narrator/words.py), as the table's pages get them
        return Response(words, media_type="text/javascript", headers=HEADERS)

    return Starlette(exception_handlers=json_errors(HEADERS), routes=[
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
        body = await json_body(request, MAX_BODY)  # (BadRequest: answered 400 or 413)
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
