"""What a table says of itself: ``POST /join/TOKEN/status``.

A table tells the director where its console is (the base URL its pads are served on) and
where its game is: the game and the plan's round in play (or the next one, between games), day
or night and its number, the players still in. The director keeps the last word of each table:
the board shows which table is on which day or night, and a player's page opens his pad at his
table (his seat's pad token is the director's; the table knows it from its plan).
"""

from __future__ import annotations

import urllib.parse
from dataclasses import dataclass
from typing import Any

from narrator.console.requests import shown
from narrator.errors import NarratorError

#: the longest console address a table may give
MAX_URL = 200
TIMES = ("day", "night")


class BadStatus(NarratorError):
    """A status the endpoint refuses: 400."""


@dataclass(frozen=True)
class Status:
    """A table's word on itself, checked: its console's base URL (None: none given) and its
    state (``game``, ``round``, ``playing``, ``time``, ``number``, ``living``)."""

    console: str | None
    state: dict[str, Any]


def console_url(raw: object) -> str | None:
    """A console's base URL as a table gives it: ``http://HOST:PORT`` (no path, query or
    user); BadStatus otherwise."""
    if raw is None:
        return None
    if not isinstance(raw, str) or len(raw) > MAX_URL:
        raise BadStatus(f"console: expected the console's address http://HOST:PORT, at most "
                        f"{MAX_URL} characters")
    try:
        parts = urllib.parse.urlsplit(raw.strip())
        parts.port  # noqa: B018 - read for its ValueError: a port out of range, not a number
    except ValueError:
        raise BadStatus(f"console: {shown(raw)} is not an address http://HOST:PORT") from None
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.username or \
            parts.password or parts.path not in ("", "/") or parts.query or parts.fragment:
        raise BadStatus(f"console: {shown(raw)} is not an address http://HOST:PORT")
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, "", "", ""))


def _number(body: dict[str, Any], field: str, low: int, high: int) -> int | None:
    value = body.get(field)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BadStatus(f"{field}: expected a whole number from {low} to {high}, or null, "
                        f"got {shown(value)}")
    return value


def status_of(body: object) -> Status:
    """The checked body of ``POST /join/TOKEN/status``; BadStatus naming the field."""
    if not isinstance(body, dict):
        raise BadStatus("expected an object {console, game, round, playing, time, number, "
                        "living}")
    time = body.get("time")
    if time is not None and time not in TIMES:
        raise BadStatus(f"time: expected \"day\", \"night\" or null, got {shown(time)}")
    playing = body.get("playing", False)
    if not isinstance(playing, bool):
        raise BadStatus(f"playing: expected true or false, got {shown(playing)}")
    state = {"game": _number(body, "game", 1, 10_000), "round": _number(body, "round", 1, 10_000),
             "playing": playing, "time": time, "number": _number(body, "number", 0, 100),
             "living": _number(body, "living", 0, 100)}
    return Status(console_url(body.get("console")), state)


#: the board's words for a table's state: key → (ru, uk)
_PHASE: dict[str, tuple[str, str]] = {
    "none": ("нет вестей", "немає вістей"), "between": ("между играми", "між іграми"),
    "next": (" · дальше тур {round}", " · далі тур {round}"), "game": ("игра {n}", "гра {n}"),
    "day": ("день {n}", "день {n}"), "night": ("ночь {n}", "ніч {n}"),
    "living": ("в игре {n}", "у грі {n}"), "playing": ("идёт игра", "іде гра"),
}


def _w(key: str, lang: str, **fields: object) -> str:
    ru, uk = _PHASE[key]
    return (uk if lang == "uk" else ru).format(**fields)


def phase_text(state: dict[str, Any] | None, lang: str = "ru") -> str:
    """The table's state in words for the board: «игра 3 · день 2 · в игре 8»."""
    if not state:
        return _w("none", lang)
    if not state.get("playing"):
        return _w("between", lang) + (_w("next", lang, round=state["round"])
                                      if state.get("round") else "")
    words = [_w("game", lang, n=state["game"])] if state.get("game") else []
    if state.get("time") is not None:
        words.append(_w("day" if state["time"] == "day" else "night", lang,
                        n=state["number"] or 0))
    if state.get("living") is not None:
        words.append(_w("living", lang, n=state["living"]))
    return " · ".join(words) or _w("playing", lang)
