"""The director's pages in a real browser (Debian's Chromium): the board at a hall TV's size
shows the standings beside the next round's seating and where each table's game is, and
stacks them at a phone's width; a player's page at phone size says his next table and seat
and, once his table is at his round, opens his pad there. ``NARRATOR_SCREENSHOTS=DIR`` keeps
the pages as docs/tournament.md shows them."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from narrator.console.server import ConsoleServer
from narrator.tournament.director import Director
from narrator.tournament.web import build_app
from tests.console.browser import needs_chromium, wait
from tests.console.conftest import browser_context  # noqa: F401
from tests.tournament.director_helpers import BLACK_WIN, FakeClock, body, make_director

pytestmark = needs_chromium
CONSOLE = "http://192.168.1.21:8765"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Director, str]]:
    director = make_director(tmp_path, FakeClock(), name="Кубок клуба")
    tables = director.store.tables()
    director.receive(tables[0], body(tmp_path, 1, 1))  # round 1 in at both tables
    director.receive(tables[1], body(tmp_path, 1, 2, BLACK_WIN))
    director.take_status(tables[0], {"console": CONSOLE, "game": 2, "round": 2,
                                     "playing": True, "time": "day", "number": 2, "living": 8})
    director.take_status(tables[1], {"console": "http://192.168.1.22:8765", "game": 2,
                                     "round": 2, "playing": False})
    server = ConsoleServer(build_app(director), "127.0.0.1", 0).start()
    try:
        yield director, f"http://127.0.0.1:{server.port}"
    finally:
        server.stop()


def _box(page: Any, selector: str) -> dict[str, float]:
    found: dict[str, float] = page.locator(selector).first.bounding_box()
    return found


def test_the_board_puts_the_standings_beside_the_next_round_on_a_tv(
        served: tuple[Director, str], browser_context: Any) -> None:  # noqa: F811
    _, base = served
    tv = browser_context.new_page()
    tv.set_viewport_size({"width": 1920, "height": 1080})
    tv.goto(base + "/tv")
    wait(tv, "!!document.querySelector('#table-2')")
    table, seating = _box(tv, ".t-board > section"), _box(tv, ".t-side")
    assert seating["x"] >= table["x"] + table["width"] - 1  # side by side
    assert abs(seating["y"] - table["y"]) < 40
    text = tv.locator("#main").inner_text()
    assert "игра 2 · день 2 · в игре 8" in text and "между играми · дальше тур 2" in text
    assert "192.168" not in text  # (no table's address on the hall's screen)
    shots = os.environ.get("NARRATOR_SCREENSHOTS")
    if shots:
        tv.screenshot(path=str(Path(shots) / "tournament-tv.png"))
    tv.set_viewport_size({"width": 390, "height": 844})
    wait(tv, "document.querySelector('.t-side').getBoundingClientRect().top > "
             "document.querySelector('.t-board > section').getBoundingClientRect().bottom - 1")


def test_a_players_page_opens_his_pad_at_his_table(
        served: tuple[Director, str], browser_context: Any) -> None:  # noqa: F811
    director, base = served
    nika = director.players[0]  # round 2: table 2, seat 10 (that table is between games)
    grom = director.players[10]  # round 2: table 1, seat 10 (that table plays round 2)
    phone = browser_context.new_page()
    phone.set_viewport_size({"width": 390, "height": 844})
    phone.goto(f"{base}/p/{grom.token}")
    wait(phone, "!!document.querySelector('#pad')")
    href = phone.locator("#pad").get_attribute("href")
    assert href == f"{CONSOLE}/pad/{director.store.pad(2, 1, 10)}"
    assert "Тур 2: стол 1, место 10" in phone.locator("#main").inner_text()
    assert phone.locator("#pad").get_attribute("rel") == "noreferrer"
    shots = os.environ.get("NARRATOR_SCREENSHOTS")
    if shots:
        phone.screenshot(path=str(Path(shots) / "tournament-player.png"))
    other = browser_context.new_page()
    other.set_viewport_size({"width": 390, "height": 844})
    other.goto(f"{base}/p/{nika.token}")
    wait(other, "document.querySelector('#main').innerText.indexOf('Тур 2') >= 0")
    pad = other.locator("#pad").get_attribute("href")
    assert pad == f"http://192.168.1.22:8765/pad/{director.store.pad(2, 2, 10)}"
    assert pad != href


def test_the_directors_page_at_a_laptops_size(
        served: tuple[Director, str], browser_context: Any) -> None:  # noqa: F811
    director, base = served
    desk = browser_context.new_page()
    desk.set_viewport_size({"width": 1280, "height": 900})
    desk.goto(f"{base}/director/{director.tournament.token}")
    wait(desk, "document.querySelector('#main').innerText.indexOf('Пульт стола') >= 0")
    text = desk.locator("#main").inner_text()
    assert CONSOLE in text and "игра 2 · день 2 · в игре 8" in text
    assert all(p.token in text for p in director.players)  # every player's link, to hand out
    # and its QR code beside it, the link's own (a badge printed from the page opens it)
    from narrator.console.links import qr_of
    qrs = desk.evaluate("[...document.querySelectorAll('.t-player img')].map(i => i.src)")
    links = [f"{director.base}/p/{p.token}" for p in director.players]
    assert qrs == [qr_of(link) for link in links]
    assert all(q.startswith("data:image/svg+xml") for q in qrs)
    assert desk.evaluate("[...document.querySelectorAll('.t-player img')]"
                         ".every(i => i.complete && i.naturalWidth > 0)")
    shots = os.environ.get("NARRATOR_SCREENSHOTS")
    if shots:
        desk.screenshot(path=str(Path(shots) / "tournament-director.png"), full_page=False)
