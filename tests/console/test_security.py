"""The console's security, at the HTTP and websocket level: every link's reach, refusals that
say nothing about which part was wrong, assets only from the package, loopback by default."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from narrator.console import tokens as tokens_module
from narrator.console.app import REFUSAL, build_app
from narrator.console.hub import Hub
from narrator.console.links import parse_address, write_links
from narrator.console.server import ConsoleServer
from narrator.console.tokens import OPERATOR, Tokens
from narrator.engine import waits as w
from tests.console.conftest import EVERYONE, Rig, make_rig

ROLE_WORDS = ('"don"', '"sheriff"', '"mafia"', '"civilian"')


class Served:
    """A rig's table behind the real app, driven in the test's thread (under a lock)."""

    def __init__(self, rig: Rig) -> None:
        self.rig = rig
        self.tokens = Tokens.new(rig.game.seats)
        self.lock = threading.Lock()
        self.hub = Hub(rig.table, self.submit)
        rig.table.publish = self.hub.publish
        self.client = TestClient(build_app(self.hub, self.tokens), base_url="http://table")

    def submit(self, fn: Callable[[], object]) -> None:
        with self.lock:
            fn()

    def pad(self, seat: int) -> str:
        return self.tokens.seats[seat]

    def step(self, fn: Callable[[], object]) -> None:
        """Move the game on (the loop's thread would), publishing the views."""
        with self.lock:
            fn()
            self.rig.table.publish_views()


@pytest.fixture
def served() -> Iterator[Served]:
    s = Served(make_rig())
    with s.client:
        yield s


class Peer:
    """One socket: the latest view it got and the answers to its presses."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.view: dict[str, Any] = {}
        self.replies: dict[Any, dict[str, Any]] = {}
        self.ident = 0

    def read(self) -> None:
        msg = self.ws.receive_json()
        if "view" in msg:
            self.view = msg["view"]
        else:
            self.replies[msg["reply"]] = msg

    def until(self, test: Callable[[Peer], bool]) -> Peer:
        for _ in range(100):
            if test(self):
                return self
            self.read()
        raise AssertionError("never happened")

    def send(self, **press: Any) -> dict[str, Any]:
        """Press and wait for the answer."""
        self.ident += 1
        ident = self.ident
        self.ws.send_json({"id": ident, **press})
        return self.until(lambda p: ident in p.replies).replies[ident]

    def send_raw(self, text: str) -> dict[str, Any]:
        self.ws.send_text(text)
        return self.until(lambda p: None in p.replies).replies.pop(None)


def _one_wrong(token: str) -> str:
    """``token`` with its last character changed (never to itself: a token may end in x)."""
    return token[:-1] + ("y" if token.endswith("x") else "x")


def test_each_link_opens_its_own_page_and_nothing_else(served: Served) -> None:
    c = served.client
    pad = c.get(f"/pad/{served.pad(3)}")
    assert pad.status_code == 200 and "pad.js" in pad.text
    assert pad.headers["cache-control"] == "no-store"
    assert pad.headers["referrer-policy"] == "no-referrer"
    assert "default-src 'self'" in pad.headers["content-security-policy"]
    op = c.get(f"/op/{served.tokens.operator}")
    assert op.status_code == 200 and "operator.js" in op.text
    # a seat's link cannot reach the operator view; the operator's is not a pad
    refusals = [
        c.get(f"/op/{served.pad(3)}"),
        c.get(f"/pad/{served.tokens.operator}"),
        c.get(f"/pad/{_one_wrong(served.pad(3))}"),  # one character wrong
        c.get("/pad/"),
        c.get("/op/"),
        c.get("/pad/%00"),
        c.get(f"/op/{served.pad(3)}/protocol.json"),
        c.get("/"),
    ]
    # every refusal is the same bytes: nothing tells which part was wrong
    assert {(r.status_code, r.text) for r in refusals} == {(403, REFUSAL)}


def test_tokens_are_compared_in_constant_time(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[bytes, bytes]] = []
    real = tokens_module.hmac.compare_digest

    def spy(a: bytes, b: bytes) -> bool:
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(tokens_module.hmac, "compare_digest", spy)
    tokens = Tokens.new(10)
    assert tokens.who(tokens.seats[4]) == 4
    assert tokens.who(tokens.operator) == OPERATOR
    assert tokens.who("nope") is None and tokens.who("") is None
    # every stored token is compared every time, whichever matched (or none)
    assert len(calls) == 3 * 11
    assert len({t.seats[1] for t in (Tokens.new(10), Tokens.new(10))}) == 2
    assert len(tokens.seats[1]) >= 32


def test_a_wrong_or_missing_token_gets_no_socket(served: Served) -> None:
    from starlette.websockets import WebSocketDisconnect

    for path in (f"/ws/{served.pad(3)}x", "/ws/-", "/ws/%20"):
        with pytest.raises(WebSocketDisconnect) as e, served.client.websocket_connect(path) as ws:
            ws.receive_json()
        assert e.value.code == 1008
    # a page of another site cannot open a socket with a token it got somehow
    with pytest.raises(WebSocketDisconnect), served.client.websocket_connect(
            f"/ws/{served.pad(3)}", headers={"origin": "http://evil.example"}) as ws:
        ws.receive_json()
    with served.client.websocket_connect(
            f"/ws/{served.pad(3)}", headers={"origin": "http://testserver"}) as ws:
        assert ws.receive_json()["view"]["seat"] == 3


def test_a_seats_socket_sees_its_own_card_only_and_acts_only_for_itself(served: Served) -> None:
    rig = served.rig
    c = served.client
    with c.websocket_connect(f"/ws/{served.pad(3)}") as d, \
            c.websocket_connect(f"/ws/{served.pad(4)}") as v, \
            c.websocket_connect(f"/ws/{served.tokens.operator}") as o:
        don, civ, op = Peer(d), Peer(v), Peer(o)
        don.until(lambda p: bool(p.view) and p.view["card"] is not None)
        assert don.view["seat"] == 3 and don.view["card"]["role"] == "don"
        civ.until(lambda p: bool(p.view) and p.view["card"] is not None)
        assert civ.view["card"]["role"] == "civilian"
        for word in ('"don"', '"mafia"', '"sheriff"'):
            assert word not in json.dumps(civ.view)  # seat 4 learns nobody else's card
        op.until(lambda p: bool(p.view))
        assert not any(word in json.dumps(op.view) for word in ROLE_WORDS)
        # a press names no seat: "seat": 5 is ignored, the card seen is seat 4's
        assert civ.send(do="seen", seat=5) == {"reply": 1, "ok": True, "reason": None, "text": None}
        assert rig.table.desk.seen == {4}
        # inputs outside their window are refused with a reason
        assert civ.send(do="vote", candidate=5)["reason"] == "not_now"
        assert civ.send(do="shoot")["reason"] == "not_now"
        assert don.send_raw("not json")["reason"] == "bad_request"
        assert don.send_raw(json.dumps({"id": 9, "do": "x" * 100}))["reason"] == "bad_request"
        assert don.send(do="fly")["reason"] == "bad_request"
        # the operator's socket cannot act as a pad, nor a pad as the operator
        assert op.send(do="seen")["reason"] == "bad_request"
        assert civ.send(do="remove", seat=3)["reason"] == "bad_request"
        assert rig.game.out == {}


def test_a_check_answer_goes_to_the_checkers_socket_only(served: Served) -> None:
    rig = served.rig

    def to_the_dons_check() -> None:
        rig.deal()
        for seat in EVERYONE:
            rig.press(seat, "end")
        rig.until(w.NightAct, checks=True, role="don")

    served.step(to_the_dons_check)
    c = served.client
    with c.websocket_connect(f"/ws/{served.pad(3)}") as d, \
            c.websocket_connect(f"/ws/{served.pad(1)}") as s, \
            c.websocket_connect(f"/ws/{served.tokens.operator}") as o:
        don, sheriff, op = Peer(d), Peer(s), Peer(o)
        don.until(lambda p: bool(p.view))
        assert don.view["step"]["type"] == "check"
        assert sheriff.send(do="check", target=3)["reason"] == "not_now"  # not his turn
        answer = don.send(do="check", target=1)
        assert answer["ok"] and answer["says"] == "sheriff"
        don.until(lambda p: p.view["step"]["done"] == {"target": 1, "says": "sheriff"})
        op.until(lambda p: bool(p.view))
        assert '"says"' not in json.dumps(sheriff.view)
        assert '"says"' not in json.dumps(op.view)
        assert '"says"' not in json.dumps(sheriff.replies)


def test_the_protocol_is_for_the_operator_and_only_after_the_game(served: Served) -> None:
    c = served.client
    op = served.tokens.operator
    before = c.get(f"/op/{op}/protocol.json")
    assert before.status_code == 409 and "role" not in before.text
    assert c.get(f"/op/{served.pad(1)}/protocol.json").text == REFUSAL
    rig = served.rig

    def remove_the_mafia() -> None:
        rig.deal()
        for seat in (3, 5, 9):
            rig.op("remove", seat=seat)

    served.step(remove_the_mafia)
    done = c.get(f"/op/{op}/protocol.json")
    assert done.status_code == 200 and done.json()["winner"] == "civilians"
    assert "attachment" in done.headers["content-disposition"]


@pytest.mark.parametrize("path", [
    "/static/../server.py", "/static/%2e%2e/server.py", "/static/..%2fserver.py",
    "/static/%2e%2e%2f%2e%2e%2fengine/game.py", "/static//etc/passwd", "/static/....//tokens.py",
    "/static/%252e%252e/server.py",
])
def test_no_file_is_served_from_outside_the_assets(served: Served, path: str) -> None:
    r = served.client.get(path)
    assert r.status_code in (403, 404)
    assert "import" not in r.text and "root:" not in r.text


def test_assets_are_served_from_the_package(served: Served) -> None:
    for name in ("pad.js", "operator.js", "common.js", "console.css"):
        r = served.client.get(f"/static/{name}")
        assert r.status_code == 200 and len(r.content) > 100
        assert "http://" not in r.text and "https://" not in r.text  # no CDN, no web fonts


def test_the_server_binds_the_address_given_loopback_by_default() -> None:
    assert parse_address("8765") == ("127.0.0.1", 8765)
    assert parse_address("0.0.0.0:8765") == ("0.0.0.0", 8765)
    assert parse_address("[::1]:80") == ("::1", 80)
    rig = make_rig()
    hub = Hub(rig.table, lambda fn: None)
    server = ConsoleServer(build_app(hub, Tokens.new(10)), "127.0.0.1", 0).start()
    try:
        bound = [s.getsockname() for srv in server.server.servers for s in srv.sockets]
        assert bound and all(addr[0] == "127.0.0.1" for addr in bound)
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as conn:
            conn.sendall(b"GET /op/x HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
            answer = conn.recv(4096)
        assert answer.startswith(b"HTTP/1.1 403")
    finally:
        server.stop()


def test_the_links_file_is_readable_by_its_owner_only(tmp_path: Any) -> None:
    path = tmp_path / "links.json"
    path.write_text("{}")
    path.chmod(0o644)
    write_links(path, {"operator": "http://x/op/t", "seats": {"1": "http://x/pad/u"}})
    assert path.stat().st_mode & 0o777 == 0o600
    assert json.loads(path.read_text())["seats"]["1"] == "http://x/pad/u"


def test_a_pad_that_drops_stops_nothing_and_gets_its_state_back(served: Served) -> None:
    rig = served.rig
    c = served.client
    with c.websocket_connect(f"/ws/{served.pad(4)}") as v:
        pad = Peer(v)
        pad.until(lambda p: bool(p.view))
        assert pad.send(do="seen")["ok"]
    # the phone is gone (asleep, out of the Wi-Fi); the table plays on without it
    served.step(lambda: [rig.press(s, "seen") for s in range(1, 11)])
    served.step(lambda: rig.until(w.Speech))
    assert isinstance(rig.game.expect, w.Speech) and rig.game.expect.seat == 1
    with c.websocket_connect(f"/ws/{served.pad(4)}") as v, \
            c.websocket_connect(f"/ws/{served.pad(1)}") as u:
        pad, speaker = Peer(v), Peer(u)
        pad.until(lambda p: bool(p.view))  # at once, the state as it is now
        assert pad.view["phase"]["step"] == "speech" and pad.view["card"]["role"] == "civilian"
        speaker.until(lambda p: bool(p.view))
        assert speaker.view["step"]["type"] == "speech"
        assert speaker.send(do="end")["ok"]
        pad.until(lambda p: p.view["phase"].get("seat") == 2)


def test_a_console_address_that_cannot_be_used_is_one_line_before_anything_is_written(
        tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    from narrator.cli import main

    journal = tmp_path / "j.jsonl"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        for address in ("nope", "127.0.0.1:99999", f"127.0.0.1:{port}", "10.255.255.1:8765"):
            code = main(["play", "--listen", "off", "--console", address, "--journal",
                         str(journal), "--out-wav", str(tmp_path / "o.wav")])
            err = capsys.readouterr().err
            assert code == 2 and err.count("\n") == 1 and "--console" in err, err
    assert not journal.exists()


def test_the_doctors_stretcher_and_the_maniacs_pick_reach_their_own_sockets_only() -> None:
    from narrator.engine import Role

    vrn = {4: Role.DON, 7: Role.MAFIA, 10: Role.MAFIA, 2: Role.SHERIFF, 9: Role.DOCTOR,
           1: Role.MANIAC}
    served = Served(make_rig(roles=vrn, rules="vrn", dealt={"maniac_side": "mafia"}))
    rig = served.rig
    with served.client:
        def to_the_night() -> None:
            rig.deal()
            for seat in EVERYONE:
                rig.until(w.Speech, seat=seat)
                rig.press(seat, "end")
            rig.until(w.NightAct, checks=False, role="mafia")

        served.step(to_the_night)
        c = served.client
        sockets = {seat: c.websocket_connect(f"/ws/{served.pad(seat)}") for seat in EVERYONE}
        sockets_op = c.websocket_connect(f"/ws/{served.tokens.operator}")
        peers: dict[Any, Peer] = {}
        seen: dict[Any, list[str]] = {}
        for who, ws in [*sockets.items(), ("operator", sockets_op)]:
            peers[who] = Peer(ws.__enter__())
            seen[who] = []
        try:
            def sync(step: str) -> None:
                """Every socket reads up to the views of ``step``, keeping what it got."""
                for who, peer in peers.items():
                    while not peer.view or peer.view["phase"]["step"] != step:
                        msg = peer.ws.receive_json()
                        seen[who].append(json.dumps(msg, ensure_ascii=False))
                        if "view" in msg:
                            peer.view = msg["view"]

            sync("mafia_decides")
            assert peers[4].send(do="act", act="kill", target=6)["ok"]
            served.step(lambda: rig.until(w.NightAct, checks=False, role="maniac"))
            sync("maniac_kills")
            pick = peers[1].send(do="act", act="kill", target=3)
            assert pick["ok"] and pick["target"] == 3
            assert peers[5].send(do="act", act="kill", target=8)["reason"] == "not_now"
            served.step(lambda: rig.until(w.NightAct, checks=False, role="doctor"))
            sync("doctor_saves")
            assert peers[9].view["step"]["victims"] == [6, 3]
            assert peers[9].send(do="act", act="save", target=5)["reason"] == "not_a_victim"
            assert peers[9].send(do="act", act="save", target=3)["saved"] == 3
            served.step(lambda: rig.until(w.Speech))
            sync("speech")
            for who, peer in peers.items():
                seen[who].append(json.dumps(peer.replies, ensure_ascii=False))
        finally:
            for ws in [*sockets.values(), sockets_op]:
                ws.__exit__(None, None, None)
    assert peers["operator"].view["out"] == {"6": "shot"}  # not who killed
    for who, texts in seen.items():
        text = "\n".join(texts)
        if who != 9:  # the stretcher, the save and the doctor's refusal are his alone
            for secret in ('"victims"', '"saved"', "not_a_victim", '"doctor"'):
                assert secret not in text, (who, secret)
        if who != 1:  # the maniac's card
            assert '"maniac"' not in text, who
        if who not in (1, 9):  # the maniac's pick (the doctor sees it on the stretcher)
            assert '"target": 3' not in text, who
        if who not in (4, 7, 10):  # the mafia's kill
            assert '"target": 6' not in text, who
