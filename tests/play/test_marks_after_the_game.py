"""After a hostless game the terminal takes the host's marks: the game's driver runs on while
the terminal's lines come in, an ``m`` line is an entry (into the journal), the first other
line ends the wait, and a mark typed just before it is still taken."""

from __future__ import annotations

import io
from pathlib import Path

from narrator.engine import Game, Mark, Remove
from narrator.host.journal import Journal, load_journal
from narrator.play.cli import _linger
from narrator.play.operator import TerminalOperator
from narrator.testing import TableRig
from tests.helpers import ROLES


def test_m_lines_after_the_game_are_marks_and_enter_ends_the_wait(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    game = Game(roles=ROLES)
    rig = TableRig(game, journal=Journal.for_game(path, game, mode="play", fsync=False))
    for seat in (3, 5, 9):
        rig.host.apply(Remove(seat))
    assert game.is_over
    lines = io.StringIO("m 4 +0.3 bp -- нашла шерифа\nm 7 -0.2 -- ушёл не туда\n\n"
                        "m 2 -- после Enter\n")
    terminal = TerminalOperator(lines, out=lambda text: None, stop_at_end=False,
                                over=lambda: game.is_over, marks=True)
    terminal.start(rig.driver.submit, rig.clock)
    _linger("ru", terminal, rig.driver, console=False)
    assert set(game.marks) == {4, 7}  # the line after the empty one is not read as a mark
    assert game.marks[4] == Mark(4, 0.3, ("best_player",), "нашла шерифа")
    assert rig.journal is not None
    rig.journal.close()
    assert set(load_journal(path).game().marks) == {4, 7}
