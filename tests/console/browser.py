"""What the browser tests share: a real ``narrator play --listen off --console`` subprocess on
the real clock (a club's short figures and a voice pack of 40 ms clips), and its pages — the
operator's and ten phone-sized seat pads — in Debian's Chromium driven by Playwright."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from narrator.words import CARDS

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
REPO = Path(__file__).resolve().parents[2]
#: a card's name in a line the narrator prints (the terminal is no seat's)
#: a card named in the terminal's output: the engine's codes, and the cards' names as the
#: table's words give them (the terminal speaks the table's language)
ROLE_WORDS = re.compile(
    r"\b(sheriff|mafia|don|civilian|doctor|maniac|commissar|nurse|"
    + "|".join(re.escape(name) for name in sorted(
        {n for names in CARDS.values() for n in names.values()}, key=len, reverse=True))
    + r")\b", re.IGNORECASE)

needs_chromium = pytest.mark.skipif(not Path(CHROMIUM).exists(),
                                    reason="needs Debian's chromium (bash scripts/setup.sh --dev)")


def quick_pack(root: Path, lang: str = "ru") -> Path:
    """A voice pack with every phrase of the default manifest as 40 ms of near-silence: the
    narration takes no real time, so a browser test plays a whole game in seconds."""
    import wave

    from narrator.voice.manifest import default_voices_root, load_manifest

    pack = root / f"quick-{lang}"
    clips = pack / "clips"
    clips.mkdir(parents=True)
    shutil.copy(default_voices_root() / lang / "manifest.json", pack / "manifest.json")
    frames = b"".join(int(20 * (-1) ** i).to_bytes(2, "little", signed=True) for i in range(880))
    for key in load_manifest(pack):
        with wave.open(str(clips / f"{key}.wav"), "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(22050)
            w.writeframes(frames)
    return pack


@dataclass
class Launched:
    """The game's process, its links, its deal (from the journal's header) and its files."""

    proc: subprocess.Popen[str]
    links: dict[str, Any]
    roles: dict[int, str]
    dealt: dict[str, str]
    journal: Path

    def output(self) -> str:
        return self.proc.stdout.read() if self.proc.stdout else ""


@contextmanager
def launched_game(tmp: Path, *args: str, lang: str = "ru") -> Iterator[Launched]:
    """``narrator play --listen off --console`` with ``args`` (the rules, the seed, the club's
    figures); on a failure the process is killed and what it printed is shown."""
    pack = quick_pack(tmp, lang)
    links = tmp / "links.json"
    journal = tmp / "journal.jsonl"
    cmd = [sys.executable, "-m", "narrator", "play", "--listen", "off", "--lang", lang,
           "--console", "127.0.0.1:0", "--links", str(links), "--out-wav", str(tmp / "game.wav"),
           "--journal", str(journal), "--voices", str(pack), *args]
    proc = subprocess.Popen(cmd, cwd=tmp, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, "PYTHONPATH": str(REPO)})
    try:
        deadline = time.monotonic() + 30
        while not links.exists() or not links.read_text().strip().endswith("}"):
            assert proc.poll() is None, proc.stdout.read() if proc.stdout else ""
            assert time.monotonic() < deadline, "the console never wrote its links"
            time.sleep(0.05)
        header = json.loads(journal.read_text().splitlines()[0])
        yield Launched(proc, json.loads(links.read_text()),
                       {int(s): r for s, r in header["roles"].items()},
                       dict(header.get("dealt", {})), journal)
    except BaseException:
        if proc.poll() is None:
            proc.kill()
        print(proc.stdout.read() if proc.stdout else "")
        raise


def end_game(game: Launched, op: Any) -> tuple[dict[str, Any], str]:
    """Download the protocol from the operator's page, then Enter closes the console: the
    protocol and everything the narrator printed."""
    with op.expect_download() as download:
        op.locator("#protocol").click()
    protocol: dict[str, Any] = json.loads(Path(download.value.path()).read_text())
    assert game.proc.stdin is not None
    game.proc.stdin.write("\n")
    game.proc.stdin.flush()
    assert game.proc.wait(timeout=30) == 0
    return protocol, game.output()


def journal_protocol(journal: Path) -> dict[str, Any]:
    """``narrator resume JOURNAL --json``: the protocol the journal alone gives (the command's
    own ``main``, in this process: the game's process has ended, and a Python of its own would
    only add its start-up)."""
    from narrator.cli import main

    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert main(["resume", str(journal), "--json"]) == 0
    out: dict[str, Any] = json.loads(printed.getvalue())
    return out


#: seconds a test waits for a page's state by default: a state that comes ends the wait at
#: once, and a machine busy with other work may take many seconds to bring it
WAIT = 30.0


def probe(expression: str) -> str:
    """``expression`` as a test of the page's state: true or false, never an error — a view
    read before it came (``Console.view().player.seat`` while there is no player yet) is the
    state not come yet, to be waited for, not a failure."""
    return f"(() => {{ try {{ return !!({expression}); }} catch (e) {{ return false; }} }})()"


def wait(page: Any, expression: str, timeout: float = WAIT) -> None:
    """Poll ``expression`` in the page until true (the pages' CSP forbids eval, which
    Playwright's wait_for_function needs; evaluate is not subject to it). Every read of a
    view a test makes waits here first for the state it reads (see :func:`probe`)."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(probe(expression)):
        if time.monotonic() > deadline:
            state = page.evaluate("[(document.querySelector('#message') || {}).textContent, "
                                  "window.Console ? Console.view() : null]")
            raise AssertionError(f"never true: {expression}: {state}")
        time.sleep(0.03)


class Pages:
    """The operator's page and the ten seat pads (phone-sized) of one browser context."""

    def __init__(self, ctx: Any, links: dict[str, Any], seats: int = 10) -> None:
        self.op = ctx.new_page()
        self.op.set_viewport_size({"width": 1000, "height": 820})
        self.op.goto(links["operator"])
        self.pads: dict[int, Any] = {}
        for seat in range(1, seats + 1):
            page = ctx.new_page()
            page.set_viewport_size({"width": 390, "height": 780})  # a phone
            page.goto(links["seats"][str(seat)])
            self.pads[seat] = page
        #: per seat, the step last acted on (its pad's view may lag behind the press)
        self.acted: dict[int, str] = {}

    def new_step(self, seat: int) -> tuple[dict[str, Any], dict[str, Any]] | None:
        """The view and step of ``seat``'s pad when it asks for something not yet acted on."""
        view = self.view(self.pads[seat])
        step = view["step"] if view else None
        if view is None or step is None:
            return None
        acting = json.dumps([view["phase"], step])
        if self.acted.get(seat) == acting:
            return None  # done already; the pad's view has not caught up yet
        self.acted[seat] = acting
        return view, step

    def view(self, page: Any) -> dict[str, Any] | None:
        view: dict[str, Any] | None = page.evaluate("window.Console ? Console.view() : null")
        return view

    def text(self, page: Any) -> str:
        """What the page shows (hidden elements left out)."""
        text: str = page.evaluate("document.body.innerText")
        return text

    def click(self, page: Any, selector: str, text: str | None = None) -> bool:
        """Click; False when the button went away because the game moved on meanwhile
        (the view read a moment ago was already old)."""
        loc = page.locator(selector)
        if text is not None:
            loc = loc.filter(has_text=re.compile(f"^{re.escape(text)}$"))
        before = json.dumps((self.view(page) or {}).get("step"))
        if loc.count() == 0:
            return False  # already redrawn: the game moved on
        try:
            loc.first.click(timeout=1000, force=True)  # static pages: no animation to wait for
        except Exception:
            if json.dumps((self.view(page) or {}).get("step")) != before:
                return False
            raise AssertionError(f"cannot click {selector} {text}: {self.view(page)}") from None
        return True

    def held(self, page: Any) -> str:
        """What the step's secret shows while a finger is on it ("" when it has none); let go,
        it is hidden again."""
        loc = page.locator("#step .secret")
        if loc.count() == 0:
            return ""
        page.bring_to_front()
        box = loc.first.bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
        text: str = page.evaluate("document.querySelector('#step .secret .face').innerText")
        page.mouse.up()
        assert page.evaluate("document.querySelector('#step .secret .face').hidden")
        return text

    def hold_card(self, page: Any) -> None:
        # the player picks the phone up: a page in the background gets its input only with
        # its next frame, up to a second later
        page.bring_to_front()
        box = page.locator("#card").bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()  # the card shows while held …
        assert page.evaluate("!document.getElementById('card-face').hidden")
        page.mouse.up()  # … and the pad says it has been seen when let go
