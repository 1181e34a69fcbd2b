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

from narrator.engine.types import Act, Actor, SpeechKind, Timer, quick_init

#: the languages a step is put into words in
Lang = Literal["ru", "uk", "en"]

__all__ = ["Crash", "Deal", "Expect", "Extra", "Floor", "Hunt", "Lang", "NightAct", "Over",
           "Pause", "PutUp", "Speech", "Vote", "Wait"]

# The words of the steps are the club's, as the console's pages show them to the table.

#: a role (or "mafia": the mafia's cards) in the genitive («проверка Шерифа», «ход Доктора»)
_ROLE_OF: dict[str, dict[Actor, str]] = {
    "ru": {Actor.MAFIA: "Мафии", Actor.DON: "Дона", Actor.SHERIFF: "Шерифа",
           Actor.DOCTOR: "Доктора", Actor.MANIAC: "Маньяка", Actor.COMMISSAR: "Комиссара",
           Actor.NURSE: "Медсестры"},
    "uk": {Actor.MAFIA: "Мафії", Actor.DON: "Дона", Actor.SHERIFF: "Шерифа",
           Actor.DOCTOR: "Лікаря", Actor.MANIAC: "Маніяка", Actor.COMMISSAR: "Комісара",
           Actor.NURSE: "Медсестри"},
}
_ACT_WORD: dict[str, dict[str, str]] = {
    "ru": {Act.CHECK: "проверка", Act.KILL: "выстрел", Act.SAVE: "лечение"},
    "uk": {Act.CHECK: "перевірка", Act.KILL: "постріл", Act.SAVE: "лікування"},
}
_OR = {"en": " or ", "ru": " или ", "uk": " або "}


def act_word(act: str, lang: str) -> str:
    """A night act as a step names it («проверка»); the English is the code."""
    return _ACT_WORD.get(lang, {}).get(act, act)
#: a kind of speech, before the seat's number
_SPEECH_WORD: dict[str, dict[str, str]] = {
    "ru": {"day": "Речь игрока", "last": "Последнее слово игрока",
           "tie": "Речь перед переголосованием: игрок", "intro": "Знакомство: игрок",
           "extra": "Ещё 30 секунд: игрок", "justify": "Оправдание игрока",
           "leader": "Слово лидеру голосования: игрок"},
    "uk": {"day": "Промова гравця", "last": "Останнє слово гравця",
           "tie": "Промова перед переголосуванням: гравець", "intro": "Знайомство: гравець",
           "extra": "Ще 30 секунд: гравець", "justify": "Виправдання гравця",
           "leader": "Слово лідеру голосування: гравець"},
}
#: the first night's steps that only wait for their time (2.1.1), by their timer's name
_PAUSES: dict[str, dict[str, str]] = {
    "ru": {"don_noted": "Дон знакомится с ведущим", "agreement": "Договорка мафии",
           "sheriff_noted": "Шериф осматривает стол", "mafia_meets": "Мафия знакомится",
           "commissar_meets": "Комиссар знакомится", "nurse_meets": "Медсестра знакомится",
           "doctor_noted": "Доктор показывается", "maniac_noted": "Маньяк показывается"},
    "uk": {"don_noted": "Дон знайомиться з ведучим", "agreement": "Домовленість мафії",
           "sheriff_noted": "Шериф оглядає стіл", "mafia_meets": "Мафія знайомиться",
           "commissar_meets": "Комісар знайомиться", "nurse_meets": "Медсестра знайомиться",
           "doctor_noted": "Доктор позначається", "maniac_noted": "Маніяк позначається"},
}
#: the same in English, as nouns (an error says "expected the mafia's agreement, got …"; the
#: host-assist screen shows "Night 1 · the mafia's agreement")
_PAUSES["en"] = {
    "dealing": "the deal", "don_noted": "the don looking at the table",
    "agreement": "the mafia's agreement", "sheriff_noted": "the sheriff looking at the table",
    "mafia_meets": "the mafia meeting", "doctor_noted": "the doctor showing himself",
    "maniac_noted": "the maniac showing himself",
    "commissar_meets": "the commissar meeting the host",
    "nurse_meets": "the nurse meeting the host",
}
#: the words of the steps with no figure in them
_WORDS: dict[str, dict[str, str]] = {
    "ru": {"deal": "Раздача карт", "hunt": "Охота мафии", "crash": "Автокатастрофа",
           "floor": "Кто первым поднимет руку?", "extra": "Руки на 30 секунд",
           "over": "Игра окончена", "vote": "Голосование за игрока",
           "put_up": "Выставление после речи игрока", "pause": "Пауза",
           "mafia_kill": "Мафия выбирает жертву", "turn": "Ход"},
    "uk": {"deal": "Роздача карт", "hunt": "Полювання мафії", "crash": "Автокатастрофа",
           "floor": "Хто першим підніме руку?", "extra": "Руки на 30 секунд",
           "over": "Гру закінчено", "vote": "Голосування за гравця",
           "put_up": "Виставлення після промови гравця", "pause": "Пауза",
           "mafia_kill": "Мафія обирає жертву", "turn": "Хід"},
}


