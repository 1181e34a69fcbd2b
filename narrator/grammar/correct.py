"""Near-miss repair of recognizer output, before :func:`~narrator.grammar.parse`.

Only number words, fillers and end-of-speech words are repaired («пятова» → «пятого»,
«кондидатуру» → «кандидатуру»). A word the grammar already knows is never changed, and no word
is ever turned *into* a verb or a mood word: the tense and mood of a nomination (rule 2.3.1)
are exactly what the player said — «выставлю» never becomes «выставляю», «бы» and «не» are
never dropped.
"""

from __future__ import annotations

from functools import lru_cache

from rapidfuzz import fuzz, process

from narrator.grammar.lexicon import END_WORDS, FILLERS, VOTE_WORDS, check_lang
from narrator.grammar.normalize import BOUNDARY, key, tokens
from narrator.grammar.numbers import number_forms
from narrator.grammar.parse import END, FILLER, NUM, Num, Token, token_table

_CUTOFF = 80.0  # fuzz.ratio: one letter off in five, two in eleven
_MIN_LEN = 4  # shorter words are too easy to confuse («пас», «три», «не»)
# Spelling by ear: the genitive «-ого» is said «-ова»/«-ава» («пятова», «первава»).
_SAID_ENDINGS = (("ова", "ого"), ("ава", "ого"), ("ово", "ого"))


@lru_cache(maxsize=4)
def _targets(lang: str) -> tuple[str, ...]:
    """The normalized words a near miss may be corrected to."""
    check_lang(lang)
    words: list[str] = [*END_WORDS[lang], *FILLERS[lang], *VOTE_WORDS[lang]]
    for forms in number_forms(lang).values():
        words.extend(forms)
    table = token_table(lang)
    keys = {key(w) for w in words}
    # Never a verb or a mood word, even if a filler list and a verb list shared a spelling.
    return tuple(
        sorted(k for k in keys if len(k) >= _MIN_LEN and table[k].category in (FILLER, NUM, END))
    )


def _by_ear(tok: str, table: dict[str, Token]) -> str | None:
    for said, written in _SAID_ENDINGS:
        if tok.endswith(said):
            cand = tok[: -len(said)] + written
            cls = table.get(cand)
            if isinstance(cls, Num):  # a number word only
                return cand
    return None


def correct(text: str, lang: str = "ru", seats: int = 10) -> str:
    """``text`` normalized, with unknown words replaced by a close number word or filler.

    ``seats`` is accepted for symmetry with :func:`~narrator.grammar.parse`; corrections may
    produce any number word the grammar knows, so that a number that is not a seat stays one.
    """
    table = token_table(lang)
    choices = _targets(lang)
    out: list[str] = []
    for tok in tokens(text):
        if tok == BOUNDARY or tok in table or tok[0] in "-0123456789" or len(tok) < _MIN_LEN:
            out.append(tok)
            continue
        by_ear = _by_ear(tok, table)
        if by_ear is not None:
            out.append(by_ear)
            continue
        best = process.extractOne(tok, choices, scorer=fuzz.ratio, score_cutoff=_CUTOFF)
        out.append(best[0] if best is not None else tok)
    return " ".join(out)
