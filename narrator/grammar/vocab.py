"""The words a constrained recognizer must be able to hear (Vosk ``SetGrammar``).

The vocabulary holds *every* word the grammar knows — the refused forms too («выставлю»,
«буду», «бы», «не», «хочу»…). A recognizer that knew only «выставляю» would hear «выставлю»
as «выставляю» and the parser could never refuse it (rule 2.3.1). Words are given in their
dictionary spelling plus the variants a model's lexicon may use: with and without «ё», and
Ukrainian apostrophes as ``'``, ``ʼ`` and ``’`` (a model ignores the spellings it lacks).
"""

from __future__ import annotations

from functools import lru_cache

from narrator.grammar.lexicon import (
    BEST_MOVE_HEAD,
    BEST_MOVE_NOUN,
    END_WORDS,
    FILLERS,
    MODIFIERS,
    RESETS,
    VERBS,
    VOTE_WORDS,
    check_lang,
)
from narrator.grammar.numbers import number_forms

_APOSTROPHE_VARIANTS = ("'", "ʼ", "’")

# Phrases said as one breath at the table (2.3.1, 2.3.2); the words alone are enough for the
# grammar, the phrases only help a recognizer that weighs whole phrases.
_PHRASES: dict[str, tuple[str, ...]] = {
    "ru": (
        "выставляю номер",
        "выставляю игрока номер",
        "выставляю кандидатуру игрока номер",
        "на голосование",
        "снимаю номер",
        "снимаю кандидатуру",
        "отзываю игрока номер",
        "я бы выставил",
        "буду выставлять",
        "хочу выставить",
        "не выставляю",
        "лучший ход",
        "мой лучший ход",
    ),
    "uk": (
        "виставляю номер",
        "виставляю гравця номер",
        "виставляю кандидатуру гравця номер",
        "на голосування",
        "знімаю номер",
        "знімаю кандидатуру",
        "відкликаю гравця номер",
        "я б виставив",
        "буду виставляти",
        "хочу виставити",
        "не виставляю",
        "кращий хід",
        "мій кращий хід",
        "мій найкращий хід",
    ),
}


def _variants(word: str) -> list[str]:
    out = [word]
    if "ё" in word:
        out.append(word.replace("ё", "е"))
    if "'" in word:
        out = [v.replace("'", a) for v in out for a in _APOSTROPHE_VARIANTS]
    return out


def _check_seats(seats: int) -> None:
    if not 1 <= seats <= 15:
        raise ValueError(f"seats must be 1..15, got {seats}")


@lru_cache(maxsize=8)
def _vocabulary(lang: str) -> tuple[str, ...]:
    check_lang(lang)
    words: list[str] = []
    for forms in VERBS[lang].values():
        for group in forms.values():
            words.extend(group)
    for group in MODIFIERS[lang].values():
        words.extend(group)
    words.extend(END_WORDS[lang])
    for best in (BEST_MOVE_HEAD, BEST_MOVE_NOUN):  # 8.17's best move
        words.extend(best[lang])
    words.extend(RESETS[lang])
    words.extend(VOTE_WORDS[lang])
    words.extend(FILLERS[lang])
    for forms_of_value in number_forms(lang).values():
        words.extend(forms_of_value)
    out: dict[str, None] = {}
    for w in words:
        for v in _variants(w):
            out[v] = None
    return tuple(sorted(out))


def vocabulary(lang: str, seats: int = 10) -> list[str]:
    """Every word the grammar knows for ``lang``, sorted, without duplicates.

    Number words cover 0..20 whatever ``seats`` is (1..15), so that a number that is not a seat
    is heard as itself and refused (``not_a_seat``) rather than forced onto a seat's word.
    """
    _check_seats(seats)
    return list(_vocabulary(lang))


def phrase_list(lang: str, seats: int = 10) -> list[str]:
    """A JSON-ready list of phrases and words for Vosk's ``SetGrammar``.

    Common whole phrases first («выставляю номер пять» for every seat, «на голосование»…),
    then every word of :func:`vocabulary`. The caller appends the model's unknown token
    (``"[unk]"``).
    """
    _check_seats(seats)
    forms = number_forms(lang)
    phrases: dict[str, None] = {}
    verbs = (
        ("выставляю номер", "снимаю номер") if lang == "ru" else ("виставляю номер", "знімаю номер")
    )
    for verb in verbs:
        for n in range(1, seats + 1):
            phrases[f"{verb} {forms[n][0]}"] = None
    for p in _PHRASES[lang]:
        phrases[p] = None
    for w in _vocabulary(lang):
        phrases[w] = None
    return list(phrases)
