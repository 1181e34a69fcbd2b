"""The games a table owes its tournament's director: ``DIR/outbox/KEY.json``, then ``DIR/sent/``.

Each finished game of the director's plan is written here as the request's body, whole (into
``KEY.json.new``, then renamed), owner-only: it holds the game's journal, every card in it.
Once the director has it (stored now, or before), the file is moved to ``DIR/sent/`` — one
rename, so a kill leaves the entry in one folder or the other, never in both nor in neither;
a kill between the director's answer and the rename sends it once more, which the director
answers "already". Moving rather than deleting keeps what the director was given, byte for
byte, beside the evening (``DIR/sent.json`` is the MafiaRatings ledger's name: no second
ledger beside it). A game the director refused (409: it holds another journal under that key;
400: it cannot take it) stays in the outbox with ``KEY.refused`` saying why, and is not sent
again until that file is removed.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any

from narrator.errors import NarratorError
from narrator.outputs import replace_whole
from narrator.reading import read_text

OUTBOX = "outbox"
SENT = "sent"
#: an entry's largest size (the director takes bodies of up to 2 MB)
MAX_ENTRY = 2 << 20


def _number(key: str) -> int:
    """The game's number in a key ``<evening id>-<game number>`` (the entries' order)."""
    tail = key.rpartition("-")[2]
    return int(tail) if tail.isdigit() else 0


class Outbox:
    """The outbox and the sent folder of the evening in ``folder``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.box = folder / OUTBOX
        self.sent = folder / SENT

    def _entry(self, key: str) -> Path:
        return self.box / f"{key}.json"

    def put(self, key: str, body: dict[str, Any]) -> None:
        """The game ``key`` owed: its body written whole (a NarratorError names the file)."""
        text = json.dumps(body, ensure_ascii=False) + "\n"
        if len(text.encode("utf-8")) > MAX_ENTRY:
            raise NarratorError(f"game {body.get('game')}: its journal is too large to send "
                                f"(at most {MAX_ENTRY:,} bytes)")
        _folder(self.box)
        replace_whole(self._entry(key), text, "the game's entry in the outbox", mode=0o600)
        with contextlib.suppress(OSError):  # a removed entry's refusal is stale now
            (self.box / f"{key}.refused").unlink(missing_ok=True)

    def holds(self, key: str) -> bool:
        """Whether the game ``key`` is owed or sent already."""
        return self._entry(key).is_file() or (self.sent / f"{key}.json").is_file()

    def _keys(self) -> list[str]:
        try:
            names = [p.name for p in self.box.iterdir()]
        except FileNotFoundError:
            return []
        return sorted((n[:-5] for n in names if n.endswith(".json")), key=_number)

    def waiting(self) -> list[str]:
        """The games to send, in their order (the refused ones are not)."""
        return [k for k in self._keys() if not (self.box / f"{k}.refused").exists()]

    def refused(self) -> list[str]:
        """The games the director refused (each one's ``KEY.refused`` says why)."""
        return [k for k in self._keys() if (self.box / f"{k}.refused").exists()]

    def unsent(self) -> int:
        """Every game in the outbox, refused ones too: the director does not have them."""
        return len(self._keys())

    def body(self, key: str) -> dict[str, Any]:
        """The request's body of ``key`` (a NarratorError names a damaged entry)."""
        path = self._entry(key)
        text = read_text(path, "the game's entry in the outbox", limit=MAX_ENTRY)
        try:
            body = json.loads(text)
        except ValueError:
            raise NarratorError(f"{path}: not JSON: remove it, the evening writes it again "
                                "when it starts") from None
        if not isinstance(body, dict):
            raise NarratorError(f"{path}: not a game's entry (no object)")
        return body

    def done(self, key: str) -> None:
        """The director has ``key``: its entry moved to the sent folder."""
        _folder(self.sent)
        try:
            os.replace(self._entry(key), self.sent / f"{key}.json")
        except OSError as e:
            raise NarratorError(f"{self._entry(key)}: cannot move it to {self.sent} "
                                f"({e.strerror or e})") from None

    def refuse(self, key: str, why: str) -> None:
        """The director refused ``key``: kept, with why, and not sent again."""
        replace_whole(self.box / f"{key}.refused", why + "\n", "the refusal's note",
                      mode=0o600)


def _folder(path: Path) -> None:
    try:
        path.mkdir(mode=0o700, exist_ok=True)
    except OSError as e:
        raise NarratorError(f"{path}: cannot create it ({e.strerror or e})") from None
