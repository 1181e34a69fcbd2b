"""What the evening says of its players' links and of its end: each player's line at the
terminal (her name and the seat she has — a roster number beside it read as a seat: «player 1
Ника» while she sat at 2 — in the evening's language), and the word every page shows once the operator ends the evening."""

from __future__ import annotations

from collections.abc import Callable

from narrator.bidi import neutral
from narrator.evening.book import EveningBook
from narrator.host.texts import tx

#: what every page of the evening says once the operator has ended it
EVENING_ENDED = {"ru": "Вечер закончен. Спасибо за игру!",
                 "uk": "Вечір завершено. Дякуємо за гру!"}


def player_lines(book: EveningBook, link: Callable[[str], str]) -> list[str]:
    """``NAME (место N): URL`` for every player of the roster (``link``: a token's), in the
    evening's language."""
    seats = {n: s for s, n in book.seating.items()}
    lang = book.lang
    out = []
    for player in book.players:
        seat = seats.get(player.number)
        where = tx("v_seat", lang, seat=seat) if seat is not None else tx("v_no_seat", lang)
        out.append(tx("v_player", lang, name=neutral(player.name), where=where,
                      link=link(player.token)))
    return out


def ended_word(book: EveningBook, closed: bool) -> str | None:
    """What the pages say as the server stops: the end, when the operator ended the evening
    (a stop any other way — Ctrl-C, a game stopped — leaves them waiting to come back)."""
    return EVENING_ENDED.get(book.lang, EVENING_ENDED["ru"]) if closed else None
