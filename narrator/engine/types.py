"""Value types of the game: roles, teams, timers, the kinds of speech, the phase."""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

#: a day speech (2.3), a last word (2.2, 2.4; a testament, a final word), a tie speech (2.4.1),
#: an introduction, 30 s more for a raised hand, a justification before a re-vote, the speech of
#: a round's single leader who stays (the club option ``first_day = "lift_only"``)
SpeechKind = Literal["day", "last", "tie", "intro", "extra", "justify", "leader"]


class Word(enum.StrEnum):
    """A word of the game's vocabulary. It is a ``StrEnum`` whose value is the protocol's
    spelling: equal to that string, hashed, formatted and written to JSON as it, so the
    protocol, the journals and the pages keep the strings they always had. Its ``repr`` is the
    string's too: the events', actions' and waits' reprs (the recorded fingerprints of
    tests/engine/test_digest.py, the transcripts) read as when these fields were strings."""

    def __repr__(self) -> str:
        return repr(self.value)


class Team(Word):
    """Rule 1.2 («красные») and 1.3 («черные»); DRAW is no side's, the game's third result
    (the catalogue's 7.21.2: the whole table voted out together)."""

    RED = "civilians"
    BLACK = "mafia"
    DRAW = "draw"


class Role(enum.StrEnum):
    """A seat's card. The value is the protocol's spelling; the letter is the notation's.
    (Its ``repr`` stays the enum's, ``<Role.DON: 'don'>``: the recorded fingerprints print
    the deal so.)"""

    CIVILIAN = "civilian"
    SHERIFF = "sheriff"
    MAFIA = "mafia"
    DON = "don"
    DOCTOR = "doctor"
    MANIAC = "maniac"
    COMMISSAR = "commissar"
    NURSE = "nurse"

    @property
    def team(self) -> Team:
        """The card's team; a ruleset may put a card on another side (the maniac's, dealt)."""
        return Team.BLACK if self in (Role.MAFIA, Role.DON) else Team.RED

    @property
    def letter(self) -> str:
        return _LETTERS[self]

    def counted(self, count: int) -> str:
        """``count`` of this card in English words, as an error names a deck («a don», «6
        civilians», «2 mafia»; one mafioso, several mafia)."""
        if self is Role.MAFIA:
            return "a mafioso" if count == 1 else f"{count} mafia"
        return f"a {self.value}" if count == 1 else f"{count} {self.value}s"

    @classmethod
    def from_letter(cls, letter: str) -> Role:
        for role, ch in _LETTERS.items():
            if ch == letter.upper():
                return role
        raise ValueError(f"no role has the letter {letter!r}")


class Actor(Word):
    """Who wakes at night to act: a card, or MAFIA — the mafia's cards as one (the don's
    decision, the mafia pointing at their victim). The value is the protocol's spelling (a
    night's ``kills``/``saves``/``checks`` keys, the ``check``/``kill``/``save`` actions')."""

    MAFIA = "mafia"
    DON = "don"
    SHERIFF = "sheriff"
    DOCTOR = "doctor"
    MANIAC = "maniac"
    COMMISSAR = "commissar"
    NURSE = "nurse"

    @property
    def card(self) -> Role:
        """The card that acts (the mafia's plain card for MAFIA, the team)."""
        return Role(self.value)

    @property
    def is_team(self) -> bool:
        """The mafia as a team, not one card."""
        return self is Actor.MAFIA

    @classmethod
    def of(cls, card: Role) -> Actor:
        """The actor a card wakes as (ValueError for the civilian's, who never wakes)."""
        return cls(card.value)


class Colour(Word):
    """A colour a speaker leaves on record (6.7: «красный», «черный»), and a check's answer
    for the sheriff (1.2.1)."""

    RED = "red"
    BLACK = "black"


