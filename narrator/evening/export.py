"""``narrator export --format mafiaratings SOURCE``: one game — a table script, a journal, a
recorded session, in the format of :mod:`narrator.replay.export` — or an evening's DIR: every
game the format can express, one file per game (``-o DIR``: ``game-01.json``, …), each with
its seats' MafiaRatings ids from the evening's roster; each game it cannot express is one line
on stderr saying why.

MafiaRatings stores a game only when it knows where to file it and who played: the command
refuses, in one line naming what is missing and writing nothing, unless ``--demo`` asks for
such a record anyway (:mod:`narrator.replay.publish`, which the tournament's export shares).
"""

from __future__ import annotations

import sys
from datetime import datetime
from pathlib import Path

from narrator.arguments import ExportArgs
from narrator.errors import NarratorError
from narrator.evening.book import BOOK, EveningBook, GameEntry
from narrator.replay import export
from narrator.replay.mafiaratings import Filing
from narrator.replay.publish import (
    check_numbers,
    guests_line,
    make_folder,
    missing,
    refuse,
    send_records,
    unknown,
    write_record,
)
from narrator.replay.roster import Roster, load_roster
from narrator.replay.send import LEDGER


def evening_roster(book: EveningBook) -> Roster:
    """The evening's players with the MafiaRatings ids the book holds, and its host's."""
    return Roster.of(((p.name, p.mafiaratings) for p in book.players), book.moderator)


def evening_games(folder: Path, filing: Filing | None = None,
                  ) -> tuple[list[tuple[GameEntry, export.MafiaRatingsGame]], list[str]]:
    """The evening's games as MafiaRatings records (each numbered as the evening's game
    unless ``filing`` gives the first number), and a line per game left out."""
    book = EveningBook.load(folder)
    filing = filing or Filing(roster=evening_roster(book))
    first = filing.game_number
    games: list[tuple[GameEntry, export.MafiaRatingsGame]] = []
    lines: list[str] = []
    for i, entry in enumerate(book.games):
        path = book.journal(entry)
        if not path.is_file():
            lines.append(f"game {entry.number}: not exported: it never started")
            continue
        number = entry.number if first is None else first + i
        try:
            exported = export.mafiaratings(export.load_source(path),
                                           filing=_numbered(filing, number))
        except NarratorError as e:
            lines.append(f"game {entry.number}: not exported: {e}")
            continue
        games.append((entry, exported))
        lines.extend(f"game {entry.number}: note: {note}" for note in exported.notes)
    return games, lines


def _numbered(filing: Filing, number: int) -> Filing:
    return Filing(filing.club_id, filing.event_id, filing.moderator_id, filing.tournament_id,
                  filing.table, number, filing.roster)


def run(args: ExportArgs) -> int:
    """``narrator export``: an evening's folder, or one game (a script, a journal, a session).

    The command's entry is here, not beside the format (:mod:`narrator.replay.export`): an
    evening's folder is read on this floor, and the format's module stays the format."""
    if args.user is not None and args.send is None:
        raise NarratorError("--user: it names the account --send URL sends as (add --send)")
    folder = Path(args.source)
    if folder.is_dir() and (folder / BOOK).is_file():
        return _evening(folder, args)
    start = _start_option(args.start)
    roster = load_roster(args.roster) if args.roster else None
    filing = _filing(args, roster, args.game)
    source = export.load_source(args.source)
    exported = export.mafiaratings(source, start=start, filing=filing)
    if not args.demo:
        refuse(missing(filing))
    _say_guests([(None, unknown(exported.record))])
    for note in dict.fromkeys(exported.notes):
        print(f"narrator: note: {note}", file=sys.stderr)
    if args.out or not args.send:
        write_record(args.out, exported.record)
    where = Path(args.source)
    return send_records(args.send, args.user, [(where.name, exported.record)],
                        where.parent / LEDGER)


def _evening(folder: Path, args: ExportArgs) -> int:
    if args.start is not None:
        raise NarratorError("--start: an evening's games each have their own start (drop it)")
    if not args.out and not args.send:
        raise NarratorError("an evening's export writes a file per game: -o DIR names the "
                            "folder (MafiaRatings takes one game a request)")
    book = EveningBook.load(folder)
    roster = load_roster(args.roster) if args.roster else evening_roster(book)
    filing = _filing(args, roster, args.game)
    games, lines = evening_games(folder, filing)
    for line in dict.fromkeys(lines):
        print(f"narrator: {line}", file=sys.stderr)
    if not games:
        raise NarratorError(f"{folder}: no game of the evening can be exported")
    if not args.demo:
        refuse(missing(filing))
    _say_guests([(f"game {entry.number}", unknown(exported.record)) for entry, exported in games])
    keyed = [(f"game-{entry.number:02d}", exported.record) for entry, exported in games]
    if args.out:
        out = Path(args.out)
        make_folder(out)
        for key, record in keyed:
            write_record(str(out / f"{key}.json"), record)
    return send_records(args.send, args.user, keyed, folder / LEDGER)


def _say_guests(seats: list[tuple[str | None, list[int]]]) -> None:
    line = guests_line(seats)
    if line is not None:
        print(f"narrator: note: {line}", file=sys.stderr)


def _filing(args: ExportArgs, roster: Roster | None, number: int | None) -> Filing:
    check_numbers((("--club-id", args.club_id), ("--event-id", args.event_id),
                   ("--moderator-id", args.moderator_id),
                   ("--tournament-id", args.tournament_id), ("--table", args.table),
                   ("--game", args.game)))
    moderator = args.moderator_id
    if moderator is None and roster is not None:
        moderator = roster.moderator
    return Filing(args.club_id, args.event_id, moderator, args.tournament_id, args.table,
                  number, roster)


def _start_option(text: str | None) -> datetime | None:
    """``--start WHEN``: ISO 8601 (without a zone, this machine's) or Unix seconds."""
    if text is None:
        return None
    if text.strip().isdigit():
        return datetime.fromtimestamp(int(text)).astimezone()
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        raise NarratorError(f"--start: expected a date and time like 2024-05-17T19:30:00+03:00 "
                            f"or Unix seconds, got {text!r}") from None
    return when if when.tzinfo is not None else when.astimezone()
