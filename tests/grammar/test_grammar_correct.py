"""correct(): repairs near misses of numbers and fillers, never a verb's tense or mood."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from narrator.grammar import correct, parse, vocabulary
from narrator.grammar.lexicon import MODIFIERS, VERBS
from narrator.grammar.normalize import key, tokens
from narrator.grammar.parse import MOD, VERB, token_table


@pytest.mark.parametrize(
    ("lang", "heard", "fixed"),
    [
        ("ru", "выставляю пятова", "выставляю пятого"),
        ("ru", "выставляю первава", "выставляю первого"),
        (
            "ru",
            "выставляю кондидатуру играка номер пять",
            "выставляю кандидатуру игрока номер пять",
        ),
        ("ru", "выставляю на галасование седьмого", "выставляю на голосование седьмого"),
        ("ru", "выставляю десятава спасиба", "выставляю десятого спасибо"),
        ("ru", "Выставляю Пятого!", "выставляю пятого ."),
        (
            "uk",
            "виставляю кандидатуру гравьця номер п'ять",
            "виставляю кандидатуру гравця номер пять",
        ),
        ("uk", "знімаю сьомова дякую", "знімаю сьомого дякую"),
    ],
)
def test_fixes_numbers_and_fillers(lang: str, heard: str, fixed: str) -> None:
    assert correct(heard, lang) == fixed


def test_a_fix_can_turn_a_refusal_into_an_acceptance_only_through_the_number() -> None:
    assert parse("выставляю пятова")[0].reason == "no_number"
    assert parse(correct("выставляю пятова"))[0].accepted


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_never_changes_a_verb_form(lang: str) -> None:
    number = "пятого" if lang == "ru" else "п'ятого"
    for forms in VERBS[lang].values():
        for group in forms.values():
            for verb in group:
                out = correct(f"{verb} {number}", lang)
                assert out.split()[0] == key(verb), verb


@pytest.mark.parametrize(
    ("lang", "text", "reason"),
    [
        ("ru", "выставлю пятова", "future_tense"),
        ("ru", "я бы выставил пятова", "subjunctive"),
        ("ru", "я б выставил пятова", "subjunctive"),
        ("ru", "не выставляю пятова", "negation"),
        ("ru", "хочу выставить пятова", "intention"),
        ("ru", "буду выставлять пятова", "future_tense"),
        ("uk", "виставлю пятова", "future_tense"),
        ("uk", "я б виставив пятова", "subjunctive"),
    ],
)
def test_never_drops_by_or_ne(lang: str, text: str, reason: str) -> None:
    [intent] = parse(correct(text, lang), lang)
    assert intent.target == 5
    assert not intent.accepted
    assert intent.reason == reason


@pytest.mark.parametrize(
    ("lang", "near_verb"),
    [
        ("ru", "выставлую"),
        ("ru", "выстовлю"),
        ("ru", "выставляуу"),
        ("ru", "снемаю"),
        ("uk", "виставлую"),
        ("uk", "знімаюю"),
    ],
)
def test_never_invents_a_verb(lang: str, near_verb: str) -> None:
    assert correct(near_verb, lang) == near_verb


def _mood_tokens(text: str, lang: str) -> list[str]:
    table = token_table(lang)
    out = []
    for t in tokens(text):
        cls = table.get(t)
        if cls is not None and cls[0] in (VERB, MOD):
            out.append(t)
    return out


@settings(max_examples=300)
@given(
    lang=st.sampled_from(["ru", "uk"]),
    data=st.data(),
)
def test_verbs_and_mood_words_survive_correction(lang: str, data: st.DataObject) -> None:
    moods = [w for g in MODIFIERS[lang].values() for w in g]
    verbs = [w for f in VERBS[lang].values() for g in f.values() for w in g]
    word = st.one_of(
        st.sampled_from(vocabulary(lang)),
        st.sampled_from(moods + verbs),
        st.text(alphabet="абвгдежзиклмнопрстуфхцчшщыьэюяіїє'", min_size=1, max_size=12),
    )
    text = " ".join(data.draw(st.lists(word, max_size=12)))
    fixed = correct(text, lang)
    assert _mood_tokens(fixed, lang) == _mood_tokens(text, lang)
    assert len(tokens(fixed)) == len(tokens(text))
