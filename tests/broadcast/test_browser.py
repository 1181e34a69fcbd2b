"""The broadcast's page in Chromium at 1920×1080, an OBS browser source's size, on a game
played on a virtual clock: nothing shows before its moment + the delay; then the table with
the nicknames, the cards, the speaker, the timer, the nominations and the night's acts; each
scene change a DOM event, the body's ``data-scene`` and OBS's own scene switch (a stand-in
for ``window.obsstudio``); and the standings between games.

With NARRATOR_SCREENSHOTS=DIR the scenes are kept as PNGs (docs/broadcast.md shows them)."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from narrator.broadcast.serve import Broadcast, BroadcastOptions
from narrator.broadcast.snapshot import StandingRow
from narrator.clock import VirtualClock
from narrator.engine import Game
from narrator.engine import waits as w
from narrator.testing import TableRig
from tests.console.browser import WAIT, needs_chromium, probe
from tests.console.conftest import browser_context  # noqa: F401
from tests.helpers import ROLES

DELAY = 60.0
NAMES = {1: "Ника", 2: "Бублик", 3: "Momento Mori", 4: "Лис", 5: "Сова", 6: "Кит",
         7: "Ёж", 8: "Рысь", 9: "Барон", 10: "Тень"}
#: the OBS browser source's API as the page finds it (it records the scenes it is asked for)
OBS_STAND_IN = """
window.__obs = []; window.__events = [];
window.obsstudio = {setCurrentScene: (name) => window.__obs.push(name)};
window.addEventListener("narrator-scene", (e) => window.__events.push(e.detail.scene));
"""


class Stage:
    """A game at a rig, its broadcast served on loopback, read on the stream's own clock."""

    def __init__(self) -> None:
        game = Game("crime-time", roles=ROLES, names=NAMES)
        self.rig = TableRig(game)
        self.stream = VirtualClock()
        self.cast = Broadcast.start(BroadcastOptions("127.0.0.1:0", DELAY), self.rig.clock,
                                    stream=self.stream)
        self.pushed: list[dict[str, Any]] = []
        push = self.cast.feed.push

        def keep(picture: dict[str, Any]) -> None:
            push(picture)
            self.pushed.append(picture)

        self.cast.feed.push = keep  # type: ignore[method-assign]
        self.cast.watch(self.rig.host, "ru")

    def first(self, scene: str) -> float:
        """The moment the game entered ``scene`` (its first picture in it)."""
        return min(p["at"] for p in self.pushed if p["scene"] == scene)


@pytest.fixture
def stage() -> Iterator[Stage]:
    s = Stage()
    try:
        yield s
    finally:
        s.cast.stop()


def until(page: Any, expression: str, timeout: float = WAIT) -> None:
    """Poll ``expression`` in the page until true (its CSP forbids the eval that Playwright's
    wait_for_function needs); one that throws is not true yet."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(probe(expression)):
        assert time.monotonic() < deadline, f"never true: {expression}"
        time.sleep(0.03)


def at(page: Any, stream: VirtualClock, moment: float) -> None:
    """Move the stream's clock to ``moment`` and let the page ask twice since."""
    stream.set(moment)
    polls = int(page.evaluate("Number(document.body.dataset.polls || 0)"))
    until(page, f"Number(document.body.dataset.polls || 0) >= {polls + 2}")


def scene(page: Any) -> str:
    return str(page.evaluate("document.body.dataset.scene"))


def shoot(page: Any, name: str) -> None:
    shots = os.environ.get("NARRATOR_SCREENSHOTS")
    if shots:
        page.screenshot(path=str(Path(shots) / name))


