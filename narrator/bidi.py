"""Bidirectional controls in the text users give (nicknames, names of a tournament), kept from
every screen and file that shows it.

A nickname is anyone's text: one holding U+202E (RIGHT-TO-LEFT OVERRIDE) shows the rest of its
line — a table's cell, a row of the standings, a line of the terminal — backwards, and one
holding U+2069 (POP DIRECTIONAL ISOLATE) closes an isolate it was put in. So the controls are
taken out wherever text is shown (:func:`neutral`: nothing a Russian or Ukrainian nickname
needs), and a page isolates each nickname besides (:func:`bdi`; the front ends' stylesheets
isolate their cells: ``unicode-bidi: isolate``), so that even a name in a right-to-left script
orders only itself.
"""

from __future__ import annotations

import re
from html import escape

#: the embeddings and overrides (U+202A–U+202E), the isolates (U+2066–U+2069), the marks
#: (U+200E, U+200F) and the Arabic letter mark (U+061C)
CONTROLS = frozenset(
    [*map(chr, range(0x202A, 0x202F)), *map(chr, range(0x2066, 0x206A)), "\u200e", "\u200f",
     "\u061c"])
_DROP = str.maketrans(dict.fromkeys(CONTROLS))
_ANY = re.compile("[" + "".join(sorted(CONTROLS)) + "]")


def has_controls(text: str) -> bool:
    return _ANY.search(text) is not None


def neutral(text: str) -> str:
    """``text`` without its bidirectional controls (itself when it has none: the usual case
    costs a scan, not a copy). Safe on JSON text too: the controls stand only inside its
    strings."""
    return text.translate(_DROP) if has_controls(text) else text


def bdi(text: str) -> str:
    """``text`` as HTML isolated from what stands around it: escaped, its controls taken out,
    in a ``<bdi>`` of its own."""
    return f"<bdi>{escape(neutral(text))}</bdi>"
