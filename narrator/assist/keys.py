"""The host's keys and the words of the host-assist screen's waits, in the table's language
(the keys themselves are the same in every language)."""

from __future__ import annotations

from typing import assert_never

from textual.binding import Binding, BindingType

from narrator.engine import Expect
from narrator.engine import waits as w
from narrator.host.texts import tx


def waiting_text(wait: Expect, lang: str) -> str:
    """What the timer's place says once a held step's time is over."""
    match wait:
        case w.Hunt():
            return tx("w_hunt", lang)
        case w.Vote() | w.Crash():
            return tx("w_count", lang)
        case w.NightAct() if wait.checks:
            return tx("w_check", lang)
        case (w.NightAct() | w.Pause() | w.Deal() | w.Speech() | w.Floor() | w.PutUp()
              | w.Extra() | w.Over()):
            return tx("w_you", lang)
        case _:
            assert_never(wait)


def bindings(lang: str) -> list[BindingType]:
    """The host's keys, the key bar's words in ``lang`` (the keys themselves are the same in
    every language: the digits, Enter, Space and the latin letters on the keyboard)."""
    return [
        Binding("0", "digit('0')", tx("k_seat", lang), key_display="0-9"),
        *(Binding(d, f"digit('{d}')", show=False) for d in "123456789"),
        Binding("minus", "digit('-')", show=False),
        Binding("comma", "digit(',')", show=False),
        Binding("backspace", "erase", show=False),
        Binding("enter", "enter", tx("k_enter", lang), key_display="Enter"),
        Binding("space", "next", tx("k_next", lang), key_display=tx("space", lang)),
        Binding("t", "time_up", tx("k_skip", lang)),
        Binding("w", "withdraw", tx("k_withdraw", lang)),
        Binding("o", "on_record('red')", tx("k_red", lang)),
        Binding("m", "on_record('black')", tx("k_black", lang)),
        Binding("b", "best_move", tx("k_best", lang)),
        Binding("k", "shot", tx("k_shot", lang)),
        Binding("c", "check", tx("k_check", lang)),
        Binding("f", "foul", tx("k_foul", lang)),
        Binding("e", "tech_foul", tx("k_tech", lang)),
        Binding("x", "remove", tx("k_remove", lang)),
        Binding("u", "undo", tx("k_undo", lang)),
        Binding("r", "roles", tx("k_roles", lang)),
        Binding("escape", "clear", tx("k_clear", lang), show=False),
        Binding("y", "yes", show=False),
        Binding("q", "quit", tx("k_quit", lang)),
    ]
