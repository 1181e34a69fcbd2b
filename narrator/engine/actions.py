"""Actions: everything that can happen to a game from outside, as frozen values.

Each action has a one-line text form (``str(action)``) that :func:`parse_action` reads back;
the game journal is a list of these lines.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, assert_never

from narrator.engine.errors import InvalidActionError
from narrator.engine.types import Act, Actor, quick_init
from narrator.reasons import Reason


@dataclass(frozen=True, slots=True)
class Nominate:
    """The speaker puts ``target`` to the vote (rule 2.3.1)."""

    target: int

    def __str__(self) -> str:
        return f"nominate {self.target}"


@dataclass(frozen=True, slots=True)
class Withdraw:
    """The speaker withdraws their own nomination of ``target`` (rule 2.3.2)."""

    target: int

    def __str__(self) -> str:
        return f"withdraw {self.target}"


@dataclass(frozen=True, slots=True)
class EndSpeech:
    """«Спасибо» / «Пас»: the speaker ends the speech early."""

    def __str__(self) -> str:
        return "end"


@dataclass(frozen=True, slots=True)
class Malformed:
    """An utterance the grammar refused (future tense, no number, …); recorded, not acted on."""

    kind: str
    target: int | None
    reason: Reason  # the grammar's

    def __str__(self) -> str:
        target = "-" if self.target is None else str(self.target)
        return f"malformed {self.kind} {target} {self.reason}"


@dataclass(frozen=True, slots=True)
class TimeUp:
    """The host reports that the timer ``name`` has run out."""

    name: str

    def __str__(self) -> str:
        return f"timeup {self.name}"


@dataclass(frozen=True, slots=True)
class Hands:
    """Hands on the table during a voting window (rule 2.4) or the car-crash question (2.4.2)."""

    seats: tuple[int, ...]

    def __str__(self) -> str:
        return " ".join(["hands", *map(str, self.seats)])


@dataclass(frozen=True, slots=True)
class HandCount:
    """``n`` hands for the current candidate, counted by a human host who does not name the
    seats (host-assist). Abstainers are still counted for the last candidate (2.4)."""

    n: int

    def __str__(self) -> str:
        return f"count {self.n}"


@dataclass(frozen=True, slots=True)
class Shot:
    """Mafioso ``shooter`` shoots at ``target`` during the count (rule 2.1.2)."""

    shooter: int
    target: int

    def __str__(self) -> str:
        return f"shot {self.shooter} {self.target}"


#: whom a night act claims to be done by: an :class:`Actor`, or a word that spells none (a
#: journal's or a script's line, a test's input, as given) — the rules refuse it as not the
#: step's actor's (``not_now``), as they refuse the sheriff's check at the don's step
Claimed = Actor | str


def claimed(word: Actor | str) -> Claimed:
    """The :class:`Actor` ``word`` spells, or ``word`` itself when it spells none."""
    try:
        return Actor(word)
    except ValueError:
        return word


@dataclass(frozen=True, slots=True)
class Check:
    """The don's or the sheriff's night check (rule 2.1.3); ``role``: the don, the sheriff, a
    ruleset's other checker (see :data:`Claimed`)."""

    role: Claimed
    target: int
    #: the act it is (the night step's ``acts`` list it)
    act: ClassVar[Act] = Act.CHECK

    def __str__(self) -> str:
        return f"check {self.role} {self.target}"


@dataclass(frozen=True, slots=True)
class Kill:
    """A night's kill: ``role`` "mafia" (the don's decision, or the mafia pointing), "maniac",
    or "sheriff" (his shot instead of a check); see :data:`Claimed`."""

    role: Claimed
    target: int
    act: ClassVar[Act] = Act.KILL

    def __str__(self) -> str:
        return f"kill {self.role} {self.target}"


@dataclass(frozen=True, slots=True)
class Save:
    """A night's save: the doctor's pick among the night's victims, the nurse's heal (see
    :data:`Claimed`)."""

    role: Claimed
    target: int
    act: ClassVar[Act] = Act.SAVE

    def __str__(self) -> str:
        return f"save {self.role} {self.target}"


@dataclass(frozen=True, slots=True)
class TakeFloor:
    """``seat`` raised a hand first and takes the floor (speeches in raised-hand order)."""

    seat: int

    def __str__(self) -> str:
        return f"floor {self.seat}"


@dataclass(frozen=True, slots=True)
class HandsUp:
    """The seats that held a hand up through the discussion: 30 s more each after it."""

    seats: tuple[int, ...]

    def __str__(self) -> str:
        return " ".join(["extra", *map(str, self.seats)])


@dataclass(frozen=True, slots=True)
class Thumbs:
    """Thumbs on the table for putting ``target`` (the one just accused) up for the vote."""

    target: int
    seats: tuple[int, ...]

    def __str__(self) -> str:
        return " ".join(["putup", str(self.target), *map(str, self.seats)])


