"""Pages served from a table rig on a virtual clock, read in Chromium: what the every-page
language test shares (the rig moves the game; the test waits for each page to draw it)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from narrator.console.app import build_app
from narrator.console.hub import Hub
from narrator.console.server import ConsoleServer
from narrator.console.tokens import Tokens
from narrator.testing import TableRig

#: what a page shows: its text, its title, and the words of its tooltips and placeholders
VISIBLE = """(() => {
  const bits = [document.body.innerText, document.title];
  for (const e of document.querySelectorAll('[title],[placeholder],[aria-label]')) {
    if (e.offsetParent === null && e.id !== 'link') continue;
    bits.push(e.getAttribute('title') || '', e.getAttribute('placeholder') || '',
              e.getAttribute('aria-label') || '');
  }
  for (const o of document.querySelectorAll('option')) bits.push(o.textContent);
  return bits.join('\\n');
})()"""


def visible(page: Any) -> str:
    text: str = page.evaluate(VISIBLE)
    return text


class Served:
    """The rig's console served on loopback: its pages' links; :meth:`settle` runs what the
    pages asked of the game's loop and waits until each page has drawn the latest view."""

    def __init__(self, rig: TableRig) -> None:
        self.rig = rig
        self.tokens = Tokens.new(rig.game.seats)
        self.hub = Hub(rig.table, rig.driver.call)
        rig.table.publish = self.hub.publish
        self.server = ConsoleServer(build_app(self.hub, self.tokens)).start()
        rig.table.publish_views()

    def link(self, seat: int | None) -> str:
        base = f"http://127.0.0.1:{self.server.port}"
        if seat is None:
            return f"{base}/op/{self.tokens.operator}"
        return f"{base}/pad/{self.tokens.seats[seat]}"

    def settle(self, pages: list[Any], timeout: float = 10.0) -> None:
        """Every page has drawn the view the table published last (its step's serial)."""
        self.rig.table.publish_views()
        serial = self.rig.game.expect.serial
        deadline = time.monotonic() + timeout
        for page in pages:
            while True:
                self.rig.driver.take()
                got = page.evaluate("Console.view() && Console.view().phase.serial")
                if got == serial:
                    break
                assert time.monotonic() < deadline, f"the page never drew step {serial}"
                time.sleep(0.02)
        # (a view is drawn by the message's own handler: once the page holds it, it shows it)

    def close(self) -> None:
        self.server.stop()


@contextmanager
def served(rig: TableRig) -> Iterator[Served]:
    s = Served(rig)
    try:
        yield s
    finally:
        s.close()
