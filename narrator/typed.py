"""Numbers typed by people (operator entries, the host's keys, seat numbers in files).

``str.isdigit`` also passes «²», «①» and «٥», which ``int`` refuses or reads as another number,
and a thousand-digit string is no seat either: a typed number is ASCII digits, a few of them.
"""

from __future__ import annotations

#: typed numbers longer than this are not numbers anyone types at a table
TYPED_DIGITS = 6


def typed_number(text: str) -> int | None:
    """The whole number typed as ``text`` (ASCII digits, at most :data:`TYPED_DIGITS` of them;
    «05» is 5), or None."""
    if not 0 < len(text) <= TYPED_DIGITS or not text.isascii() or not text.isdigit():
        return None
    return int(text)
