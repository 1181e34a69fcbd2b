"""The console under a flood, on the real server (uvicorn on 127.0.0.1) with the presses taken
by a real :class:`~narrator.host.driver.Driver` on a thread of its own, as in ``narrator play``.

A pad that floods its socket (thousands of frames, never reading) must not delay or lose any
other seat's press; a pad tapping 10 times a second is never refused, one sending more than 50
messages a second for 10 s is refused (``too_fast``) and closed; no answer is dropped without
being counted; and a phone that stops reading costs the terminal one line at most.

The clients here speak the websocket protocol over a plain socket (``websockets``' sans-I/O
client), so a test decides exactly what is sent, and when — or whether — anything is read.
"""

from __future__ import annotations

import contextlib
import json
import logging
import socket
import struct
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.uri import parse_uri

from narrator.console import sockets as sockets_module
from narrator.console.app import build_app
from narrator.console.hub import Hub
from narrator.console.server import ConsoleServer
from narrator.console.table import Press, Reply
from narrator.console.tokens import OPERATOR, Tokens, Who
from narrator.engine import Hands
from narrator.host.driver import Driver
from narrator.inputs import Input
from tests.console.conftest import Rig, make_rig

#: the longest a seat's press may wait while another floods: a press behind the flood would
#: wait seconds (5,000 frames are 15 s of the game's thread, the 500 taken before a cut-off
#: 1.5 s); on an idle machine it takes milliseconds, on one busy with other work (two busy
#: loops on two cores) up to 0.2 s — the bound tells the two apart without timing the machine
PROMPT = 0.75
#: what the game's thread takes a press: a journal synced to a slow SD card, the views built
SLOW_PRESS = 0.003


class RawPad:
    """One websocket over a plain socket: frames are sent and read only when the test says."""

    def __init__(self, port: int, token: str, *, rcvbuf: int | None = None) -> None:
        self.sock = socket.socket()
        if rcvbuf is not None:  # before connecting: a small window, so the server's sends block
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.sock.settimeout(10)
        self.sock.connect(("127.0.0.1", port))
        self.proto = ClientProtocol(parse_uri(f"ws://127.0.0.1:{port}/ws/{token}"), max_size=None)
        self.proto.send_request(self.proto.connect())
        self.sock.sendall(b"".join(self.proto.data_to_send()))
        self.messages: list[dict[str, Any]] = []
        self.close_frame: Frame | None = None
        self.eof = False
        while not self._handshake():
            pass

    def _handshake(self) -> bool:
        self.proto.receive_data(self.sock.recv(65536))
        done = False
        for event in self.proto.events_received():
            if isinstance(event, Response):
                assert event.status_code == 101, event
                done = True
            else:
                self._event(event)
        return done

    def _event(self, event: Any) -> None:
        if isinstance(event, Frame) and event.opcode == Opcode.TEXT:
            self.messages.append(json.loads(bytes(event.data)))
        elif isinstance(event, Frame) and event.opcode == Opcode.CLOSE:
            self.close_frame = event

    def frame(self, obj: dict[str, Any]) -> bytes:
        """The bytes of one message (masked, as a browser sends it)."""
        self.proto.send_text(json.dumps(obj).encode())
        return b"".join(self.proto.data_to_send())

    def send(self, obj: dict[str, Any]) -> None:
        self.sock.sendall(self.frame(obj))

    def read(self, timeout: float) -> bool:
        """Read what has come within ``timeout`` s; False once nothing came (or the end)."""
        if self.eof:
            return False
        self.sock.settimeout(max(timeout, 0.001))
        try:
            data = self.sock.recv(1 << 20)
        except TimeoutError:
            return False
        except OSError:
            data = b""
        if data:
            self.proto.receive_data(data)
        else:
            self.eof = True
            self.proto.receive_eof()
        for event in self.proto.events_received():
            self._event(event)
        answer = b"".join(self.proto.data_to_send())  # the close's echo, a pong
        if answer:
            with contextlib.suppress(OSError):
                self.sock.sendall(answer)
        return bool(data)

    def replies(self) -> dict[Any, dict[str, Any]]:
        return {m["reply"]: m for m in self.messages if "reply" in m}

    def until(self, test: Callable[[RawPad], bool], timeout: float = 10.0) -> RawPad:
        end = time.monotonic() + timeout
        while not test(self):
            left = end - time.monotonic()
            if left <= 0 or (not self.read(left) and self.eof):
                break
        assert test(self), "never happened"
        return self

    def press(self, ident: int, timeout: float = 10.0, **press: Any) -> dict[str, Any]:
        self.send({"id": ident, **press})
        return self.until(lambda p: ident in p.replies(), timeout).replies()[ident]

    def reset(self) -> None:
        """Vanish at once (an RST, as a phone that drops off the Wi-Fi mid-flood)."""
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.sock.close()


