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
4. memory: the process's peak RSS, and its growth from the server's start to the end.

    .venv/bin/python scripts/bench_console.py [--games 5] [--quick] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from queue import SimpleQueue
from typing import Any, assert_never

from websockets.asyncio.client import ClientConnection, connect

from narrator.clock import VirtualClock
from narrator.console.server import start_console
from narrator.console.settings import ConsoleSettings
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
        reply = await fut
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

    async def game(self, number: int) -> dict[str, Any]:
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
            self.handled.append(time.perf_counter() - started)
            return reply

        table.handle = timed_handle  # type: ignore[method-assign]
        worker.call(host.start)
        console = start_console(table, worker.submit, "127.0.0.1:0")
        links = console.links
        self.clients = {}
        for who, url in [("operator", links["operator"]), *links["seats"].items()]:
            ws_url = url.replace("http://", "ws://").replace("/pad/", "/ws/").replace("/op/", "/ws/")
            self.clients[who] = Client(await connect(ws_url), self)
        await asyncio.sleep(0.05)

        def state() -> tuple[w.Expect, int, bool]:
            return game.expect, int(game.phase[1:]), table.dealing

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
            for client in self.clients.values():
                await client.ws.close()
                client.task.cancel()
            console.stop()
            worker.stop()
            journal.close()
        return protocol


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
    if any(w != "civilians" for w in winners):
        print(f"a game went wrong: winners {winners}")
        return 1
    if as_json:  # for scripts/bench.py's table (the contract sets the console no target)
        figures = [
            {"name": "pad press -> action applied (p95)", "value": _p95_ms(bench.round_trips),
             "unit": "ms", "target": "", "ok": None},
            {"name": "press -> all 11 views updated (p95)", "value": _p95_ms(bench.fanout),
             "unit": "ms", "target": "", "ok": None},
            {"name": f"memory growth over {games} game(s)", "value": round(end - base, 1),
             "unit": "MB", "target": "", "ok": None}]
        print(json.dumps({"bench": "console", "figures": figures}))
        return 0
    print(f"{games} game(s), 10 pads + operator on loopback, {bench.presses} presses, "
          f"{elapsed:.1f} s")
    print(f"{'':<46} {'n':>6} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
    print(row("pad press -> action applied (round trip)", bench.round_trips))
    print(row("handle in the server (journal, engine, views)", bench.handled))
    print(row("press -> all 11 views updated", bench.fanout))
    print(f"memory: peak RSS {rss_mb():.0f} MB; from the first server to the end "
          f"{base:.0f} -> {end:.0f} MB")
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
