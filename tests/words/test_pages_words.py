"""Every page of the table in the table's language: the operator's and the seat pads through a
game's states (the deal, the first night, a speech, a vote, the hunt, the checks, a night act
of another ruleset, the end with the host's marks), the broadcast and the judge's review page —
in Russian and in Ukrainian, read in Chromium, with no English word in what they show but the
players' nicknames (tests/words/english.py). One browser for the module."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from narrator.console.settings import ConsoleSettings
from narrator.engine import Game, Role
from narrator.engine import waits as w
from narrator.testing import TableRig
from tests.console.browser import CHROMIUM, FLAGS, needs_chromium
from tests.helpers import ROLES
from tests.words.english import english
from tests.words.pages import served, visible

pytestmark = needs_chromium

NAMES = {1: "Ника", 2: "Momento Mori", 3: "Лис", 4: "Сова", 5: "Кит", 6: "Ёж", 7: "Рысь",
         8: "Барон", 9: "Тень", 10: "Бублик"}


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        ctx = p.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("profile")), executable_path=CHROMIUM, headless=True,
            args=FLAGS)
        try:
            yield ctx
        finally:
            ctx.close()


class Seen:
    """Every page's visible text at every state the test stops at."""

    def __init__(self) -> None:
        self.shots: list[tuple[str, str]] = []

    def look(self, where: str, pages: dict[str, Any]) -> None:
        for name, page in pages.items():
            self.shots.append((f"{where} / {name}", visible(page)))

    def english(self) -> dict[str, list[str]]:
        found = {}
        for where, text in self.shots:
            words = english(text, NAMES.values())
            if words:
                found[where] = words
        return found


def open_pages(ctx: Any, s: Any, seats: list[int]) -> dict[str, Any]:
    pages: dict[str, Any] = {}
    op = ctx.new_page()
    op.goto(s.link(None))
    pages["operator"] = op
    for seat in seats:
        page = ctx.new_page()
        page.set_viewport_size({"width": 390, "height": 844})
        page.goto(s.link(seat))
        pages[f"pad {seat}"] = page
    return pages


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_the_operator_and_the_pads_of_a_whole_crime_time_game_speak_the_tables_language(
        browser: Any, lang: str) -> None:
    rig = TableRig(Game("crime-time", roles=ROLES, names=NAMES),
                   settings=ConsoleSettings(lang=lang), lang=lang)
    seen = Seen()
    with served(rig) as s:
        pages = open_pages(browser, s, [1, 2, 3, 5])
        try:
            everyone = list(pages.values())
            s.settle(everyone)
            seen.look("the deal", pages)
            for seat in range(1, 11):
                assert rig.press(seat, "seen").ok
            rig.until(w.Speech)
            s.settle(everyone)
            seen.look("day 1, seat 1 speaks", pages)
            assert rig.press(1, "nominate", target=4).ok
            assert rig.press(1, "end").ok
            assert rig.press(2, "nominate", target=6).ok
            for seat in range(2, 11):
                rig.until(w.Speech, seat=seat)
                assert rig.press(seat, "end").ok
            rig.until(w.Vote)
            assert rig.press(2, "vote", candidate=4).ok
            s.settle(everyone)
            seen.look("the vote", pages)
            rig.until(w.Hunt)
            s.settle(everyone)
            seen.look("the hunt", pages)
            rig.until(w.NightAct, checks=True)
            s.settle(everyone)
            seen.look("the don's check", pages)
            assert rig.press(3, "check", target=1).ok
            s.settle(everyone)
            seen.look("the don checked", pages)
            for seat in (3, 5, 9):  # the mafia removed: the civilians win
                assert rig.op("remove", seat=seat).ok
            assert rig.game.is_over
            s.settle(everyone)
            seen.look("the end", pages)
            assert rig.op("mark", seat=1, points=0.3, titles=["best_player"], comment="нашла дона").ok
            s.settle(everyone)
            seen.look("the host's marks", pages)
            card = pages["pad 1"].evaluate(f"WORDS['{lang}'].card.sheriff")
        finally:
            for page in pages.values():
                page.close()
    assert card == ("Шериф")
    assert len(seen.shots) >= 8 * 5
    assert not seen.english(), seen.english()
    everything = "\n".join(text for _, text in seen.shots)
    assert ("Ночь 1" if lang == "ru" else "Ніч 1") in everything
    assert ("Победа мирных" if lang == "ru" else "Перемога мирних") in everything
    don = dict(seen.shots)["the don's check / pad 3"]
    assert ("Кого проверяет Дон?" if lang == "ru" else "Кого перевіряє Дон?") in don
    assert ("Пульт ведущего" if lang == "ru" else "Пульт ведучого") in everything


