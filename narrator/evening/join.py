"""A table of a tournament: ``narrator evening DIR --join LINK --table N``.

The director's box (:mod:`narrator.evening.director` speaks to it) gives this table its plan:
the rounds are kept in the book like a ``--plan`` file's (:func:`~narrator.evening.plan.
attach_rounds`), its players join the roster with their MafiaRatings ids, and the link and the
table are kept too, so ``narrator evening DIR`` alone takes the joined evening up again (the
plan asked for once more; the director not reachable then: the plan the book holds). The
evening plays the tournament's ruleset when the director names one (on a resume too). Each
game of the plan, once over, is owed to the director under the key ``<evening id>-<game
number>`` (:mod:`narrator.evening.forward` sends it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from narrator import words as vocab
from narrator.bidi import neutral
from narrator.engine import Game
from narrator.engine.rules import RULESETS
from narrator.errors import NarratorError
from narrator.evening.book import EveningBook, GameEntry, JoinLink
from narrator.evening.director import (
    MAX_BODY,
    Unreachable,
    address_of,
    fetch_plan,
    join_link,
)
from narrator.evening.forward import Forwarder
from narrator.evening.plan import attach_rounds
from narrator.host.texts import tx
from narrator.reading import read_text


def take_join(book: EveningBook, link: str | None, table: int | None,
              say: Callable[[str], None]) -> bool | None:
    """The director's plan at the start: ``--join LINK --table N`` given, or the book's own
    link. Whether the director answered (None: this evening has none); a one-line
    NarratorError when the plan cannot be had nor held, or is another table's."""
    if link is None:
        if table is not None:
            raise NarratorError("--table N goes with --join LINK (the director's link for "
                                "this table)")
        if book.join is None:
            return None
        link, table = book.join.url, book.join.table
    else:
        link = join_link(link)
        if table is None:
            raise NarratorError("--join: give --table N too, the table this link is for")
    lang = book.lang  # (the table's terminal)
    where = f"the director at {address_of(link)}"  # (the errors': the command line's English)
    said = tx("j_where", lang, address=address_of(link))  # (the terminal's lines)
    held_plan = book.plan if book.join is not None and book.join.url == link else None
    try:
        plan = fetch_plan(link)
    except (Unreachable, NarratorError) as e:
        if held_plan is None:
            if isinstance(e, NarratorError):
                raise
            raise NarratorError(f"--join: {e}; this table needs the director's plan once "
                                "(check the Wi-Fi and the link)") from None
        # (a director restarting may not know the link yet: the table plays on regardless)
        say(tx("j_held", lang, error=e))
        return False
    if plan.table != table:
        raise NarratorError(f"--table {table}: this link is table {plan.table}'s "
                            f"({where}, {plan.tables} table(s))")
    if plan.rules and plan.rules != book.rules:
        before_rules = book.rules
        take_rules(book, plan.rules, where)
        say(tx("j_rules", lang, rules=vocab.word("rules", plan.rules, lang),
               before=vocab.word("rules", before_rules, lang)))
    attach_rounds(book, where, table, plan.rounds, plan.ids,
                  label=plan.name or address_of(link),
                  start=held_plan.start if held_plan is not None else None, pads=plan.pads)
    book.join = JoinLink(link, table)
    if held_plan is None:
        book.seating = {}  # (the evening opens seated by the plan's next round)
        of = tx("j_of", lang, name=neutral(plan.name)) if plan.name else ""
        say(tx("j_joined", lang, where=said, n=len(plan.rounds), table=table, of=of))
    elif held_plan.rounds != tuple(tuple(r) for r in plan.rounds):
        say(tx("j_changed", lang, where=said))
    return True


def take_rules(book: EveningBook, name: str, where: str) -> None:
    """The evening's ruleset the director's ``name``; a one-line NarratorError when this
    narrator does not know it, or the evening's figures and club options do not fit it."""
    if name not in RULESETS:
        raise NarratorError(f"{where} plays the ruleset {name!r}, which this narrator does "
                            f"not know (known: {', '.join(RULESETS)}); update the table's "
                            "narrator, or ask the director")
    try:
        book.game_rules(name)
    except NarratorError as e:
        raise NarratorError(f"{where} plays {name}: {e}") from None
    book.rules = name


def round_of(book: EveningBook, entry: GameEntry) -> int | None:
    """The plan's round game ``entry`` is (None: a game before the plan or past it)."""
    return book.plan.round_of(entry.number) if book.plan is not None else None


def key_of(book: EveningBook, entry: GameEntry) -> str:
    """The game's key at the director: unique across the tournament's tables and evenings."""
    return f"{book.id}-{entry.number}"


def body_of(book: EveningBook, entry: GameEntry) -> dict[str, Any] | None:
    """What the director is sent for a finished game (None: not a game of its plan); its
    journal as the file holds it (a NarratorError names the file)."""
    played = round_of(book, entry)
    if played is None or book.join is None:
        return None
    path = book.journal(entry)
    journal = read_text(path, "the game's journal", limit=MAX_BODY)
    return {"key": key_of(book, entry), "round": played, "game": entry.number,
            "journal": journal,
            "seating": {str(s): n for s, n in sorted(book.names_of(entry.seating).items())},
            # the journal's last write is the game's end (its export's time at MafiaRatings)
            "ended": int(path.stat().st_mtime)}


def forward(book: EveningBook, games: dict[int, Game], director: Forwarder,
            say: Callable[[str], None]) -> None:
    """The plan's finished games not owed yet into the outbox, a game owed or sent whose
    journal has grown since (the host's marks) owed again in its place, and the outbox sent
    (on the forwarder's thread)."""
    try:
        for key, body in owed(book, games, director.outbox.journal_of):
            if director.outbox.holds(key):  # (an older journal: the new one replaces it)
                director.outbox.put(key, body)
            else:
                director.owe(key, body)
    except NarratorError as e:  # (a journal that cannot be read): said, the rest still sent
        say(tx("j_error", book.lang, error=e))
    director.kick()


def owed(book: EveningBook, games: dict[int, Game],
         kept: Callable[[str], str | None]) -> list[tuple[str, dict[str, Any]]]:
    """Every finished game of the plan the outbox does not hold as it is now, keyed: not
    ``kept`` yet (``kept(key)``: the journal it is owed or was sent with, None: none or no
    longer readable), or kept with an older journal (a mark given since: the kept one is a
    prefix of the game's). ``games``: the evening's, by number."""
    out = []
    for entry in book.games:
        game = games.get(entry.number)
        if game is None or game.winner is None or round_of(book, entry) is None:
            continue
        held = kept(key_of(book, entry))
        try:
            body = body_of(book, entry)
        except NarratorError:
            if held is not None:  # (sent or owed already: an unreadable file stops no other)
                continue
            raise
        if body is None:
            continue
        journal = str(body["journal"])
        if held is None or (journal != held and journal.startswith(held)):
            out.append((str(body["key"]), body))
    return out
