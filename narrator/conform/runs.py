"""One front end's run of a reference game: from the deal, or resumed from a journal."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from narrator.clock import VirtualClock
from narrator.conform.reference import Reference
from narrator.engine import Game
from narrator.host.journal import (
    Journal,
    JournalContents,
    load_journal,
    locked,
    repair_torn_tail,
)


@dataclass
class Run:
    """What a run leaves: the protocol (with what was said in this process), what the front
    end could not express, and the inputs it did not take (as its user was told)."""

    protocol: dict[str, Any]
    left_out: set[str] = field(default_factory=set)
    errors: list[str] = field(default_factory=list)


class FrontEnd(Protocol):
    """A way to play a reference game: ``name`` as ``--modes`` spells it."""

    name: str

    def why_not(self, ref: Reference) -> str | None:
        """Why this front end cannot play ``ref`` at all (None: it can)."""
        ...

    def start(self, ref: Reference, journal: Path) -> Run:
        """Play the game from the deal, journaling to ``journal``."""
        ...

    def resume(self, ref: Reference, journal: Path) -> Run:
        """Take the game of ``journal`` up as ``narrator resume`` does and play it to its end."""
        ...


def new_journal(ref: Reference, path: Path, game: Game, mode: str = "play") -> Journal:
    """The journal of ``game``, a new one at ``path``, as the mode writes it."""
    return Journal.for_game(path, game, lang=ref.script.lang, mode=mode, fsync=False)


@dataclass
class TakenUp:
    """A journal taken up as ``narrator resume`` does: its contents, the game rebuilt from it,
    the journal open again to go on, and a clock at the journal's last moment."""

    contents: JournalContents
    game: Game
    journal: Journal
    clock: VirtualClock

    @property
    def left(self) -> float | None:
        """Seconds the running timer had left."""
        return self.contents.time_left(self.game)


def reopen(journal: Path) -> JournalContents:
    """What ``narrator resume`` does first: cut a torn tail away (holding the lock), read."""
    with locked(journal):
        repair_torn_tail(journal)
    return load_journal(journal)


def take_up(path: Path) -> TakenUp:
    """The game of the journal at ``path``, rebuilt and journaling on."""
    contents = reopen(path)
    game = contents.game()
    return TakenUp(contents, game, Journal(path, contents.header, fsync=False),
                   VirtualClock(contents.last_t))
