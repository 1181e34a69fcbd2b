"""The vocabulary a constrained recognizer gets: complete, including what must be refused."""

from __future__ import annotations

import json

import pytest

from narrator.grammar import parse, phrase_list, vocabulary
from narrator.grammar.lexicon import MODIFIERS, VERBS
from narrator.grammar.normalize import key, tokens
from narrator.grammar.parse import token_table
from tests.grammar.grammar_corpus import ALL


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_every_word_of_an_accepted_asr_phrase_is_in_the_vocabulary(lang: str) -> None:
    vocab = set(vocabulary(lang))
    checked = 0
    for case in ALL:
        if case.lang != lang or case.shape != "asr":
            continue
        if not any(accepted for (_, _, accepted, _) in case.expected):
            continue
        words = case.text.replace("[unk]", " ").split()
        missing = [w for w in words if w not in vocab]
        # Words outside the grammar may surround an intent («я думаю что пятый мафия …»).
        if case.text.startswith(("я думаю", "у меня", "у мене")):
            continue
        assert not missing, f"{case.id}: {missing}"
        checked += 1
    assert checked >= 50


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        (
            "ru",
            [
                "выставлю",
                "выставим",
                "буду",
                "бы",
                "б",
                "не",
                "хочу",
                "давай",
                "можно",
                "выставил",
                "выставить",
                "сниму",
                "спасибо",
                "пас",
                "пятого",
                "пятнадцать",
                "ноль",
                "четвёртого",
                "четвертого",
            ],
        ),
        (
            "uk",
            [
                "виставлю",
                "виставлятиму",
                "буду",
                "би",
                "б",
                "не",
                "хочу",
                "давай",
                "можна",
                "виставив",
                "виставити",
                "зніму",
                "дякую",
                "пас",
                "п'ятого",
                "пʼятого",
                "п’ятого",
                "нуль",
            ],
        ),
    ],
)
def test_refusal_triggers_can_be_heard(lang: str, words: list[str]) -> None:
    vocab = set(vocabulary(lang))
    assert [w for w in words if w not in vocab] == []


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_vocabulary_holds_every_verb_form_and_mood_word(lang: str) -> None:
    vocab = set(vocabulary(lang))
    for forms in VERBS[lang].values():
        for group in forms.values():
            assert set(group) <= vocab
    for group in MODIFIERS[lang].values():
        assert set(group) <= vocab


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_every_vocabulary_word_is_known_to_the_parser(lang: str) -> None:
    table = token_table(lang)
    for word in vocabulary(lang):
        assert key(word) in table, word
        assert tokens(word) == [key(word)], word


@pytest.mark.parametrize("lang", ["ru", "uk"])
@pytest.mark.parametrize("seats", [1, 8, 10, 15])
def test_phrase_list_is_a_vosk_grammar(lang: str, seats: int) -> None:
    phrases = phrase_list(lang, seats)
    assert json.loads(json.dumps(phrases, ensure_ascii=False)) == phrases
    assert "[unk]" not in phrases
    assert len(phrases) == len(set(phrases))
    vocab = set(vocabulary(lang, seats))
    assert vocab <= set(phrases)
    for p in phrases:
        assert p == p.strip().lower()
        assert set(p.split()) <= vocab, p
    verb = "выставляю" if lang == "ru" else "виставляю"
    nominations = [p for p in phrases if p.startswith(f"{verb} номер ") and len(p.split()) == 3]
    assert len(nominations) == seats
    for p in nominations:
        [intent] = parse(p, lang, seats)
        assert intent.accepted


@pytest.mark.parametrize("seats", [0, 16, -1])
def test_vocabulary_rejects_bad_seats(seats: int) -> None:
    with pytest.raises(ValueError, match="seats"):
        vocabulary("ru", seats)
    with pytest.raises(ValueError, match="seats"):
        phrase_list("ru", seats)


def test_unknown_language() -> None:
    with pytest.raises(ValueError, match="language"):
        vocabulary("en")
    with pytest.raises(ValueError, match="language"):
        parse("hello", "en")
