"""The console's web server: the app on uvicorn, on a thread of its own, bound to the address
given (loopback by default), and a running console as the modes start it.

What it serves is the app (:mod:`narrator.console.app`: the pages, the assets, the sockets),
whose sockets the hub holds (:mod:`narrator.console.hub`: identities, views, the turns on the
loop's thread); one socket's outbox, pace and messages are :mod:`narrator.console.sockets`.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import uvicorn
from starlette.applications import Starlette

from narrator.console.app import TokenBook, build_app
from narrator.console.hub import CLOSE_GRACE, Hub, Served, Submit
from narrator.console.links import base_url, links, parse_address, public_host
from narrator.console.sockets import MAX_MESSAGE, RateLimit
from narrator.console.table import ConsoleTable
from narrator.console.tokens import Tokens
from narrator.errors import NarratorError

__all__ = ["Console", "ConsoleServer", "serve", "start_console"]


class ConsoleServer:
    """The app on uvicorn, on a thread of its own; :meth:`start` returns once it listens."""

    def __init__(self, app: Starlette, host: str = "127.0.0.1", port: int = 0, *,
                 name: str = "the console") -> None:
        config = uvicorn.Config(app, host=host, port=port, log_level="critical",
                                access_log=False,  # the path holds the secret token
                                ws_max_size=MAX_MESSAGE * 4, lifespan="off")
        self.server = uvicorn.Server(config)
        self.app = app
        self.host = host
        self.port = port
        self.name = name
        self._thread = threading.Thread(target=self.server.run, name="narrator-console",
                                        daemon=True)

    def start(self, timeout: float = 10.0) -> ConsoleServer:
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self.server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise NarratorError(f"{self.name} cannot listen on {self.host}:{self.port} "
                                    "(the port is in use, or not an address of this machine)")
            time.sleep(0.02)
        sockets = [s for srv in self.server.servers for s in srv.sockets]
        self.port = int(sockets[0].getsockname()[1])
        return self

    def stop(self, ended: str | None = None) -> None:
        """Let every socket go (a reader waiting for room would not see uvicorn's goodbye),
        then stop the server. ``ended``: the evening or the game has ended, every page is told
        so (and connects no more) before its socket goes."""
        hub = getattr(self.app.state, "hub", None)
        if isinstance(hub, Hub):
            if ended is not None:
                hub.end(ended)
            hub.close(grace=CLOSE_GRACE if ended is not None else 0.0)
        self.server.should_exit = True
        self._thread.join(timeout=5)


@dataclass
class Console:
    """A running console: its tokens, table, hub, server and links."""

    tokens: TokenBook
    table: ConsoleTable
    hub: Hub
    server: ConsoleServer
    links: dict[str, Any]

    def stop(self, ended: str | None = None) -> None:
        self.server.stop(ended)


def start_console(table: ConsoleTable, submit: Submit, address: str = "127.0.0.1:0", *,
                  tokens: Tokens | None = None,
                  rate: Callable[[], RateLimit] | None = None) -> Console:
    """Serve ``table``: presses run through ``submit`` (the loop's thread); ``rate``: each
    socket's :class:`RateLimit` (by default :data:`RATE_COUNT` in :data:`RATE_WINDOW` s)."""
    tokens = tokens or Tokens.new(table.game.seats)
    hub, server, base = serve(table, submit, address, tokens, rate=rate)
    return Console(tokens, table, hub, server, links(tokens, base))


def serve(front: Served, submit: Submit, address: str, tokens: TokenBook, *,
          rate: Callable[[], RateLimit] | None = None) -> tuple[Hub, ConsoleServer, str]:
    """Serve ``front`` at ``address`` to the holders of ``tokens``: its hub, its running
    server and the base URL of its links (the phones' address)."""
    host, port = parse_address(address)
    hub = Hub(front, submit, rate=rate)
    front.publish = hub.publish
    server = ConsoleServer(build_app(hub, tokens), host, port).start()
    submit(front.publish_views)
    return hub, server, base_url(public_host(host), server.port)
