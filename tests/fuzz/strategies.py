"""Hostile text for the fuzzers: JSON that is nearly right, text that is nearly JSON, and
mutations of real files (a character changed, a slice cut, a line doubled)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

#: characters that break parsers: JSON punctuation, line and paragraph separators, digits that
#: are not ASCII, signs, quotes, controls
NASTY = ('{}[]":,\\-+.eE0123456789 \t\r\n\u2028\u2029\u0085\x0b\x0c\x1c\x00²⁶①٥５'
         '«»ёЁйвыставляюпятогоспасибо#/\'`')

nasty_text = st.text(alphabet=st.sampled_from(NASTY), max_size=40) | st.text(max_size=20)

scalars = (st.none() | st.booleans() | st.integers(-20, 20)
           | st.integers(min_value=-(10 ** 30), max_value=10 ** 30)
           | st.floats(allow_nan=False, allow_infinity=False) | nasty_text
           | st.sampled_from(["5", "05", "²", "①", "-1", "1e999", "crime-time", "don", "mafia",
                              "sheriff", "ru", "uk"]))

json_values = st.recursive(
    scalars,
    lambda inner: (st.lists(inner, max_size=5)
                   | st.dictionaries(st.sampled_from(["speech", "say", "vote", "night", "shots",
                                                      "don", "sheriff", "crash", "foul",
                                                      "remove", "rules", "seats", "roles",
                                                      "seed", "lang", "mafia", "t", "action",
                                                      "type", "undo", "timer", "name",
                                                      "started", "journal", "mode", "1", "5",
                                                      "05"]) | nasty_text,
                                     inner, max_size=5)),
    max_leaves=12)


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


@st.composite
def mutated(draw: st.DrawFn, text: str) -> str:
    """``text`` with a few random edits."""
    for _ in range(draw(st.integers(0, 4))):
        if not text:
            text = draw(nasty_text)
            continue
        at = draw(st.integers(0, len(text)))
        op = draw(st.sampled_from(["insert", "delete", "replace", "cut", "double", "deepen"]))
        if op == "insert":
            text = text[:at] + draw(nasty_text) + text[at:]
        elif op == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 8)):]
        elif op == "replace":
            text = text[:at] + draw(st.sampled_from(NASTY)) + text[at + 1:]
        elif op == "cut":
            text = text[:at]
        elif op == "double":
            lines = text.split("\n")
            i = draw(st.integers(0, len(lines) - 1))
            text = "\n".join(lines[: i + 1] + lines[i:])
        else:
            depth = draw(st.sampled_from([2, 40, 2000]))
            text = text[:at] + "[" * depth + "]" * depth + text[at:]
    return text
