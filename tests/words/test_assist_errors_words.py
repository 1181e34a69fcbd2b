"""Host-assist's log when a key means nothing now or the game refuses it: the line the keys
made, quoted, and why — in the table's language, no English word (a wrong key is rare, so the
whole-game capture of the screen never meets these)."""

from __future__ import annotations

import pytest

from narrator.assist.control import Controller
from narrator.engine import waits as w
from narrator.reasons import words as reason_words
from tests.host.test_desk import make_table
from tests.words.english import english


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_a_wrong_key_is_said_in_the_tables_language(lang: str) -> None:
    t = make_table()
    t.until(w.Speech, seat=1)
    controller = Controller(t.host, t.driver, t.transcript, lang)
    messages: list[tuple[str, str]] = []
    controller.on_message = lambda kind, text: messages.append((kind, text))
    controller.check("4")  # nobody checks by day: the entry means nothing now
    controller.foul("11")  # no seat 11 at a table of ten: the engine refuses it
    controller.remove("3")
    controller.remove("3")  # out already
    for _ in range(4):
        t.driver.take()
    errors = [text for kind, text in messages if kind == "error"]
    assert len(errors) == 3, messages
    assert errors[0].startswith("«c 4»: ") and errors[2].startswith("«r 3»: ")
    assert errors[2].endswith(reason_words("seat_out", lang))
    assert all(english(text) == [] for text in errors), errors
