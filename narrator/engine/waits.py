"""What the game waits for: one small frozen class per kind of wait.

The flow yields one of these at every step (:attr:`Game.expect <narrator.engine.game.Game>`);
front ends dispatch on its class with ``match`` and end with ``assert_never``, so mypy tells
when a new kind of wait is missing somewhere. Each carries what the engine computed once from the
rule text, so no front end re-derives it:

- ``timer``: the step's timer (None only at the end of the game);
- ``seats``: the seats whose answer the step takes now (the speaker; every seat at the table
  for a vote; the mafia at the table for the hunt; the acting role's seat, if it is still at
  the table, for a night act; the seats yet to speak for the floor; …);
- ``waits_for_human``: whether the table waits, when the time is up, for a human to answer
  (the hunt's agreed target, a vote's count, a check by a checker still at the table, …);
- ``serial``: the step's serial number in the game (0: the first); a new step, a new serial;
- :meth:`Wait.label`: the step in words, in Russian, Ukrainian or English — the one place
  the current step is put into words.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from narrator.engine.steps import Act
from narrator.engine.types import SpeechKind, Timer

#: the languages a step is put into words in
Lang = Literal["ru", "uk", "en"]

__all__ = ["Crash", "Deal", "Expect", "Extra", "Floor", "Hunt", "Lang", "NightAct", "Over",
           "Pause", "PutUp", "Speech", "Vote", "Wait"]

#: a role (or "mafia": the mafia's cards) in the genitive, for «проверка шерифа»
_ROLE_OF = {
    "ru": {"mafia": "мафии", "don": "дона", "sheriff": "шерифа", "doctor": "доктора",
           "maniac": "маньяка", "commissar": "комиссара", "nurse": "медсестры"},
    "uk": {"mafia": "мафії", "don": "дона", "sheriff": "шерифа", "doctor": "лікаря",
           "maniac": "маніяка", "commissar": "комісара", "nurse": "медсестри"},
}
_ACT_WORD = {
    "en": {"check": "check", "kill": "kill", "save": "save"},
    "ru": {"check": "проверка", "kill": "выстрел", "save": "лечение"},
    "uk": {"check": "перевірка", "kill": "постріл", "save": "лікування"},
}
_OR = {"en": " or ", "ru": " или ", "uk": " або "}
#: a kind of speech, as the label says it
_SPEECH_WORD: dict[Lang, dict[str, str]] = {
    "en": {"day": "day", "last": "last", "tie": "tie", "intro": "intro", "extra": "extra",
           "justify": "justify"},
    "ru": {"day": "речь", "last": "последнее слово", "tie": "речь в споре",
           "intro": "представление", "extra": "30 секунд", "justify": "оправдание"},
    "uk": {"day": "промова", "last": "останнє слово", "tie": "промова у суперечці",
           "intro": "представлення", "extra": "30 секунд", "justify": "виправдання"},
}

#: the first night's steps that only wait for their time (2.1.1), by their timer's name
_PAUSES: dict[Lang, dict[str, str]] = {
    "ru": {"don_noted": "дон осматривает стол", "agreement": "договорка мафии",
           "sheriff_noted": "шериф осматривает стол", "mafia_meets": "знакомство мафии",
           "commissar_meets": "знакомство комиссара", "nurse_meets": "знакомство медсестры",
           "doctor_noted": "доктор осматривает стол", "maniac_noted": "маньяк осматривает стол"},
    "uk": {"don_noted": "дон оглядає стіл", "agreement": "домовленість мафії",
           "sheriff_noted": "шериф оглядає стіл", "mafia_meets": "знайомство мафії",
           "commissar_meets": "знайомство комісара", "nurse_meets": "знайомство медсестри",
           "doctor_noted": "лікар оглядає стіл", "maniac_noted": "маніяк оглядає стіл"},
}


@dataclass(frozen=True, slots=True)
class Wait:
    """The base of every wait (see the module's docstring); never yielded itself."""

    timer: Timer | None = None
    seats: tuple[int, ...] = ()
    waits_for_human: bool = False
    serial: int = 0

    #: the wait's name on the wire (the console's views, logs); never compared by a front end
    tag: ClassVar[str] = "wait"

    def label(self, lang: Lang = "en") -> str:
        """The step in words (``str(wait)`` is the English)."""
        raise NotImplementedError

    def __str__(self) -> str:
        return self.label("en")


@dataclass(frozen=True, slots=True)
class Pause(Wait):
    """A step that only waits for its timer (an announcement's minute: the mafia's agreement,
    the don looking at the table, …); the timer's name is the step's."""

    tag: ClassVar[str] = "timer"

    def label(self, lang: Lang = "en") -> str:
        name = self.timer.name if self.timer is not None else "pause"
        if lang == "en":
            return f"the end of the {name} timer"
        return _PAUSES[lang].get(name, f"пауза «{name}»")


@dataclass(frozen=True, slots=True)
class Deal(Wait):
    """2.1.1: the cards are dealt; ``seats``: every seat, each to see its card."""

    tag: ClassVar[str] = "deal"

    def label(self, lang: Lang = "en") -> str:
        return {"en": "the end of the dealing timer", "ru": "раздача карт",
                "uk": "роздача карт"}[lang]


@dataclass(frozen=True, slots=True)
class Speech(Wait):
    """``seat`` speaks (a day speech, a last word, …: ``speech``)."""

    seat: int = 0
    speech: SpeechKind = "day"
    tag: ClassVar[str] = "speech"

    def label(self, lang: Lang = "en") -> str:
        if lang == "en":
            return f"the {self.speech} speech of seat {self.seat}"
        word = "игрока" if lang == "ru" else "гравця"
        return f"{_SPEECH_WORD[lang][self.speech]} {word} {self.seat}"


@dataclass(frozen=True, slots=True)
class Vote(Wait):
    """2.4: the voting window of ``candidate``; ``seats``: every seat at the table."""

    candidate: int = 0
    tag: ClassVar[str] = "vote"

    def label(self, lang: Lang = "en") -> str:
        return {"en": f"hands for candidate {self.candidate}",
                "ru": f"голосование за кандидата {self.candidate}",
                "uk": f"голосування за кандидата {self.candidate}"}[lang]


@dataclass(frozen=True, slots=True)
class Crash(Wait):
    """2.4.2: the car crash's question — hands for all the candidates leaving."""

    tag: ClassVar[str] = "crash"

    def label(self, lang: Lang = "en") -> str:
        return {"en": "hands for the car crash", "ru": "автокатастрофа: руки за подъём всех",
                "uk": "автокатастрофа: руки за підйом усіх"}[lang]


@dataclass(frozen=True, slots=True)
class Hunt(Wait):
    """2.1.2: the count; ``seats``: the mafia at the table, each shooting."""

    tag: ClassVar[str] = "hunt"

    def label(self, lang: Lang = "en") -> str:
        return {"en": "shots during the hunt", "ru": "отстрел мафии",
                "uk": "відстріл мафії"}[lang]


@dataclass(frozen=True, slots=True)
class NightAct(Wait):
    """``role`` wakes for one of ``acts`` (a check, a kill, a save; the first is its usual
    one); ``seats``: the role's seats still at the table (none: the time runs out in full)."""

    role: str = ""
    acts: tuple[Act, ...] = ()
    tag: ClassVar[str] = "act"

    @property
    def checks(self) -> bool:
        """A check step (2.1.3): the role only checks, once a night."""
        return self.acts == ("check",)

    def label(self, lang: Lang = "en") -> str:
        if lang == "en":
            return f"the {self.role}'s {_OR['en'].join(self.acts)}"
        acts = _OR[lang].join(_ACT_WORD[lang][a] for a in self.acts)
        return f"{acts} {_ROLE_OF[lang].get(self.role, self.role)}"


@dataclass(frozen=True, slots=True)
class Floor(Wait):
    """The next speaker by a raised hand; ``seats``: those yet to speak today."""

    tag: ClassVar[str] = "floor"

    def label(self, lang: Lang = "en") -> str:
        return {"en": "the next speaker (a raised hand)", "ru": "следующий говорящий (рука)",
                "uk": "наступний промовець (рука)"}[lang]


@dataclass(frozen=True, slots=True)
class PutUp(Wait):
    """Thumbs, after ``seat``'s speech, to put up the one it accused."""

    seat: int = 0
    tag: ClassVar[str] = "put_up"

    def label(self, lang: Lang = "en") -> str:
        return {"en": f"thumbs to put up the one seat {self.seat} accused",
                "ru": f"пальцы за выставление после речи игрока {self.seat}",
                "uk": f"пальці за виставлення після промови гравця {self.seat}"}[lang]


@dataclass(frozen=True, slots=True)
class Extra(Wait):
    """The hands held up through the discussion, for 30 s more each."""

    tag: ClassVar[str] = "extra"

    def label(self, lang: Lang = "en") -> str:
        return {"en": "the hands held up for 30 s more", "ru": "руки за 30 секунд",
                "uk": "руки за 30 секунд"}[lang]


@dataclass(frozen=True, slots=True)
class Over(Wait):
    """The game is over; nothing is waited for."""

    tag: ClassVar[str] = "over"

    def label(self, lang: Lang = "en") -> str:
        return {"en": "nothing: the game is over", "ru": "игра окончена",
                "uk": "гра закінчена"}[lang]


#: what the game can wait for: dispatch on it with ``match`` and end with ``assert_never``
Expect = Pause | Deal | Speech | Vote | Crash | Hunt | NightAct | Floor | PutUp | Extra | Over
