"""The broadcast and the console open nothing of each other: a console's token on the
broadcast's server is a 404 like any path, the broadcast's token on the console is refused,
and a path not the page's, its assets' or its feed's is a 404."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from narrator.broadcast.app import build_app
from narrator.broadcast.feed import DelayedFeed
from narrator.broadcast.serve import watch
from narrator.clock import VirtualClock
from narrator.console.app import build_app as console_app
from narrator.console.hub import Hub
from narrator.console.tokens import Tokens
from tests.console.conftest import make_rig

TOKEN = "b" * 32


@pytest.fixture
def pair() -> Iterator[tuple[TestClient, TestClient, Tokens]]:
    """The broadcast's app and the console's, on one game (delay 0: everything is due)."""
    rig = make_rig()
    tokens = Tokens.new(rig.game.seats)
    hub = Hub(rig.table, lambda fn: fn())
    rig.table.publish = hub.publish
    feed = DelayedFeed(VirtualClock(10_000), 0)
    watch(rig.host, feed, "ru")
    rig.deal()
    with TestClient(build_app(feed, TOKEN), base_url="http://cast") as cast, \
            TestClient(console_app(hub, tokens), base_url="http://table") as table:
        yield cast, table, tokens


def test_its_token_opens_the_page_its_assets_and_the_feed(pair: tuple[TestClient, ...]) -> None:
    cast = pair[0]
    page = cast.get(f"/broadcast/{TOKEN}/")
    assert page.status_code == 200 and "broadcast.js" in page.text
    assert cast.get(f"/broadcast/{TOKEN}", follow_redirects=False).headers["location"] == \
        f"/broadcast/{TOKEN}/"
    for name in ("broadcast.js", "broadcast.css"):
        assert cast.get(f"/broadcast/{TOKEN}/{name}").status_code == 200
    feed = cast.get(f"/broadcast/{TOKEN}/feed.json").json()
    assert feed["picture"]["scene"] == "day"
    assert {s["role"] for s in feed["picture"]["seats"]} >= {"don", "sheriff", "mafia"}
    assert page.headers["cache-control"] == "no-store"


def test_no_console_token_opens_it(pair: tuple[TestClient, TestClient, Tokens]) -> None:
    cast, _, tokens = pair
    for token in [tokens.operator, *tokens.seats.values()]:
        for path in (f"/broadcast/{token}/", f"/broadcast/{token}",
                     f"/broadcast/{token}/feed.json", f"/broadcast/{token}/broadcast.js"):
            r = cast.get(path, follow_redirects=False)
            assert r.status_code == 404 and "role" not in r.text, path
        for path in (f"/op/{token}", f"/pad/{token}"):  # the console's pages are not here
            assert cast.get(path).status_code == 404


def test_every_other_path_is_a_404(pair: tuple[TestClient, ...]) -> None:
    cast = pair[0]
    for path in ("/", "/broadcast", "/broadcast/", f"/broadcast/{TOKEN}/../x",
                 f"/broadcast/{TOKEN}/broadcast.html", f"/broadcast/{TOKEN}/feed.json/x",
                 f"/broadcast/{TOKEN[:-1]}/", "/static/common.js", f"/ws/{TOKEN}",
                 f"/broadcast/{TOKEN}x/feed.json"):
        assert cast.get(path, follow_redirects=False).status_code == 404, path


def test_its_token_opens_no_console_page(pair: tuple[TestClient, ...]) -> None:
    table = pair[1]
    for path in (f"/op/{TOKEN}", f"/pad/{TOKEN}", f"/op/{TOKEN}/protocol.json",
                 f"/broadcast/{TOKEN}/", f"/broadcast/{TOKEN}/feed.json"):
        r = table.get(path)
        assert r.status_code in (403, 404) and "sheriff" not in r.text, path
    from starlette.websockets import WebSocketDisconnect

    with pytest.raises(WebSocketDisconnect), table.websocket_connect(f"/ws/{TOKEN}") as ws:
        ws.receive_json()
