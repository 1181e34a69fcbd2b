"""One table rig for the tests: a game at a table on a virtual clock, its console's table on it.

The rig is put together the way every mode puts a table together
(:func:`~narrator.table.session.open_table`); the console's table is not served: the test
presses as the pads and the operator would, stamped with the clock, and runs the timers. A
journal, when given, gets the inputs and the presses as a served table's would (a resume
test reads it back: :meth:`TableRig.resumed`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from narrator.clock import VirtualClock
from narrator.console.settings import ConsoleSettings
from narrator.console.table import ConsoleTable, Press, Reply
from narrator.console.tokens import OPERATOR, Who
from narrator.engine import Game
from narrator.engine import waits as w
from narrator.host.driver import Driver
from narrator.host.host import Host
from narrator.host.journal import Journal, JournalContents, load_journal, locked, repair_torn_tail
from narrator.host.transcript import Transcript
from narrator.inputs import Input
from narrator.table.session import TableSession, open_table
from narrator.voice.manifest import default_manifest

#: how many deadlines :meth:`TableRig.until` runs through before it gives up
STEPS = 1000


class TableRig:
    """``game`` at a table on ``clock`` (a new virtual one by default), started unless
    ``start`` is False. ``journal``: where the inputs and presses go (else the presses are kept
    in :attr:`inputs`); ``settings``: the console's; ``resumed``: the journal the game was
    rebuilt from (its presses read back, its timer on with ``left`` seconds)."""

    def __init__(self, game: Game, *, journal: Journal | None = None,
                 settings: ConsoleSettings | None = None, lang: str = "ru",
                 clock: VirtualClock | None = None, start: bool = True,
                 resumed: JournalContents | None = None, left: float | None = None) -> None:
        self.clock = clock or VirtualClock()
        self.journal = journal
        self.session: TableSession = open_table(game, self.clock, journal=journal,
                                                manifest=default_manifest(lang))
        #: the presses written (without a journal)
        self.inputs: list[Input] = []
        #: each screen's last view, as its page got it (parsed from the message sent)
        self.views: dict[Who, dict[str, Any]] = {}
        self.table = ConsoleTable(self.host, settings=settings,
                                  record=journal.write if journal else self.inputs.append,
                                  publish=self._published,
                                  said=lambda: list(self.transcript.said),
                                  protocol=self.session.protocol)
        if resumed is not None:
            self.table.restore(resumed.inputs, resumed.input_at)
            self.session.begin(left)
            self.driver.run_until(self.driver.now())  # the console holds the resumed timer
        elif start:
            self.session.begin()

    @classmethod
    def resumed(cls, path: Path, **kwargs: Any) -> TableRig:
        """What ``narrator resume JOURNAL --listen off --console …`` puts together: the game
        of the journal at ``path`` (its torn tail mended), journaling on into it."""
        with locked(path):
            repair_torn_tail(path)
        contents = load_journal(path)
        game = contents.game()
        return cls(game, journal=Journal(path, contents.header, fsync=False),
                   clock=VirtualClock(contents.last_t), resumed=contents,
                   left=contents.time_left(game), **kwargs)

    def _published(self, published: Mapping[Who, Any]) -> None:
        self.views.update({who: json.loads(view.message)["view"]
                           for who, view in published.items()})

    # -- what it is made of ----------------------------------------------------------------

    @property
    def game(self) -> Game:
        return self.session.game

    @property
    def host(self) -> Host:
        return self.session.host

    @property
    def transcript(self) -> Transcript:
        return self.session.transcript

    @property
    def driver(self) -> Driver:
        return self.session.driver

    # -- pressing ---------------------------------------------------------------------------

    def press(self, who: Who, do: str, *, t: float | None = None, **data: Any) -> Reply:
        """A press of ``who`` (a seat, the operator), stamped now unless ``t`` is given."""
        return self.table.handle(Press(who, do, data, self.clock.now() if t is None else t))

    def op(self, do: str, **data: Any) -> Reply:
        return self.press(OPERATOR, do, **data)

    # -- time -------------------------------------------------------------------------------

    def step(self) -> None:
        """Run the clock to the next deadline."""
        assert self.driver.run_next(), "nothing scheduled"

    def after(self, seconds: float) -> None:
        self.driver.run_until(self.host.now() + seconds)

    def until(self, kind: type[w.Wait] | tuple[type[w.Wait], ...], **attrs: Any) -> None:
        """Run timers until the game waits for a ``kind`` of wait (with ``attrs``: e.g.
        ``checks=True`` for a checker's night step)."""
        for _ in range(STEPS):
            exp = self.game.expect
            if isinstance(exp, kind) and all(getattr(exp, k) == v for k, v in attrs.items()):
                return
            self.step()
        raise AssertionError(f"never reached {kind} {attrs}: {self.game.expect}")

    def deal(self) -> None:
        """Every seat sees its card; the first night runs to the first day speech (or, by
        raised hands, to the first call for a hand)."""
        for seat in range(1, self.game.seats + 1):
            assert self.press(seat, "seen").ok
        self.until((w.Speech, w.Floor))

    def to_the_vote(self) -> None:
        """Day 1 to the vote on seat 4 (seat 1 nominated 4, seat 2 nominated 6)."""
        self.deal()
        assert self.press(1, "nominate", target=4).ok
        assert self.press(1, "end").ok
        assert self.press(2, "nominate", target=6).ok
        for seat in range(2, self.game.seats + 1):
            self.until(w.Speech, seat=seat)
            assert self.press(seat, "end").ok
        self.until(w.Vote, candidate=4)

