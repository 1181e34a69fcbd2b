"""One game vocabulary, the engine's: outside ``narrator/engine`` no module spells a card, a
team, a night's actor or act, a way of leaving the game, a colour on record or a refusal's
reason code as a string literal to compare with, nor keeps a table keyed by card names — it
compares with the engine's enums (:class:`~narrator.engine.Role`, ``Team``, ``Actor``,
``Act``, ``Exit``, ``Colour``; :class:`~narrator.reasons.Reason`), whose values are those
strings, so a renamed or added word is found by mypy, not by a screen that silently stops
matching.

Every module is read with :mod:`ast`: a comparison (``==``, ``!=``, ``in``, ``not in``,
``is``) with such a literal (or a tuple, list or set of them), a ``case`` of one, a dict
literal with two or more card names as keys (a card table), and a reason code given as a
literal where a reason goes (``{"reason": "not_over"}``, ``reason="too_late"``, a comparison
with a refusal). A line that spells one of these words for something else — a seating
command «draw», a key binding's action «shot» — says so in a comment ending "not the game's
word" (:data:`ELSEWHERE`), and the scan passes it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from narrator.engine import Act, Actor, Colour, Exit, Role, Team
from narrator.reasons import Reason

ROOT = Path(__file__).resolve().parents[1] / "narrator"

#: the words of the game's vocabulary as the protocol spells them
GAME_WORDS = frozenset(str(w) for enum in (Role, Team, Actor, Act, Exit, Colour) for w in enum)
#: the card names (a dict keyed by two or more of them is a card table)
CARD_WORDS = frozenset(str(w) for enum in (Role, Actor) for w in enum)
REASON_WORDS = frozenset(str(r) for r in Reason)
#: the comment on a line whose word is not the vocabulary's
ELSEWHERE = "not the game's word"
#: reason codes that are common words too, and only a code where a reason goes: «error» is a
#: message's kind and a JSON key everywhere, compared as such
COMMON_WORDS = frozenset({"error"})


def _modules() -> list[Path]:
    return sorted(p for p in ROOT.rglob("*.py") if "engine" not in p.relative_to(ROOT).parts)


def _strings(node: ast.expr) -> Iterator[str]:
    """The string literals ``node`` is, or holds as a tuple, list or set."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
    elif isinstance(node, ast.Tuple | ast.List | ast.Set):
        for elt in node.elts:
            yield from _strings(elt)


def _spelled(tree: ast.AST) -> Iterator[tuple[int, str, str]]:
    """(line, what, word) for every spelled word of the vocabulary in ``tree``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            for side in (node.left, *node.comparators):
                for word in _strings(side):
                    if word in GAME_WORDS:
                        yield node.lineno, "compared", word
                    elif word in REASON_WORDS - COMMON_WORDS:
                        yield node.lineno, "reason compared", word
        elif isinstance(node, ast.MatchValue):
            for word in _strings(node.value):
                if word in GAME_WORDS | (REASON_WORDS - COMMON_WORDS):
                    yield node.lineno, "matched", word
        elif isinstance(node, ast.Dict):
            keys = [k.value for k in node.keys
                    if isinstance(k, ast.Constant) and isinstance(k.value, str)]
            cards = sorted(set(keys) & CARD_WORDS)
            if len(cards) >= 2:
                yield node.lineno, "card table", ",".join(cards)
            for key, value in zip(node.keys, node.values, strict=True):
                if (isinstance(key, ast.Constant) and key.value == "reason"
                        and isinstance(value, ast.Constant) and value.value in REASON_WORDS):
                    yield node.lineno, "reason given", str(value.value)
        elif (isinstance(node, ast.keyword) and node.arg == "reason"
              and isinstance(node.value, ast.Constant) and node.value.value in REASON_WORDS):
            yield node.value.lineno, "reason given", str(node.value.value)


def _found(path: Path) -> Iterator[str]:
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    for line, what, word in _spelled(ast.parse(text)):
        if ELSEWHERE not in lines[line - 1]:
            yield f"{path.relative_to(ROOT.parent)}:{line}: {what} {word!r}"


def test_no_module_outside_the_engine_spells_the_vocabulary() -> None:
    found = [f for path in _modules() for f in _found(path)]
    assert not found, "spell these with the engine's enums:\n" + "\n".join(found)


@pytest.mark.parametrize("source", [
    'if role == "mafia": pass',
    'x = out.how != "removed"',
    'ok = colour in ("red", "black")',
    'won = winner == "draw"',
    'match act:\n    case "check": pass',
    'CARDS = {"sheriff": "Шериф", "don": "Дон"}',
    'answer = {"reason": "not_over"}',
    'refused(reason="too_late")',
    'late = reasons[0] == "seats_needed"',
])
def test_the_scan_finds_a_spelled_word(source: str) -> None:
    assert list(_spelled(ast.parse(source)))


@pytest.mark.parametrize("source", [
    "if role is Actor.MAFIA: pass",
    'x = {"error": "the file is gone"}',
    'kind = "speech" if a == "b" else "c"',
    'CARDS = {Role.SHERIFF: "Шериф", Role.DON: "Дон"}',
])
def test_the_scan_leaves_the_enums_and_other_words_alone(source: str) -> None:
    assert not list(_spelled(ast.parse(source)))


def test_the_vocabulary_is_the_protocol_s_spelling() -> None:
    """The enums' values are the strings the protocol, the journals and the pages always
    had: each compares equal to, and is written to JSON as, its string."""
    import json

    assert [str(r) for r in Role] == ["civilian", "sheriff", "mafia", "don", "doctor",
                                      "maniac", "commissar", "nurse"]
    assert [str(t) for t in Team] == ["civilians", "mafia", "draw"]
    assert {str(e) for e in Exit} == {"shot", "vote", "crash", "removed", "maniac",
                                      "sheriff_shot"}
    assert json.dumps({Actor.DON: [Act.CHECK, Exit.SHERIFF_SHOT, Team.RED]}) == \
        '{"don": ["check", "sheriff_shot", "civilians"]}'
    assert Actor.MAFIA == "mafia" and repr(Actor.MAFIA) == "'mafia'"
    assert {Actor.of(r) for r in Role if r is not Role.CIVILIAN} == set(Actor)
