"""Grammar throughput: phrases per second that parse() handles over the test corpora.

Usage: .venv/bin/python scripts/bench_grammar.py [--seconds S] [--quick] [--json]
The target is at least 20,000 phrases a second on one core.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from narrator.grammar import parse

CORPORA = Path(__file__).resolve().parent.parent / "tests" / "grammar"
TARGET = 20_000


def load() -> list[tuple[str, str]]:
    """(lang, text) for every corpus phrase."""
    phrases: list[tuple[str, str]] = []
    for lang in ("ru", "uk"):
        path = CORPORA / f"corpus_{lang}.tsv"
        for raw in path.read_text(encoding="utf-8").splitlines():
            if raw.strip() and not raw.startswith("#"):
                phrases.append((lang, raw.split("\t")[1]))
    return phrases


def main(argv: list[str] | None = None) -> int:
    """Run parse() over the corpora for a few seconds and print phrases per second."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--seconds", type=float, default=2.0, help="how long to measure")
    ap.add_argument("--quick", action="store_true", help="0.3 s: a smoke run")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args(argv)
    if args.quick:
        args.seconds = 0.3
    phrases = load()
    for lang, text in phrases:  # warm the per-language tables
        parse(text, lang)
    done = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < args.seconds:
        for lang, text in phrases:
            parse(text, lang)
        done += len(phrases)
        elapsed = time.perf_counter() - start
    rate = done / elapsed
    if args.json:
        print(json.dumps({"bench": "grammar", "figures": [
            {"name": "parse() over the corpora", "value": round(rate), "unit": "phrases/s",
             "target": f">= {TARGET:,}", "ok": rate >= TARGET}]}))
        return 0
    verdict = "ok" if rate >= TARGET else f"below the {TARGET:,} target"
    print(f"grammar: {rate:,.0f} phrases/s over {len(phrases)} corpus phrases ({verdict})")
    return 0 if rate >= TARGET else 1


if __name__ == "__main__":
    raise SystemExit(main())
