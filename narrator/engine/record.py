"""The record of a game: the typed day records and night acts, the protocol and the notation.

The protocol (docs/protocol.md) is the record as JSON: the seats with their cards, what became
of them and their fouls; each day (its nominations, rounds, car crash, who left); each night
(the shot, the checks, the kills and saves, keyed by role); the refusals. The notation is one
line of state for tests and messages. Both read the game's state through :class:`Recorded`
(what every :class:`~narrator.engine.state.State` has), so this module needs no other.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, Protocol, assert_never

from narrator.engine import waits as w
from narrator.engine.actions import Mark
from narrator.engine.catalogue import code_of
from narrator.engine.marks import marks_json
from narrator.engine.rules import Rules
from narrator.engine.steps import Announce, HuntStep, NightStep, Resolve, Wake
from narrator.engine.types import Act, Actor, Colour, Exit, Phase, Role, Team
from narrator.reasons import Reason

__all__ = ["BestMoveRecord", "CheckRecord", "CrashRecord", "DayRecord", "Departure",
           "NightRecord", "OnRecordRecord", "Recorded", "Refusal", "RoleAct", "SaveRecord", "VoteRound",
           "new_night", "notation", "protocol"]


@dataclass(frozen=True, slots=True)
class Departure:
    """How a seat left the game (``how``: voted out, the car crash, removed, a night's kill as
    the ruleset names it) and in which night or day: the protocol's seat ``out``."""

    how: Exit
    phase: Phase

    @property
    def night(self) -> int | None:
        """The night it left in (None: it left at day)."""
        return self.phase.number if self.phase.is_night else None

    @property
    def day(self) -> int | None:
        """The day it left in (None: it left at night)."""
        return self.phase.number if self.phase.is_day else None

    def to_json(self) -> dict[str, Any]:
        return {"how": self.how, self.phase.time: self.phase.number}


@dataclass(frozen=True, slots=True)
class Refusal:
    """One seat's input the rules refused (a second hand in a round, a second check, …), in
    the protocol's ``refused``; the event :class:`~narrator.engine.events.Refused` says it."""

    phase: Phase
    seat: int | None
    kind: str
    target: int | None
    reason: Reason

    def to_json(self) -> dict[str, Any]:
        return {"phase": str(self.phase), "seat": self.seat, "kind": self.kind,
                "target": self.target, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class BestMoveRecord:
    """The club option's best move: the first-night victim on ``seat`` named ``named``, of
    whom ``black_named`` are the mafia's."""

    seat: int
    named: tuple[int, ...]
    black_named: int

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "named": list(self.named), "black_named": self.black_named}


@dataclass(slots=True)
class OnRecordRecord:
    """The colours left on record (6.7) in one speech: the ``seat`` that spoke a ``speech``
    of that kind on ``day``, and each seat he named with its colour, in the order named (a
    seat named again takes its last colour). Public: the table heard them said."""

    seat: int
    day: int
    speech: str
    colours: dict[int, Colour]
    serial: int  # the speech's wait (not in the protocol: the game's own count)

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "day": self.day, "speech": self.speech,
                "red": [x for x, c in self.colours.items() if c is Colour.RED],
                "black": [x for x, c in self.colours.items() if c is Colour.BLACK]}


@dataclass(frozen=True, slots=True)
class VoteRound:
    """One round of a day's vote (2.4): its candidates in ballot order and their counts."""

    candidates: tuple[int, ...]
    votes: Mapping[int, int]

    def to_json(self) -> dict[str, Any]:
        return {"candidates": list(self.candidates),
                "votes": {str(c): self.votes[c] for c in self.candidates}}


@dataclass(frozen=True, slots=True)
class CrashRecord:
    """The car crash's question (2.4.2): the hands for, the seats against, whether it passed."""

    votes_for: int
    against: int
    passed: bool

    def to_json(self) -> dict[str, Any]:
        return {"for": self.votes_for, "against": self.against, "passed": self.passed}


