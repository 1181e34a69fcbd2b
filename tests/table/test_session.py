"""The table session: one way a game at a table is put together, its driver its own or lent
(an evening's, which outlives its games), the journal's watchers on, the console on it."""

from __future__ import annotations

from pathlib import Path

import pytest

from narrator.clock import VirtualClock
from narrator.console.serve import ConsoleOptions
from narrator.console.table import Press
from narrator.engine import Game
from narrator.host.driver import Driver
from narrator.host.hearing import game_hearing
from narrator.host.journal import Journal, load_journal
from narrator.inputs import BEAT, Input, entry
from narrator.listening import ListeningLoop
from narrator.table.session import listening_table, open_table
from narrator.testing import ScriptedOperator, ScriptedRecognizer, SilenceSource
from narrator.voice.manifest import default_manifest
from tests.helpers import ROLES

PADS = ConsoleOptions("127.0.0.1:0")
RU = default_manifest("ru")


def _journal(tmp_path: Path, game: Game, name: str = "g.jsonl") -> Journal:
    return Journal.for_game(tmp_path / name, game, lang="ru", mode="play", fsync=False)


def test_a_session_of_its_own_runs_the_game_to_its_end_and_stops_its_driver(
        tmp_path: Path) -> None:
    game = Game(roles=ROLES)
    journal = _journal(tmp_path, game)
    session = open_table(game, VirtualClock(), journal=journal, manifest=RU)
    session.watch(lambda text: None)
    session.begin()
    for seat in sorted(game.black):  # the operator removes the three black seats
        session.driver.submit(entry(0.0, f"r {seat}"))
    session.run()
    session.release()
    journal.close()
    assert game.winner is not None and game.winner.value == "civilians"
    assert session.driver.stopping  # its own driver: stopped with the game
    assert session.protocol()["said"] == list(session.transcript.said)
    assert load_journal(tmp_path / "g.jsonl").game().winner == game.winner


def test_the_journal_gets_its_heartbeat_while_a_timer_runs(tmp_path: Path) -> None:
    game = Game(roles=ROLES)
    journal = _journal(tmp_path, game)
    session = open_table(game, VirtualClock(), journal=journal, manifest=RU)
    session.watch(lambda text: None)
    session.begin()
    session.driver.run_until(session.driver.now() + 5.0)
    journal.close()
    beats = [line for line in (tmp_path / "g.jsonl").read_text().splitlines()
             if f'"{BEAT}"' in line]
    assert len(beats) >= 4


def test_a_lent_driver_serves_between_games_and_each_game_in_turn(tmp_path: Path) -> None:
    """An evening's driver: between games its own intake takes the lines; a game attaches to
    it and lets it go; what was queued meanwhile runs, in order, on whoever is attached."""
    clock = VirtualClock(100.0)
    lines: list[str] = []
    ran: list[str] = []
    driver = Driver.between_games(clock, lambda event: lines.append(event.data["text"]))
    driver.submit(entry(clock.now(), "q"))
    driver.step()
    assert lines == ["q"]
    for number in (1, 2):
        game = Game(roles=ROLES)
        session = open_table(game, clock, journal=_journal(tmp_path, game, f"{number}.jsonl"),
                             manifest=RU, driver=driver)
        assert session.driver is driver and not session.owns_driver
        session.begin()
        driver.call(lambda number=number: ran.append(f"game {number}"))  # type: ignore[misc]
        for seat in sorted(game.black):
            driver.submit(entry(clock.now(), f"r {seat}"))
        session.run()
        assert game.is_over
        driver.call(lambda number=number: ran.append(f"after {number}"))  # type: ignore[misc]
        session.release()
        session.release()  # (once is enough; again is nothing)
        assert not driver.stopping and driver.scheduler is not session.host.scheduler
    driver.submit(entry(clock.now(), "the end"))
    driver.step()
    assert ran == ["game 1", "after 1", "game 2", "after 2"]
    assert lines == ["q", "the end"]  # the games' lines went to the games


def test_a_game_on_another_clock_cannot_take_a_lent_driver() -> None:
    driver = Driver.between_games(VirtualClock(), lambda event: None)
    with pytest.raises(ValueError, match="clock"):
        open_table(Game(roles=ROLES), VirtualClock(), manifest=RU, driver=driver)


def test_the_pads_of_a_session_journal_their_presses(tmp_path: Path) -> None:
    game = Game(roles=ROLES)
    journal = _journal(tmp_path, game)
    session = open_table(game, VirtualClock(), journal=journal, manifest=RU)
    table = session.pads(PADS, "ru")
    session.begin()
    assert table.handle(Press(1, "seen", {}, session.driver.now())).ok
    journal.close()
    contents = load_journal(tmp_path / "g.jsonl")
    assert [i.data.get("do") for i in contents.inputs if i.type == "pad"] == ["seen"]


def test_a_listening_table_keeps_the_games_journal_beside_a_recorded_session(
        tmp_path: Path) -> None:
    """The host writes to the journal and the session's inputs at once; the console and the
    watchers get the journal itself (a console on a recorded table journals its presses)."""
    game = Game(roles=ROLES)
    journal = _journal(tmp_path, game)
    recorded: list[Input] = []

    class Kept:
        def write(self, event: Input) -> None:
            recorded.append(event)

    clock = VirtualClock()
    operator = ScriptedOperator([])
    loop = ListeningLoop(game, clock=clock, source=SilenceSource(1.0),
                         recognizer=ScriptedRecognizer(lambda: ()), hearing=game_hearing("ru", 10),
                         operator=operator, manifest=RU, journal=journal, recorder=Kept())
    session = listening_table(loop)
    assert session.journal is journal and session.loop is loop
    table = session.pads(PADS, "ru")
    loop.start()
    assert table.handle(Press(1, "seen", {}, session.driver.now())).ok
    journal.close()
    pressed = [i.data.get("do") for i in load_journal(tmp_path / "g.jsonl").inputs
               if i.type == "pad"]
    assert pressed == ["seen"]
    assert [i.type for i in recorded][:1] == ["table"]  # the session's: the table as dealt
