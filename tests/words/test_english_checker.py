"""The checker itself: it finds English, and lets nicknames and keys through."""

from tests.words.english import english


def test_the_checker_finds_english_words_and_passes_nicknames_and_keys() -> None:
    assert english("Day 1 · the speech of seat 2") == ["Day", "of", "seat", "speech", "the"]
    assert english("День 1 · Речь игрока 2 · номер Enter: выставить · 3,5,7 b") == []
    assert english("Momento Mori: Ночь 2", ["Momento Mori"]) == []
    assert english("timeup dealing") == ["dealing", "timeup"]
