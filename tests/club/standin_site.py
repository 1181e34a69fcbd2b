"""A loopback stand-in of the rating site's ``api/get`` pages a club fetch asks, answering as
MafiaRatings' PHP does (the fields quoted from its files):

- ``clubs.php?club_id=N`` — «$this->response['clubs'] = $clubs;», each club with ``id``,
  ``name``, ``langs``, ``rules`` (an object), ``scoring_id``;
- ``club_rules.php?club_id=N&view=code`` — «$this->response['rules'] = $rules;», each
  ``{name, rules}``, the club's own first, ``rules`` the code under ``view=code``;
- ``scorings.php?club_id=N&page_size=0`` — ``scorings`` of ``{id, name, [club_id],
  versions: [{version, rules}]}`` (the club's systems and the site's, every version),
  ``count``;
- ``players.php?club_id=N&page_size=0`` — ``players`` of ``{id, name, …}``, ``count``;
- an exception answered as «$this->response['error'] = $e->getMessage();».
"""

from __future__ import annotations

import json
import threading
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from narrator.scoring.fiim import VERSIONS


@dataclass
class Club:
    id: int = 42
    name: str = "Клуб «Ночь»"
    rules: str = "0002000010000"
    scoring_id: int = 19
    players: list[tuple[int, str]] = field(default_factory=lambda: [
        (1101, "Момент"), (1102, "Mafia"), (1103, "Ника, младшая"), (1104, "Кот")])
    #: scoring id → (name, club_id or None, {version: rules})
    scorings: dict[int, tuple[str, int | None, dict[int, Any]]] = field(
        default_factory=lambda: {
            19: ("ФИИМ", None, {v: _with_names(json.loads(json.dumps(VERSIONS[v])))
                                for v in VERSIONS}),
            77: ("Наша", 42, {1: {"main": [{"matter": 2, "points": 3}]}})})
    #: page → an answer to give instead (a fault of the site)
    faults: dict[str, tuple[int, bytes]] = field(default_factory=dict)
    asked: list[str] = field(default_factory=list)


def _with_names(rules: dict[str, Any]) -> dict[str, Any]:
    """The site's JSON has ``name_ru`` keys its scoring code never reads."""
    for group in ("legacy", "extra"):
        for policy in rules.get(group, []):
            if policy.get("matter") == 1:
                policy["name_ru"] = "ЛХ" if group == "legacy" else "автодопы"
    return rules


def answer(club: Club, page: str, query: dict[str, str]) -> dict[str, Any]:
    if int(query.get("club_id", "-1")) != club.id:
        raise LookupError(f"Unknown club {query.get('club_id')}")
    if page == "clubs.php":
        return {"clubs": [{"id": club.id, "name": club.name, "langs": 2,
                           "rules": {"rotation": "first"}, "scoring_id": club.scoring_id}],
                "count": 1}
    if page == "club_rules.php":
        rules: Any = club.rules if query.get("view") == "code" else {"rotation": "first"}
        return {"rules": [{"name": club.name, "rules": rules},
                          {"name": "Турнирные", "rules": "0002000010001"}]}
    if page == "scorings.php":
        assert query.get("page_size") == "0", query  # every version in one page
        out = []
        for sid, (name, owner, versions) in sorted(club.scorings.items(), key=lambda x: x[1][0]):
            item: dict[str, Any] = {"id": sid, "name": name}
            if owner is not None:
                item["club_id"] = owner
            item["versions"] = [{"version": v, "rules": r} for v, r in sorted(versions.items())]
            out.append(item)
        return {"count": len(out), "scorings": out}
    if page == "players.php":
        assert query.get("page_size") == "0", query
        players = [{"id": uid, "name": name, "langs": 2, "club_id": club.id, "games": 10,
                    "games_won": 5, "rating": 1000.0, "city_id": 1, "city": "Город",
                    "country": "Страна"} for uid, name in club.players]
        return {"count": len(players), "players": sorted(players, key=lambda p: p["name"])}
    raise LookupError(f"Unknown page {page}")


@contextmanager
def standin_site(club: Club) -> Iterator[str]:
    """The site at ``http://127.0.0.1:PORT`` while the block runs."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            url = urllib.parse.urlsplit(self.path)
            page = url.path.rsplit("/", 1)[-1]
            club.asked.append(page)
            if page in club.faults:
                status, body = club.faults[page]
            else:
                query = dict(urllib.parse.parse_qsl(url.query))
                try:
                    data = answer(club, page, query)
                except LookupError as e:
                    data = {"error": str(e)}
                status, body = 200, json.dumps(data, ensure_ascii=False).encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