@quick_init
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


@quick_init
@dataclass(frozen=True, slots=True)
class Pause(Wait):
    """A step that only waits for its timer (an announcement's minute: the mafia's agreement,
    the don looking at the table, …); the timer's name is the step's."""

    tag: ClassVar[str] = "timer"

    def label(self, lang: Lang = "en") -> str:
        name = self.timer.name if self.timer is not None else "pause"
        if lang == "en":
            return _PAUSES["en"].get(name, f"the end of the {name.replace('_', ' ')} timer")
        return _PAUSES[lang].get(name, _WORDS[lang]["pause"])


@quick_init
@dataclass(frozen=True, slots=True)
class Deal(Wait):
    """2.1.1: the cards are dealt; ``seats``: every seat, each to see its card."""

    tag: ClassVar[str] = "deal"

    def label(self, lang: Lang = "en") -> str:
        return "the deal" if lang == "en" else _WORDS[lang]["deal"]


@quick_init
@dataclass(frozen=True, slots=True)
class Speech(Wait):
    """``seat`` speaks (a day speech, a last word, …: ``speech``). ``nominates``: the speaker
    may nominate a seat and withdraw his own nomination (2.3.1, 2.3.2: the discussion of a
    ruleset that nominates by words); ``accuses``: he names the one seat the thumbs after
    his speech may put up (amateur's day by raised hands)."""

    seat: int = 0
    speech: SpeechKind = "day"
    nominates: bool = False
    accuses: bool = False
    tag: ClassVar[str] = "speech"

    def label(self, lang: Lang = "en") -> str:
        if lang == "en":
            return f"the {self.speech} speech of seat {self.seat}"
        return f"{_SPEECH_WORD[lang][self.speech]} {self.seat}"


@quick_init
@dataclass(frozen=True, slots=True)
class Vote(Wait):
    """2.4: the voting window of ``candidate``; ``seats``: every seat at the table. ``round``:
    the day's round it belongs to (1: the first vote, 2: the re-vote, …); ``to_last``: this
    round's abstainers count for its last candidate (2.4)."""

    candidate: int = 0
    round: int = 1
    to_last: bool = False
    tag: ClassVar[str] = "vote"

    def label(self, lang: Lang = "en") -> str:
        if lang == "en":
            again = f" (round {self.round})" if self.round > 1 else ""
            return f"vote: hands for candidate {self.candidate}{again}"
        return f"{_WORDS[lang]['vote']} {self.candidate}"


@quick_init
@dataclass(frozen=True, slots=True)
class Crash(Wait):
    """2.4.2: the car crash's question — hands for all the candidates leaving."""

    tag: ClassVar[str] = "crash"

    def label(self, lang: Lang = "en") -> str:
        return "hands for the car crash" if lang == "en" else _WORDS[lang]["crash"]


