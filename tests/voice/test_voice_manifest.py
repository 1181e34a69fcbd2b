"""Manifest loading, validation and template expansion."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from narrator.errors import NarratorError
from narrator.voice.manifest import default_voices_root, load_manifest


def write(tmp_path: Path, data: Any) -> Path:
    path = tmp_path / "manifest.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def small(**phrases: str) -> dict[str, Any]:
    base = {"num.1": "один", "num.2": "два", "num.3": "три"}
    return {"lang": "ru", "name": "t", "numbers": [1, 3], "phrases": {**base, **phrases}}


def test_templates_expand_for_every_number(tmp_path: Path) -> None:
    data = small(**{"speech.{n}": "Слово игроку номер {num}", "votes.2": "два голоса"})
    m = load_manifest(write(tmp_path, data))
    assert m.lang == "ru"
    assert [k for k in m if k.startswith("speech.")] == ["speech.1", "speech.2", "speech.3"]
    assert m.text("speech.3") == "Слово игроку номер три"
    assert m.text("votes.2") == "два голоса"
    assert "speech.4" not in m
    assert "speech.{n}" not in m


def test_explicit_key_overrides_the_template(tmp_path: Path) -> None:
    data = small(**{"count.{n}": "{num}", "count.1": "раз"})
    m = load_manifest(write(tmp_path, data))
    assert [m.text(f"count.{n}") for n in (1, 2, 3)] == ["раз", "два", "три"]


def test_template_without_placeholder_repeats_its_text(tmp_path: Path) -> None:
    m = load_manifest(write(tmp_path, small(**{"beep.{n}": "бип"})))
    assert m.text("beep.2") == "бип"


def test_folder_is_accepted(tmp_path: Path) -> None:
    write(tmp_path, small())
    assert len(load_manifest(tmp_path)) == 3


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        ({"name": "x", "numbers": [1, 2], "phrases": {"a": "b"}}, 'field "lang" is missing'),
        ({"lang": "ru", "name": "x", "numbers": [3, 1], "phrases": {"a": "b"}}, '"numbers"'),
        ({"lang": "ru", "name": "x", "numbers": [1, 2], "phrases": {}}, '"phrases"'),
        ({"lang": "ru", "name": "x", "numbers": [1, 2], "phrases": {"a": ""}}, 'phrase "a"'),
        ({"lang": "ru", "name": "x", "numbers": [1, 2], "phrases": {"A b": "x"}}, '"A b"'),
        (
            {"lang": "ru", "name": "x", "numbers": [1, 2], "phrases": {"s.{n}": "{num}"}},
            'needs "num.1"',
        ),
        (
            {"lang": "ru", "name": "x", "numbers": [1, 1], "phrases": {"s.{n}": "{x}"}},
            "unknown placeholder",
        ),
        (
            {"lang": "ru", "name": "x", "numbers": [1, 1], "phrases": {"s": "{num}"}},
            "not a template",
        ),
        ([1, 2], "JSON object"),
    ],
)
def test_broken_manifest_is_one_line_naming_file_and_field(
    tmp_path: Path, data: Any, needle: str
) -> None:
    path = write(tmp_path, data)
    with pytest.raises(NarratorError) as info:
        load_manifest(path)
    message = str(info.value)
    assert str(path) in message
    assert needle in message
    assert "\n" not in message


def test_invalid_json_and_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "manifest.json"
    path.write_text('{"lang": "ru",', encoding="utf-8")
    with pytest.raises(NarratorError, match="bad JSON"):
        load_manifest(path)
    with pytest.raises(NarratorError, match="not found"):
        load_manifest(tmp_path / "nowhere" / "manifest.json")


def test_ru_and_uk_have_the_same_keys() -> None:
    root = default_voices_root()
    ru, uk = load_manifest(root / "ru"), load_manifest(root / "uk")
    assert ru.lang == "ru" and uk.lang == "uk"
    assert ru.keys() == uk.keys()
    assert uk.text("accepted") == "Прийнято"
    assert uk.text("withdrawn") == "Знято"
    assert uk.text("thanks") == "Дякую"
    assert uk.text("ten_seconds") == "Десять секунд"
    assert [uk.text(f"votes.{n}") for n in (1, 2, 5)] == [
        "один голос",
        "два голоси",
        "п'ять голосів",
    ]


def test_every_ruleset_has_its_host_lines() -> None:
    ru = load_manifest(default_voices_root() / "ru")
    for key in (
        "professional.mafia_wakes",
        "professional.mafia_sleeps",
        "professional.morning",
        "vrn.sheriff_sleeps_doctor_wakes",
        "vrn.not_woken.7",
        "amateur.commissar_wakes",
        "amateur.nurse_sleeps",
    ):
        assert key in ru
    assert ru.text("professional.mafia_wakes") == "Просыпается мафия"
    assert ru.text("professional.morning") == "Утро. Все просыпаются"
