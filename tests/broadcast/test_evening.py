"""An evening's broadcast on a virtual clock: one server all evening, each game on it (every
card), and the standings between games — each scene change in order, the standings after each
game's end, and the last picture the evening's results."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest

from narrator.broadcast.serve import BroadcastOptions
from narrator.clock import VirtualClock
from narrator.console.table import Press
from narrator.console.tokens import OPERATOR
from narrator.evening.book import GameEntry
from narrator.evening.front import Finished
from tests.evening.test_evening import new_book


def test_an_evening_streams_each_game_and_the_standings_between_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from narrator.console.serve import ConsoleOptions
    from narrator.evening.cli import Evening
    from narrator.play.cli import TableOptions

    book = new_book(tmp_path / "ev")
    book.draw(random.Random(4))
    book.save()
    opts = TableOptions(lang="ru", listen=False,
                        console=ConsoleOptions("127.0.0.1:0", None, False, True))
    clock = VirtualClock(1000.0)
    evening = Evening(book, opts, None, wav=True, rng=random.Random(5), clock=clock,
                      terminal=io.StringIO(""), broadcast=BroadcastOptions("127.0.0.1:0", 60))
    front, press = evening.front, evening.driver.call
    attach, detach = front.attach, front.detach
    cards: list[dict[int, str]] = []

    def operator(do: str, **data: Any) -> None:
        press(lambda: front.handle(Press(OPERATOR, do, data, clock.now())))

    def game_on(table: Any, entry: GameEntry) -> None:
        attach(table, entry)
        game = table.host.game
        cards.append({s: r.value for s, r in game.roles.items()})
        for seat in sorted(game.black):  # 7.3: removed, each in turn
            operator("remove", seat=seat)

    def lobby(finished: Finished | None, results: Any) -> None:
        detach(finished, results)
        operator("start" if len(cards) < 2 else "close")

    front.attach, front.detach = game_on, lobby  # type: ignore[method-assign]
    operator("start")
    assert evening.run() == 0
    cast = evening.broadcast
    assert cast is not None
    out = capsys.readouterr().out
    assert f"{cast.url}" in out and "не за столом" in out
    # the evening waited for the stream's last picture: everything is out now, in order
    assert cast.feed.waiting == 0
    released = cast.feed.read()
    scenes = [c.scene for c in released.scenes]
    assert scenes[0] == "standings" and scenes[-1] == "standings"
    games = [i for i, s in enumerate(scenes) if s == "over"]
    assert len(games) == 2 and scenes[games[0] + 1] == "standings"
    assert scenes[1] == "night" and scenes[games[0] + 2] == "night"
    stamps = [c.at for c in released.scenes]
    assert stamps == sorted(stamps)
    last = released.picture
    assert last is not None and last["scene"] == "standings" and last["games"] == 2
    results = json.loads((book.folder / "results.json").read_text())
    assert [(r["name"], r["points"]) for r in last["rows"]] == \
        [(p["name"], p["points"]) for p in results["players"]]
    assert len(cards) == 2 and cards[0] != cards[1]