@dataclass(frozen=True, slots=True)
class Foul:
    """A warning to ``seat``; recorded in the protocol."""

    seat: int

    def __str__(self) -> str:
        return f"foul {self.seat}"


@dataclass(frozen=True, slots=True)
class TechFoul:
    """9.6.2: a technical foul to ``seat`` (the club option ``tech_fouls = "yes"``), counted
    apart from the fouls; the 2nd removes."""

    seat: int

    def __str__(self) -> str:
        return f"tech_foul {self.seat}"


@dataclass(frozen=True, slots=True)
class Remove:
    """``seat`` is removed for a violation (rule 2.4.3)."""

    seat: int

    def __str__(self) -> str:
        return f"remove {self.seat}"


@dataclass(frozen=True, slots=True)
class BestMove:
    """With the ``best_move`` club option: the seats the first-night victim names before the
    last word («лучший ход»), three of them."""

    seats: tuple[int, ...]

    def __str__(self) -> str:
        return " ".join(["best_move", *map(str, self.seats)])


@dataclass(frozen=True, slots=True)
class OnRecord:
    """With the club option ``on_record`` (6.7): the colours the speaker on ``seat`` leaves on
    record in his speech («оставляю под протокол: пятый красный, седьмой чёрный»), as the
    host hears them: the seats he calls ``red`` and those he calls ``black``."""

    seat: int
    red: tuple[int, ...] = ()
    black: tuple[int, ...] = ()

    def __str__(self) -> str:
        parts = [f"{name}={','.join(map(str, seats))}"
                 for name, seats in (("red", self.red), ("black", self.black)) if seats]
        return " ".join(["on_record", str(self.seat), *parts])


#: the host's titles after a game, as MafiaRatings names them («лучший игрок», «лучший ход»,
#: «худший ход»); the order is the record's
MARK_TITLES = ("best_player", "best_move", "worst_move")


@dataclass(frozen=True, slots=True)
class Mark:
    """The host's marks for ``seat`` once the game is over: extra ``points`` (positive or
    negative, in the club's step and bound), ``titles`` of :data:`MARK_TITLES`, and a
    ``comment`` saying why. They change nothing of the game; a seat's later mark replaces its
    earlier one, and a mark with nothing in it takes the seat's away.

    Text form: ``mark 3 +0.3 best_player -- нашёл шерифа`` (the comment after `` -- ``, to
    the end of the line)."""

    seat: int
    points: float = 0.0
    titles: tuple[str, ...] = ()
    comment: str = ""

    def __str__(self) -> str:
        parts = ["mark", str(self.seat)]
        if self.points:
            parts.append(f"{self.points:+g}")
        parts.extend(self.titles)
        if self.comment:
            parts.extend(["--", self.comment])
        return " ".join(parts)

    @property
    def empty(self) -> bool:
        return not (self.points or self.titles or self.comment)


Action = (Nominate | Withdraw | EndSpeech | Malformed | TimeUp | Hands | HandCount | Shot | Check
          | Kill | Save | TakeFloor | HandsUp | Thumbs | Foul | TechFoul | Remove | BestMove
          | OnRecord | Mark)


for _action in Action.__args__:  # an action is made for every input: see quick_init
    quick_init(_action)

#: a role's acts at night (a tuple: ``isinstance`` takes it faster than ``Check | Kill | Save``)
NIGHT_ACTS = (Check, Kill, Save)
#: each night act's verb, as a night step lists its acts
VERBS: dict[type, Act] = {Check: Act.CHECK, Kill: Act.KILL, Save: Act.SAVE}


def _int(word: str) -> int | None:
    # ASCII digits only, and not thousands of them: int() also reads «٥» as 5
    digits = word[1:] if word.startswith("-") else word
    if not 0 < len(digits) <= 6 or not digits.isascii() or not digits.isdigit():
        return None
    return int(word)


def _ints(words: list[str], line: str) -> list[int]:
    out = [_int(w) for w in words]
    if None in out:
        shown = line if len(line) <= 40 else line[:37] + "…"
        raise InvalidActionError(f"not a seat number in action {shown!r}")
    return [n for n in out if n is not None]


def night_act(act: Act | str, role: Actor | str, target: int) -> Check | Kill | Save:
    """The action of ``role``'s night ``act`` on ``target``: a check, a kill (the mafia's
    kill, the maniac's, the sheriff's shot) or a save — built here only, for every front end
    (an operator's entry, a pad's press, a script's night line, a journal line). The act and
    the actor may come as their protocol's spelling (an act no act spells is an
    InvalidActionError; an actor, see :func:`claimed`)."""
    try:
        verb = Act(act)
    except ValueError:
        raise InvalidActionError(
            f"no night act is called {str(act)[:20]!r} (check, kill, save)") from None
    actor = claimed(role)
    match verb:
        case Act.CHECK:
            return Check(actor, target)
        case Act.KILL:
            return Kill(actor, target)
        case Act.SAVE:
            return Save(actor, target)
        case _:
            assert_never(verb)