def settle(test: Callable[[], bool], timeout: float = 30.0) -> None:
    """Wait until ``test()`` holds (the server's state a test reads next): polled, so that a
    busy machine only makes the wait longer, never the test wrong."""
    end = time.monotonic() + timeout
    while not test():
        assert time.monotonic() < end, "never happened"
        time.sleep(0.01)


def owed(hub: Hub, who: Who) -> int:
    """The messages ``who``'s sockets have read and not yet answered on the wire."""
    return sum(box.owed for box in list(hub.outboxes.get(who, ())))


class Flood:
    """``frames`` sent as fast as the socket takes them, on a thread; nothing is ever read."""

    def __init__(self, pad: RawPad, frames: int, make: Callable[[int], dict[str, Any]]) -> None:
        self.pad = pad
        self.blob = b"".join(pad.frame(make(i)) for i in range(1, frames + 1))
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        with contextlib.suppress(OSError):  # the server closed it, or the test reset it
            self.pad.sock.sendall(self.blob)

    def stop(self) -> None:
        self.pad.reset()
        self.thread.join(timeout=5)


class Live:
    """A rig's table on the real server; its presses taken by a Driver on its own thread, each
    in ``slow`` s; ``journaled[seat]``: when (wall clock) each of that seat's inputs was written
    to the journal; ``handled[seat]``: how many of its presses the game's thread took."""

    def __init__(self, rig: Rig, *, slow: float = 0.0) -> None:
        self.rig = rig
        self.tokens = Tokens.new(rig.game.seats)
        self.journaled: dict[Who, list[tuple[float, Input]]] = {}
        self.handled: Counter[Who] = Counter()
        rig.table.record = self._record
        handle = rig.table.handle

        def slow_handle(press: Press) -> Reply:
            self.handled[press.who] += 1
            if slow:
                time.sleep(slow)
            return handle(press)

        rig.table.handle = slow_handle  # type: ignore[method-assign]
        self.driver = Driver(rig.host.scheduler, lambda event: None)
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._thread.start()
        self.hub = Hub(rig.table, self.driver.call)
        rig.table.publish = self.hub.publish
        self.server = ConsoleServer(build_app(self.hub, self.tokens)).start()

    def _record(self, event: Input) -> None:
        who = event.data.get("seat", OPERATOR)
        self.journaled.setdefault(who, []).append((time.perf_counter(), event))

    def _loop(self) -> None:
        while not self.driver.stopping:
            self.driver.take(block=True)

    def pad(self, who: Who, **kwargs: Any) -> RawPad:
        token = self.tokens.operator if who == OPERATOR else self.tokens.seats[int(who)]
        return RawPad(self.server.port, token, **kwargs)

    def close(self) -> None:
        self.server.stop()
        self.driver.stop()
        self._thread.join(timeout=5)


def voting(rig: Rig) -> Rig:
    """Day 1 to the vote on seat 4 (seats 4 and 6 nominated); the window stays open: nothing
    moves the game's time from here."""
    rig.to_the_vote()
    return rig


def hands(rig: Rig) -> list[int]:
    """The seats whose hands are up in the open window, in the order taken."""
    return [seat for a in rig.game.history if isinstance(a, Hands) for seat in a.seats]


@pytest.fixture
def live() -> Iterator[Live]:
    table = Live(voting(make_rig()), slow=SLOW_PRESS)
    try:
        yield table
    finally:
        table.close()


@pytest.fixture
def fast() -> Iterator[Live]:
    table = Live(voting(make_rig()))
    try:
        yield table
    finally:
        table.close()


@pytest.fixture
def no_rate_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """The rate limit out of the way: what is tested is the queueing alone."""
    monkeypatch.setattr(sockets_module, "RATE_COUNT", 10**9)


def _vote(i: int) -> dict[str, Any]:
    return {"id": i, "do": "vote", "candidate": 4}


def _shoot(i: int) -> dict[str, Any]:
    return {"id": i, "do": "shoot"}  # refused by day (not_now): nothing changes


