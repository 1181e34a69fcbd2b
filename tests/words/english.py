"""The checker the every-screen tests share: the English words in a screen's visible text.

A word is a run of latin letters. Allowed: the nicknames the test gave the players, the keys a
keyboard is labelled with (Enter, Esc and single letters: «3,5,7 b»), the units and marks a
table writes in latin everywhere (``bp``, ``bm``, ``wm`` of the marks' syntax, «QR» of a QR code, the rating
site's name MafiaRatings), links and a file's path (an address is no word) and a command in
backquotes the terminal gives to type — nothing else.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

WORD = re.compile(r"[A-Za-z]+")
#: a link shown on a page (the director's page lists them): an address, not words; a command
#: the terminal gives to type (`narrator resume journal.jsonl`): the keyboard's, not words
LINK = re.compile(r"https?://\S+|`[^`\n]*`|(?<![\w/])/[\w.\-]+(?:/[\w.\-]+)+")
#: what a screen may show in latin letters besides nicknames (see the module's docstring)
ALLOWED = frozenset({"Enter", "Esc", "bp", "bm", "wm", "QR", "MafiaRatings"})


def english(text: str, nicknames: Iterable[str] = ()) -> list[str]:
    """The latin words of ``text`` that are neither allowed nor part of a nickname."""
    names = {w for n in nicknames for w in WORD.findall(n)}
    return sorted({w for w in WORD.findall(LINK.sub(" ", text))
                   if len(w) > 1 and w not in ALLOWED and w not in names})
