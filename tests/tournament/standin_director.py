"""A loopback stand-in for a tournament's director, as the table's box sees one: the two
requests of the protocol and nothing else, so the table's joining and its store and forward
are tried against real HTTP with no network.

- ``GET /join/TOKEN/plan``: the table's plan (``{"tournament": 1, "table", "tables", "name",
  "rounds", "players", "rules", "pads"}``: a pad token per seat of each round); an unknown
  token 404.
- ``POST /join/TOKEN/status``: what the table says of itself, kept in
  :attr:`StandInDirector.statuses` (``{"ok": true}``; :attr:`StandInDirector.no_status`: a
  director without the request, 404);
- ``POST /join/TOKEN/games``: a finished game, stored once by its key — 200 ``{"stored":
  true}``, the same key and journal (or an older one, a prefix of it) again 200 ``{"stored":
  false, "already": true}``, a journal that extends it (marks given since) 200 ``{"stored":
  true, "updated": true}``, the same key with another journal 409, a body that does not parse or a journal that does not load or
  has not ended 400 (each with ``{"error"}``); bodies of at most 2 MB.

It can be down two ways: :attr:`StandInDirector.busy` answers 503 to everything (a box
restarting behind a proxy), :meth:`StandInDirector.stop` closes the port (connections
refused) and :meth:`StandInDirector.start` opens the same port again.
"""

from __future__ import annotations

import hmac
import json
import secrets
import tempfile
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from narrator.console.server import ConsoleServer
from narrator.errors import NarratorError
from narrator.host.journal import load_journal

MAX_BODY = 2 << 20


class StandInDirector:
    """The director of a tournament of ``tables`` tables: ``rounds[t]`` is table ``t``'s
    rounds (ten nicknames each), ``ids`` the players' MafiaRatings ids; ``stored`` the games
    it holds by key, ``posts`` the games it was sent (each try)."""

    def __init__(self, rounds: dict[int, list[list[str]]], ids: dict[str, int | None],
                 *, name: str = "Кубок клуба", rules: str | None = "crime-time") -> None:
        self.rounds = rounds
        self.ids = ids
        self.name = name
        self.rules = rules
        self.tokens = {table: secrets.token_urlsafe(24) for table in rounds}
        self.pads = {table: [[secrets.token_urlsafe(24) for _ in rnd] for rnd in table_rounds]
                     for table, table_rounds in rounds.items()}
        self.statuses: list[tuple[int, dict[str, Any]]] = []
        self.no_status = False
        self.stored: dict[str, dict[str, Any]] = {}
        self.posts: list[str] = []
        self.busy = False
        self.port = 0
        self._server: ConsoleServer | None = None
        self._scratch = tempfile.TemporaryDirectory(prefix="standin-director-")
        self.app = Starlette(routes=[
            Route("/join/{token}/plan", self._plan, methods=["GET"]),
            Route("/join/{token}/games", self._games, methods=["POST"]),
            Route("/join/{token}/status", self._status, methods=["POST"]),
        ])

    def link(self, table: int) -> str:
        return f"http://127.0.0.1:{self.port}/join/{self.tokens[table]}"

    def start(self) -> StandInDirector:
        """Listen (on the port it had, after a :meth:`stop`)."""
        self._server = ConsoleServer(self.app, "127.0.0.1", self.port).start()
        self.port = self._server.port
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.stop()
            self._server = None

    def __enter__(self) -> StandInDirector:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
        self._scratch.cleanup()

    # -- the protocol -------------------------------------------------------------------------

    def _table(self, request: Request) -> int | None:
        given = str(request.path_params["token"])
        found = None
        for table, token in self.tokens.items():  # each compared, in constant time
            if hmac.compare_digest(given.encode(), token.encode()):
                found = table
        return found

    async def _plan(self, request: Request) -> JSONResponse:
        if self.busy:
            return JSONResponse({"error": "starting"}, status_code=503)
        table = self._table(request)
        if table is None:
            return JSONResponse({"error": "unknown table link"}, status_code=404)
        rounds = self.rounds[table]
        names = list(dict.fromkeys(n for rnd in rounds for n in rnd))
        return JSONResponse({"tournament": 1, "table": table, "tables": len(self.rounds),
                             "name": self.name, "rounds": rounds,
                             "players": [{"name": n, "mafiaratings": self.ids.get(n)}
                                         for n in names],
                             "rules": self.rules, "pads": self.pads[table]})

    async def _status(self, request: Request) -> JSONResponse:
        if self.busy:
            return JSONResponse({"error": "starting"}, status_code=503)
        table = self._table(request)
        if table is None or self.no_status:
            return JSONResponse({"error": "no such page"}, status_code=404)
        self.statuses.append((table, json.loads(await request.body())))
        return JSONResponse({"ok": True})

    async def _games(self, request: Request) -> JSONResponse:
        if self.busy:
            return JSONResponse({"error": "starting"}, status_code=503)
        if self._table(request) is None:
            return JSONResponse({"error": "unknown table link"}, status_code=404)
        raw = await request.body()
        if len(raw) > MAX_BODY:
            return JSONResponse({"error": "body over 2 MB"}, status_code=400)
        try:
            body = json.loads(raw)
            key, journal = body["key"], body["journal"]
            assert isinstance(key, str) and key and isinstance(journal, str)
            assert all(isinstance(body[k], int) for k in ("round", "game"))
            assert isinstance(body["seating"], dict)
        except (ValueError, KeyError, TypeError, AssertionError):
            return JSONResponse({"error": "not a game's body"}, status_code=400)
        self.posts.append(key)
        why = self._unfinished(journal)
        if why is not None:
            return JSONResponse({"error": why}, status_code=400)
        held = self.stored.get(key)
        if held is not None:
            if held["journal"].startswith(journal):
                return JSONResponse({"stored": False, "already": True})
            if not journal.startswith(held["journal"]):
                return JSONResponse({"error": f"game {key} is stored with another journal"},
                                    status_code=409)
            self.stored[key] = body
            return JSONResponse({"stored": True, "updated": True})
        self.stored[key] = body
        return JSONResponse({"stored": True})

    def _unfinished(self, journal: str) -> str | None:
        """Why the journal is no finished game (None: it is one)."""
        path = Path(self._scratch.name) / f"{secrets.token_hex(6)}.jsonl"
        path.write_text(journal, encoding="utf-8")
        try:
            game = load_journal(path).game()
        except NarratorError as e:
            return f"the journal does not load: {e}"
        finally:
            path.unlink()
        return None if game.winner is not None else "the game has not ended"
