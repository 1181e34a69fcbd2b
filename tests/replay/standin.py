"""A loopback stand-in for MafiaRatings' ``api/ops/game.php`` ``op=create``, answering as its
PHP does (include/api.php, include/game.php, include/security.php of szotin/mafiaratings), so
the export and the sending are tried against what the rating system stores, with no network.

What it models, each as the real site behaves:
- HTTP Basic sign-in by name or e-mail (a wrong one: «Authorization failed»); a user who is no
  referee of the club: «You do not have enough permissions…»;
- ``op`` and ``json`` read from the query and the form alike (PHP's ``$_REQUEST``);
- a game without ``eventId`` (or 0) is a demo: success, nothing stored;
- no ``rules``: the database refuses the row («Column 'rules' cannot be null»);
- times: the create path stores what it is given into an integer column, so an ISO text is 0;
- no ``moderator``: stored with no moderator (a PHP warning in the answer's ``message``);
- players: a row only for a seat with a user ``id``; an ``id`` without a ``name`` rolls the game
  back; an ``id`` that is no user fails the foreign key;
- the vote check (include/game.php): a living player without a vote in a round that had
  nominees (and, in round 0, more than one) makes every vote of the game removed, with the issue
  in ``message``.
"""

from __future__ import annotations

import base64
import hashlib
import json
import threading
import urllib.parse
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.replay.mafiaratings_rules import votes_dropped


@dataclass
class Stored:
    """One row of ``games`` and its ``players`` rows, as the site keeps them."""

    club_id: Any
    event_id: int
    tournament_id: Any
    moderator_id: Any
    start_time: int
    end_time: int
    rules: str
    result: str
    table_num: Any
    game_num: Any
    players: dict[int, dict[str, Any]] = field(default_factory=dict)  # user id → row
    votes_removed: bool = False
    record: dict[str, Any] = field(default_factory=dict)


class Refused(Exception):
    """What the site answers as ``error``."""


class StandIn:
    """The site: its ``users`` (id → name and password), the clubs each user name referees,
    the games stored; ``url`` once started (``with StandIn(…) as site``)."""

    def __init__(self, users: dict[int, tuple[str, str]], referees: dict[str, set[int]]) -> None:
        self.users = users  # user id → (name, password)
        self.referees = referees  # user name → the clubs they referee
        self.games: list[Stored] = []
        self.requests = 0
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/"

    def __enter__(self) -> StandIn:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    # -- the API ------------------------------------------------------------------------------

    def answer(self, path: str, params: dict[str, str], auth: str | None) -> dict[str, Any]:
        self.requests += 1
        out: dict[str, Any] = {}
        try:
            user = self._sign_in(auth)
            if user is not None:
                out["logged_in"] = user
            if not path.endswith("/api/ops/game.php"):
                raise Refused(f"Unknown API {path}")
            if params.get("op") != "create":
                raise Refused(f"Unknown operation '{params.get('op', '')}'.")
            if "json" not in params:
                raise Refused(f'"json" must be set in {path}')
            try:
                game = json.loads(params["json"])
            except ValueError:
                raise Refused("Invalid json format.") from None
            warnings = self._create(game, user)
            if warnings:
                out["message"] = "<hr>".join(warnings)
        except Refused as e:
            out["error"] = str(e)
        out["version"] = 0
        return out

    def _sign_in(self, auth: str | None) -> str | None:
        if auth is None or not auth.startswith("Basic "):
            return None
        name, _, password = base64.b64decode(auth[6:]).decode().partition(":")
        md5 = hashlib.md5(password.encode()).hexdigest()
        for known, secret in self.users.values():
            if known == name and hashlib.md5(secret.encode()).hexdigest() == md5:
                return name
        raise Refused("Authorization failed")

    def _create(self, game: dict[str, Any], user: str | None) -> list[str]:
        if not isinstance(game.get("eventId"), int) or game["eventId"] <= 0:
            return []  # Game::create(): a demo game
        if user is None or game.get("clubId") not in self.referees.get(user, set()):
            raise Refused("You do not have enough permissions. Please sign in." if user is None
                          else "You do not have enough permissions. Please sign in as a "
                               "different user.")
        if game.get("winner") not in ("civ", "maf", "tie"):
            raise Refused("Unknown result")
        if game.get("rules") is None:
            raise Refused("Column 'rules' cannot be null")
        warnings: list[str] = []
        moderator = game.get("moderator")
        if not isinstance(moderator, dict):
            warnings.append('Warning: Attempt to read property "id" on null')
            moderator = {}
        stored = Stored(game.get("clubId"), game["eventId"], game.get("tournamentId"),
                        moderator.get("id"), _integer(game.get("startTime")),
                        _integer(game.get("endTime")), str(game["rules"]), game["winner"],
                        game.get("tableNum"), game.get("gameNum"), record=game)
        if stored.moderator_id is not None and stored.moderator_id not in self.users:
            raise Refused(_foreign_key("moderator_id"))
        for number, player in enumerate(game.get("players", []), 1):
            if "id" not in player:
                continue  # an unknown player: no row, no rating
            if not player.get("name"):
                raise Refused(f"Player {number} name is not set.")
            if player["id"] not in self.users:
                raise Refused(_foreign_key("user_id"))
            stored.players[player["id"]] = {"number": number, "role": player.get("role"),
                                            "name": player["name"]}
        issue = vote_issue(game)
        if issue is not None:
            stored.votes_removed = True
            warnings.append("The game contains the next issues:<ul><li>" + issue +
                            "</li></ul>They are all fixed but the original version of the game "
                            "is also saved. Please check Game Issues in the management menu.")
        self.games.append(stored)
        return warnings


def _integer(value: Any) -> int:
    """What an INT column keeps of ``value`` (MySQL, not strict: a text that is no number: 0)."""
    return value if isinstance(value, int) else 0


def _foreign_key(column: str) -> str:
    return ("Cannot add or update a child row: a foreign key constraint fails (`players`, "
            f"FOREIGN KEY (`{column}`) REFERENCES `users` (`id`))")


def vote_issue(game: dict[str, Any]) -> str | None:
    """include/game.php's vote check (:mod:`tests.replay.mafiaratings_rules`): the issue's
    text for the first player without a vote, or None."""
    said = votes_dropped(game)
    if not said:
        return None
    return f"{said[0]}. Although they were alive and voting was not canceled. All votings are " \
           f"removed."


def _handler(site: StandIn) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # http.server calls it by this name
            url = urllib.parse.urlsplit(self.path)
            length = int(self.headers.get("Content-Length") or 0)
            form = self.rfile.read(length).decode("utf-8")
            params = dict(urllib.parse.parse_qsl(url.query))
            params.update(urllib.parse.parse_qsl(form, keep_blank_values=True))
            body = json.dumps(site.answer(url.path, params, self.headers.get("Authorization")))
            self.send_response(200)  # the API answers 200 with "error" in the JSON
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(body.encode())

        def log_message(self, format: str, *args: Any) -> None:
            pass  # quiet: the tests read the answers

    return Handler
