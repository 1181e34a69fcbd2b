"""Seat numbers as they are said at the table, in Russian and Ukrainian.

A seat is named by a cardinal («пять», «номер пять»), an ordinal in any case and gender
(«пятый», «пятого», «пятую»), a collective noun («пятёрку») or digits («5», «5-го»). Numbers
that are not seats (0, 16–29) are known too, so that «ноль» or «пятнадцать» at a ten-seat
table is heard and refused as ``not_a_seat`` instead of being taken for another word.
«двадцать» followed by a unit word composes («двадцать пять» → 25).
"""

from __future__ import annotations

from dataclasses import dataclass

from narrator.grammar.normalize import key


@dataclass(frozen=True, slots=True)
class NumberWord:
    """One number word: its value, and whether it composes (``tens`` + ``unit``)."""

    value: int
    tens: bool = False  # «двадцать»: a following unit word is added to it
    unit: bool = False  # 1..9: may follow «двадцать»


_RU_CARDINALS: dict[int, tuple[str, ...]] = {
    0: ("ноль", "нуль", "ноля", "нуля"),
    1: ("один", "одного", "одному", "одна", "одну", "единица", "единицу", "единичка", "единичку"),
    2: ("два", "две", "двух", "двум", "двойка", "двойку"),
    3: ("три", "трёх", "трём", "тройка", "тройку"),
    4: ("четыре", "четырёх", "четвёрка", "четвёрку"),
    5: ("пять", "пяти", "пятёрка", "пятёрку"),
    6: ("шесть", "шести", "шестёрка", "шестёрку"),
    7: ("семь", "семи", "семёрка", "семёрку"),
    8: ("восемь", "восьми", "восьмёрка", "восьмёрку"),
    9: ("девять", "девяти", "девятка", "девятку"),
    10: ("десять", "десяти", "десятка", "десятку"),
    11: ("одиннадцать", "одиннадцати"),
    12: ("двенадцать", "двенадцати"),
    13: ("тринадцать", "тринадцати"),
    14: ("четырнадцать", "четырнадцати"),
    15: ("пятнадцать", "пятнадцати"),
    16: ("шестнадцать", "шестнадцати"),
    17: ("семнадцать", "семнадцати"),
    18: ("восемнадцать", "восемнадцати"),
    19: ("девятнадцать", "девятнадцати"),
    20: ("двадцать", "двадцати"),
}
# (nominative masculine, stem) — the other forms are stem + a case ending.
_RU_ORDINALS: dict[int, tuple[str, str]] = {
    1: ("первый", "перв"),
    2: ("второй", "втор"),
    4: ("четвёртый", "четвёрт"),
    5: ("пятый", "пят"),
    6: ("шестой", "шест"),
    7: ("седьмой", "седьм"),
    8: ("восьмой", "восьм"),
    9: ("девятый", "девят"),
    10: ("десятый", "десят"),
    11: ("одиннадцатый", "одиннадцат"),
    12: ("двенадцатый", "двенадцат"),
    13: ("тринадцатый", "тринадцат"),
    14: ("четырнадцатый", "четырнадцат"),
    15: ("пятнадцатый", "пятнадцат"),
    16: ("шестнадцатый", "шестнадцат"),
    17: ("семнадцатый", "семнадцат"),
    18: ("восемнадцатый", "восемнадцат"),
    19: ("девятнадцатый", "девятнадцат"),
    20: ("двадцатый", "двадцат"),
}
_RU_ENDINGS: tuple[str, ...] = ("ого", "ому", "ым", "ом", "ая", "ую", "ой")
_RU_THIRD: tuple[str, ...] = (
    "третий",
    "третьего",
    "третьему",
    "третьим",
    "третьем",
    "третья",
    "третью",
    "третьей",
)