def walk(rig: TableRig, s: Any, pages: dict[str, Any], seen: Seen, steps: int) -> set[str]:
    """Let the game run on its timers, every page looked at in each new step; the kinds of
    pad steps seen."""
    kinds: set[str] = set()
    serial = -1
    for _ in range(steps):
        if rig.game.is_over:
            break
        if rig.game.expect.serial != serial:
            serial = rig.game.expect.serial
            s.settle(list(pages.values()))
            seen.look(rig.game.expect.label("en"), pages)
            for page in pages.values():
                view = page.evaluate("Console.view()")
                if view and view.get("step"):
                    kinds.add(view["step"]["type"])
        if not rig.driver.run_next():
            break
    return kinds


@pytest.mark.parametrize(("rules", "lang"), [("vrn", "uk"), ("vrn", "ru"), ("amateur", "ru"),
                                              ("amateur", "uk")])
def test_the_pads_of_the_night_acts_and_the_raised_hands_speak_the_tables_language(
        browser: Any, rules: str, lang: str) -> None:
    """vrn's night (the sheriff's check or shot, the doctor's save, the maniac), amateur's day
    by raised hands (the floor, the thumbs, the hands for more time)."""
    import random

    game = Game(rules, names=NAMES, rng=random.Random(7))
    rig = TableRig(game, settings=ConsoleSettings(lang=lang), lang=lang)
    seen = Seen()
    actors = sorted({seat for seat, role in game.roles.items() if role is not Role.CIVILIAN})
    with served(rig) as s:
        pages = open_pages(browser, s, [*actors, *[x for x in (1, 2) if x not in actors]])
        try:
            s.settle(list(pages.values()))
            for seat in range(1, game.seats + 1):
                assert rig.press(seat, "seen").ok
            kinds = walk(rig, s, pages, seen, 45)
        finally:
            for page in pages.values():
                page.close()
    assert ("act" if rules == "vrn" else "floor") in kinds, kinds
    assert not seen.english(), seen.english()


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_the_broadcast_speaks_the_tables_language(browser: Any, lang: str) -> None:
    """The stream's page in each scene it has: the night, a day, the vote, the end."""
    from narrator.broadcast.serve import Broadcast, BroadcastOptions

    rig = TableRig(Game("crime-time", roles=ROLES, names=NAMES), lang=lang)
    cast = Broadcast.start(BroadcastOptions("127.0.0.1:0", 0.0), rig.clock)
    cast.watch(rig.host, lang)
    seen = Seen()
    page = browser.new_page()
    page.set_viewport_size({"width": 1920, "height": 1080})
    scenes: set[str] = set()

    def look(where: str) -> None:
        at = page.evaluate("Number(document.body.dataset.polls || 0)")
        deadline = time.monotonic() + 10
        while page.evaluate("Number(document.body.dataset.polls || 0)") < at + 2:
            assert time.monotonic() < deadline, "the page stopped asking"
            time.sleep(0.05)
        scenes.add(page.evaluate("document.body.dataset.scene"))
        seen.look(where, {"broadcast": page})

    try:
        page.goto(cast.url)
        look("before the game")
        rig.deal()
        look("day 1")
        assert rig.press(1, "nominate", target=4).ok
        assert rig.press(1, "end").ok
        assert rig.press(2, "nominate", target=6).ok
        for seat in range(2, 11):
            rig.until(w.Speech, seat=seat)
            assert rig.press(seat, "end").ok
        rig.until(w.Vote)
        look("the vote")
        rig.until(w.NightAct, checks=True)
        assert rig.press(3, "check", target=1).ok
        look("night 2")
        for seat in (3, 5, 9):
            assert rig.op("remove", seat=seat).ok
        look("the end")
    finally:
        page.close()
        cast.stop()
    assert {"night", "day", "vote", "over"} <= scenes, scenes
    assert not seen.english(), seen.english()
    everything = "\n".join(text for _, text in seen.shots)
    assert ("Ночь 2" if lang == "ru" else "Ніч 2") in everything
    assert ("Дон мафии" if lang == "ru" else "Дон мафії") in everything


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_the_judges_review_page_speaks_the_tables_language(
        browser: Any, lang: str, tmp_path: Path) -> None:
    """The review of a whole journaled game (a car crash, a missed night, a removal, fouls,
    an undone foul, the host's marks), its filters opened too."""
    import json

    from narrator.cli import main
    from tests.review.test_review_timeline import journal_of_a_whole_game

    journal = tmp_path / "game.journal.jsonl"
    game, _ = journal_of_a_whole_game(journal)
    lines = journal.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    header["lang"] = lang  # the same game at a Ukrainian table
    journal.write_text("\n".join([json.dumps(header, ensure_ascii=False), *lines[1:]]) + "\n",
                       encoding="utf-8")
    out = tmp_path / "review"
    assert main(["review", str(journal), "-o", str(out)]) == 0
    page = browser.new_page()
    try:
        page.goto((out / "index.html").as_uri())
        text = visible(page)
    finally:
        page.close()
    names = [*NAMES.values(), *game.names.values(), journal.name]
    assert not english(text, names), english(text, names)
    assert ("Разбор" if lang == "ru" else "Розбір") in text
    assert ("Шериф") in text and ("автокатастрофа") in text


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_the_board_the_players_and_the_directors_pages_speak_the_tables_language(
        browser: Any, lang: str, tmp_path: Path) -> None:
    """A tournament's pages: round 1 in at both tables, one table playing, one between."""
    from narrator.console.server import ConsoleServer
    from narrator.tournament.web import build_app
    from tests.tournament.director_helpers import BLACK_WIN, FakeClock, body, make_director

    director = make_director(tmp_path, FakeClock(), name="Кубок клуба")
    director.lang = lang
    tables = director.store.tables()
    director.receive(tables[0], body(tmp_path, 1, 1))
    director.receive(tables[1], body(tmp_path, 1, 2, BLACK_WIN))
    director.take_status(tables[0], {"console": "http://192.168.1.21:8765", "game": 2,
                                     "round": 2, "playing": True, "time": "day", "number": 2,
                                     "living": 8})
    director.take_status(tables[1], {"console": "http://192.168.1.22:8765", "game": 2,
                                     "round": 2, "playing": False})
    server = ConsoleServer(build_app(director), "127.0.0.1", 0).start()
    base = f"http://127.0.0.1:{server.port}"
    shots: dict[str, str] = {}
    try:
        for name, path in (("board", "/tv"), ("player", f"/p/{director.players[10].token}"),
                           ("director", f"/director/{director.tournament.token}")):
            page = browser.new_page()
            page.goto(base + path)
            deadline = time.monotonic() + 10
            while not page.evaluate("!!document.querySelector('#main section')"):
                assert time.monotonic() < deadline, f"the {name} page drew nothing"
                time.sleep(0.03)
            shots[name] = visible(page)
            page.close()
    finally:
        server.stop()
    nicknames = [p.nickname for p in director.players]
    found = {name: english(text, [*nicknames, "MafiaRatings"]) for name, text in shots.items()}
    assert not any(found.values()), found
    assert ("игра 2 · день 2" if lang == "ru" else "гра 2 · день 2") in shots["board"]
    assert ("ФИИМ" if lang == "ru" else "ФІІМ") in shots["board"]
