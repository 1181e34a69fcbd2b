"""The nomination parser: utterance → intents (rules 2.3.1, 2.3.2).

Each verb of nomination or withdrawal anchors one intent. From the verb the parser looks
forward for the seat number, skipping filler words («игрок», «номер», «кандидатуру», «на
голосование»…), and backward along the *verb chain* — the fillers and mood words directly
before the verb, stopping at any other word, at a sentence boundary or at the previous intent —
for words that change the mood: «бы»/«б» (subjunctive), «не» (negation), «хочу», «давай»,
«можно»… (intention), «буду» (analytic future). «Спасибо» / «Пас» («Дякую» / «Пас») end the
speech. «Лучший ход: три, пять, восемь» (uk «Кращий хід …») is the first-night victim's best
move (8.17): the seats that follow it, however many — the engine refuses any but three
different seats other than the speaker's. The verdict is about the *form* of the phrase only; the engine adds the refusals that
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

from dataclasses import dataclass
from functools import lru_cache
from typing import Final, Literal, NamedTuple

from narrator.grammar.intents import Intent, IntentKind
from narrator.grammar.lexicon import (
    BEST_MOVE_HEAD,
    BEST_MOVE_NOUN,
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

# The token categories. Every token's first item is its category, so a reader that only asks
# what kind of word it is (``correct``: never a verb or a mood word) reads ``token.category``.
FILLER: Final = 0
VERB: Final = 1
NUM: Final = 2
MOD: Final = 3
END: Final = 4
BOUND: Final = 5
BEST: Final = 6


class Filler(NamedTuple):
    """A word between a verb and its number («игрок», «номер», «на голосование»)."""

    category: Literal[0]
    vote: bool  # a word of the vote: bare «ставлю» nominates only with one


class Verb(NamedTuple):
    """A verb of nomination or withdrawal, in one of its forms."""

    category: Literal[1]
    kind: str  # "nominate" or "withdraw"
    form: str  # "present", "future", "past", "infinitive", "imperative"
    needs_vote: bool  # «ставлю»: a nomination only with a word of the vote


class Num(NamedTuple):
    """A number, said as a word or written in digits."""

    category: Literal[2]
    value: int | None  # None for a fraction («5.5»): a number, but no seat
    tens: bool  # «двадцать»: a following unit word is added to it
    unit: bool  # 1..9: may follow «двадцать»


class Mod(NamedTuple):
    """A word that changes the mood of a verb («бы», «не», «хочу», «буду»)."""

    category: Literal[3]
    bit: int  # SUBJ, NEG, INTENT or FUT


class End(NamedTuple):
    """«Спасибо», «Пас»: the end of a speech."""

    category: Literal[4]


class Bound(NamedTuple):
    """A sentence boundary, or a word that starts the phrase afresh."""

    category: Literal[5]


class Best(NamedTuple):
    """«лучший» (``head``) or «ход»: a best move is the head followed by the noun (8.17)."""

    category: Literal[6]
    head: bool


Token = Filler | Verb | Num | Mod | End | Bound | Best

SUBJ: Final = 1
NEG: Final = 2
INTENT: Final = 4
FUT: Final = 8
_MOD_BITS: Final = {"subj": SUBJ, "neg": NEG, "intent": INTENT, "fut": FUT}

_MAX_DIGITS: Final = 6  # longer digit strings are not numbers anyone says at a table


NONE_INTENT: Final = Intent("none", None, False, Reason.NO_INTENT)


@lru_cache(maxsize=4)
def token_table(lang: str) -> dict[str, Token]:
    """Normalized word → token for ``lang``; later roles never override earlier ones."""
    check_lang(lang)
    table: dict[str, Token] = {BOUNDARY: Bound(BOUND)}

    def put(word: str, token: Token) -> None:
        table.setdefault(key(word), token)

    needs_vote = VOTE_NEEDED[lang]
    for kind, forms in VERBS[lang].items():
        for form, words in forms.items():
            for w in words:
                put(w, Verb(VERB, kind, form, w in needs_vote))
    for mod, words in MODIFIERS[lang].items():
        for w in words:
            put(w, Mod(MOD, _MOD_BITS[mod]))
    for w in END_WORDS[lang]:
        put(w, End(END))
    for w in BEST_MOVE_HEAD[lang]:
        put(w, Best(BEST, True))
    for w in BEST_MOVE_NOUN[lang]:
        put(w, Best(BEST, False))
    for w in RESETS[lang]:
        put(w, Bound(BOUND))
    for k, nw in number_table(lang).items():
        table.setdefault(k, Num(NUM, nw.value, nw.tens, nw.unit))
    for w in VOTE_WORDS[lang]:
        put(w, Filler(FILLER, True))
    for w in FILLERS[lang]:
        put(w, Filler(FILLER, False))
    return table


def _classify(tok: str, table: dict[str, Token]) -> Token | None:
    token = table.get(tok)
    if token is None and tok[0] in "-0123456789":
        if "." in tok:  # «5.5»: a number, but no seat (value None)
            return Num(NUM, None, False, False)
        sign = -1 if tok[0] == "-" else 1
        digits = tok.lstrip("-").lstrip("0") or "0"
        if len(digits) <= _MAX_DIGITS:
            return Num(NUM, sign * int(digits), False, False)
    return token


def _read_number(toks: list[Token | None], j: int) -> tuple[int | None, int]:
    """The number starting at ``toks[j]`` (a Num; None for a fraction) and the index after it."""
    num = toks[j]
    assert isinstance(num, Num)
    if num.value is None:
        return None, j + 1
    if num.tens and j + 1 < len(toks):
        nxt = toks[j + 1]
        if isinstance(nxt, Num) and nxt.unit:
            assert nxt.value is not None  # a unit word is a whole number
            return num.value + nxt.value, j + 2
    return num.value, j + 1


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


@dataclass
class _Phrase:
    """What the words around one verb say: its mood, a word of the vote, its number, its span."""

    mods: int = 0  # SUBJ | NEG | INTENT | FUT
    vote: bool = False
    target: int | None = None
    heard: bool = False  # a number was heard (``target`` is None for a fraction)
    start: int = 0  # the phrase is words[start:end]
    end: int = 0


def _read_forward(toks: list[Token | None], words: list[str], i: int, phrase: _Phrase) -> None:
    """From the verb at ``i`` forward: fillers, then the number (2.3.1: «незамедлительно
    назвать номер»)."""
    n = len(toks)
    j = phrase.end = i + 1
    while j < n:
        tok = toks[j]
        if isinstance(tok, Filler | Bound):
            phrase.vote = phrase.vote or (isinstance(tok, Filler) and tok.vote)
            j += 1
            continue
        if isinstance(tok, Mod) and tok.bit == SUBJ:  # «выставил бы пятого»
            phrase.mods |= SUBJ
            j = phrase.end = j + 1
            continue
        if isinstance(tok, Num):
            phrase.target, j = _read_number(toks, j)
            phrase.heard = True
            phrase.end = j
            # «... пятого на голосование»: trailing fillers belong to this phrase.
            while j < n and isinstance(filler := toks[j], Filler):
                phrase.vote = phrase.vote or filler.vote
                j += 1
        elif isinstance(tok, Mod) and tok.bit == NEG:
            _read_correction(toks, words, j, phrase)
        return


def _read_correction(toks: list[Token | None], words: list[str], j: int,
                     phrase: _Phrase) -> None:
    """«не пятого, а шестого» from the «не» at ``j``: the seat is the one after «а»."""
    n = len(toks)
    if j + 1 < n and isinstance(toks[j + 1], Num):
        _, k = _read_number(toks, j + 1)
        if k + 1 < n and words[k] == "а" and isinstance(toks[k + 1], Num):
            phrase.target, phrase.end = _read_number(toks, k + 1)
            phrase.heard = True


def _read_back(toks: list[Token | None], i: int, floor: int, phrase: _Phrase) -> None:
    """From the verb at ``i`` back to ``floor``: the verb chain (mood words), and a number said
    before the verb («пятого выставляю»)."""
    k = i - 1
    while k >= floor:
        tok = toks[k]
        if isinstance(tok, Filler):
            phrase.vote = phrase.vote or tok.vote
        elif isinstance(tok, Mod):
            phrase.mods |= tok.bit
        elif isinstance(tok, Num) and not phrase.heard:
            start = k
            prev = toks[k - 1] if k - 1 >= floor else None
            if tok.unit and isinstance(prev, Num) and prev.tens:  # «двадцать пять выставляю»
                start = k - 1
            phrase.target, _ = _read_number(toks, start)
            phrase.heard = True
            k = start
        else:
            break
        k -= 1
    phrase.start = k + 1


def _verb_intent(toks: list[Token | None], words: list[str], i: int, floor: int,
                 seats: int) -> tuple[Intent, int] | None:
    """The intent the verb at ``i`` anchors and the index after its phrase, or None when the
    verb nominates no one (bare «ставлю пятого» is not a nomination)."""
    verb = toks[i]
    assert isinstance(verb, Verb)
    phrase = _Phrase()
    _read_forward(toks, words, i, phrase)
    _read_back(toks, i, floor, phrase)
    if verb.needs_vote and not phrase.vote:
        return None
    reason = _reason(phrase.mods, verb.form, phrase.target, phrase.heard, seats)
    kind: IntentKind = "nominate" if verb.kind == "nominate" else "withdraw"
    said = " ".join(words[phrase.start:phrase.end])
    return Intent(kind, phrase.target, reason is None, reason, said), max(i + 1, phrase.end)


def _best_move(toks: list[Token | None], words: list[str], i: int) -> tuple[Intent, int] | None:
    """The best move whose head is at ``i`` («лучший ход: три, пять, восемь») and the index
    after its seats; None when «ход» does not follow. Every number heard is one of its seats
    (the engine refuses a count other than three); none heard is ``no_number``."""
    nxt = toks[i + 1] if i + 1 < len(toks) else None
    if not isinstance(nxt, Best) or nxt.head:
        return None
    seats: list[int] = []
    j = end = i + 2
    fraction = False
    while j < len(toks):
        tok = toks[j]
        if isinstance(tok, Num):
            value, j = _read_number(toks, j)
            fraction = fraction or value is None
            if value is not None:
                seats.append(value)
            end = j
        elif isinstance(tok, Filler | Bound) and not (isinstance(tok, Bound) and seats):
            j += 1  # «лучший ход: номер три…»; a full stop after the seats ends them
        else:
            break
    reason = (Reason.NO_NUMBER if not seats and not fraction
              else Reason.NOT_A_SEAT if fraction else None)
    said = " ".join(words[i:end])
    return Intent("best_move", None, reason is None, reason, said, tuple(seats)), end


def parse(text: str, lang: str = "ru", seats: int = 10) -> list[Intent]:
    """The intents in ``text``, in order of appearance.

    Returns one :class:`Intent` per nomination, withdrawal or end of speech found; when there
    is none, exactly ``[Intent("none", None, False, "no_intent")]``. Never raises on any
    ``text``; raises ``ValueError`` for an unknown ``lang``.
    """
    table = token_table(lang)
    words = tokens(text)
    toks = [_classify(w, table) for w in words]
    out: list[Intent] = []
    floor = 0  # backward scans stop here: the end of the previous intent
    i = 0
    while i < len(words):
        tok = toks[i]
        found = None
        if isinstance(tok, End):
            found = Intent("end_speech", None, True, None, words[i]), i + 1
        elif isinstance(tok, Verb):
            found = _verb_intent(toks, words, i, floor, seats)
        elif isinstance(tok, Best) and tok.head:
            found = _best_move(toks, words, i)
        if found is None:
            i += 1
            continue
        out.append(found[0])
        i = floor = found[1]
    return out or [NONE_INTENT]