# -- (1) one pad's flood does not hold up the others ------------------------------------------

def test_a_flooding_socket_does_not_delay_or_lose_another_seats_vote(
        live: Live, no_rate_limit: None) -> None:
    pads = {seat: live.pad(seat) for seat in range(3, 11)}  # the table's phones
    # seat 2's own token, 5,000 frames (15 s of the game's thread), never a frame read
    flood = Flood(live.pad(2), 5000, _vote)
    try:
        # the flood well under way: the game's thread busy with it (waited for, not slept:
        # a loaded machine takes its 50 frames later)
        deadline = time.perf_counter() + 10
        while live.handled[2] <= 50:
            assert time.perf_counter() < deadline, live.handled[2]
            time.sleep(0.01)
        sent: dict[int, float] = {}
        for seat, pad in pads.items():
            sent[seat] = time.perf_counter()
            assert pad.press(1, do="vote", candidate=4)["ok"], seat
        assert live.handled[2] < 4000  # the flood went on all along (not over before them)
        for seat in pads:  # each vote journaled promptly (so stamped promptly: before that)
            (when, event), *more = live.journaled[seat]
            assert not more and event.data["do"] == "vote"  # journaled as the hand it is
            assert when - sent[seat] < PROMPT, (seat, round(when - sent[seat], 3))
        assert sorted(hands(live.rig)) == list(range(2, 11))  # every hand, once
    finally:
        flood.stop()


def test_the_fault_runs_flood_is_cut_off_and_the_others_vote_on_time(live: Live) -> None:
    # as found: 60,000 small frames with a pad's own token, nothing read; the default limit
    pads = {seat: live.pad(seat) for seat in range(3, 11)}
    flood = Flood(live.pad(2), 60_000, _vote)
    try:
        settle(lambda: live.handled[2] > 0)  # the flood under way (waited for, not slept)
        for seat, pad in pads.items():
            sent = time.perf_counter()
            assert pad.press(1, do="vote", candidate=4)["ok"], seat
            assert live.journaled[seat][0][0] - sent < PROMPT
        # the server dropped it within a few seconds: its sending failed (no 10 s spent
        # reading and throwing away the rest of the flood while a closing handshake waits)
        flood.thread.join(timeout=4)
        assert not flood.thread.is_alive()
        for pad in pads.values():  # and the table is as quick as ever
            sent = time.perf_counter()
            assert pad.press(2, do="shoot")["reason"] == "not_now"
            assert time.perf_counter() - sent < PROMPT
    finally:
        flood.stop()
    assert sorted(hands(live.rig)) == list(range(2, 11))
    assert live.handled[2] <= 501  # cut off after 500 in no time: never 60,000 to take


# -- (2) the rate limit -------------------------------------------------------------------------

def test_a_pad_tapping_ten_times_a_second_is_never_refused(fast: Live) -> None:
    pad = fast.pad(2)
    clock = fast.rig.clock  # the game's clock: the server stamps and meters on it
    for i in range(1, 1201):  # two minutes of the game's time, 10 taps a second
        reply = pad.press(i, do="shoot")
        assert reply["reason"] == "not_now", (i, reply)
        clock.advance(0.1)
    assert pad.close_frame is None and not pad.eof


def test_more_than_fifty_a_second_for_ten_seconds_is_refused_too_fast_then_closed(
        fast: Live) -> None:
    pad = fast.pad(2)
    clock = fast.rig.clock
    started = clock.now()
    refused_at = None
    for i in range(1, 700):  # 60 a second, each answered before the next
        reply = pad.press(i, do="shoot")
        if reply["reason"] == "too_fast":
            refused_at = clock.now() - started
            break
        assert reply["reason"] == "not_now", (i, reply)
        clock.advance(1 / 60)
    assert refused_at is not None, "60 messages a second for 11 s and never refused"
    assert 8.0 <= refused_at <= 10.0, refused_at  # more than 500 within 10 s: the 501st
    assert reply == {"reply": i, "ok": False, "reason": "too_fast",
                         "text": "Слишком много нажатий: связь закрыта"}
    pad.until(lambda p: p.eof, timeout=3)  # then dropped at once (no closing handshake)
    assert hands(fast.rig) == []  # it pressed nothing the game took


