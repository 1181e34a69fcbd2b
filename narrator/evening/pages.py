"""What the evening says of its players' links and of its end: each player's line at the
terminal (her name and the seat she has — a roster number beside it read as a seat: «player 1
Ника» while she sat at 2), and the word every page shows once the operator ends the evening."""

from __future__ import annotations

from collections.abc import Callable

from narrator.evening.book import EveningBook

#: what every page of the evening says once the operator has ended it
EVENING_ENDED = {"ru": "Вечер закончен. Спасибо за игру!",
                 "uk": "Вечір завершено. Дякуємо за гру!"}


def player_lines(book: EveningBook, link: Callable[[str], str]) -> list[str]:
    """``player NAME (seat N): URL`` for every player of the roster (``link``: a token's)."""
    seats = {n: s for s, n in book.seating.items()}
    out = []
    for player in book.players:
        seat = seats.get(player.number)
        where = f"seat {seat}" if seat is not None else "no seat yet"
        out.append(f"player {player.name} ({where}): {link(player.token)}")
    return out


def ended_word(book: EveningBook, closed: bool) -> str | None:
    """What the pages say as the server stops: the end, when the operator ended the evening
    (a stop any other way — Ctrl-C, a game stopped — leaves them waiting to come back)."""
    return EVENING_ENDED.get(book.lang, EVENING_ENDED["ru"]) if closed else None
