"""Fast hostile input from a seeded ``random.Random``: the bulk of the fuzzers' cases.

Hypothesis draws the seed (and shrinks its own, structured strategies); generating thousands of
texts a second needs plain Python. Everything here is deterministic in the seed, so a failure
prints a reproducible case.
"""

from __future__ import annotations

import json
import random
from typing import Any

NASTY = ('{}[]":,\\-+.eE0123456789 \t\r\n\u2028\u2029\u0085\x0b\x0c\x1c\x00²⁶①٥５'
         '«»ёЁйвыставляюпятогоспасибо#/\'`')
KEYS = ["speech", "say", "vote", "night", "shots", "don", "sheriff", "crash", "foul", "remove",
        "rules", "seats", "roles", "seed", "lang", "mafia", "t", "action", "type", "undo",
        "timer", "name", "started", "journal", "mode", "settings", "1", "5", "05", "\n", ""]
WORDS = ["5", "05", "²", "①", "-1", "1e999", "crime-time", "don", "mafia", "sheriff", "ru",
         "uk", "выставляю пятого", "спасибо", "nominate 5", "hands 1 2", "timeup speech",
         "end", "assist", "play", "count_pace"]


def nasty(rng: random.Random, size: int = 24) -> str:
    if rng.random() < 0.2:
        return "".join(chr(rng.randint(0, 0x10FFFF)) for _ in range(rng.randint(0, 6))
                       ).encode("utf-8", "replace").decode("utf-8", "replace")
    return "".join(rng.choice(NASTY) for _ in range(rng.randint(0, size)))


def scalar(rng: random.Random) -> Any:
    roll = rng.random()
    if roll < 0.25:
        return rng.randint(-3, 17)
    if roll < 0.35:
        return rng.choice([None, True, False, 0.5, -0.0, 1e300, 10 ** rng.randint(18, 40)])
    if roll < 0.6:
        return rng.choice(WORDS)
    return nasty(rng)


def value(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.random()
    if depth > 3 or roll < 0.5:
        return scalar(rng)
    if roll < 0.75:
        return [value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {rng.choice(KEYS) if rng.random() < 0.8 else nasty(rng, 6): value(rng, depth + 1)
            for _ in range(rng.randint(0, 4))}


def json_line(rng: random.Random) -> str:
    v = value(rng)
    if not isinstance(v, dict) and rng.random() < 0.7:
        v = {rng.choice(KEYS): v}
    text = json.dumps(v, ensure_ascii=rng.random() < 0.3)
    if rng.random() < 0.05:  # duplicate keys, NaN, deep nesting: what json.dumps never writes
        text = rng.choice([text.replace("{", '{"5": 1, "5": 2, ', 1), text + "NaN",
                           "[" * 3000 + "]" * 3000, '{"speech": ' + "9" * 5000 + "}"])
    return text


def mutate(rng: random.Random, text: str, edits: int | None = None) -> str:
    """``text`` with a few random edits: characters in, out or changed; a cut; a line twice;
    a deep nest."""
    for _ in range(rng.randint(0, 4) if edits is None else edits):
        if not text:
            return nasty(rng)
        at = rng.randint(0, len(text))
        op = rng.randrange(6)
        if op == 0:
            text = text[:at] + nasty(rng, 8) + text[at:]
        elif op == 1:
            text = text[:at] + text[at + rng.randint(1, 8):]
        elif op == 2:
            text = text[:at] + rng.choice(NASTY) + text[at + 1:]
        elif op == 3:
            text = text[:at]
        elif op == 4:
            lines = text.split("\n")
            i = rng.randrange(len(lines))
            text = "\n".join(lines[: i + 1] + lines[i:])
        else:
            depth = rng.choice([2, 40, 2000])
            text = text[:at] + "[" * depth + "]" * depth + text[at:]
    return text
