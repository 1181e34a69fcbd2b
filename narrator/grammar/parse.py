"""The nomination parser: utterance → intents (rules 2.3.1, 2.3.2).

Each verb of nomination or withdrawal anchors one intent. From the verb the parser looks
forward for the seat number, skipping filler words («игрок», «номер», «кандидатуру», «на
голосование»…), and backward along the *verb chain* — the fillers and mood words directly
before the verb, stopping at any other word, at a sentence boundary or at the previous intent —
for words that change the mood: «бы»/«б» (subjunctive), «не» (negation), «хочу», «давай»,
«можно»… (intention), «буду» (analytic future). «Спасибо» / «Пас» («Дякую» / «Пас») end the
speech. The verdict is about the *form* of the phrase only; the engine adds the refusals that
depend on the state of the game.

Reason codes, in order of precedence (the first that applies is reported):

- ``subjunctive`` — «бы»/«б» (uk «би»/«б») in the verb chain or right after the verb (2.3.1);
- ``negation`` — «не» in the verb chain: «не выставляю»;
- ``intention`` — an intention or hedge word in the chain («хочу», «давай», «можно»,
  «наверное»), or the verb is an infinitive or an imperative: not the act itself;
- ``future_tense`` — a future form («выставлю», «выставим», uk «виставлятиму») or «буду» +
  infinitive (2.3.1);
- ``past_tense`` — «выставил»: reports a nomination, does not make one;
- ``no_number`` — the verb is not followed (or directly preceded) by a number;
- ``not_a_seat`` — the number heard is 0, negative, a fraction («5.5», its ``target`` None)
  or above the number of seats;
- ``no_intent`` — nothing in the utterance is a nomination, a withdrawal or an end of speech.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from narrator.grammar.intents import Intent, IntentKind
from narrator.grammar.lexicon import (
    END_WORDS,
    FILLERS,
    MODIFIERS,
    RESETS,
    VERBS,
    VOTE_NEEDED,
    VOTE_WORDS,
    check_lang,
)
from narrator.grammar.normalize import BOUNDARY, key, tokens
from narrator.grammar.numbers import number_table
from narrator.reasons import Reason

# Token classes: a tuple whose first item is the category.
FILLER: Final = 0  # (FILLER, is_vote_word)
VERB: Final = 1  # (VERB, kind, form, needs_vote_word)
NUM: Final = 2  # (NUM, value, tens, unit)
MOD: Final = 3  # (MOD, bit)
END: Final = 4  # (END,)
BOUND: Final = 5  # (BOUND,)

SUBJ: Final = 1
NEG: Final = 2
INTENT: Final = 4
FUT: Final = 8
_MOD_BITS: Final = {"subj": SUBJ, "neg": NEG, "intent": INTENT, "fut": FUT}

_MAX_DIGITS: Final = 6  # longer digit strings are not numbers anyone says at a table


NONE_INTENT: Final = Intent("none", None, False, Reason.NO_INTENT)


@lru_cache(maxsize=4)
def token_table(lang: str) -> dict[str, tuple[object, ...]]:
    """Normalized word → token class for ``lang``; later roles never override earlier ones."""
    check_lang(lang)
    table: dict[str, tuple[object, ...]] = {BOUNDARY: (BOUND,)}

    def put(word: str, cls: tuple[object, ...]) -> None:
        table.setdefault(key(word), cls)

    needs_vote = VOTE_NEEDED[lang]
    for kind, forms in VERBS[lang].items():
        for form, words in forms.items():
            for w in words:
                put(w, (VERB, kind, form, w in needs_vote))
    for mod, words in MODIFIERS[lang].items():
        for w in words:
            put(w, (MOD, _MOD_BITS[mod]))
    for w in END_WORDS[lang]:
        put(w, (END,))
    for w in RESETS[lang]:
        put(w, (BOUND,))
    for k, nw in number_table(lang).items():
        table.setdefault(k, (NUM, nw.value, nw.tens, nw.unit))
    for w in VOTE_WORDS[lang]:
        put(w, (FILLER, True))
    for w in FILLERS[lang]:
        put(w, (FILLER, False))
    return table


def _classify(tok: str, table: dict[str, tuple[object, ...]]) -> tuple[object, ...] | None:
    cls = table.get(tok)
    if cls is None and tok[0] in "-0123456789":
        if "." in tok:  # «5.5»: a number, but no seat (value None)
            return (NUM, None, False, False)
        sign = -1 if tok[0] == "-" else 1
        digits = tok.lstrip("-").lstrip("0") or "0"
        if len(digits) <= _MAX_DIGITS:
            return (NUM, sign * int(digits), False, False)
    return cls


def _read_number(cls: list[tuple[object, ...] | None], j: int) -> tuple[int | None, int]:
    """The number starting at ``cls[j]`` (a NUM; None for a fraction) and the index after it."""
    c = cls[j]
    assert c is not None
    value = c[1]
    if value is None:
        return None, j + 1
    assert isinstance(value, int)
    if c[2] and j + 1 < len(cls):
        nxt = cls[j + 1]
        if nxt is not None and nxt[0] == NUM and nxt[3]:
            unit = nxt[1]
            assert isinstance(unit, int)
            return value + unit, j + 2
    return value, j + 1


def _reason(mods: int, form: object, target: int | None, heard: bool,
            seats: int) -> Reason | None:
    # Precedence documented in the module docstring; 2.3.1 refuses future and subjunctive.
    if mods & SUBJ:
        return Reason.SUBJUNCTIVE
    if mods & NEG:
        return Reason.NEGATION
    if mods & INTENT:
        return Reason.INTENTION
    if mods & FUT or form == "future":
        return Reason.FUTURE_TENSE
    if form in ("infinitive", "imperative"):
        return Reason.INTENTION
    if form == "past":
        return Reason.PAST_TENSE
    if not heard:
        return Reason.NO_NUMBER
    if target is None or not 1 <= target <= seats:
        return Reason.NOT_A_SEAT
    return None


#: the longest phrase a reader of phrases takes (a table script's ``say``, ``narrator parse``):
#: a whole minute of talk written out as one phrase is about 1,000 characters. ``parse`` itself
#: takes any text (the recognizer's phrases are bounded by the audio they come from).
MAX_PHRASE = 2000


def parse(text: str, lang: str = "ru", seats: int = 10) -> list[Intent]:
    """The intents in ``text``, in order of appearance.

    Returns one :class:`Intent` per nomination, withdrawal or end of speech found; when there
    is none, exactly ``[Intent("none", None, False, "no_intent")]``. Never raises on any
    ``text``; raises ``ValueError`` for an unknown ``lang``.
    """
    table = token_table(lang)
    toks = tokens(text)
    n = len(toks)
    cls = [_classify(t, table) for t in toks]
    out: list[Intent] = []
    floor = 0  # backward scans stop here: the end of the previous intent
    i = 0
    while i < n:
        c = cls[i]
        if c is None or (c[0] != VERB and c[0] != END):
            i += 1
            continue
        if c[0] == END:
            out.append(Intent("end_speech", None, True, None, toks[i]))
            i += 1
            floor = i
            continue
        _, kind, form, needs_vote = c
        mods = 0
        vote = False
        target: int | None = None
        heard = False  # a number was heard (``target`` is None for a fraction)
        # Forward: fillers, then the number (2.3.1: «незамедлительно назвать номер»).
        j = i + 1
        end = i + 1
        while j < n:
            cj = cls[j]
            if cj is None:
                break
            cat = cj[0]
            if cat in (FILLER, BOUND):
                vote = vote or (cat == FILLER and bool(cj[1]))
                j += 1
                continue
            if cat == MOD and cj[1] == SUBJ:  # «выставил бы пятого»
                mods |= SUBJ
                j += 1
                end = j
                continue
            if cat == NUM:
                target, j = _read_number(cls, j)
                heard = True
                end = j
                # «... пятого на голосование»: trailing fillers belong to this phrase.
                while j < n and (cj := cls[j]) is not None and cj[0] == FILLER:
                    vote = vote or bool(cj[1])
                    j += 1
                break
            if cat == MOD and cj[1] == NEG and j + 1 < n:  # «не пятого, а шестого»
                nj = cls[j + 1]
                if nj is not None and nj[0] == NUM:
                    _, k = _read_number(cls, j + 1)
                    if k + 1 < n and toks[k] == "а":
                        nk = cls[k + 1]
                        if nk is not None and nk[0] == NUM:
                            target, j = _read_number(cls, k + 1)
                            heard = True
                            end = j
            break
        # Backward: the verb chain (mood words), and a number said before the verb.
        k = i - 1
        back_number = False
        while k >= floor:
            ck = cls[k]
            if ck is None:
                break
            cat = ck[0]
            if cat == FILLER:
                vote = vote or bool(ck[1])
            elif cat == MOD:
                bit = ck[1]
                assert isinstance(bit, int)
                mods |= bit
            elif cat == NUM and not heard and not back_number:
                # «пятого выставляю»: the number right before the verb.
                start = k
                prev = cls[k - 1] if k - 1 >= floor else None
                if ck[3] and prev is not None and prev[0] == NUM and prev[2]:
                    start = k - 1
                target, _ = _read_number(cls, start)
                heard = back_number = True
                k = start
            else:
                break
            k -= 1
        if needs_vote and not vote:  # bare «ставлю пятого» is not a nomination
            i += 1
            continue
        start = k + 1
        reason = _reason(mods, form, target, heard, seats)
        ikind: IntentKind = "nominate" if kind == "nominate" else "withdraw"
        out.append(Intent(ikind, target, reason is None, reason, " ".join(toks[start:end])))
        i = max(i + 1, end)
        floor = i
    return out or [NONE_INTENT]
