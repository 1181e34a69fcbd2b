"""Every reason the narrator gives is one :class:`~narrator.reasons.Reason`, worded in the one
table (ru and uk), and documented for users."""

from __future__ import annotations

import re
from pathlib import Path

from narrator.reasons import WORDS, Reason, words

DOCS = Path(__file__).resolve().parents[1] / "docs"


def test_every_reason_has_its_words_in_russian_and_ukrainian() -> None:
    assert set(WORDS) == set(Reason)
    for reason, table in WORDS.items():
        assert set(table) == {"ru", "uk"}, reason
        assert all(text and text != reason.value for text in table.values()), reason
    # (a page never shows a code: an unknown language is worded in Russian)
    assert words(Reason.SEAT_OUT, "uk") == "Гравець поза грою"
    assert words("seat_out", "en") == WORDS[Reason.SEAT_OUT]["ru"]


def test_every_reason_is_in_the_users_docs() -> None:
    """Each code is a row of a reason table (docs/formats.md: the grammar's and the engine's;
    docs/console.md: the table's)."""
    rows: set[str] = set()
    for name in ("formats.md", "console.md"):
        for line in (DOCS / name).read_text(encoding="utf-8").splitlines():
            if line.startswith("| `"):
                rows |= set(re.findall(r"`([a-z_]+)`", line.split("|")[1]))
    missing = sorted(r.value for r in Reason if r.value not in rows)
    assert not missing, f"codes no reason table in docs/formats.md or docs/console.md lists: {missing}"
