"""The journal's header read field by field: the first field that is wrong is one line naming
the file, line 1 and the field, exit code 2 — options the ruleset does not take included, which
were refused only once the game was rebuilt, in words that named no file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from narrator.cli import main
from narrator.engine import Game
from narrator.errors import NarratorError
from narrator.host.journal import JournalHeader, load_journal
from tests.helpers import ROLES

VRN_ROLES = {"2": "sheriff", "3": "mafia", "4": "doctor", "6": "don", "9": "mafia", "10": "maniac"}


def _header(**changes: Any) -> dict[str, Any]:
    head: dict[str, Any] = {"journal": 2, "rules": "crime-time", "seats": 10, "lang": "ru",
                            "mode": "assist", "settings": {},
                            "roles": {"1": "sheriff", "3": "don", "5": "mafia", "9": "mafia"}}
    head.update(changes)
    return head


def _vrn(**changes: Any) -> dict[str, Any]:
    return _header(rules="vrn", roles=VRN_ROLES, dealt={"maniac_side": "city"}, **changes)


@pytest.mark.parametrize(("head", "said"), [
    (_vrn(options={"first_day": "none"}),
     "options: first_day: vrn plays its own first day (its day 1 is the introduction round); "
     '"none" is for crime-time, professional, vrn-closed'),
    (_header(options={"intro": 30}), "options: intro: crime-time has no such figure"),
    (_header(options={"cards": "open"}),
     'options: cards: crime-time keeps the cards closed; "open" is for amateur'),
])
def test_options_the_ruleset_does_not_take_are_refused_naming_line_1(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], head: dict[str, Any],
        said: str) -> None:
    path = tmp_path / "j.jsonl"
    path.write_text(json.dumps(head) + "\n", encoding="utf-8")
    with pytest.raises(NarratorError) as e:
        load_journal(path)  # at the reading, before any game is made of it
    assert str(e.value) == f"{path}:1: {said}"
    assert main(["resume", str(path), "--json"]) == 2
    assert capsys.readouterr().err == f"narrator: {path}:1: {said}\n"


@pytest.mark.parametrize("head", [
    _header(options={"cards": "closed", "fouls": "sport", "best_move": True}),
    _vrn(options={"first_day": "vote"}),  # every ruleset's own: taken, and changes nothing
    _header(settings={"speech_seconds": 45.0}, options={"speech": 45.0}),
])
def test_options_the_ruleset_takes_are_read(tmp_path: Path, head: dict[str, Any]) -> None:
    path = tmp_path / "j.jsonl"
    path.write_text(json.dumps(head) + "\n", encoding="utf-8")
    contents = load_journal(path)
    assert contents.header.options == head["options"]
    contents.game()


@pytest.mark.parametrize(("changes", "field"), [
    ({"rules": 5, "mode": "poker"}, "rules"),
    ({"mode": "poker", "lang": "xx"}, "mode"),
    ({"lang": "xx", "seats": 0}, "lang"),
    ({"seats": 0, "roles": []}, "seats"),
    ({"roles": [], "settings": []}, "roles"),
    ({"settings": [], "options": "x"}, "settings"),
    ({"options": "x", "names": []}, "options"),
    ({"names": [], "dealt": []}, "names"),
    ({"dealt": []}, "dealt"),
])
def test_the_first_wrong_field_is_the_one_named(tmp_path: Path, changes: dict[str, Any],
                                                field: str) -> None:
    path = tmp_path / "j.jsonl"
    path.write_text(json.dumps(_header(**changes)) + "\n", encoding="utf-8")
    with pytest.raises(NarratorError) as e:
        load_journal(path)
    assert str(e.value).startswith(f"{path}:1: {field}: ") and "\n" not in str(e.value)


def test_a_header_written_is_the_header_read(tmp_path: Path) -> None:
    game = Game(roles=ROLES, names={3: "Бублик"})
    header = JournalHeader.of_game(game, lang="uk", mode="play")
    path = tmp_path / "j.jsonl"
    path.write_text(json.dumps(header.to_json(), ensure_ascii=False) + "\n", encoding="utf-8")
    assert load_journal(path).header == header
