"""``narrator review SOURCE [-o OUT] [--before S] [--after S]``: a judge's page of a game."""

from __future__ import annotations

import sys
from pathlib import Path

from narrator.arguments import ReviewArgs
from narrator.errors import NarratorError
from narrator.review.record import load_record
from narrator.review.write import write_review


def default_out(source: Path) -> Path:
    """``SESSION.review`` beside the session (or the journal)."""
    return source.parent / f"{source.name}.review"


def run(args: ReviewArgs) -> int:
    if args.before < 0 or args.after < 0:
        raise NarratorError("--before and --after are seconds, 0 or more")
    source = Path(args.source)
    out = Path(args.out) if args.out else default_out(source)
    if out.exists():  # before reading anything: say it at once
        raise NarratorError(f"{out}: already exists (remove it, or give another -o)")
    written = write_review(load_record(source), out, before=args.before, after=args.after)
    print(f"narrator: written {written.page} ({len(written.entries)} entries, "
          f"{written.slices} slice(s), {written.bytes / 1e6:.1f} MB; owner-only: it shows "
          f"the cards)", file=sys.stderr)
    return 0
