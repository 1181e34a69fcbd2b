"""The corpora: every phrase parses to exactly the intents written beside it."""

from __future__ import annotations

import pytest

from narrator.grammar import parse
from tests.grammar.grammar_corpus import ALL, Case, load


@pytest.mark.parametrize("case", ALL, ids=lambda c: c.id)
def test_corpus_phrase(case: Case) -> None:
    got = tuple(
        (i.kind, i.target, i.accepted, i.reason) for i in parse(case.text, case.lang, seats=10)
    )
    assert got == case.expected


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_corpus_size_and_coverage(lang: str) -> None:
    cases = load(lang)
    assert len(cases) >= 150
    reasons = {r for c in cases for (_, _, _, r) in c.expected}
    assert reasons >= {
        None,
        "future_tense",
        "subjunctive",
        "intention",
        "negation",
        "past_tense",
        "no_number",
        "not_a_seat",
        "no_intent",
    }
    assert {c.shape for c in cases} == {"asr", "typed"}


def test_refusals_always_carry_a_reason() -> None:
    for case in ALL:
        for intent in parse(case.text, case.lang):
            assert intent.accepted == (intent.reason is None)
