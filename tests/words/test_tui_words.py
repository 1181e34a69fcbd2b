"""The host-assist screen in the table's language: a whole game hosted through the keys, in
Russian and in Ukrainian, its screen captured as the terminal shows it (Textual's own render
of the whole screen: the phase, the timer, the table, the hint, the log and the key bar)
after every key — and not one English word on it but the keys' names and the file's.
The notation line is a developer's: shown only under ``--debug``."""

from __future__ import annotations

import asyncio
import html
import re
from pathlib import Path

import pytest

from narrator.assist.cli import make_session
from narrator.assist.ui import AssistApp
from narrator.clock import VirtualClock
from narrator.engine import Game
from narrator.host.journal import Journal
from narrator.voice.manifest import default_manifest
from tests.assist.keys import KeyDriver
from tests.helpers import example
from tests.test_ruleset_games import host_the_game
from tests.words.english import english

_TEXT = re.compile(r"<text[^>]*>(.*?)</text>", re.S)


def screen_of(app: AssistApp) -> str:
    """What the terminal shows: the text of Textual's render of the whole screen, row by row
    (its SVG export draws each run of a row as a text element)."""
    svg = app.export_screenshot()
    return "".join(html.unescape(m) + " " for m in _TEXT.findall(svg)).replace("\xa0", " ")


def hosted(name: str, lang: str, journal: Path, *, debug: bool = False) -> tuple[Game, list[str]]:
    """The example ``name`` hosted through the keys in ``lang``; every screen seen."""
    script = example(name)
    game = Game(script.rules, seats=script.seats, roles=script.roles, dealt=script.dealt)
    session = make_session(game, VirtualClock(),
                           journal=Journal.for_game(journal, game, fsync=False),
                           manifest=default_manifest(lang))
    session.host.start()
    screens: list[str] = []

    async def go() -> None:
        app = AssistApp(session, lang=lang, debug=debug)
        async with app.run_test(size=(120, 40)) as pilot:
            screen = app.game_screen
            assert screen is not None
            d = KeyDriver(session, pilot, screen)
            pressed = d.keys

            async def keys(*names: str) -> None:
                await pressed(*names)
                await pilot.pause()
                screens.append(screen_of(app))

            d.keys = keys  # type: ignore[method-assign]
            screens.append(screen_of(app))
            await host_the_game(script, d)
            await d.keys("r")  # the host's eyes: the cards and the nights, in words too
            assert not d.log("error"), d.log("error")

    asyncio.run(go())
    return game, screens


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_a_whole_assist_game_shows_no_english_word(lang: str, tmp_path: Path) -> None:
    journal = tmp_path / "j.jsonl"
    game, screens = hosted("vrn-closed-car-crash", lang, journal)
    assert game.winner is not None and len(screens) > 20
    # the host's own file's name is in the log's first line (cut where the log wraps it)
    found = {w: s for s in screens for w in english(s) if w not in str(journal)}
    assert not found, (sorted(found), list(found.values())[:2])
    # the screens are the game's: its phases, the hint, the key bar in the language
    text = "\n".join(screens)
    day, speech = ("День 1", "Речь игрока") if lang == "ru" else ("День 1", "Промова гравця")
    assert day in text and speech in text
    assert ("Пробел" if lang == "ru" else "Пробіл") in text
    assert ("Голосование" if lang == "ru" else "Голосування") in text
    assert "crime-time" not in text and "vrn-closed d1" not in text  # no notation line


def test_the_notation_line_shows_under_debug_only(tmp_path: Path) -> None:
    """(the main test above sees none without the flag)"""
    _, debug = hosted("vrn-closed-car-crash", "ru", tmp_path / "b.jsonl", debug=True)
    assert any("vrn-closed d1" in s for s in debug)
