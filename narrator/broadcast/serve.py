"""Serving the broadcast for a mode: ``--broadcast [HOST:]PORT`` and ``--broadcast-delay``
checked, the server started on its own address with its own token, the link printed with the
line that says what it holds, and the games it shows.

The broadcast never shares the console's server, address or tokens: a link of one opens
nothing of the other (:mod:`narrator.broadcast.app`). It reads the game through the host's
listeners and changes nothing.
"""

from __future__ import annotations

import contextlib
import math
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from narrator.arguments import BroadcastArgs
from narrator.broadcast.app import build_app
from narrator.broadcast.feed import DEFAULT_DELAY, DelayedFeed
from narrator.broadcast.snapshot import StandingRow, Standings, as_json, snapshot_of
from narrator.clock import Clock
from narrator.console.links import base_url, check_address, parse_address, public_host
from narrator.console.server import ConsoleServer
from narrator.errors import NarratorError
from narrator.host.host import Host
from narrator.host.texts import tx

WILDCARDS = ("0.0.0.0", "::", "")


@dataclass(frozen=True)
class BroadcastOptions:
    """Where the broadcast listens and how far it lags the table (seconds)."""

    address: str
    delay: float = DEFAULT_DELAY


def _host_key(host: str) -> str:
    return "127.0.0.1" if host == "localhost" else host


def same_address(one: tuple[str, int], other: tuple[str, int]) -> bool:
    """Whether two ``(host, port)`` would be one listening address (port 0: a free one, never
    the same); an address on every interface meets any other on its port."""
    (h1, p1), (h2, p2) = one, other
    if p1 == 0 or p2 == 0 or p1 != p2:
        return False
    return _host_key(h1) == _host_key(h2) or h1 in WILDCARDS or h2 in WILDCARDS


def broadcast_options(args: BroadcastArgs, console: str | None) -> BroadcastOptions | None:
    """``--broadcast``, ``--broadcast-delay`` checked against ``console`` (its address; None:
    no console); None: no broadcast."""
    if args.address is None:
        if args.delay is not None:
            raise NarratorError("--broadcast-delay sets the stream's lag; add --broadcast "
                                "[HOST:]PORT")
        return None
    delay = DEFAULT_DELAY if args.delay is None else args.delay
    if not math.isfinite(delay) or delay < 0:
        raise NarratorError(f"--broadcast-delay {args.delay:g}: expected seconds >= 0 "
                            f"(default {DEFAULT_DELAY:g})")
    host, port = parse_address(args.address, "--broadcast")
    if console is not None and same_address((host, port), parse_address(console)):
        raise NarratorError(f"--broadcast {args.address}: that is the console's address "
                            f"({console}); the stream's view needs its own port")
    check_address(host, port, "--broadcast")
    return BroadcastOptions(args.address, delay)


def watch(host: Host, feed: DelayedFeed, lang: str) -> None:
    """Show the game on ``host`` in ``feed``: a picture after each of its events, timers and
    lines (on the loop's thread; it reads the game, never changes it)."""

    def push() -> None:
        feed.push(as_json(snapshot_of(host, lang)))

    host.listeners.append(lambda event, at: push())
    host.timer_listeners.append(lambda timer: push())
    host.line_listeners.append(lambda line: push())
    host.action_listeners.append(push)
    host.end_listeners.append(push)  # (the deal that waits for the cards: its timer stops)
    if host.game.started:
        push()


class Broadcast:
    """A running broadcast: its delayed feed, its server, its link."""

    def __init__(self, feed: DelayedFeed, server: ConsoleServer, url: str,
                 clock: Clock) -> None:
        self.feed = feed
        self.server = server
        self.url = url
        self.clock = clock
        #: the table's language, the stream's words (set by :meth:`watch`)
        self.lang = "ru"

    @classmethod
    def start(cls, opts: BroadcastOptions, clock: Clock, *, token: str | None = None,
              stream: Clock | None = None) -> Broadcast:
        """Serve a new feed of the table on ``clock`` at ``opts.address`` with a fresh token
        (192 random bits) unless ``token`` is given. ``stream``: the clock the delay is
        counted on — the table's (a test moves one of its own)."""
        token = token or secrets.token_urlsafe(24)
        feed = DelayedFeed(stream or clock, opts.delay)
        host, port = parse_address(opts.address, "--broadcast")
        server = ConsoleServer(build_app(feed, token), host, port,
                               name="the broadcast").start()
        url = f"{base_url(public_host(host), server.port)}/broadcast/{token}/"
        return cls(feed, server, url, clock)

    def announce(self, say: Callable[[str], None], lang: str = "en") -> None:
        """The link, and what it must never be shown on (in ``lang``: the table's)."""
        delay = self.feed.delay
        say(tx("b_link", lang, delay=delay, url=self.url))
        say(tx("b_secret", lang))
        if delay == 0:
            say(tx("b_no_delay", lang))

    def watch(self, host: Host, lang: str) -> None:
        """Show the game on ``host`` (see :func:`watch`)."""
        self.lang = lang  # the standings between games are in the table's words too
        watch(host, self.feed, lang)

    def standings(self, rows: Sequence[StandingRow], games: int) -> None:
        """The standings scene between games, at the table's now."""
        self.feed.push(as_json(Standings(at=round(self.clock.now(), 3), scene="standings",
                                         games=games, rows=tuple(rows),
                                         lang=self.lang)))

    def drain(self, say: Callable[[str], None], lang: str = "en") -> None:
        """Before the end: the table's last moments reach the stream too (a wait of the delay
        at most on the table's clock; Ctrl-C ends it)."""
        due = self.feed.last_due
        clock = self.feed.clock
        if due is None or due <= clock.now():
            return
        say(tx("b_drain", lang, s=due - clock.now()))
        with contextlib.suppress(KeyboardInterrupt):
            clock.wait_until(due)

    def stop(self) -> None:
        self.server.stop()
