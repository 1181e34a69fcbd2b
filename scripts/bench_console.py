#!/usr/bin/env python3
"""Benchmark the table console on loopback: ten pads and the operator through whole games.

The console's real server (Starlette on uvicorn) serves a game on a virtual clock; eleven
websocket clients (ten seat pads and the operator view) play it: every seat sees its card,
speeches end from the pads with nominations, every living seat votes in every window, the mafia
shoot on the count, the don and the sheriff check, the operator gives fouls and takes them back.
The clock moves in lock-step: once every press of a step is answered, the driver runs it to the
next deadline, so a game takes seconds and the figures are the console's own, not the timers'.

Figures:
1. pad press → action applied: from the client's send to its answer (sent once the host has
   applied the action and the journal line is synced), p50 / p95 / max;
2. the same inside the server: the time :meth:`ConsoleTable.handle` takes (journal, engine,
   eleven views);
3. after a press that changes every screen (a speech ends, …): until all eleven had it;
4. memory: the process's peak RSS, and its growth from the server's start to the end;
5. under a flood: one more game, while a second socket with seat 2's token sends frames as fast
   as the socket takes them and never reads a byte (the rate limit lifted, so that the flood
   lasts the whole game): every other press → applied, p50 / p95 / max (target p95 < 100 ms),
   the presses whose answer never came (target none), the process's RSS meanwhile (server and
   clients; target < 150 MB), and how many of the flood's frames the game's thread took;
6. the same flood at the default rate limit: how many frames the server took before its
   ``too_fast`` and the close, and how long that took.

    .venv/bin/python scripts/bench_console.py [--games 5] [--quick] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import resource
import socket
import statistics
import struct
import tempfile
import threading
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from queue import SimpleQueue
from typing import Any, assert_never
from urllib.parse import urlsplit

from websockets.asyncio.client import ClientConnection, connect
from websockets.client import ClientProtocol
from websockets.uri import parse_uri

from narrator.clock import VirtualClock
from narrator.console.server import Console, start_console
from narrator.console.settings import ConsoleSettings
from narrator.console.sockets import RateLimit
from narrator.console.table import ConsoleTable
from narrator.console.views import vote_candidate
from narrator.engine import Game, Role
from narrator.engine import waits as w
from narrator.host.assembly import assemble_host
from narrator.host.driver import Driver
from narrator.host.journal import Journal
from narrator.voice.manifest import default_manifest

ROLES = {1: Role.SHERIFF, 3: Role.DON, 5: Role.MAFIA, 9: Role.MAFIA}
#: (day, seat) → nominated; day → {candidate: hands}; night → ({shooter: target}, don, sheriff)
NOMINATIONS = {(1, 1): 5, (1, 2): 7, (2, 4): 9, (3, 6): 3}
VOTES = {1: {5: [1, 2, 4, 6, 8, 10], 7: [3, 9]}, 2: {9: [1, 3, 4, 6, 7, 8, 10]},
         3: {3: [1, 6, 7, 8, 10]}}
NIGHTS = {2: ({3: 2, 9: 2}, 1, 9), 3: ({3: 4}, 6, 3)}
#: the flood: a second socket with this seat's token, sending a press the console refuses
FLOOD_SEAT = 2
FLOOD_DO = "fly"
#: seconds a press may wait for its answer before it counts as lost
LOST_AFTER = 5.0


class Worker:
    """The loop's thread: runs submitted thunks in order (the host is touched only here)."""

    def __init__(self) -> None:
        self.inbox: SimpleQueue[Callable[[], object] | None] = SimpleQueue()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def submit(self, fn: Callable[[], object]) -> None:
        self.inbox.put(fn)

    def _run(self) -> None:
        while (fn := self.inbox.get()) is not None:
            fn()

    def call(self, fn: Callable[[], Any]) -> Any:
        """Run ``fn`` there and wait for its result."""
        box: list[Any] = []
        done = threading.Event()

        def run() -> None:
            box.append(fn())
            done.set()

        self.submit(run)
        done.wait()
        return box[0]

    def stop(self) -> None:
        self.inbox.put(None)


