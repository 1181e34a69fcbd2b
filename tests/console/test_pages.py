"""The pages draw their own signs: no character that needs a font a phone may lack."""

from __future__ import annotations

import unicodedata
from pathlib import Path

STATIC = Path(__file__).resolve().parents[2] / "narrator" / "console" / "static"


def drawable(ch: str) -> bool:
    """Latin, Cyrillic, the common punctuation (dashes, quotes, «», …, ·, №) and arrows:
    in every phone's system fonts. Not the media signs (⏸), dingbats (✓) nor emoji (👍)."""
    code = ord(ch)
    return (code < 0x250 or 0x400 <= code < 0x530 or 0x2010 <= code < 0x2060
            or code == 0x2116 or 0x2190 <= code < 0x2200)


def test_every_page_and_script_uses_only_characters_every_phone_draws() -> None:
    found = []
    for path in sorted(STATIC.iterdir()):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            for ch in line:
                if not drawable(ch):
                    found.append(f"{path.name}:{number}: {ch!r} {unicodedata.name(ch, '?')}")
    assert not found, found
