"""Text normalization shared by the parser, the vocabulary and the corrector.

Two shapes of input reach the grammar: Vosk output (lower case, no punctuation, numbers as
words, ``[unk]`` / ``<UNK>`` tokens) and typed text (capitals, digits, punctuation, ``ё``,
Ukrainian apostrophes in several code points). Both are reduced to one token list:

- lower case, ``ё`` → ``е``;
- every apostrophe (' ʼ ’ ‘ ` ´ ′ ʹ) is dropped, so «п'ять», «пʼять», «п’ять» and «пять» are
  the same key;
- ``[unk]`` and ``<unk>`` are dropped;
- digits keep their value and lose an inflectional suffix («5-го», «5й» → ``5``); a minus
  sign right before them stays («-5» → ``-5``) and so does a decimal part («5.5», «5,5» →
  ``5.5``), so that neither is taken for seat 5;
- ``№`` and ``#`` read as «номер»;
- sentence punctuation (. ! ? … ;) becomes the boundary token ``.``; other punctuation goes.
"""

from __future__ import annotations

import re
import unicodedata

BOUNDARY = "."

_APOSTROPHES = "'ʼ’‘`´′ʹ"
_TRANSLATE = str.maketrans(
    {**{c: None for c in _APOSTROPHES}, "ё": "е", "№": " номер ", "#": " номер "}
)
_UNK_RE = re.compile(r"\[unk\]|<unk>")
# A digit group may carry a short case ending, hyphenated or not: «5-го», «5го», «5-й», «5ю».
_SUFFIXES = "ого|ому|го|му|ый|ий|ой|ая|ую|ым|ом|ти|ть|ої|ій|ім|й|я|ю|м|а|у|ї|е|х"
# A minus counts only where it cannot be a hyphen («5-6» is two numbers, «-5» one).
_TOKEN_RE = re.compile(
    rf"((?:(?<!\w)[-−–])?[0-9]+(?:[.,][0-9]+)?)(?:-?(?:{_SUFFIXES}))?(?![^\W\d_])"
    r"|[^\W\d_]+|[.!?…;]"
)
_MINUSES = str.maketrans({"−": "-", "–": "-", ",": "."})


def key(word: str) -> str:
    """The lookup key of one dictionary word: lower case, ``ё`` → ``е``, no apostrophes."""
    return word.lower().translate(_TRANSLATE).strip()


def tokens(text: str) -> list[str]:
    """Split ``text`` into normalized tokens (words, digit strings and ``.`` boundaries)."""
    if not unicodedata.is_normalized("NFC", text):
        text = unicodedata.normalize("NFC", text)  # a decomposed «й» is one letter
    low = text.lower().translate(_TRANSLATE)
    if "[" in low or "<" in low:
        low = _UNK_RE.sub(" ", low)
    out: list[str] = []
    for m in _TOKEN_RE.finditer(low):
        digits = m.group(1)
        if digits is not None:
            out.append(digits.translate(_MINUSES))
        else:
            tok = m.group(0)
            out.append(BOUNDARY if tok in ".!?…;" else tok)
    return out


def normalize(text: str) -> str:
    """``text`` as the grammar sees it: the normalized tokens joined by single spaces."""
    return " ".join(tokens(text))