class Flooder:
    """One more socket for a seat's link: sends frames as fast as the socket takes them (on a
    thread of its own) and never reads a byte after the handshake."""

    BLOB = 1000  # frames per write

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self.sock = socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 80))
        proto = ClientProtocol(parse_uri(url))
        proto.send_request(proto.connect())
        self.sock.sendall(b"".join(proto.data_to_send()))
        answer = b""
        while b"\r\n\r\n" not in answer:
            answer += self.sock.recv(4096)
        assert answer.startswith(b"HTTP/1.1 101"), answer[:40]
        proto.receive_data(answer)  # open; from here on nothing is read
        frames = []
        for i in range(self.BLOB):
            proto.send_text(json.dumps({"id": i, "do": FLOOD_DO}).encode())
            frames.extend(proto.data_to_send())
        self.blob = b"".join(frames)
        self.sent = 0  # frames handed to the socket (the last write's at most partly)
        self.started = time.perf_counter()
        self.closed_at: float | None = None  # when the server closed it
        self._stopping = False
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            while not self._stopping:
                self.sock.sendall(self.blob)
                self.sent += self.BLOB
        except OSError:
            if not self._stopping:
                self.closed_at = time.perf_counter()

    def stop(self) -> None:
        self._stopping = True
        with contextlib.suppress(OSError):  # gone at once, as a phone off the Wi-Fi
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.sock.close()
        self.thread.join(timeout=5)


class Client:
    """One websocket: sends presses, times their answers, counts views."""

    def __init__(self, ws: ClientConnection, bench: Bench) -> None:
        self.ws = ws
        self.bench = bench
        self.ident = 0
        self.waiting: dict[int, tuple[float, asyncio.Future[dict[str, Any]]]] = {}
        self.views = 0
        self.last_view = 0.0
        self.task = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        async for raw in self.ws:
            msg = json.loads(raw)
            if "view" in msg:
                self.views += 1
                self.last_view = time.perf_counter()
            elif msg.get("reply") in self.waiting:
                sent, fut = self.waiting.pop(msg["reply"])
                self.bench.round_trips.append(time.perf_counter() - sent)
                fut.set_result(msg)

    async def press(self, **press: Any) -> dict[str, Any]:
        self.ident += 1
        fut: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        sent = time.perf_counter()
        self.waiting[self.ident] = (sent, fut)
        await self.ws.send(json.dumps({"id": self.ident, **press}))
        try:
            reply = await asyncio.wait_for(fut, LOST_AFTER)
        except TimeoutError:
            self.bench.lost += 1
            self.waiting.pop(self.ident, None)
            return {}
        # every socket gets the new view (the press's own answer comes first)
        await self.bench.all_views_after(sent)
        return reply


