"""Fuzzing the grammar: any text, any table size — a list of intents, each consistent, never an
exception."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from narrator.grammar import Intent, parse
from narrator.grammar.lexicon import VERBS
from tests.fuzz import hostile
from tests.fuzz.conftest import cases, count
from tests.fuzz.strategies import nasty_text

WORDS = sorted({w for lang in VERBS.values() for forms in lang.values() for ws in forms.values()
                for w in ws})
TOKENS = st.sampled_from([*WORDS, "пятого", "пять", "номер", "бы", "не", "хочу", "спасибо",
                          "пас", "дякую", "-5", "5.5", "5,5", "05", "²", "①", "٥", "9" * 30,
                          ".", "!", "а", "[unk]", "<UNK>", "двадцать", "один"])


def check(text: str, lang: str, seats: int) -> None:
    count("phrases")
    intents = parse(text, lang, seats)
    assert intents
    for i in intents:
        assert isinstance(i, Intent)
        assert i.accepted == (i.reason is None)
        if i.accepted and i.kind in ("nominate", "withdraw"):
            assert i.target is not None and 1 <= i.target <= seats
    if intents[0].kind == "none":
        assert len(intents) == 1


SOUP = [*WORDS, "пятого", "пять", "номер", "бы", "не", "хочу", "спасибо", "пас", "дякую", "-5",
        "5.5", "5,5", "05", "²", "①", "٥", "9" * 30, ".", "!", "а", "[unk]", "<UNK>", "двадцать",
        "один", "−3", "5-го", "№5"]


@cases(500)
@given(st.integers(0, 2**63))
def test_hostile_phrases(seed: int) -> None:
    rng = random.Random(seed)  # plain Python: Hypothesis' own randoms are slow
    for _ in range(100):
        words = [rng.choice(SOUP) if rng.random() < 0.8 else hostile.nasty(rng, 6)
                 for _ in range(rng.randint(0, 12))]
        text = rng.choice([" ", "", ", ", ". "]).join(words)
        check(text, rng.choice(["ru", "uk"]), rng.randint(1, 15))


@cases(2_000)
@given(st.lists(TOKENS | nasty_text, max_size=12).map(" ".join),
       st.sampled_from(["ru", "uk"]), st.integers(1, 15))
def test_word_soup(text: str, lang: str, seats: int) -> None:
    check(text, lang, seats)


@cases(1_000)
@given(st.text(max_size=80), st.sampled_from(["ru", "uk"]), st.integers(1, 15))
def test_any_text(text: str, lang: str, seats: int) -> None:
    check(text, lang, seats)
