"""A page whose evening or game has ended is told so and answered: the server's last word to
each socket is ``{"ended": …}`` (the page shows it and connects no more), a press still
waiting for the loop's thread — which takes no more — and a press sent after it are answered
with it (a second tap on «Да, закончить вечер» is never left without its answer)."""

from __future__ import annotations

import json
from typing import Any

from websockets.sync.client import ClientConnection, connect

from narrator.console.app import build_app
from narrator.console.hub import Hub
from narrator.console.server import ConsoleServer
from narrator.console.tokens import OPERATOR, Tokens
from tests.console.conftest import make_rig

ENDED = "Вечер закончен. Спасибо за игру!"


def _read(ws: ClientConnection, test: Any) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = json.loads(ws.recv(timeout=10))
        if test(msg):
            return msg


def test_the_end_is_every_pages_last_word_and_every_waiting_press_is_answered() -> None:
    rig = make_rig()
    tokens = Tokens.new(rig.game.seats)
    held: list[Any] = []  # the loop's thread takes nothing: as an evening that has ended
    hub = Hub(rig.table, held.append)
    rig.table.publish = hub.publish
    server = ConsoleServer(build_app(hub, tokens)).start()
    base = f"ws://127.0.0.1:{server.port}/ws/"
    origin = f"http://127.0.0.1:{server.port}"
    try:
        with connect(base + tokens.operator, origin=origin) as op, \
                connect(base + tokens.seats[1], origin=origin) as pad:
            rig.table.publish_views()
            _read(op, lambda m: "view" in m)
            _read(pad, lambda m: "view" in m)
            op.send(json.dumps({"id": 1, "do": "undo"}))
            op.send(json.dumps({"id": 2, "do": "undo"}))  # a double tap
            server.stop(ENDED)
            got = [json.loads(m) for m in _drain(op)]
            assert {"reply": 1, "ok": False, "reason": "ended", "text": ENDED,
                    "ended": True} in got
            assert any(m.get("reply") == 2 and m.get("ended") for m in got)
            assert any(m.get("ended") == ENDED and "reply" not in m for m in got)
            assert any(m.get("ended") == ENDED for m in (json.loads(x) for x in _drain(pad)))
    finally:
        server.stop()
    assert hub.ended is not None and json.loads(hub.ended) == {"ended": ENDED}
    assert hub.views[OPERATOR] == hub.ended  # a page that came back would get the end alone


def _drain(ws: ClientConnection) -> list[str]:
    out: list[str] = []
    try:
        while True:
            out.append(str(ws.recv(timeout=5)))
    except Exception:  # the server has closed the socket
        return out
