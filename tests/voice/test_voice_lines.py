"""The words of the default voice packs, as a host says them (ru, uk): the lines mended after
reading both packs through, each held here so that it stays mended."""

from __future__ import annotations

import re

import pytest

from narrator.voice.manifest import default_manifest


def phrases(lang: str) -> dict[str, str]:
    return dict(default_manifest(lang).phrases)


def test_uk_names_the_introduction_round_in_the_texts_own_word() -> None:
    """«уявлення» is imagination; the text's host says «Знайомство починаємо…»."""
    uk = phrases("uk")
    assert uk["vrn.intro_over"] == "Коло знайомства закінчено, місто засинає"
    assert "Знайомство" in uk["vrn.intro_round"]
    assert not any("уявлен" in text for text in uk.values())
    assert phrases("ru")["vrn.intro_over"] == "Круг знакомства окончен, город засыпает"


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_no_pack_says_candidates_are_before_their_count(lang: str) -> None:
    """«Выставлены кандидатуры одна кандидатура номер три»: the count is said in a sentence of
    its own (``nominated.N``), with the verb agreeing with it."""
    texts = phrases(lang)
    assert "candidates_are" not in texts
    manifest = default_manifest(lang)
    if lang == "ru":
        assert manifest.text("nominated.1") == "На голосование выставлена одна кандидатура"
        assert manifest.text("nominated.3") == "На голосование выставлены три кандидатуры"
        assert manifest.text("nominated.5") == "На голосование выставлено пять кандидатур"
    else:
        assert manifest.text("nominated.1") == "На голосування виставлено одну кандидатуру"
        assert manifest.text("nominated.2") == "На голосування виставлено дві кандидатури"


def test_uk_addresses_a_player_and_the_doctor_in_the_vocative() -> None:
    """«Гравець номер п'ять, ваше слово» is a Russian's Ukrainian: one speaks to «Гравцю номер
    п'ять», to «Докторе»; a sentence about a player keeps «Гравець … залишає стіл»."""
    for key, text in phrases("uk").items():
        assert not re.match(r"Гравець номер \{num\},", text), key
        assert "Доктор," not in text, key
    uk = phrases("uk")
    assert uk["leaves.{n}"] == "Гравець номер {num} залишає стіл"
    assert uk["best_move.{n}"] == "Гравцю номер {num}, ваш найкращий хід"


@pytest.mark.parametrize(("lang", "foul", "correction"), [
    ("ru", "Фол игроку номер {num}", "Поправка"), ("uk", "Фол гравцю номер {num}", "Поправка")])
def test_a_foul_is_said_foul_first_and_a_correction_as_a_host_corrects_himself(
        lang: str, foul: str, correction: str) -> None:
    texts = phrases(lang)
    assert texts["foul.{n}"] == foul and texts["correction"] == correction


def test_uk_puts_the_nights_victims_on_the_stretcher_the_console_names() -> None:
    """«ноші», as the doctor's pad says it («На ношах: …»), not the Russian «носилки»."""
    uk = phrases("uk")
    assert uk["vrn.stretcher.2"] == "Докторе, на ношах двоє"
    assert not any("носилк" in text for text in uk.values())


def test_uk_waits_for_a_card_as_ukrainian_does() -> None:
    uk = phrases("uk")
    assert uk["card_awaited.{n}"] == "Чекаємо на карту гравця номер {num}"
    assert uk["cards_awaited"] == "Чекаємо на карти гравців"
