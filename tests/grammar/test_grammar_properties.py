"""Properties of parse() that no table of examples can cover."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from narrator.grammar import Intent, parse
from narrator.grammar.lexicon import VERBS, VOTE_NEEDED, Form
from narrator.grammar.numbers import number_forms

LANGS = st.sampled_from(["ru", "uk"])
FORMS: list[Form] = ["present", "future", "past", "infinitive", "imperative"]

FILLERS = {
    "ru": ["", "номер", "игрока номер", "кандидатуру игрока номер", "на голосование", "ну"],
    "uk": ["", "номер", "гравця номер", "кандидатуру гравця номер", "на голосування", "ну"],
}
LEADS = {"ru": ["", "я", "ну", "ну я", "вот"], "uk": ["", "я", "ну", "ну я", "от"]}
SUBJ = {"ru": ["бы", "б"], "uk": ["би", "б"]}
FUT_AUX = {"ru": ["буду", "будем"], "uk": ["буду", "будемо"]}


def _forms(lang: str, form: Form) -> list[str]:
    """Verb forms that nominate or withdraw on their own (not «ставлю», which needs a vote word)."""
    return [w for kind in VERBS[lang].values() for w in kind[form] if w not in VOTE_NEEDED[lang]]


def _verdicts(intents: list[Intent]) -> list[tuple[str, int | None, bool, str | None]]:
    return [(i.kind, i.target, i.accepted, i.reason) for i in intents]


def _phrase(*parts: str) -> str:
    return " ".join(p for p in parts if p)


@settings(max_examples=400)
@given(text=st.text(), lang=LANGS, seats=st.integers(min_value=1, max_value=15))
def test_parse_never_raises_on_any_text(text: str, lang: str, seats: int) -> None:
    intents = parse(text, lang, seats)
    assert intents
    for i in intents:
        assert i.accepted == (i.reason is None)
        assert i.kind in ("nominate", "withdraw", "end_speech", "none")
    if intents[0].kind == "none":
        assert intents == [Intent("none", None, False, "no_intent")]


@given(
    text=st.lists(
        st.sampled_from(
            ["выставляю", "снимаю", "5", "пятого", "бы", "не", "спасибо", "[unk]", ".", "а", "x"]
        ),
        max_size=30,
    ).map(" ".join)
)
def test_parse_never_raises_on_grammar_soup(text: str) -> None:
    assert parse(text)


@st.composite
def _refused_phrase(draw: st.DrawFn) -> tuple[str, str]:
    lang = draw(LANGS)
    lead = draw(st.sampled_from(LEADS[lang]))
    filler = draw(st.sampled_from(FILLERS[lang]))
    n = draw(st.integers(min_value=1, max_value=10))
    number = draw(st.sampled_from([*number_forms(lang)[n], str(n)]))
    trigger = draw(st.sampled_from(["subj_before", "subj_after", "future", "aux", "neg"]))
    present = draw(st.sampled_from(_forms(lang, "present")))
    if trigger == "subj_before":
        verb = _phrase(lead, draw(st.sampled_from(SUBJ[lang])), present)
    elif trigger == "subj_after":
        past = draw(st.sampled_from(_forms(lang, "past")))
        verb = _phrase(lead, past, draw(st.sampled_from(SUBJ[lang])))
    elif trigger == "future":
        verb = _phrase(lead, draw(st.sampled_from(_forms(lang, "future"))))
    elif trigger == "aux":
        aux = draw(st.sampled_from(FUT_AUX[lang]))
        verb = _phrase(lead, aux, draw(st.sampled_from(_forms(lang, "infinitive"))))
    else:
        verb = _phrase(lead, "не", present)
    return lang, _phrase(verb, filler, number)


@settings(max_examples=500)
@given(case=_refused_phrase())
def test_subjunctive_future_or_negation_is_never_accepted(case: tuple[str, str]) -> None:
    lang, text = case
    intents = parse(text, lang)
    assert len(intents) == 1, text
    assert intents[0].kind in ("nominate", "withdraw"), text
    assert not intents[0].accepted, text
    assert intents[0].reason in ("subjunctive", "future_tense", "negation"), text
    assert intents[0].target is not None, text


@settings(max_examples=400)
@given(
    lang=LANGS,
    n=st.integers(min_value=0, max_value=20),
    seats=st.integers(min_value=1, max_value=15),
    form=st.sampled_from(FORMS),
    data=st.data(),
)
def test_digits_and_number_words_agree(
    lang: str, n: int, seats: int, form: Form, data: st.DataObject
) -> None:
    verb = data.draw(st.sampled_from(_forms(lang, form)))
    filler = data.draw(st.sampled_from(FILLERS[lang]))
    word = data.draw(st.sampled_from(number_forms(lang)[n]))
    by_word = _verdicts(parse(_phrase(verb, filler, word), lang, seats))
    by_digits = _verdicts(parse(_phrase(verb, filler, str(n)), lang, seats))
    assert by_word == by_digits
    assert by_word[0][1] == n


@given(
    n=st.integers(min_value=1, max_value=15),
    apostrophe=st.sampled_from(["'", "ʼ", "’", "`", ""]),
    data=st.data(),
)
def test_ukrainian_apostrophes_are_one_letter(n: int, apostrophe: str, data: st.DataObject) -> None:
    word = data.draw(st.sampled_from(number_forms("uk")[n]))
    text = f"виставляю {word.replace(chr(39), apostrophe)}"
    assert _verdicts(parse(text, "uk", 15)) == [("nominate", n, True, None)]


@given(
    lang=LANGS,
    n=st.integers(min_value=1, max_value=10),
    punct=st.sampled_from(["", ".", "!", ",", "…", "?!"]),
)
def test_typed_shape_matches_asr_shape(lang: str, n: int, punct: str) -> None:
    verb = "выставляю" if lang == "ru" else "виставляю"
    word = number_forms(lang)[n][0]
    asr = parse(f"{verb} номер {word}", lang)
    typed = parse(f"{verb.capitalize()}, номер {n}{punct}", lang)
    assert _verdicts(asr) == _verdicts(typed) == [("nominate", n, True, None)]


@given(lang=LANGS, seats=st.integers(min_value=1, max_value=15), n=st.integers(0, 30))
def test_seat_range(lang: str, seats: int, n: int) -> None:
    verb = "выставляю" if lang == "ru" else "виставляю"
    [intent] = parse(f"{verb} {n}", lang, seats)
    assert intent.target == n
    assert intent.accepted == (1 <= n <= seats)
    assert intent.reason == (None if 1 <= n <= seats else "not_a_seat")
