"""``narrator export --format mafiaratings SOURCE``: one game — a table script, a journal, a
recorded session, in the format of :mod:`narrator.replay.export` — or an evening's DIR: every
game the format can express, as a JSON list in the evening's order, with the roster's
nicknames; each game it cannot express is one line on stderr saying why."""

from __future__ import annotations

import json
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

from narrator.arguments import ExportArgs
from narrator.errors import NarratorError
from narrator.evening.book import BOOK, EveningBook
from narrator.replay import export


def evening_games(folder: Path, **kwargs: Any) -> tuple[list[dict[str, Any]], list[str]]:
    """The evening's games as MafiaRatings records, and a line per game left out (and the
    notes of those exported)."""
    book = EveningBook.load(folder)
    records: list[dict[str, Any]] = []
    lines: list[str] = []
    for entry in book.games:
        path = book.journal(entry)
        if not path.is_file():
            lines.append(f"game {entry.number}: not exported: it never started")
            continue
        try:
            exported = export.mafiaratings(export.load_source(path), **kwargs)
        except NarratorError as e:
            lines.append(f"game {entry.number}: not exported: {e}")
            continue
        records.append(exported.record)
        lines.extend(f"game {entry.number}: note: {note}" for note in exported.notes)
    return records, lines


def run(args: ExportArgs) -> int:
    """``narrator export``: an evening's folder, or one game (a script, a journal, a session).

    The command's entry is here, not beside the format (:mod:`narrator.replay.export`): an
    evening's folder is read on this floor, and the format's module stays the format."""
    folder = Path(args.source)
    if folder.is_dir() and (folder / BOOK).is_file():
        return _evening(folder, args)
    start = _start_option(args.start)
    exported = export.mafiaratings(export.load_source(args.source), start=start,
                                   club_id=args.club_id, event_id=args.event_id)
    for note in dict.fromkeys(exported.notes):
        print(f"narrator: note: {note}", file=sys.stderr)
    _write(args.out, exported.record, "")
    return 0


def _evening(folder: Path, args: ExportArgs) -> int:
    if args.start is not None:
        raise NarratorError("--start: an evening's games each have their own start (drop it)")
    records, lines = evening_games(folder, club_id=args.club_id, event_id=args.event_id)
    for line in dict.fromkeys(lines):
        print(f"narrator: {line}", file=sys.stderr)
    if not records:
        raise NarratorError(f"{folder}: no game of the evening can be exported")
    _write(args.out, records, f" ({len(records)} game(s))")
    return 0


def _start_option(text: str | None) -> datetime | None:
    """``--start WHEN``: ISO 8601; without a zone, this machine's."""
    if text is None:
        return None
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        raise NarratorError(f"--start: expected a date and time like 2024-05-17T19:30:00+03:00, "
                            f"got {text!r}") from None
    return when if when.tzinfo is not None else when.astimezone()


def _write(out: str | None, record: Any, what: str) -> None:
    """The record to ``--out`` (readable by its owner only: it holds every card) or stdout."""
    text = json.dumps(record, ensure_ascii=False, indent=1) + "\n"
    if out:
        export.write_private(Path(out), text)
        print(f"narrator: written {out}{what}", file=sys.stderr)
    else:
        sys.stdout.write(text)
