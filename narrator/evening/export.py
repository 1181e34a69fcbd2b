"""``narrator export --format mafiaratings DIR`` of an evening: every game the format can
express, as a JSON list in the evening's order, with the roster's nicknames; each game it cannot
express is one line on stderr saying why. Any other SOURCE is one game
(:mod:`narrator.replay.export`)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

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


def run(args: argparse.Namespace) -> int:
    """``narrator export``: an evening's folder, or one game (a script, a journal, a session)."""
    folder = Path(args.source)
    if not (folder.is_dir() and (folder / BOOK).is_file()):
        return export.run(args)
    if args.start is not None:
        raise NarratorError("--start: an evening's games each have their own start (drop it)")
    records, lines = evening_games(folder, club_id=args.club_id, event_id=args.event_id)
    for line in dict.fromkeys(lines):
        print(f"narrator: {line}", file=sys.stderr)
    if not records:
        raise NarratorError(f"{folder}: no game of the evening can be exported")
    text = json.dumps(records, ensure_ascii=False, indent=1) + "\n"
    if args.out:
        export.write_private(Path(args.out), text)
        print(f"narrator: written {args.out} ({len(records)} game(s))", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0