class Bench:
    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.round_trips: list[float] = []
        self.handled: list[float] = []
        self.fanout: list[float] = []
        self.presses = 0
        self.lost = 0
        self.flood_taken = 0  # the flood's frames the game's thread took
        self.rss_peak = 0.0  # the process's RSS, sampled while a flood runs
        self.clients: dict[Any, Client] = {}

    async def all_views_after(self, sent: float) -> None:
        """When a press changes every screen (a speech ends, a window closes …): how long until
        all eleven had their new view (presses that change fewer views are not counted)."""
        deadline = time.perf_counter() + 0.05
        while time.perf_counter() < deadline:
            if all(c.last_view >= sent for c in self.clients.values()):
                self.fanout.append(max(c.last_view for c in self.clients.values()) - sent)
                return
            await asyncio.sleep(0.0005)

    async def game(self, number: int, *, flood: bool = False) -> dict[str, Any]:
        """One whole game; ``flood``: while a second socket of seat 2 floods, its rate limit
        lifted (so that the flood lasts the whole game)."""
        clock = VirtualClock()
        game = Game(roles=ROLES)
        journal = Journal.for_game(self.tmp / f"game{number}.jsonl", game, mode="play")
        parts = assemble_host(game, clock, manifest=default_manifest("ru"), journal=journal)
        host, transcript = parts.host, parts.transcript
        worker = Worker()
        driver = Driver(host.scheduler, lambda event: None)  # moves the virtual time
        table = ConsoleTable(host, settings=ConsoleSettings(), record=journal.write,
                             said=lambda: list(transcript.said))
        handle = table.handle

        def timed_handle(press: Any) -> Any:
            started = time.perf_counter()
            reply = handle(press)
            if press.do == FLOOD_DO:
                self.flood_taken += 1
            else:
                self.handled.append(time.perf_counter() - started)
            return reply

        table.handle = timed_handle  # type: ignore[method-assign]
        worker.call(host.start)
        lifted = (lambda: RateLimit(clock.now, count=10**9)) if flood else None
        console = start_console(table, worker.submit, "127.0.0.1:0", rate=lifted)
        links = console.links
        self.clients = {}
        for who, url in [("operator", links["operator"]), *links["seats"].items()]:
            self.clients[who] = Client(await connect(_ws_url(url)), self)
        await asyncio.sleep(0.05)
        flooder = Flooder(_ws_url(links["seats"][str(FLOOD_SEAT)])) if flood else None
        sampler = asyncio.ensure_future(self._sample_rss()) if flood else None

        def state() -> tuple[w.Expect, int, bool]:
            return game.expect, game.phase.number, table.dealing

        def checking() -> bool:
            e = game.expect
            return isinstance(e, w.NightAct) and e.checks

        def sheriff_wakes() -> bool:
            e = game.expect
            return isinstance(e, w.NightAct) and e.role == "sheriff"

        async def press(who: Any, **what: Any) -> dict[str, Any]:
            self.presses += 1
            return await self.clients[str(who) if who != "operator" else who].press(**what)

        def run_to_change() -> None:
            before = game.expect
            while game.expect is before and driver.run_next():
                pass

        try:
            while True:
                exp, day, dealing = worker.call(state)
                if game.is_over:
                    break
                if dealing:
                    for s in range(1, 11):
                        await press(s, do="seen")
                    continue
                match exp:
                    case w.Speech(seat=seat, speech=speech):
                        target = NOMINATIONS.get((day, seat)) if speech == "day" else None
                        if target is not None:
                            await press(seat, do="nominate", target=target)
                            await press("operator", do="foul", seat=seat)
                            await press("operator", do="undo")
                        await press(seat, do="end")
                    case w.Vote() | w.Crash():
                        candidate = vote_candidate(exp)
                        for s in VOTES[day].get(candidate or 0, []):
                            await press(s, do="vote", candidate=candidate)
                        worker.call(run_to_change)
                    case w.Hunt():
                        shots, don, sheriff = NIGHTS[day]
                        pace = game.rules.count_pace
                        for shooter, target in sorted(shots.items(), key=lambda st: st[1]):
                            when = host.timer_started + (target - 1) * pace + 0.6
                            worker.call(partial(driver.run_until, when))
                            await press(shooter, do="shoot")
                        while not worker.call(checking):
                            worker.call(run_to_change)
                        await press(3, do="check", target=don)
                        while not worker.call(sheriff_wakes):
                            worker.call(run_to_change)
                        await press(1, do="check", target=sheriff)
                        while worker.call(checking):
                            worker.call(run_to_change)
                    case (w.Pause() | w.Deal() | w.NightAct() | w.Floor() | w.PutUp() | w.Extra()
                          | w.Over()):
                        worker.call(run_to_change)
                    case _:
                        assert_never(exp)
            protocol: dict[str, Any] = worker.call(game.protocol)
        finally:
            if flooder is not None:
                flooder.stop()
            if sampler is not None:
                sampler.cancel()
            for client in self.clients.values():
                await client.ws.close()
                client.task.cancel()
            console.stop()
            worker.stop()
            journal.close()
        return protocol

    async def _sample_rss(self) -> None:
        while True:
            self.rss_peak = max(self.rss_peak, current_rss_mb())
            await asyncio.sleep(0.05)


async def cut_off(tmp: Path) -> tuple[int, float, Console]:
    """The flood at the default rate limit, at the deal: the frames the game's thread took
    before the server closed the socket (``too_fast``), and how long after the flood began."""
    clock = VirtualClock()
    game = Game(roles=ROLES)
    journal = Journal.for_game(tmp / "cut_off.jsonl", game, mode="play")
    parts = assemble_host(game, clock, manifest=default_manifest("ru"), journal=journal)
    worker = Worker()
    table = ConsoleTable(parts.host, settings=ConsoleSettings(), record=journal.write)
    taken = [0]
    handle = table.handle

    def counted(press: Any) -> Any:
        taken[0] += press.do == FLOOD_DO
        return handle(press)

    table.handle = counted  # type: ignore[method-assign]
    worker.call(parts.host.start)
    console = start_console(table, worker.submit, "127.0.0.1:0")
    flooder = Flooder(_ws_url(console.links["seats"][str(FLOOD_SEAT)]))
    try:
        deadline = time.perf_counter() + 15
        while flooder.closed_at is None and time.perf_counter() < deadline:
            await asyncio.sleep(0.01)
        took = (flooder.closed_at or time.perf_counter()) - flooder.started
        frames = worker.call(lambda: taken[0])
    finally:
        flooder.stop()
        console.stop()
        worker.stop()
        journal.close()
    return frames, took, console


