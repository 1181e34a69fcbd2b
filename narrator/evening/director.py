"""The table's side of a tournament's director: its join link, its plan, a game sent to it.

The director's box holds the tournament (the roster, the plan, the standings) and gives each
table a join link ``http://HOST:PORT/join/TOKEN``, the token a secret per table. Two requests
go to it, JSON over HTTP, each with a :data:`TIMEOUT` of its own:

- ``GET LINK/plan``: the table's plan — ``{"tournament": 1, "table": N, "tables": T, "name",
  "rounds": [[ten nicknames, seat 1 first] per round], "players": [{"name", "mafiaratings"}],
  "rules", "pads": [[ten pad tokens] per round]}`` (a seat's pad token opens that player's
  pad at this table: his link on the director's page leads there);
- ``POST LINK/games`` with a finished game (``{"key", "round", "game", "journal",
  "seating"}``): 200 ``{"stored": true}`` the first time, 200 ``{"already": true}`` for the
  same key again, 200 ``{"stored": true, "updated": true}`` for a journal that extends the
  one stored (the host's marks given since), 409 for the same key with another journal, 400
  for a body it cannot take;
- ``POST LINK/status`` with what the table says of itself (``{"console", "game", "round",
  "playing", "time", "number", "living"}``): 200 ``{"ok": true}``.

Anything that is no answer (a refused connection, a timeout, a 5xx from a box restarting) is
:class:`Unreachable`: not now, the caller tries again later. The token never goes into a
message: they name the director by its address.
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any

from narrator.errors import NarratorError
from narrator.seating.score import SEATS

#: seconds to wait for one answer (a director on the club's Wi-Fi answers in milliseconds)
TIMEOUT = 5.0
#: the largest answer or body either side takes (a game's journal is some 100 KB)
MAX_BODY = 2 << 20
#: the protocol's version, the plan's ``tournament`` field
VERSION = 1

_TOKEN = re.compile(r"[A-Za-z0-9_-]{8,128}")
#: the director is a box on the club's own network: straight to it, whatever proxy the
#: system names for the internet (one would not reach it, or would see the table's token)
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


class Unreachable(Exception):
    """The director gave no answer now (its address in the message, never the token)."""


@dataclass(frozen=True)
class DirectorPlan:
    """The director's plan for one table: its rounds (ten nicknames each, seat 1 first), its
    players with their MafiaRatings ids, the tournament's name and ruleset."""

    table: int
    tables: int
    name: str
    rounds: list[list[str]]
    ids: dict[str, int | None]
    rules: str | None
    #: each round's pad tokens, seat 1 first ([]: a director that gives none)
    pads: list[list[str]]


@dataclass(frozen=True)
class Answer:
    """The director's answer to a game sent: the HTTP status and its JSON (``{}``: none)."""

    status: int
    body: dict[str, Any]

    @property
    def error(self) -> str:
        return str(self.body.get("error") or f"HTTP {self.status}")


def join_link(text: str, option: str = "--join") -> str:
    """A director's join link as the table keeps it (no trailing slash); a one-line
    NarratorError saying what a link looks like."""
    parts = urllib.parse.urlsplit(text.strip())
    path = parts.path.rstrip("/").split("/")
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or \
            len(path) != 3 or path[:2] != ["", "join"] or not _TOKEN.fullmatch(path[2]):
        raise NarratorError(f"{option}: expected the director's join link for this table, "
                            "http://HOST:PORT/join/TOKEN, as the director prints it")
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, "/".join(path), "", ""))


def address_of(link: str) -> str:
    """The director's ``host:port``: what a message names (the link holds the secret)."""
    return urllib.parse.urlsplit(link).netloc


def fetch_plan(link: str) -> DirectorPlan:
    """``GET LINK/plan``: :class:`Unreachable` when no answer comes, a one-line NarratorError
    when the director answers with no plan for this link (an unknown token: a wrong link)."""
    status, raw = _request(link + "/plan", None)
    where = f"the director at {address_of(link)}"
    if status != 200:
        why = _error_of(raw) or f"HTTP {status}"
        raise NarratorError(f"{where} gives no plan for this link ({why}): check the link "
                            "the director printed for this table")
    return read_plan(_json(raw, where), where)