def test_the_rate_limiter_runs_on_the_clock_it_is_given() -> None:
    from narrator.console.sockets import RateLimit

    now = [0.0]
    tapping = RateLimit(lambda: now[0])
    for _ in range(24 * 3600 * 10):  # a whole day at 10 taps a second
        assert tapping.allow()
        now[0] += 0.1
    bursts = RateLimit(lambda: now[0])
    for _ in range(3600):  # an hour of 40-tap bursts, one a second (no human does this)
        assert all(bursts.allow() for _ in range(40))
        now[0] += 1.0
    fast = RateLimit(lambda: now[0])
    allowed = 0
    while fast.allow():
        allowed += 1
        now[0] += 1 / 51  # just above 50 a second
    assert allowed == 500  # refused inside the first 10 s


# -- (3) no answer silently dropped -------------------------------------------------------------

def test_a_client_that_reads_late_still_gets_every_reply(live: Live) -> None:
    pad = live.pad(2)
    flood = Flood(pad, 450, _shoot)  # under the rate limit: every one is a press to answer
    time.sleep(1.5)  # a phone busy elsewhere: nothing read for a while
    pad.until(lambda p: len(p.replies()) == 450, timeout=20)
    assert set(pad.replies()) == set(range(1, 451))
    assert all(r["reason"] == "not_now" for r in pad.replies().values())
    assert live.hub.dropped == 0
    flood.stop()


def test_answers_to_a_socket_that_is_gone_are_counted(live: Live) -> None:
    gate = threading.Event()
    live.driver.call(lambda: gate.wait(10))  # the game's thread is busy for now
    pad = live.pad(2)
    for i in range(1, 11):
        pad.send(_shoot(i))
    settle(lambda: owed(live.hub, 2) == 10)  # read by the server, waiting for the game's thread
    pad.reset()  # the phone is gone before any answer
    settle(lambda: not live.hub.outboxes.get(2))  # and the server knows it
    gate.set()
    end = time.monotonic() + 10
    while live.hub.dropped < 10 and time.monotonic() < end:
        time.sleep(0.02)
    assert live.hub.dropped == 10
    assert live.handled[2] == 10  # every press read was still taken by the game
    # the table plays on: another pad's press is answered
    assert live.pad(3).press(1, do="vote", candidate=4)["ok"]


# -- (4) a phone that stops reading: one line on the terminal at most ---------------------------

@pytest.mark.parametrize("limit", ["default", "lifted"])
def test_a_client_that_stops_reading_costs_at_most_one_terminal_line(
        live: Live, limit: str, monkeypatch: pytest.MonkeyPatch,
        capfd: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture) -> None:
    if limit == "lifted":
        monkeypatch.setattr(sockets_module, "RATE_COUNT", 10**9)
    caplog.set_level(logging.WARNING)
    other = live.pad(3)
    # a small window, so that the server's sends block; then gone mid-flood, while the game's
    # thread still has presses of it to answer
    flood = Flood(live.pad(2, rcvbuf=4096), 2000, _shoot)
    time.sleep(1.5)
    flood.stop()
    # the table plays on; once another seat's press is answered, what was left is done
    assert other.press(1, do="vote", candidate=4, timeout=30)["ok"]
    settle(lambda: not live.hub.outboxes.get(2))  # its socket let go: its line (if any) said
    err = capfd.readouterr().err
    lines = [line for line in err.splitlines() if line.strip()]
    records = [r for r in caplog.records if r.levelno >= logging.WARNING]
    # without a logging setup (as in ``narrator play``) each record is a line on stderr
    assert len(lines) + len(records) <= 1, (len(lines), len(records),
                                            lines[:2], [r.getMessage() for r in records][:2])


def test_the_console_stops_at_once_with_a_reader_waiting_for_room() -> None:
    # after the game the loop takes nothing more while the console stays up for the protocol:
    # a pad pressing on fills what its socket may owe, and its reader waits for room
    rig = make_rig()
    tokens = Tokens.new(rig.game.seats)
    hub = Hub(rig.table, lambda fn: None)
    server = ConsoleServer(build_app(hub, tokens)).start()
    pad = RawPad(server.port, tokens.seats[2])
    for i in range(1, 41):
        pad.send(_shoot(i))
    settle(lambda: owed(hub, 2) == sockets_module.MAX_OWED)  # its reader waits for room
    assert hub.connected == 1
    started = time.monotonic()
    server.stop()
    assert time.monotonic() - started < 2.5 and not server._thread.is_alive()
