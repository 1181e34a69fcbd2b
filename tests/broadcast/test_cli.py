"""``--broadcast [HOST:]PORT`` and ``--broadcast-delay`` on ``narrator play`` and ``narrator
evening``: each bad value one line before anything is written, and a real game's two servers,
each on its own port, whose links open nothing of each other."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from narrator.arguments import BroadcastArgs
from narrator.broadcast.serve import broadcast_options, same_address
from narrator.cli import main
from narrator.errors import NarratorError
from tests.console.browser import REPO, launched_game

URL = re.compile(r"трансляция \(источник «Браузер» в OBS.*?\): (http://\S+)")


def play(tmp: Path, *args: str) -> list[str]:
    return ["play", "--listen", "off", "--journal", str(tmp / "j.jsonl"),
            "--out-wav", str(tmp / "o.wav"), *args]


@pytest.mark.parametrize(("args", "says"), [
    (["--console", "127.0.0.1:8765", "--broadcast", "127.0.0.1:8765"], "console's address"),
    (["--console", "0.0.0.0:8765", "--broadcast", "127.0.0.1:8765"], "console's address"),
    (["--console", "8765", "--broadcast", "localhost:8765"], "console's address"),
    (["--console", "127.0.0.1:0", "--broadcast", "nope"], "--broadcast: expected [HOST:]PORT"),
    (["--console", "127.0.0.1:0", "--broadcast-delay", "30"], "add --broadcast"),
    (["--console", "127.0.0.1:0", "--broadcast", "0", "--broadcast-delay", "-1"],
     "--broadcast-delay -1"),
    (["--console", "127.0.0.1:0", "--broadcast", "0", "--broadcast-delay", "nan"],
     "--broadcast-delay nan"),
    (["--console", "127.0.0.1:0", "--broadcast", "10.255.255.1:8766"], "cannot listen"),
])
def test_a_bad_broadcast_is_one_line_before_anything_is_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], says: str) -> None:
    code = main(play(tmp_path, *args))
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and says in err, err
    assert "Traceback" not in err and not (tmp_path / "j.jsonl").exists()


def test_an_evening_refuses_its_consoles_address_too(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["evening", str(tmp_path / "ev"), "--console", "127.0.0.1:8765",
                 "--broadcast", "8765", "--players", "А,Б", "--wav"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "console's address" in err, err
    assert not (tmp_path / "ev").exists()


def test_a_taken_port_is_named() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(NarratorError, match=f"--broadcast 127.0.0.1:{port}: cannot listen"):
            broadcast_options(BroadcastArgs(f"127.0.0.1:{port}"), None)


def test_the_delay_is_the_clubs_or_sixty_seconds() -> None:
    assert broadcast_options(BroadcastArgs("127.0.0.1:0"), None).delay == 60  # type: ignore[union-attr]
    given = broadcast_options(BroadcastArgs("127.0.0.1:0", 12.5), "127.0.0.1:0")
    assert given is not None and given.delay == 12.5
    assert broadcast_options(BroadcastArgs(), "127.0.0.1:8765") is None
    assert not same_address(("127.0.0.1", 0), ("127.0.0.1", 0))
    assert not same_address(("127.0.0.1", 8765), ("192.168.1.4", 8765))
    assert same_address(("::", 8765), ("192.168.1.4", 8765))


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return int(r.status)
    except urllib.error.HTTPError as e:
        return int(e.code)


def _first_picture(link: str) -> dict[str, Any]:
    """The feed's picture once the game's process has built its host (it starts the
    broadcast first: its link is printed before the game is taken up)."""
    deadline = time.monotonic() + 20
    while True:
        with urllib.request.urlopen(link + "feed.json", timeout=5) as r:
            picture: dict[str, Any] | None = json.load(r)["picture"]
        if picture is not None:
            return picture
        assert time.monotonic() < deadline, "the broadcast never showed the game"
        time.sleep(0.05)


def test_a_game_serves_the_broadcast_on_its_own_port_and_token(tmp_path: Path) -> None:
    with launched_game(tmp_path, "--seed", "3", "--broadcast", "127.0.0.1:0",
                       "--broadcast-delay", "0") as game:
        assert game.proc.stdout is not None
        lines = [game.proc.stdout.readline() for _ in range(4)]
        at = next(i for i, line in enumerate(lines) if URL.search(line))
        found = URL.search(lines[at])
        assert found, lines
        cast = found.group(1)
        assert "на 0 с" in lines[at] and "не за столом" in lines[at + 1]
        assert "внимание: --broadcast-delay 0" in lines[at + 2]
        operator = str(game.links["operator"])
        assert cast.split("/broadcast/")[0] != operator.split("/op/")[0]  # another port
        roles = {s["seat"]: s["role"] for s in _first_picture(cast)["seats"]}
        assert roles == game.roles
        cast_base, cast_token = cast.rstrip("/").split("/broadcast/")
        table_base = operator.split("/op/")[0]
        tokens = [operator.rsplit("/", 1)[1],
                  *(str(u).rsplit("/", 1)[1] for u in game.links["seats"].values())]
        for token in tokens:
            assert _status(f"{cast_base}/broadcast/{token}/") == 404
            assert _status(f"{cast_base}/op/{token}") == 404
        for path in (f"/op/{cast_token}", f"/pad/{cast_token}", f"/broadcast/{cast_token}/"):
            assert _status(table_base + path) in (403, 404)
        game.proc.kill()
        game.proc.wait(timeout=10)
    # taken up again from its journal, the game is on a new broadcast (a new token)
    cmd = [sys.executable, "-m", "narrator", "resume", str(game.journal), "--listen", "off",
           "--console", "127.0.0.1:0", "--out-wav", str(tmp_path / "again.wav"),
           "--voices", str(tmp_path / "quick-ru"), "--broadcast", "127.0.0.1:0",
           "--broadcast-delay", "0"]
    proc = subprocess.Popen(cmd, cwd=tmp_path, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, "PYTHONPATH": str(REPO)})
    try:
        assert proc.stdout is not None
        again = None
        for _ in range(20):
            again = URL.search(proc.stdout.readline())
            if again:
                break
        assert again is not None and again.group(1) != cast
        picture = _first_picture(again.group(1))
        assert {s["seat"]: s["role"] for s in picture["seats"]} == game.roles
    finally:
        proc.kill()
        proc.wait(timeout=10)


def test_a_human_hosts_game_is_not_streamed_on_resume(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from narrator.engine import Game
    from narrator.host.journal import Journal

    path = tmp_path / "assist.jsonl"
    Journal.for_game(path, Game("crime-time"), lang="ru", mode="assist").close()
    code = main(["resume", str(path), "--broadcast", "127.0.0.1:0"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "an assist game is not streamed" in err, err
