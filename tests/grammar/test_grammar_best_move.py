"""The first-night victim's best move by voice (8.17): «лучший ход: три, пять, восемь»."""

from __future__ import annotations

import pytest

from narrator.engine import BestMove, Malformed
from narrator.grammar import correct, parse, phrase_list, vocabulary
from narrator.host.hearing import action_for, game_hearing
from narrator.reasons import Reason


def _seats(text: str, lang: str = "ru") -> list[tuple[str, tuple[int, ...], bool]]:
    return [(i.kind, i.seats, i.accepted) for i in parse(text, lang)]


@pytest.mark.parametrize("text", [
    "лучший ход: три, пять, восемь",
    "Лучший ход три пять восемь",
    "мой лучший ход — три, пять и восемь",
    "лучший ход: номер три, номер пять, номер восемь",
    "лучший ход 3 5 8",
])
def test_russian_best_move(text: str) -> None:
    assert _seats(text) == [("best_move", (3, 5, 8), True)]


@pytest.mark.parametrize("text", [
    "кращий хід: три, п'ять, вісім",
    "Мій найкращий хід три пʼять вісім",
])
def test_ukrainian_best_move(text: str) -> None:
    assert _seats(text, "uk") == [("best_move", (3, 5, 8), True)]


def test_the_count_is_the_engines() -> None:
    # two, four, twice the same: the grammar hears them all; the engine refuses (THREE_SEATS)
    assert _seats("лучший ход три пять") == [("best_move", (3, 5), True)]
    assert _seats("лучший ход три пять семь восемь") == [("best_move", (3, 5, 7, 8), True)]
    assert _seats("лучший ход три три пять") == [("best_move", (3, 3, 5), True)]


def test_no_seats_is_refused_and_recorded() -> None:
    intents = parse("лучший ход. спасибо")
    assert [(i.kind, i.accepted, i.reason) for i in intents] == [
        ("best_move", False, Reason.NO_NUMBER), ("end_speech", True, None)]
    assert isinstance(action_for(intents[0]), Malformed)


def test_the_words_alone_are_no_best_move() -> None:
    assert parse("ход пять")[0].kind == "none"
    assert parse("лучший игрок пятый")[0].kind == "none"


def test_a_phrase_after_it_is_its_own() -> None:
    intents = parse("лучший ход три пять восемь, спасибо")
    assert [i.kind for i in intents] == ["best_move", "end_speech"]
    assert intents[0].text == "лучший ход три пять восемь"


def test_action_and_json() -> None:
    intent = parse("лучший ход три пять восемь")[0]
    assert action_for(intent) == BestMove((3, 5, 8))
    assert intent.to_json()["seats"] == [3, 5, 8]
    assert "seats" not in parse("выставляю пятого")[0].to_json()


@pytest.mark.parametrize(("lang", "words"), [("ru", ["лучший", "ход", "мой"]),
                                             ("uk", ["кращий", "найкращий", "хід", "мій"])])
def test_the_recognizer_may_hear_it(lang: str, words: list[str]) -> None:
    assert set(words) <= set(vocabulary(lang))
    assert "лучший ход" in phrase_list("ru")
    for word in words:  # never "corrected" into another word
        assert correct(word, lang) == word


def test_the_hearing_takes_it() -> None:
    hearing = game_hearing("ru", 10)
    said = hearing.understand("лучший ход три пять восемь")
    assert said is not None and action_for(said[0]) == BestMove((3, 5, 8))
