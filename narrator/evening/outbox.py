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

A game sent may be owed again: the host's marks given between games go into its journal, and
the director is owed the longer journal under the same key (it replaces the one it holds).
The new body is written into the outbox whole first, and only then is the sent copy removed:
a kill between the two keeps both (the outbox's is sent, and its move replaces the sent
copy), a kill before keeps the sent one (the next start finds its journal older than the
game's and owes it again) — one of the two versions, never none. While the sending thread
has an older version in flight, its answer moves nothing: the newer waits its turn.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
from pathlib import Path
from typing import Any

from narrator.errors import NarratorError
from narrator.outputs import private_folder, replace_whole
from narrator.reading import BadJSON, loads, read_json, read_text

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
        #: an entry written (the evening's thread) and one moved or refused (the sending
        #: thread) one at a time: the move checks it is the version that was sent
        self._lock = threading.Lock()

    def _entry(self, key: str) -> Path:
        return self.box / f"{key}.json"

    def put(self, key: str, body: dict[str, Any]) -> None:
        """The game ``key`` owed: its body written whole (a NarratorError names the file); a
        version owed or sent before is replaced (the sent copy removed once this is written)."""
        text = json.dumps(body, ensure_ascii=False) + "\n"
        if len(text.encode("utf-8")) > MAX_ENTRY:
            raise NarratorError(f"game {body.get('game')}: its journal is too large to send "
                                f"(at most {MAX_ENTRY:,} bytes)")
        _folder(self.box)
        with self._lock:
            replace_whole(self._entry(key), text, "the game's entry in the outbox")
            with contextlib.suppress(OSError):  # a removed entry's refusal is stale now
                (self.box / f"{key}.refused").unlink(missing_ok=True)
            with contextlib.suppress(OSError):  # (the older version: owed again, above)
                (self.sent / f"{key}.json").unlink(missing_ok=True)

    def holds(self, key: str) -> bool:
        """Whether the game ``key`` is owed or sent already."""
        return self._entry(key).is_file() or (self.sent / f"{key}.json").is_file()

    def journal_of(self, key: str) -> str | None:
        """The journal the game ``key`` is owed or was sent with (the outbox's first); None:
        not held, or no longer readable (a damaged entry: written again whole)."""
        for path in (self._entry(key), self.sent / f"{key}.json"):
            if not path.is_file():
                continue
            try:
                body = read_json(path, "the game's entry", limit=MAX_ENTRY)
            except NarratorError:
                return None
            journal = body.get("journal") if isinstance(body, dict) else None
            return journal if isinstance(journal, str) else None
        return None

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
            body = loads(text)
        except BadJSON:
            raise NarratorError(f"{path}: not JSON: remove it, the evening writes it again "
                                "when it starts") from None
        if not isinstance(body, dict):
            raise NarratorError(f"{path}: not a game's entry (no object)")
        return body

    def done(self, key: str, sent: dict[str, Any] | None = None) -> bool:
        """The director has ``key`` (as ``sent``, when given): its entry moved to the sent
        folder. False: the outbox holds a newer version now, left to be sent."""
        _folder(self.sent)
        with self._lock:
            if sent is not None and not self._is(key, sent):
                return False
            try:
                os.replace(self._entry(key), self.sent / f"{key}.json")
            except OSError as e:
                raise NarratorError(f"{self._entry(key)}: cannot move it to {self.sent} "
                                    f"({e.strerror or e})") from None
        return True

    def refuse(self, key: str, why: str, sent: dict[str, Any] | None = None) -> None:
        """The director refused ``key`` (as ``sent``, when given): kept, with why, and not
        sent again — unless the outbox holds a newer version now."""
        with self._lock:
            if sent is None or self._is(key, sent):
                replace_whole(self.box / f"{key}.refused", why + "\n", "the refusal's note")

    def _is(self, key: str, sent: dict[str, Any]) -> bool:
        """Whether the outbox's entry ``key`` is ``sent`` still."""
        try:
            return self.body(key) == sent
        except NarratorError:
            return False


def _folder(path: Path) -> None:
    try:
        private_folder(path, exist_ok=True)
    except OSError as e:
        raise NarratorError(f"{path}: cannot create it ({e.strerror or e})") from None
