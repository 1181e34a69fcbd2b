"""The options several commands share, each declared once.

An option is its names and argparse's keywords (:class:`Option`); a command lists the ones it
takes in the order its ``--help`` shows them (:mod:`narrator.cli.commands`), and where its words
differ (an evening's ``--rules`` is the evening's) it takes the shared one :meth:`~Option.but`
with another help line or default. What a command is given is read from the parsed namespace
into its value in :mod:`narrator.arguments`.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any

from narrator.engine.rules import known
from narrator.engine.tuning import all_figures

#: the languages the narrator speaks and hears
LANGS = ("ru", "uk")


@dataclass(frozen=True)
class Option:
    """One option, or positional argument, as argparse takes it: its names and keywords."""

    names: tuple[str, ...]
    keywords: dict[str, Any]

    def but(self, **keywords: Any) -> Option:
        """This option with some keywords changed: another help line, another default."""
        return Option(self.names, {**self.keywords, **keywords})

    def add_to(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument(*self.names, **self.keywords)


def option(*names: str, **keywords: Any) -> Option:
    return Option(names, keywords)


# -- the table: which game, in which language, at how many seats (:class:`TableArgs`) ---------

#: the choices are the engine's registry: a ruleset is known once its module registers it
RULES = option("--rules", choices=known(), default="crime-time", help="the ruleset")
LANG = option("--lang", choices=LANGS, default="ru", help="the narrator's language")
SEATS = option("--seats", type=int, default=None,
               help="seats at the table (default: the ruleset's)")
TABLE = (RULES, LANG, SEATS)

# -- the club's figures and options (:class:`TableArgs` too) --------------------------------------

COUNT_PACE = option("--count-pace", type=float, metavar="SECONDS",
                    help="seconds between the numbers of the hunt's count (default 1.5)")
TIMER = option("--timer", metavar="NAME=SECONDS", action="append",
               help="a club's figure: " + ", ".join(
                   n.removesuffix("_seconds") for n in all_figures()))
FIGURES = (COUNT_PACE, TIMER)
RULES_FILE = option("--rules-file", metavar="FILE",
                    help="the club's options in a TOML file: the rule catalogue's groups "
                         "or its code (rules = \"0002000010000\"), fouls, best_move, cards, "
                         "first_day, timers; every option: docs/rulesets.md")
NAMES = option("--names", metavar="NAMES",
               help='nicknames per seat, e.g. "1=Ника,2=Бублик,7=Momento Mori"')
CLUB = (RULES_FILE, NAMES)

# -- where the narration goes (:class:`AudioArgs`) -----------------------------------------------

VOICES = option("--voices", metavar="DIR", help="voice pack folder (default voices/LANG)")
OUT_WAV = option("--out-wav", metavar="FILE", help="write the narration to a WAV file")
NIGHT_MUSIC = option("--night-music", metavar="FILE", help="music under the night phases")
AUDIO = (VOICES, OUT_WAV, NIGHT_MUSIC)

# -- the table console (:class:`ConsoleArgs`) and its pads (:class:`PadArgs`) ------------------

CONSOLE_AT = option("--console", metavar="[HOST:]PORT",
                    help="serve the table console (loopback unless HOST is given, "
                         "e.g. 0.0.0.0:8765 for the club's Wi-Fi)")
LINKS = option("--links", metavar="FILE",
               help="write the console's links as JSON (readable by you only)")
CONSOLE = (CONSOLE_AT, LINKS)
BROADCAST_AT = option("--broadcast", metavar="[HOST:]PORT",
                      help="serve the stream's view (every card, delayed) for OBS on the "
                           "streaming laptop; never the console's address")
BROADCAST_DELAY = option("--broadcast-delay", type=float, metavar="SECONDS",
                         help="how far the stream's view lags the table (default 60)")
BROADCAST = (BROADCAST_AT, BROADCAST_DELAY)
LISTEN = option("--listen", choices=("on", "off"), default="on",
                help="off: no microphone nor model; speeches from the seat pads")
VOTES = option("--votes", choices=("pads", "hands"), default="pads",
               help="hands: the operator enters each vote's count")
PADS = (LISTEN, VOTES)

# -- the rest more than one command takes ---------------------------------------------------------

SEED = option("--seed", type=int, help="deal roles reproducibly")
MODEL = option("--model", metavar="PATH", help="Vosk model folder (or NARRATOR_MODEL)")
JOURNAL = option("--journal", metavar="FILE", help="game journal (default journal.jsonl)")
ASSIST = option("--assist", action="store_true", help="show refusals to a human host")
JSON = option("--json", action="store_true", help="print the protocol as JSON")
MODELS_DIR = option("--dir", metavar="DIR", help="where to unpack (default models/)")