def _ws_url(url: str) -> str:
    return url.replace("http://", "ws://").replace("/pad/", "/ws/").replace("/op/", "/ws/")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def row(name: str, values: list[float]) -> str:
    ms = [v * 1000 for v in values]
    return (f"{name:<46} {len(ms):>6} {statistics.median(ms):>8.2f} {pct(ms, 0.95):>8.2f} "
            f"{max(ms):>8.2f}")


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def current_rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return rss_mb()


def _p95_ms(values: list[float]) -> float:
    return round(pct([v * 1000 for v in values], 0.95), 2) if values else 0.0


async def main_async(games: int, as_json: bool = False) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        bench = Bench(Path(tmp))
        started = time.perf_counter()
        base = current_rss_mb()
        winners = []
        for n in range(games):
            protocol = await bench.game(n)
            winners.append(protocol["winner"])
        elapsed = time.perf_counter() - started
        end = current_rss_mb()
        alone = (bench.round_trips, bench.handled, bench.fanout, bench.presses)
        lost_alone = bench.lost
        bench.round_trips, bench.handled, bench.fanout, bench.presses = [], [], [], 0
        bench.lost = 0
        flood_started = time.perf_counter()
        protocol = await bench.game(games, flood=True)
        flood_elapsed = time.perf_counter() - flood_started
        winners.append(protocol["winner"])
        flooded = bench.round_trips
        cut_frames, cut_took, cut = await cut_off(Path(tmp))
    round_trips, handled, fanout, presses = alone
    if any(w != "civilians" for w in winners) or lost_alone:
        print(f"a game went wrong: winners {winners}, {lost_alone} press(es) unanswered")
        return 1
    flood_p95 = _p95_ms(flooded)
    if as_json:  # for scripts/bench.py's table (the contract sets the console no target)
        figures = [
            {"name": "pad press -> action applied (p95)", "value": _p95_ms(round_trips),
             "unit": "ms", "target": "", "ok": None},
            {"name": "press -> all 11 views updated (p95)", "value": _p95_ms(fanout),
             "unit": "ms", "target": "", "ok": None},
            {"name": f"memory growth over {games} game(s)", "value": round(end - base, 1),
             "unit": "MB", "target": "", "ok": None},
            {"name": "under a flood: other presses -> applied (p95)", "value": flood_p95,
             "unit": "ms", "target": "< 100", "ok": flood_p95 < 100},
            {"name": "under a flood: presses never answered", "value": bench.lost,
             "unit": "", "target": "0", "ok": bench.lost == 0},
            {"name": "under a flood: RSS, server and clients (peak)",
             "value": round(bench.rss_peak, 1), "unit": "MB", "target": "< 150",
             "ok": bench.rss_peak < 150},
            {"name": "a flood at the default limit: frames taken before too_fast",
             "value": cut_frames, "unit": "", "target": "", "ok": None}]
        print(json.dumps({"bench": "console", "figures": figures}))
        return 0
    print(f"{games} game(s), 10 pads + operator on loopback, {presses} presses, "
          f"{elapsed:.1f} s")
    print(f"{'':<46} {'n':>6} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
    print(row("pad press -> action applied (round trip)", round_trips))
    print(row("handle in the server (journal, engine, views)", handled))
    print(row("press -> all 11 views updated", fanout))
    print(f"memory: peak RSS {rss_mb():.0f} MB; from the first server to the end "
          f"{base:.0f} -> {end:.0f} MB")
    print(f"under a flood: one more game ({bench.presses} presses, {flood_elapsed:.1f} s) while "
          f"a second socket of seat {FLOOD_SEAT} sends without reading (rate limit lifted); "
          f"the game's thread took {bench.flood_taken} of its frames")
    print(row("flood: other presses -> applied (p95 < 100)", flooded))
    print(row("flood: handle in the server", bench.handled))
    print(row("flood: press -> all 11 views updated", bench.fanout))
    print(f"flood: presses never answered {bench.lost} (target 0); RSS, server and clients, "
          f"peak {bench.rss_peak:.0f} MB (target < 150)")
    print(f"flood at the default limit: {cut_frames} frames taken, then too_fast and closed "
          f"{cut_took * 1000:.0f} ms after it began; answers dropped (counted) "
          f"{cut.hub.dropped}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="one game (what the tests run)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    return asyncio.run(main_async(1 if args.quick else args.games, args.json))


if __name__ == "__main__":
    raise SystemExit(main())