class DayRecord:
    """Protocol record of one day (docs/protocol.md)."""

    __slots__ = ("closed_by", "crash", "extra", "justified", "nominations", "number",
                 "opened_by", "out", "put_up", "rounds")

    def __init__(self, number: int, opened_by: int | None) -> None:
        self.number = number
        self.opened_by = opened_by
        #: the last seat that spoke in the discussion round the table (6.3.2 opens the next
        #: day from it; not in the protocol: the speeches' order tells it)
        self.closed_by: int | None = None
        self.nominations: list[int] = []
        self.rounds: list[VoteRound] = []
        self.crash: CrashRecord | None = None
        self.out: list[int] = []
        # what only some rulesets record, written in the day's order (a discussion's thumbs,
        # then the hands held up through it, then the vote's justifications)
        #: amateur: the thumbs that put each seat up, in order of first put-up (None: none)
        self.put_up: dict[int, int] | None = None
        #: vrn: the seats that held a hand up and spoke 30 s more, in order (None: none)
        self.extra: tuple[int, ...] | None = None
        #: vrn: the seats that justified themselves before a re-vote, in order
        self.justified: list[int] = []

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "day": self.number, "opened_by": self.opened_by,
            "nominations": list(self.nominations),
            "rounds": [r.to_json() for r in self.rounds],
            "crash": self.crash.to_json() if self.crash is not None else None,
            "out": list(self.out)}
        if self.put_up is not None:
            out["put_up"] = {str(x): c for x, c in self.put_up.items()}
        if self.extra is not None:
            out["extra"] = list(self.extra)
        if self.justified:
            out["justified"] = list(self.justified)
        return out


@dataclass(frozen=True, slots=True)
class RoleAct:
    """One act a role did at night, as the game took it: a check (its answer), a kill, a save
    (the seat saved, if any). ``step``: the serial of the step it was done in; ``night``: the
    night's number. Secret: for the acting role's own pad and the host."""

    step: int
    night: int  # the night's number (night 1 is the deal)
    role: Actor
    act: Act
    target: int
    result: bool | None = None  # a check's answer
    saved: int | None = None  # a save: whom it saved (None: nobody)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"night": self.night, "role": self.role, "act": self.act,
                               "target": self.target}
        if self.act is Act.CHECK:
            out["result"] = self.result
        elif self.act is Act.SAVE:
            out["saved"] = self.saved
        return out


@dataclass(frozen=True, slots=True)
class CheckRecord:
    """A night's check in the night's record: the seat checked and the host's answer."""

    target: int
    result: bool


@dataclass(frozen=True, slots=True)
class SaveRecord:
    """A night's save in the night's record: the seat picked and the seat saved (or None)."""

    target: int
    saved: int | None


#: one entry of a night's record as its steps write it, and its key in the protocol:
#: ("shot", None, "shot"), (CHECK, role, f"{role}_check"), (SAVE, role, f"{role}_save"),
#: (KILL, role, how the ruleset names the kill)
Slot = tuple[Literal["shot"], None, str] | tuple[Act, Actor, str]


class NightRecord:
    """The record of one night after the first (the protocol's ``nights``): the hunt's shot,
    each role's check, save and kill (by role). ``slots``:
    what its steps write, in their order — the protocol lists each, None until written."""

    __slots__ = ("checks", "kills", "number", "saves", "shot", "slots")

    def __init__(self, number: int, slots: tuple[Slot, ...]) -> None:
        self.number = number
        self.slots = slots
        self.shot: int | None = None  # the hunt's hit (2.1.2); None: a miss, or no hunt
        self.checks: dict[Actor, CheckRecord] = {}
        self.saves: dict[Actor, SaveRecord] = {}
        self.kills: dict[Actor, int] = {}  # the seat each role killed

    @property
    def hit(self) -> int | None:
        """The mafia's victim: the hunt's hit (2.1.2), or the seat the mafia killed where they
        wake to kill (vrn, with the don) — the protocol's ``shot``."""
        return self.shot if self.shot is not None else self.kills.get(Actor.MAFIA)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"night": self.number}
        for slot in self.slots:
            out[slot[2]] = self._slot_json(slot)
        return out

    def _slot_json(self, slot: Slot) -> Any:
        match slot:
            case ("shot", None, _):
                return self.shot
            case (Act.KILL, Actor() as role, _):
                return self.kills.get(role)
            case (Act.CHECK, Actor() as role, _):
                check = self.checks.get(role)
                return None if check is None else {"target": check.target,
                                                   "result": check.result}
            case (Act.SAVE, Actor() as role, _):
                save = self.saves.get(role)
                return None if save is None else {"target": save.target, "saved": save.saved}
        raise AssertionError(f"no such slot: {slot!r}")


#: each night's slots, by the night's steps: laid out once per steps (a ruleset makes each
#: shape of its nights once), kept with the steps it was made from
_LAYOUTS: dict[int, tuple[tuple[NightStep, ...], tuple[Slot, ...]]] = {}


def new_night(rules: Rules, steps: tuple[NightStep, ...], number: int) -> NightRecord:
    """The record of night ``number`` before its steps: every slot its steps write, in order,
    each empty until written (the protocol's ``nights``)."""
    layout = _LAYOUTS.get(id(steps))
    if layout is None or layout[0] is not steps:
        slots: dict[str, Slot] = {}  # by key: a key written twice is one entry, at its first
        for step in steps:
            for slot in _record_slots(rules, step):
                slots.setdefault(slot[2], slot)
        layout = _LAYOUTS[id(steps)] = (steps, tuple(slots.values()))
    return NightRecord(number, layout[1])


