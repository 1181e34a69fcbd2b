"""Sending finished games to MafiaRatings, when the laptop is online: one request per game.

MafiaRatings takes a game at ``api/ops/game.php`` with ``op=create`` and the game's JSON in the
form field ``json``, from a club's or an event's referee signed in by HTTP Basic (a user name or
e-mail and the password). Its answer is JSON: ``error`` when the game was refused (its help:
«Successful requests never have this field»), else ``message`` when it stored the game but
fixed something first («The game contains the next issues: …»).

A game is sent once: what was stored is kept in a ledger (``sent.json``, in the evening's folder
or beside the game's file), keyed by the game and the site, and a game the ledger holds is not
posted again. The password is the caller's to ask; it is sent, never written. This is the one
module besides ``models fetch`` that uses the network, and only when the command is given
``--send``.
"""

from __future__ import annotations

import base64
import html
import json
import os
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from narrator.errors import NarratorError
from narrator.outputs import write_private
from narrator.reading import read_json

__all__ = ["ENDPOINT", "LEDGER", "Sent", "endpoint", "send_games"]

#: where a site takes games (``op=create``)
ENDPOINT = "api/ops/game.php"
#: the ledger's name in the evening's folder (or beside a game's file)
LEDGER = "sent.json"
#: seconds to wait for one answer (MafiaRatings rebuilds ratings on some posts: it can be slow)
TIMEOUT = 60.0

#: one request: (url, form body, headers) → (HTTP status, body); tests give their own
Post = Callable[[str, bytes, dict[str, str]], tuple[int, bytes]]


@dataclass(frozen=True, slots=True)
class Sent:
    """What became of one game: ``stored`` (this time or before), and the line that says so."""

    key: str
    stored: bool
    line: str


class _Stop(Exception):
    """The site cannot be reached, or refuses the user: the games after this one are not
    tried (each would fail the same way)."""