_UK_CARDINALS: dict[int, tuple[str, ...]] = {
    0: ("нуль", "ноль", "нуля"),
    1: ("один", "одного", "одному", "одна", "одну", "одиниця", "одиницю", "одиничку"),
    2: ("два", "дві", "двох", "двом", "двійка", "двійку"),
    3: ("три", "трьох", "трьом", "трійка", "трійку"),
    4: ("чотири", "чотирьох", "четвірка", "четвірку"),
    5: ("п'ять", "п'яти", "п'ятьох", "п'ятірка", "п'ятірку"),
    6: ("шість", "шести", "шістьох", "шістка", "шістку"),
    7: ("сім", "семи", "сімох", "сімка", "сімку"),
    8: ("вісім", "восьми", "вісьмох", "вісімка", "вісімку"),
    9: ("дев'ять", "дев'яти", "дев'ятьох", "дев'ятка", "дев'ятку"),
    10: ("десять", "десяти", "десятьох", "десятка", "десятку"),
    11: ("одинадцять", "одинадцяти"),
    12: ("дванадцять", "дванадцяти"),
    13: ("тринадцять", "тринадцяти"),
    14: ("чотирнадцять", "чотирнадцяти"),
    15: ("п'ятнадцять", "п'ятнадцяти"),
    16: ("шістнадцять", "шістнадцяти"),
    17: ("сімнадцять", "сімнадцяти"),
    18: ("вісімнадцять", "вісімнадцяти"),
    19: ("дев'ятнадцять", "дев'ятнадцяти"),
    20: ("двадцять", "двадцяти"),
}
_UK_ORDINALS: dict[int, tuple[str, str]] = {
    1: ("перший", "перш"),
    2: ("другий", "друг"),
    4: ("четвертий", "четверт"),
    5: ("п'ятий", "п'ят"),
    6: ("шостий", "шост"),
    7: ("сьомий", "сьом"),
    8: ("восьмий", "восьм"),
    9: ("дев'ятий", "дев'ят"),
    10: ("десятий", "десят"),
    11: ("одинадцятий", "одинадцят"),
    12: ("дванадцятий", "дванадцят"),
    13: ("тринадцятий", "тринадцят"),
    14: ("чотирнадцятий", "чотирнадцят"),
    15: ("п'ятнадцятий", "п'ятнадцят"),
    16: ("шістнадцятий", "шістнадцят"),
    17: ("сімнадцятий", "сімнадцят"),
    18: ("вісімнадцятий", "вісімнадцят"),
    19: ("дев'ятнадцятий", "дев'ятнадцят"),
    20: ("двадцятий", "двадцят"),
}
_UK_ENDINGS: tuple[str, ...] = ("ого", "ому", "им", "ім", "а", "у", "ої", "ій")
_UK_THIRD: tuple[str, ...] = (
    "третій",
    "третього",
    "третьому",
    "третім",
    "третя",
    "третю",
    "третьої",
)


def number_forms(lang: str) -> dict[int, tuple[str, ...]]:
    """Every spelled form of every number the grammar knows, by value (dictionary spelling)."""
    if lang == "ru":
        cardinals, ordinals, endings, third = _RU_CARDINALS, _RU_ORDINALS, _RU_ENDINGS, _RU_THIRD
    elif lang == "uk":
        cardinals, ordinals, endings, third = _UK_CARDINALS, _UK_ORDINALS, _UK_ENDINGS, _UK_THIRD
    else:
        raise ValueError(f"unknown language {lang!r}")
    forms: dict[int, tuple[str, ...]] = {}
    for value, words in cardinals.items():
        extra: tuple[str, ...] = ()
        if value == 3:
            extra = third
        elif value in ordinals:
            nom, stem = ordinals[value]
            extra = (nom, *(stem + e for e in endings))
        forms[value] = tuple(dict.fromkeys((*words, *extra)))
    return forms


def number_table(lang: str) -> dict[str, NumberWord]:
    """Normalized key → :class:`NumberWord` for one language."""
    table: dict[str, NumberWord] = {}
    for value, words in number_forms(lang).items():
        cardinal_tens = set(words[:2]) if value == 20 else set()
        for w in words:
            table[key(w)] = NumberWord(value, tens=w in cardinal_tens, unit=1 <= value <= 9)
    return table

