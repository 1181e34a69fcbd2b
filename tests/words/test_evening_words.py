"""An evening's pages in the table's language: ``narrator evening DIR --lang ru|uk`` — the
operator's lobby (the players, the seating, the rulesets, the results), a player's pad in the
lobby, in the game and after it (the cards of the game over, the results), and the evening's
terminal (its links, the game's progress, the operator's lines) — with no English
word in what they show but the players' nicknames and MafiaRatings' name."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.console.browser import CHROMIUM, FLAGS, needs_chromium, wait
from tests.evening.test_evening_browser import NAMES, deal, evening, pads_by_player, view
from tests.words.english import english
from tests.words.pages import visible

pytestmark = needs_chromium

REMOVE = {"ru": ("Удалить…", "Да, удалить"), "uk": ("Видалити…", "Так, видалити")}


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


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_an_evenings_lobby_game_and_results_speak_the_tables_language(
        browser: Any, lang: str, tmp_path: Path) -> None:
    shots: list[tuple[str, str]] = []
    with evening(tmp_path) as ev:
        ev.extra = ["--lang", lang]
        links = ev.start()
        op = browser.new_page()
        op.set_viewport_size({"width": 1000, "height": 900})
        op.goto(links["operator"])
        players = pads_by_player(browser, links)
        first = players[1]
        wait(op, "Console.view() && !!Console.view().lobby && !!Console.view().evening")
        wait(first, "Console.view() && !!Console.view().player")
        shots += [("lobby / operator", visible(op)), ("lobby / pad", visible(first))]
        seating = {int(s): n for s, n in view(op)["evening"]["seating"].items()}
        op.locator("#start").click()
        pads = {seat: players[n] for seat, n in seating.items()}
        deal(op, pads, 1)
        shots += [("game / operator", visible(op)), ("game / pad", visible(first))]
        roles = ev.roles(1)
        ask, yes = REMOVE[lang]
        for seat in sorted(s for s, r in roles.items() if r in ("mafia", "don")):
            op.bring_to_front()
            op.locator(f"#seat-{seat} .acts button").filter(has_text=ask).click()
            op.locator(f"#seat-{seat} .acts button").filter(has_text=f"{yes} {seat}").click()
            wait(op, f"!!Console.view() && (!!Console.view().lobby || "
                     f"Console.view().out['{seat}'] === 'removed')")
        for page in (op, first):
            wait(page, "!!Console.view().lobby && !!Console.view().lobby.last")
        shots += [("results / operator", visible(op)), ("results / pad", visible(first))]
        assert ev.proc is not None
        ev.proc.kill()
        ev.proc.wait(timeout=10)
        # the evening's terminal too: its links, the game's progress, the operator's lines
        shots.append(("terminal", ev.output()))
        for page in [op, *players.values()]:
            page.close()
    found = {where: english(text, [*NAMES, "MafiaRatings"]) for where, text in shots}
    assert not any(found.values()), found
    assert ("пульт ведущего: http" if lang == "ru" else "пульт ведучого: http") in dict(
        shots)["terminal"]
    results = dict(shots)["results / operator"]
    assert ("Победа мирных" if lang == "ru" else "Перемога мирних") in results
    assert ("Криминальное время" if lang == "ru" else "Кримінальний час") in results
