"""Serving the console for a mode: its options, its table on the mode's host, its links.

Shared by ``narrator play`` and ``narrator assist``: the mode gives its host, the transcript of
what was said, its journal and the way to run a function on its loop's thread.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from narrator.arguments import ConsoleArgs
from narrator.console.links import check_address, parse_address, print_links, write_links
from narrator.console.server import Console, start_console
from narrator.console.settings import ConsoleSettings
from narrator.console.table import ConsoleTable
from narrator.engine import Game
from narrator.host.driver import Driver
from narrator.host.host import Host
from narrator.host.journal import Journal, JournalContents
from narrator.host.recorder import InputLog
from narrator.host.texts import tx
from narrator.host.transcript import Transcript
from narrator.inputs import Input


@dataclass
class ConsoleOptions:
    """``--console [HOST:]PORT``, ``--links FILE``, ``--votes pads|hands``."""

    address: str
    links: str | None = None
    hand_votes: bool = False
    wait_for_cards: bool = True


def console_options(args: ConsoleArgs, *, hand_votes: bool = False,
                    wait_for_cards: bool = True) -> ConsoleOptions | None:
    """``--console``, ``--links`` of a command's arguments, its address checked (None: no
    console); ``hand_votes``: ``--votes hands``, or a mode whose host counts the hands."""
    if args.address is None:
        return None
    check_address(*parse_address(args.address))
    return ConsoleOptions(args.address, args.links, hand_votes, wait_for_cards)


def protocol_of(game: Game, transcript: Transcript) -> Callable[[], dict[str, Any]]:
    """The protocol with every phrase said (read on the loop's thread)."""

    def protocol() -> dict[str, Any]:
        out = game.protocol()
        out["said"] = list(transcript.said)
        return out

    return protocol


def console_table(host: Host, transcript: Transcript, journal: InputLog, lang: str,
                  opts: ConsoleOptions, *,
                  resumed: JournalContents | None = None) -> ConsoleTable:
    """The console's table on ``host``, its presses journaled (not served: see
    :func:`open_console`). ``resumed``: the journal a resumed game was rebuilt from — its
    presses are read back (the cards seen, the shots, the hands, the thumbs)."""
    settings = ConsoleSettings(lang=lang, hand_votes=opts.hand_votes,
                               wait_for_cards=opts.wait_for_cards)
    table = ConsoleTable(host, settings=settings, record=journal.write,
                         said=lambda: list(transcript.said),
                         protocol=protocol_of(host.game, transcript))
    if resumed is not None:
        table.restore(resumed.inputs, resumed.input_at)
    return table


def open_console(host: Host, transcript: Transcript, journal: Journal, lang: str,
                 opts: ConsoleOptions, submit: Callable[[Callable[[], object]], None], *,
                 resumed: JournalContents | None = None) -> Console:
    """The console's table on ``host``, served; its links printed (and written with
    ``--links``). ``resumed``: as for :func:`console_table`."""
    table = console_table(host, transcript, journal, lang, opts, resumed=resumed)
    console = start_console(table, submit, opts.address)
    print_links(console.links, sys.stdout, lang=lang)
    if opts.links:
        write_links(opts.links, console.links)
        print(tx("v_written", lang, path=opts.links), flush=True)
    return console


#: what a game's pages say once it is over and its console closes
GAME_ENDED = {"ru": "Игра окончена. Спасибо за игру!", "uk": "Гру завершено. Дякуємо за гру!"}


class GameConsole(Protocol):
    """A game's console as a mode serves it: its table (on the game's host), and its end."""

    @property
    def table(self) -> ConsoleTable: ...

    def stop(self, ended: str | None = None) -> None: ...


@dataclass
class Mount:
    """How a game's console is served when it is not the game's own (``narrator evening``:
    one console for the whole evening). ``open`` gets the game's host, transcript, journal, the
    way to run a function on the game's loop and the way to hand it an operator's line, and
    the journal a resumed game was rebuilt from; ``stop`` of what it returns lets the game go
    (the console stays up). ``resume``: what to run to take a stopped game up again;
    ``driver``: the one that serves the console all evening, which the game runs on too."""

    open: Callable[[Host, Transcript, Journal, Driver, Callable[[Input], None],
                    JournalContents | None], GameConsole]
    resume: str
    driver: Driver | None = None