def post_game(link: str, body: dict[str, Any]) -> Answer:
    """``POST LINK/games`` with ``body``: the director's answer (a 200, a 4xx), or
    :class:`Unreachable`."""
    return _post(link + "/games", body)


def post_status(link: str, body: dict[str, Any]) -> Answer:
    """``POST LINK/status``: what the table says of itself; as :func:`post_game`."""
    return _post(link + "/status", body)


def _post(url: str, body: dict[str, Any]) -> Answer:
    data = json.dumps(body, ensure_ascii=False).encode("utf-8")
    status, raw = _request(url, data)
    try:
        answer = json.loads(raw.decode("utf-8")) if raw else {}
    except (UnicodeDecodeError, ValueError):
        answer = {}
    return Answer(status, answer if isinstance(answer, dict) else {})


def _request(url: str, data: bytes | None) -> tuple[int, bytes]:
    """One request, its answer's status and body (at most :data:`MAX_BODY`); Unreachable for
    no answer and for a server's error (5xx: not now)."""
    where = address_of(url)
    headers = {"User-Agent": "narrator", "Accept": "application/json"}
    if data is not None:
        headers["Content-Type"] = "application/json"
    request = urllib.request.Request(url, data=data, headers=headers,
                                     method="GET" if data is None else "POST")
    try:
        with _OPENER.open(request, timeout=TIMEOUT) as response:
            return int(response.status), response.read(MAX_BODY + 1)[:MAX_BODY]
    except urllib.error.HTTPError as e:
        body = e.read(MAX_BODY)
        if e.code >= 500:
            raise Unreachable(f"the director at {where} answers HTTP {e.code}") from None
        return e.code, body
    except (urllib.error.URLError, OSError, ValueError) as e:
        reason = getattr(e, "reason", None) or e
        raise Unreachable(f"cannot reach {where} ({reason})") from None


def _json(raw: bytes, where: str) -> Any:
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise NarratorError(f"{where}: its plan is not JSON") from None


def _error_of(raw: bytes) -> str:
    try:
        answer = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return ""
    return str(answer.get("error", "")) if isinstance(answer, dict) else ""


def read_plan(raw: Any, where: str) -> DirectorPlan:
    """The plan's JSON as the director sends it; a one-line NarratorError naming the field."""

    def bad(field: str, expected: str) -> NarratorError:
        return NarratorError(f"{where}: its plan's {field}: expected {expected}")

    if not isinstance(raw, dict) or raw.get("tournament") != VERSION:
        raise bad("tournament", f"a director's plan of version {VERSION}")
    numbers = {k: raw.get(k) for k in ("table", "tables")}
    for key, value in numbers.items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise bad(key, "a number from 1")
    rounds = raw.get("rounds")
    if not isinstance(rounds, list) or not all(
            isinstance(r, list) and len(r) == SEATS and
            all(isinstance(n, str) and n.strip() for n in r) for r in rounds):
        raise bad("rounds", f"rounds of {SEATS} nicknames each")
    ids: dict[str, int | None] = {}
    for i, player in enumerate(raw.get("players") or []):
        if not isinstance(player, dict) or not isinstance(player.get("name"), str):
            raise bad(f"players[{i}]", "{\"name\": nickname, \"mafiaratings\": id or null}")
        user = player.get("mafiaratings")
        if user is not None and (isinstance(user, bool) or not isinstance(user, int) or
                                 user < 1):
            raise bad(f"players[{i}].mafiaratings", "a MafiaRatings id from 1, or null")
        ids[player["name"]] = user
    name, rules = raw.get("name"), raw.get("rules")
    pads = raw.get("pads") or []  # (none from a director that gives no pads)
    if pads and (not isinstance(pads, list) or len(pads) != len(rounds) or not all(
            isinstance(r, list) and len(r) == SEATS and
            all(isinstance(t, str) and _TOKEN.fullmatch(t) for t in r) for r in pads)):
        raise bad("pads", f"a pad token for each of the {SEATS} seats of each round")
    return DirectorPlan(int(numbers["table"] or 0), int(numbers["tables"] or 0),
                        name if isinstance(name, str) else "", rounds, ids,
                        rules if isinstance(rules, str) else None, pads)