class Act(Word):
    """What an actor does when it wakes: a check (the host's nod, 2.1.3), a kill, a save."""

    CHECK = "check"
    KILL = "kill"
    SAVE = "save"


class Exit(Word):
    """How a seat left the game (a departure's ``how``, the protocol's ``out.how``)."""

    #: the mafia's night kill (2.1.2)
    SHOT = "shot"
    #: voted out (2.4)
    VOTE = "vote"
    #: the car crash (2.4.2)
    CRASH = "crash"
    #: removed by the host (fouls, 9.x)
    REMOVED = "removed"
    #: the maniac's night kill (vrn)
    MANIAC = "maniac"
    #: the sheriff's shot instead of his check (vrn)
    SHERIFF_SHOT = "sheriff_shot"


_LETTERS = {Role.CIVILIAN: "C", Role.SHERIFF: "S", Role.MAFIA: "M", Role.DON: "D",
            Role.DOCTOR: "H", Role.MANIAC: "X", Role.COMMISSAR: "K", Role.NURSE: "N"}


T = TypeVar("T")


def quick_init(cls: type[T]) -> type[T]:
    """Give a frozen, slotted dataclass an ``__init__`` that sets its slots directly.

    A frozen dataclass's own ``__init__`` sets each field through ``object.__setattr__`` (its
    ``__setattr__`` refuses), which makes it three times slower to make than a plain one, and
    the engine makes hundreds of events, timers and waits a game. This ``__init__`` writes the
    slots through their descriptors: the same fields and defaults, still immutable, equal and
    hashable, at half the cost (see ``scripts/bench_engine.py``)."""
    namespace: dict[str, Any] = {}
    params: list[str] = []
    body: list[str] = []
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        # the slot's descriptor, on the class that declares it (a subclass inherits its base's)
        slot = next(k.__dict__[f.name] for k in cls.__mro__ if f.name in k.__dict__)
        namespace[f"_set_{f.name}"] = slot.__set__
        if f.default is not dataclasses.MISSING:
            namespace[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        elif f.default_factory is not dataclasses.MISSING:
            raise TypeError(f"{cls.__name__}.{f.name}: no default factories here")
        else:
            params.append(f.name)
        body.append(f"    _set_{f.name}(self, {f.name})")
    source = f"def __init__(self, {', '.join(params)}):\n" + ("\n".join(body) or "    pass")
    exec(source, namespace)  # as dataclasses makes its own __init__
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init  # type: ignore[method-assign]
    return cls


@quick_init
@dataclass(frozen=True, slots=True)
class Timer:
    """A timer the engine asks its host to run; the host reports ``TimeUp(name)`` at the end.

    ``warning_at`` is when «Десять секунд» is said (rule 2.3); ``tick`` is the pace of a count
    (the hunt's numbers, rule 2.1.2).
    """

    name: str
    seconds: float
    warning_at: float | None = None
    tick: float | None = None


@dataclass(frozen=True, slots=True)
class Phase:
    """The night or day in progress: ``str()`` is its short form ("n1", "d2"), the one the
    notation, the protocol's refusals, journals and scripts write; :meth:`parse` reads it."""

    time: Literal["night", "day"]
    number: int

    def __str__(self) -> str:
        return f"{self.time[0]}{self.number}"

    @property
    def is_night(self) -> bool:
        return self.time == "night"

    @property
    def is_day(self) -> bool:
        return self.time == "day"

    @classmethod
    def night(cls, number: int) -> Phase:
        return cls("night", number)

    @classmethod
    def day(cls, number: int) -> Phase:
        return cls("day", number)

    @classmethod
    def parse(cls, text: str) -> Phase:
        """The phase of its short form ("n1", "d2"); ValueError for anything else."""
        if len(text) >= 2 and text[0] in "nd" and text[1:].isdigit():
            return cls("night" if text[0] == "n" else "day", int(text[1:]))
        raise ValueError(f"not a phase: {text!r} (expected n1, d2, …)")