@quick_init
@dataclass(frozen=True, slots=True)
class Hunt(Wait):
    """2.1.2: the count; ``seats``: the mafia at the table, each shooting. The host counts
    the seats' numbers, one every :attr:`pace` seconds: a shot is on the number spoken."""

    tag: ClassVar[str] = "hunt"

    @property
    def pace(self) -> float:
        """Seconds between two numbers of the count."""
        return self.timer.tick if self.timer is not None and self.timer.tick else 1.0

    @property
    def count(self) -> int:
        """The numbers counted (one a seat)."""
        return round(self.timer.seconds / self.pace) if self.timer is not None else 0

    def number_at(self, elapsed: float) -> int | None:
        """The number being said ``elapsed`` seconds after «один» began (None: before it, or
        after the count)."""
        if elapsed < 0:
            return None
        k = int(elapsed // self.pace)
        return k + 1 if k < self.count else None

    def label(self, lang: Lang = "en") -> str:
        return "shots during the hunt" if lang == "en" else _WORDS[lang]["hunt"]


@quick_init
@dataclass(frozen=True, slots=True)
class NightAct(Wait):
    """``role`` wakes for one of ``acts`` (a check, a kill, a save; the first is its usual
    one); ``seats``: the role's seats still at the table (none: the time runs out in full)."""

    role: Actor = Actor.MAFIA
    acts: tuple[Act, ...] = ()
    #: whose choice is the act: the seats themselves, but the mafia's kill is the don's while
    #: he is at the table (vrn: «Остаточне рішення залишається за Доном»), else every mafioso
    #: at the table agreeing; the other seats of the mafia only point, for him to see
    deciders: tuple[int, ...] = ()
    tag: ClassVar[str] = "act"

    @property
    def checks(self) -> bool:
        """A check step (2.1.3): the role only checks, once a night."""
        return self.acts == (Act.CHECK,)

    def label(self, lang: Lang = "en") -> str:
        if lang == "en":
            return f"the {self.role}'s {_OR['en'].join(self.acts)}"
        of = _ROLE_OF[lang].get(self.role, self.role)
        if self.checks:
            return f"{_ACT_WORD[lang][Act.CHECK].capitalize()} {of}"
        if self.role == Actor.MAFIA and self.acts == (Act.KILL,):
            return _WORDS[lang]["mafia_kill"]
        return f"{_WORDS[lang]['turn']} {of}: {_OR[lang].join(_ACT_WORD[lang][a] for a in self.acts)}"


@quick_init
@dataclass(frozen=True, slots=True)
class Floor(Wait):
    """The next speaker by a raised hand; ``seats``: those yet to speak today."""

    tag: ClassVar[str] = "floor"

    def label(self, lang: Lang = "en") -> str:
        return "the next speaker (a raised hand)" if lang == "en" else _WORDS[lang]["floor"]


@quick_init
@dataclass(frozen=True, slots=True)
class PutUp(Wait):
    """Thumbs, after ``seat``'s speech, to put up the one it accused."""

    seat: int = 0
    tag: ClassVar[str] = "put_up"

    def label(self, lang: Lang = "en") -> str:
        if lang == "en":
            return f"thumbs to put up the one seat {self.seat} accused"
        return f"{_WORDS[lang]['put_up']} {self.seat}"


@quick_init
@dataclass(frozen=True, slots=True)
class Extra(Wait):
    """The hands held up through the discussion, for 30 s more each."""

    tag: ClassVar[str] = "extra"

    def label(self, lang: Lang = "en") -> str:
        return "the hands held up for 30 s more" if lang == "en" else _WORDS[lang]["extra"]


@quick_init
@dataclass(frozen=True, slots=True)
class Over(Wait):
    """The game is over; nothing is waited for."""

    tag: ClassVar[str] = "over"

    def label(self, lang: Lang = "en") -> str:
        return "nothing: the game is over" if lang == "en" else _WORDS[lang]["over"]


#: what the game can wait for: dispatch on it with ``match`` and end with ``assert_never``
Expect = Pause | Deal | Speech | Vote | Crash | Hunt | NightAct | Floor | PutUp | Extra | Over