def _record_slots(rules: Rules, step: NightStep) -> tuple[Slot, ...]:
    """The slots a step writes into the night's record."""
    match step:
        case HuntStep():
            return (("shot", None, "shot"),)
        case Wake(role=role, acts=acts):
            return tuple((act, role, rules.kill_name(role) if act is Act.KILL
                          else f"{role}_{act}") for act in acts)
        case Announce() | Resolve():
            return ()
        case _:
            assert_never(step)


class Recorded(Protocol):
    """What the protocol and the notation read of a game's state."""

    rules: Rules
    seats: int
    roles: dict[int, Role]
    dealt: dict[str, str]
    out: dict[int, Departure]
    fouls: dict[int, int]
    tech_fouls: dict[int, int]
    refused: list[Refusal]
    days: list[DayRecord]
    nights: list[NightRecord]
    best_move: BestMoveRecord | None
    on_record: list[OnRecordRecord]
    marks: dict[int, Mark]
    winner: Team | None
    phase: Phase

    @property
    def candidates(self) -> tuple[int, ...]: ...

    def at_table(self, seat: int) -> bool: ...


def notation(game: Recorded, expect: w.Expect, *, secret: bool = True) -> str:
    """One line of state for tests and messages, e.g.
    ``crime-time d2:speech@4 SCCDcMCCCM noms=5,7``: phase, then one letter per seat
    (C civilian, S sheriff, M mafia, D don, H doctor, X maniac, K commissar, N nurse; lower
    case when out), then the candidates.

    ``secret=False`` is the public form, for everything shown to people: ``+`` for a seat
    at the table and ``-`` for one out, no roles (``crime-time d2:speech@4 ++++-+++++``).
    """
    if secret:
        seats = "".join(
            game.roles[s].letter.lower() if s in game.out else game.roles[s].letter
            for s in range(1, game.seats + 1)
        )
    else:
        # a seat shot tonight is at the table until the day tells it (2.1.2)
        seats = "".join("+" if game.at_table(s) else "-" for s in range(1, game.seats + 1))
    noms = ",".join(map(str, game.candidates)) or "-"
    return f"{game.rules.name} {_phase(game, expect)} {seats} noms={noms}"


def _phase(game: Recorded, e: w.Expect) -> str:
    """The notation's phase: the night or day, and the step it waits at."""
    match e:
        case w.Over():
            return f"over:{game.winner.value}" if game.winner else "over"
        case w.Speech(seat=seat, speech=speech):
            return f"{game.phase}:{speech}@{seat}"
        case w.Vote(candidate=cand):
            return f"{game.phase}:vote@{cand}"
        case w.Crash():
            return f"{game.phase}:crash"
        case w.NightAct(role=role) if e.checks:
            return f"{game.phase}:check-{role}"
        case w.PutUp(seat=seat):
            return f"{game.phase}:put_up@{seat}"
        case w.Pause() | w.Deal() | w.Hunt() | w.NightAct() | w.Floor() | w.Extra():
            return f"{game.phase}:{e.timer.name if e.timer else e.tag}"
        case _:
            assert_never(e)


def protocol(game: Recorded, names: dict[int, str]) -> dict[str, Any]:
    """The protocol (docs/protocol.md), without ``said`` (the host adds what it spoke);
    ``names``: the seats' nicknames."""
    out: dict[str, Any] = {
        "rules": game.rules.name,
        "rules_code": code_of(game.rules),  # the catalogue's code of the set played
        "winner": game.winner.value if game.winner else None,
        "seats": {str(s): _seat(game, names, s) for s in range(1, game.seats + 1)},
        **({"best_move": game.best_move.to_json() if game.best_move is not None else None}
           if game.rules.best_move else {}),
        **({"on_record": [r.to_json() for r in game.on_record]}
           if game.rules.on_record != "none" else {}),
        "days": [d.to_json() for d in game.days],
        "nights": [n.to_json() for n in game.nights],
        "refused": [r.to_json() for r in game.refused],
        **({"marks": marks_json(game.marks)} if game.marks else {}),  # the host's, after
    }
    out.update(game.dealt)  # what was dealt besides the cards (the maniac's side)
    return out


def _seat(game: Recorded, names: dict[int, str], seat: int) -> dict[str, Any]:
    left = game.out.get(seat)
    record: dict[str, Any] = {"role": game.roles[seat].value,
                              "out": left.to_json() if left is not None else None,
                              "fouls": game.fouls.get(seat, 0)}
    if game.rules.tech_fouls == "yes":  # 9.6.2: counted apart from the fouls
        record["tech_fouls"] = game.tech_fouls.get(seat, 0)
    if seat in names:
        record["name"] = names[seat]
    return record