def endpoint(url: str) -> str:
    """The address games are posted to: ``url`` itself when it names ``game.php``, else the
    site's ``api/ops/game.php``; NarratorError for what is not an http(s) address."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise NarratorError(f"--send: expected the site's address like https://mafiaratings.com, "
                            f"got {url!r}")
    if parts.path.endswith("game.php"):
        return urllib.parse.urlunsplit((parts.scheme, parts.netloc, parts.path, "", ""))
    return urllib.parse.urljoin(url.rstrip("/") + "/", ENDPOINT)


def send_games(games: Sequence[tuple[str, dict[str, Any]]], *, url: str, user: str,
               password: str, ledger: Path, post: Post | None = None) -> list[Sent]:
    """Post each (key, record) of ``games`` that ``ledger`` does not hold as stored at this
    site; the ledger is written after each game stored, so a cut connection loses nothing."""
    target = endpoint(url)
    if not user:
        raise NarratorError("--user: the MafiaRatings user (name or e-mail) is needed to send")
    book = _Ledger(ledger)
    headers = {"Authorization": "Basic " + base64.b64encode(
                   f"{user}:{password}".encode()).decode("ascii"),
               "Content-Type": "application/x-www-form-urlencoded; charset=utf-8",
               "User-Agent": "narrator"}
    results: list[Sent] = []
    stop: str | None = None
    for key, record in games:
        done = book.stored(key, target)
        if done is not None:
            results.append(Sent(key, True, f"{key}: sent already ({done}); not sent again"))
            continue
        if stop is not None:
            results.append(Sent(key, False, f"{key}: not sent: {stop}"))
            continue
        try:
            sent = _send_one(key, record, target, headers, post or _urlopen)
        except _Stop as e:
            stop = str(e)
            results.append(Sent(key, False, f"{key}: not sent: {stop}"))
            continue
        if sent.stored:
            book.add(key, target, record)
        results.append(sent)
    return results


def _send_one(key: str, record: dict[str, Any], target: str, headers: dict[str, str],
              post: Post) -> Sent:
    if not record.get("eventId"):
        # include/game.php's create(): a game without an event is a demo, stored nowhere
        return Sent(key, False, f"{key}: not sent: it has no eventId, and MafiaRatings stores "
                                f"a game without an event nowhere")
    body = urllib.parse.urlencode(
        {"op": "create", "json": json.dumps(record, ensure_ascii=False)}).encode()
    status, raw = post(target, body, headers)
    try:
        answer = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return Sent(key, False, f"{key}: not sent: {target} answered HTTP {status} with no "
                                f"MafiaRatings answer ({_text(raw.decode('utf-8', 'replace'))})")
    if not isinstance(answer, dict):
        return Sent(key, False, f"{key}: not sent: {target} answered {_text(str(answer))}")
    if "error" in answer:
        if _signed_out(str(answer["error"])):
            raise _Stop(f"MafiaRatings refused the user: {_text(str(answer['error']))}")
        return Sent(key, False, f"{key}: refused by MafiaRatings: {_text(str(answer['error']))}")
    if status >= 400:
        return Sent(key, False, f"{key}: not sent: HTTP {status}")
    message = _text(str(answer.get("message", "")))
    return Sent(key, True, f"{key}: stored" + (f"; MafiaRatings says: {message}" if message
                                               else ""))


def _urlopen(url: str, body: bytes, headers: dict[str, str]) -> tuple[int, bytes]:
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as e:  # the site answered, with an error page or JSON
        return e.code, e.read()
    except (urllib.error.URLError, OSError) as e:
        reason = getattr(e, "reason", None) or e
        raise _Stop(f"cannot reach {urllib.parse.urlsplit(url).netloc} ({reason})") from None


def _signed_out(error: str) -> bool:
    """The answer of a wrong password (include/api.php) or of a user who is no referee of the
    club or the event (include/security.php's «Please sign in»)."""
    return error == "Authorization failed" or "sign in" in error.lower()


def _text(markup: str) -> str:
    """An answer's HTML (``<ul><li>…``, ``<hr>``) as one line of plain text."""
    plain = re.sub(r"</?(li|ul|ol|hr|br|p)\b[^>]*>", "; ", markup, flags=re.I)
    plain = html.unescape(re.sub(r"<[^>]+>", "", plain))
    plain = re.sub(r"\s+", " ", plain)
    plain = re.sub(r"(;\s*)+", "; ", plain).strip(" ;")
    return plain.replace(":;", ":")


class _Ledger:
    """``sent.json``: per game key and site, when it was stored and what was stored (the
    game's start, its event and players' ids; no roles, so it reveals nothing)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.entries: dict[str, dict[str, Any]] = {}
        if os.path.lexists(path):  # (a FIFO, a link or a folder: read_json says what it is)
            try:
                data = read_json(path, "what was sent")
            except NarratorError as e:
                raise NarratorError(f"{e}; move it away only if no game in it was stored") \
                    from None
            if not isinstance(data, dict) or not isinstance(data.get("sent"), dict):
                raise NarratorError(f"{path}: not a ledger of sent games (no \"sent\" object)")
            self.entries = data["sent"]

    def stored(self, key: str, site: str) -> str | None:
        entry = self.entries.get(_entry(key, site))
        return None if not isinstance(entry, dict) else str(entry.get("at", "at some time"))

    def add(self, key: str, site: str, record: dict[str, Any]) -> None:
        self.entries[_entry(key, site)] = {
            "at": time.strftime("%Y-%m-%d %H:%M:%S %z"),
            "eventId": record.get("eventId"), "startTime": record.get("startTime"),
            "gameNum": record.get("gameNum")}
        text = json.dumps({"sent": self.entries}, ensure_ascii=False, indent=1) + "\n"
        part = self.path.with_name(self.path.name + ".part")
        try:
            write_private(part, text)  # (it names the players' ids)
            os.replace(part, self.path)
        except OSError as e:
            raise NarratorError(f"{self.path}: cannot keep what was sent ({e.strerror}); the "
                                f"game {key} was stored: do not send it again") from None


def _entry(key: str, site: str) -> str:
    return f"{site} {key}"
