"""``narrator parse``: show the intents the grammar finds in a phrase."""

from __future__ import annotations

import json

from narrator.arguments import ParseArgs
from narrator.errors import NarratorError
from narrator.grammar.intents import Intent
from narrator.grammar.parse import MAX_PHRASE, parse


def _line(intent: Intent) -> str:
    target = "-" if intent.target is None else str(intent.target)
    if intent.kind == "best_move":
        target = ",".join(map(str, intent.seats)) or "-"
    verdict = "accepted" if intent.accepted else f"refused ({intent.reason})"
    said = f"  «{intent.text}»" if intent.text else ""
    return f"{intent.kind:<10} {target:>3}  {verdict}{said}"


def run(args: ParseArgs) -> int:
    """Print the intents of ``args.text`` (a list of words), one line each; return 0."""
    seats: int = args.seats
    if not 1 <= seats <= 15:
        raise NarratorError(f"--seats must be 1..15, got {seats}")
    text = " ".join(args.text)
    if len(text) > MAX_PHRASE:
        raise NarratorError(f"the phrase is {len(text):,} characters long; a phrase is at most "
                            f"{MAX_PHRASE:,}")
    for intent in parse(text, lang=args.lang, seats=seats):
        if args.json:
            print(json.dumps(intent.to_json(), ensure_ascii=False))
        else:
            print(_line(intent))
    return 0