@needs_chromium
def test_the_stream_shows_the_game_a_delay_late_and_switches_obs_scenes(
        stage: Stage, browser_context: Any) -> None:  # noqa: F811
    rig = stage.rig
    rig.deal()
    rig.after(20)  # seat 1 speaks for 20 s
    assert rig.press(1, "nominate", target=4).ok
    assert rig.press(1, "end").ok
    assert rig.press(2, "nominate", target=6).ok
    for seat in range(2, 11):
        rig.until(w.Speech, seat=seat)
        assert rig.press(seat, "end").ok
    rig.until(w.Vote, candidate=4)
    page = browser_context.new_page()
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.add_init_script(OBS_STAND_IN)
    page.goto(stage.cast.url + "?scene-night=Ночь&scene-vote=Голосование")
    # before the first picture's moment + the delay: nothing of the game at all
    at(page, stage.stream, stage.first("night") + DELAY - 0.001)
    assert scene(page) == "waiting" and page.locator(".seat").count() == 0
    assert page.evaluate("window.__events") == []

    at(page, stage.stream, stage.first("night") + DELAY)
    assert scene(page) == "night"
    assert page.locator(".seat").count() == 10
    assert page.locator(".seat[data-seat='3'] .name").text_content() == "Momento Mori"
    assert page.locator(".seat[data-seat='3'] .role").text_content() == "Дон мафии"
    assert page.locator(".seat[data-seat='1'] .role").text_content() == "Шериф"
    assert page.locator(".seat.black").count() == 3
    shoot(page, "broadcast-night.png")

    day = stage.first("day")
    at(page, stage.stream, day + DELAY - 0.001)
    assert scene(page) == "night"  # the day has begun at the table, not yet on the stream
    at(page, stage.stream, day + DELAY + 5)
    assert scene(page) == "day"
    assert page.locator(".seat.speaker").get_attribute("data-seat") == "1"
    # the speech's minute counts on the delayed clock: 5 s of it gone
    assert page.locator("#timer").text_content() in ("0:55", "0:54")

    vote = stage.first("vote")
    at(page, stage.stream, vote + DELAY)
    assert scene(page) == "vote"
    assert page.locator("#nominations").text_content() == "4 (от 1), 6 (от 2)"
    assert page.locator(".seat.voting").get_attribute("data-seat") == "4"
    shoot(page, "broadcast-vote.png")
    assert page.evaluate("window.__events") == ["night", "day", "vote"]
    assert page.evaluate("window.__obs") == ["Ночь", "Day", "Голосование"]


@needs_chromium
def test_the_night_acts_the_end_and_the_standings(
        stage: Stage, browser_context: Any) -> None:  # noqa: F811
    from tests.broadcast.test_feed import night_two

    rig = stage.rig
    night_two(rig)
    for seat in (3, 5, 9):  # the mafia removed: the civilians win
        assert rig.op("remove", seat=seat).ok
    assert rig.game.is_over and isinstance(rig.game.expect, w.Over)
    rig.after(30)  # the host's marks, the results: the standings come half a minute later
    stage.cast.standings([StandingRow(place=i, name=NAMES[s], games=1, wins=int(s not in ROLES
                                      or ROLES[s].value == "sheriff"), points=1.0 / i)
                          for i, s in enumerate(range(1, 11), start=1)], 1)
    page = browser_context.new_page()
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.add_init_script(OBS_STAND_IN)
    page.goto(stage.cast.url)
    over = stage.first("over")
    at(page, stage.stream, over + DELAY)
    assert scene(page) == "over"
    # a page opened late enters the scene it is in (not each one it missed)
    assert page.evaluate("window.__events") == ["over"]
    assert page.locator("#winner").text_content() == "Победа мирных"
    acts = page.locator("#acts").text_content() or ""
    assert acts.splitlines() == ["Ночь 2 мафия: выстрел 8",
                                 "Ночь 2 дон мафии: проверка 1 ✓",
                                 "Ночь 2 шериф: проверка 5 ✓"]
    assert page.locator(".seat[data-seat='8'] .marks").text_content() == "× убит ночью"
    assert page.locator(".seat[data-seat='1'] .marks").text_content() == "Ночь 2 дон мафии ✓"
    shoot(page, "broadcast-over.png")
    at(page, stage.stream, stage.first("standings") + DELAY)
    assert scene(page) == "standings"
    assert page.locator("#standings tbody tr").count() == 10
    assert page.locator("#standings tbody tr").first.text_content() == "1Ника111.00"
    assert page.evaluate("window.__obs") == ["Game over", "Standings"]
    shoot(page, "broadcast-standings.png")