def _on_record(rest: list[str], line: str) -> OnRecord:
    """``on_record 5 red=3,4 black=7``: the speaker, then each colour's seats (either may be
    left out, not both)."""
    if not rest:
        raise InvalidActionError(f"action {line!r} names no speaker")
    seat = _ints(rest[:1], line)[0]
    colours: dict[str, tuple[int, ...]] = {}
    for word in rest[1:]:
        name, sep, seats = word.partition("=")
        if not sep or name not in ("red", "black") or name in colours:
            raise InvalidActionError(f"on_record: expected red=SEATS and black=SEATS, got "
                                     f"{word[:20]!r}")
        colours[name] = tuple(_ints(seats.split(","), line))
    if not colours:
        raise InvalidActionError(f"action {line!r} names no colour")
    return OnRecord(seat, colours.get("red", ()), colours.get("black", ()))


def _mark(line: str) -> Mark:
    """``mark 3 +0.3 best_player worst_move -- comment``: the seat, then the points and the
    titles in any order, then the comment (kept as written, to the end of the line)."""
    head, sep, comment = line.partition(" -- ")
    if not sep and head.rstrip().endswith(" --"):
        head = head.rstrip()[:-3]
    words = head.split()[1:]
    if not words:
        raise InvalidActionError(f"action {line[:40]!r} names no seat")
    seat = _ints(words[:1], line)[0]
    points = 0.0
    titles: list[str] = []
    for word in words[1:]:
        if word in MARK_TITLES:
            titles.append(word)
            continue
        try:
            points = float(word)
        except ValueError:
            raise InvalidActionError(f"mark: expected points (e.g. +0.3) or one of "
                                     f"{', '.join(MARK_TITLES)}, got {word[:20]!r}") from None
        if points != points or abs(points) == float("inf"):
            raise InvalidActionError(f"mark: expected points, got {word[:20]!r}")
    return Mark(seat, points, tuple(titles), comment.strip())


def parse_action(line: str) -> Action:
    """Read an action back from its text form (``str(action)``)."""
    if line.startswith("mark ") or line.strip() == "mark":
        return _mark(line.strip())
    words = line.split()
    if not words:
        raise InvalidActionError("empty action")
    if len(words) > 64:  # «hands» names at most every seat
        raise InvalidActionError(f"action of {len(words)} words")
    verb, rest = words[0], words[1:]
    arity = {"nominate": 1, "withdraw": 1, "end": 0, "timeup": 1, "shot": 2, "check": 2,
             "kill": 2, "save": 2, "floor": 1, "foul": 1, "tech_foul": 1,
             "remove": 1, "malformed": 3, "count": 1}
    if verb == "hands":
        return Hands(tuple(_ints(rest, line)))
    if verb == "extra":
        return HandsUp(tuple(_ints(rest, line)))
    if verb == "putup":
        if not rest:
            raise InvalidActionError(f"action {line!r} names no seat put up")
        nums = _ints(rest, line)
        return Thumbs(nums[0], tuple(nums[1:]))
    if verb == "best_move":
        return BestMove(tuple(_ints(rest, line)))
    if verb == "on_record":
        return _on_record(rest, line)
    if verb not in arity:
        raise InvalidActionError(f"unknown action {verb[:20]!r}")
    if len(rest) != arity[verb]:
        raise InvalidActionError(f"action {verb!r} takes {arity[verb]} argument(s)")
    if verb == "end":
        return EndSpeech()
    if verb == "timeup":
        return TimeUp(rest[0])
    if verb in ("check", "kill", "save"):
        return night_act(verb, rest[0], _ints(rest[1:], line)[0])
    if verb == "malformed":
        target = None if rest[1] == "-" else _ints(rest[1:2], line)[0]
        try:
            reason = Reason(rest[2])
        except ValueError:
            raise InvalidActionError(f"no reason is called {rest[2][:30]!r}") from None
        return Malformed(rest[0], target, reason)
    nums = _ints(rest, line)
    if verb == "shot":
        return Shot(nums[0], nums[1])
    if verb == "count":
        return HandCount(nums[0])
    if verb == "nominate":
        return Nominate(nums[0])
    if verb == "withdraw":
        return Withdraw(nums[0])
    if verb == "foul":
        return Foul(nums[0])
    if verb == "tech_foul":
        return TechFoul(nums[0])
    if verb == "floor":
        return TakeFloor(nums[0])
    return Remove(nums[0])
