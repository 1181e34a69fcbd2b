"""One vocabulary for a press: the pages send the names :mod:`narrator.console.presses` lists,
the journal writes them, a resume reads them back (and an older journal's names too); a press
is read field by field, and a field that is not what it takes is refused by name."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from narrator.console.presses import (
    OPERATOR_PRESSES,
    PAD_PRESSES,
    ActPress,
    BestMovePress,
    CheckPress,
    HandsPress,
    Press,
    PressError,
    SeenPress,
    ShootPress,
    SkipPress,
    ThumbPress,
    UndoPress,
    VotePress,
    journal_press,
    press_input,
    read_press,
)
from narrator.console.tokens import OPERATOR
from narrator.evening.front import COMMANDS
from narrator.inputs import Input
from tests.console.conftest import Rig

STATIC = Path(__file__).resolve().parents[2] / "narrator" / "console" / "static"


def _sent(page: str) -> set[str]:
    """The names a page's script sends as ``do`` (``do: "seen"``, ``do: p.left ? "back" :
    "leave"``)."""
    text = (STATIC / page).read_text(encoding="utf-8")
    return {name for value in re.findall(r"\bdo:\s*([^,}]+)", text)
            for name in re.findall(r'"([a-z_]+)"', value)}


def test_the_pages_send_the_names_the_console_reads() -> None:
    assert _sent("pad.js") == set(PAD_PRESSES)
    assert _sent("operator.js") == set(OPERATOR_PRESSES)
    assert _sent("evening.js") == set(COMMANDS)  # the lobby's, the evening's own


@pytest.mark.parametrize(("who", "do", "data"), [
    (3, "seen", {}), (3, "shoot", {"target": 7}), (3, "check", {"role": "don", "target": 1}),
    (3, "vote", {"candidate": 5}), (3, "vote", {"candidate": None}),
    (3, "nominate", {"target": 4}), (3, "withdraw", {"target": 4}), (3, "end", {}),
    (3, "act", {"role": "mafia", "act": "kill", "target": 6}), (3, "floor", {}),
    (3, "accuse", {"target": 8}), (3, "thumb", {"target": 8}), (3, "extra", {}),
    (3, "best_move", {"seats": [1, 2, 4]}),
    (OPERATOR, "skip", {"seat": 2}), (OPERATOR, "hands", {"candidate": 5, "count": 3}),
    (OPERATOR, "foul", {"seat": 6}), (OPERATOR, "remove", {"seat": 6}),
    (OPERATOR, "undo", {"actions": 2}),
    (OPERATOR, "mark", {"seat": 4, "points": 0.3, "titles": ["best_player"], "comment": "за"}),
])
def test_a_press_goes_to_the_journal_and_back_in_one_name(who: Any, do: str,
                                                          data: dict[str, Any]) -> None:
    typed = read_press(Press(who, do, data, 12.5), 10)
    line = press_input(typed, who, 12.5)
    written = {k: v for k, v in line.to_json().items() if k not in ("type", "t")}
    assert written == ({"do": do, **data} if who == OPERATOR else {"seat": who, "do": do, **data})
    back = journal_press(Input.loads(line.dumps()))
    assert back is not None and (back.who, back.do, back.t) == (who, do, 12.5)
    assert read_press(back, 10) == typed


@pytest.mark.parametrize(("type_", "old", "new", "typed"), [
    ("pad", {"do": "card_seen"}, "seen", SeenPress()),
    ("pad", {"do": "shot", "target": 7}, "shoot", ShootPress(target=7)),
    ("pad", {"do": "hand", "candidate": 5}, "vote", VotePress(candidate=5)),
    ("operator", {"do": "card_skipped", "seat": 2}, "skip", SkipPress(seat=2)),
    ("operator", {"do": "hand_count", "candidate": 5, "count": 3}, "hands",
     HandsPress(candidate=5, count=3)),
])
def test_an_older_journals_names_are_read_as_the_names_now(
        type_: str, old: dict[str, Any], new: str, typed: Any) -> None:
    line = {"type": type_, "t": 4.0, **({"seat": 3} if type_ == "pad" else {}), **old}
    press = journal_press(Input.from_json(line))
    assert press is not None and press.do == new
    assert read_press(press, 10) == typed


def test_a_journals_other_lines_are_no_press() -> None:
    assert journal_press(Input("action", 1.0, {"action": "end"})) is None
    assert journal_press(Input("timer", 1.0, {"name": "speech", "started": 1.0})) is None


@pytest.mark.parametrize(("who", "do", "data", "field", "reason"), [
    (3, "check", {"target": 11}, "target", "not_a_seat"),
    (3, "check", {}, "target", "not_a_seat"),
    (3, "nominate", {"target": True}, "target", "not_a_seat"),
    (3, "act", {"act": 7, "target": 2}, "act", "bad_request"),
    (3, "vote", {"candidate": "5"}, "candidate", "bad_request"),
    (3, "best_move", {"seats": 5}, "seats", "bad_request"),
    (3, "best_move", {"seats": [1, 2, 12]}, "seats", "not_a_seat"),
    (OPERATOR, "hands", {"count": -1}, "count", "bad_request"),
    (OPERATOR, "skip", {"seat": "4"}, "seat", "not_a_seat"),
    (3, "fly", {}, "do", "bad_request"),
    (3, "foul", {"seat": 2}, "do", "bad_request"),  # the operator's, not a pad's
    (OPERATOR, "seen", {}, "do", "bad_request"),
    (OPERATOR, "mark", {"seat": 4, "points": "0.3"}, "points", "bad_request"),
    (OPERATOR, "mark", {"seat": 4, "titles": "best_move"}, "titles", "bad_request"),
    (OPERATOR, "mark", {"seat": 4, "comment": 5}, "comment", "bad_request"),
    (OPERATOR, "mark", {"points": 0.3}, "seat", "not_a_seat"),
])
def test_a_press_is_read_field_by_field_and_refused_by_name(
        who: Any, do: str, data: dict[str, Any], field: str, reason: str) -> None:
    with pytest.raises(PressError) as caught:
        read_press(Press(who, do, data, 0.0), 10)
    error = caught.value
    assert (error.field, error.reason) == (field, reason)
    message = str(error)
    assert "\n" not in message and f"{do!r} press: {field!r}" in message


def test_a_refused_field_is_named_in_the_reply_with_its_reason(rig: Rig) -> None:
    reply = rig.press(4, "nominate", target=11)
    assert (reply.reason, reply.detail) == ("not_a_seat", {"field": "target"})
    assert rig.op("hands", count="three").to_json()["field"] == "count"
    assert rig.press(4, "fly").to_json() == {"ok": False, "reason": "bad_request",
                                             "text": "Непонятный запрос", "field": "do"}


def test_what_the_table_decides_is_written_with_the_press(rig: Rig) -> None:
    # a page sends no role and no number: the journal has the ones the table took them for
    rig.deal()
    seen = [i for i in rig.inputs if i.get("do") == "seen"]
    assert len(seen) == 10 and all(set(i.data) == {"seat", "do"} for i in seen)
    assert CheckPress(role="don", target=1).fields() == {"role": "don", "target": 1}
    assert ActPress(target=2).fields() == {"role": None, "act": None, "target": 2}
    assert BestMovePress(seats=(1, 2, 3)).fields() == {"seats": [1, 2, 3]}
    assert ThumbPress().fields() == {"target": None} and UndoPress().fields() == {"actions": None}
