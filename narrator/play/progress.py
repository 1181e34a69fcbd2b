"""The console game's terminal: the game's progress, one line a step, nothing secret.

With the pads playing, the terminal is the operator's side door: it says which step the game
is at (the engine's words for it), whose card the deal still waits for, who speaks, what was
refused and why; never a card's name, nor the night's shots and checks (the terminal is
nobody's screen: a player may be reading over a shoulder).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import assert_never

from narrator import words as vocab
from narrator.console.table import ConsoleTable
from narrator.engine import events as ev
from narrator.engine import waits as w
from narrator.host.host import Host
from narrator.host.transcript import seat_label
from narrator.reasons import words as reason_words

#: seconds between two looks at the cards the deal waits for
CARDS_EVERY = 10.0

#: the terminal's lines: key → (en, ru, uk); ``en`` is the API's (a Progress given no lang)
_LINES: dict[str, tuple[str, str, str]] = {
    "speaks": ("{phase}: {who} speaks ({kind})", "{phase}: {who}, {kind}", "{phase}: {who}, {kind}"),
    "night": ("{phase}: a night step", "{phase}: ночной шаг", "{phase}: нічний крок"),
    "night_s": ("{phase}: a night step ({s:g} s)", "{phase}: ночной шаг ({s:g} с)",
                "{phase}: нічний крок ({s:g} с)"),
    "step": ("{phase}: {what}", "{phase}: {what}", "{phase}: {what}"),
    "refused": ("{who} {kind}{target}: refused ({reason})", "{who}, {kind}{target}: отказ — {reason}",
                "{who}, {kind}{target}: відмова — {reason}"),
    "input": ("input", "ввод", "введення"),
    "seat": ("seat {seat}", "игрок {seat}", "гравець {seat}"),
    "seat_named": ("seat {seat} ({name})", "игрок {seat} ({name})", "гравець {seat} ({name})"),
    "card": ("waiting for the card of seat {seats}", "ждём карту игрока {seats}",
             "чекаємо на карту гравця {seats}"),
    "cards": ("waiting for the cards of seats {seats}", "ждём карты игроков {seats}",
              "чекаємо на карти гравців {seats}"),
}


class Progress:
    """Lines to ``out`` as ``host``'s game goes (``table``: the console's, for the deal)."""

    def __init__(self, host: Host, table: ConsoleTable, out: Callable[[str], None],
                 lang: str = "en") -> None:
        self.host = host
        #: the table's language (``--lang``): ru or uk (en: the API's)
        self.lang = lang
        self.table = table
        self.out = out
        self._cards: list[int] | None = None
        self.started = host.now()  # the stamps count from here (the game, or its resume)
        host.listeners.append(self._event)

    def _stamp(self) -> str:
        minutes, seconds = divmod(self.host.now() - self.started, 60.0)
        return f"{int(minutes):3d}:{seconds:04.1f}"

    def _say(self, text: str) -> None:
        self.out(f"{self._stamp()}  {text}")

    def _line(self, key: str, **fields: object) -> str:
        en, ru, uk = _LINES[key]
        return {"ru": ru, "uk": uk}.get(self.lang, en).format(**fields)

    def _who(self, seat: int) -> str:
        name = self.host.game.names.get(seat)
        if self.lang not in ("ru", "uk"):
            return seat_label(seat, self.host.game.names)
        return self._line("seat_named", seat=seat, name=name) if name else self._line(
            "seat", seat=seat)

    def _phase(self) -> str:
        phase = self.host.game.phase
        if self.lang not in ("ru", "uk"):
            return str(phase)
        return vocab.phase(phase.time, phase.number, self.lang)

    def _event(self, event: ev.Event, at: float) -> None:
        game = self.host.game
        if isinstance(event, ev.TimerStarted):
            wait = game.expect
            words = self.lang in ("ru", "uk")
            match wait:
                case w.Speech():
                    kind = (vocab.word("speech", wait.speech, self.lang) if words
                            else wait.speech)
                    self._say(self._line("speaks", phase=self._phase(),
                                         who=self._who(wait.seat), kind=kind))
                case w.NightAct() | w.Pause():
                    # no role's name on the terminal: it is nobody's screen
                    self._say(self._line("night_s", phase=self._phase(), s=wait.timer.seconds)
                              if wait.timer is not None
                              else self._line("night", phase=self._phase()))
                case (w.Deal() | w.Vote() | w.Crash() | w.Hunt() | w.Floor() | w.PutUp()
                      | w.Extra() | w.Over()):
                    what = wait.label("uk" if self.lang == "uk" else "ru" if words else "en")
                    self._say(self._line("step", phase=self._phase(), what=what))
                case _:
                    assert_never(wait)
            if isinstance(wait, w.Deal) and self.table.dealing:
                self._cards = None
                self.host.scheduler.call_at(self.host.now(), "progress-cards", self._deal)
        elif isinstance(event, ev.Refused) and game.phase.is_day:
            # (a night's refusal would name the seat a role picked: the day's only)
            who = self._who(event.seat) if event.seat is not None else self._line("input")
            target = "" if event.target is None else f" {event.target}"
            words = self.lang in ("ru", "uk")
            self._say(self._line(
                "refused", who=who, target=target,
                kind=vocab.word("input", event.kind, self.lang) if words else event.kind,
                reason=reason_words(event.reason, self.lang) if words else event.reason))

    def _deal(self) -> None:
        """While the deal waits (2.1.1): whose card, when that changed."""
        waiting = self.table.waiting_for_cards()
        if not waiting:
            return
        if waiting != self._cards:
            self._cards = waiting
            seats = ", ".join(map(str, waiting))
            self._say(self._line("card" if len(waiting) == 1 else "cards", seats=seats))
        self.host.scheduler.call_at(self.host.now() + CARDS_EVERY, "progress-cards", self._deal)
