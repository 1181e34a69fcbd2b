"""The record of a game: the typed day records and night acts, the protocol and the notation.

The protocol (docs/protocol.md) is the record as JSON: the seats with their cards, what became
of them and their fouls; each day (its nominations, rounds, car crash, who left); each night
(the shot, the checks, the kills and saves, keyed by role); the refusals. The notation is one
line of state for tests and messages. Both read the game's state through :class:`Recorded`
(what every :class:`~narrator.engine.state.State` has), so this module needs no other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Protocol

from narrator.engine import waits as w
from narrator.engine.rules import Rules
from narrator.engine.steps import Hunt, NightStep, Wake
from narrator.engine.types import Role, Team

__all__ = ["DayRecord", "NightAct", "Recorded", "new_night", "notation", "protocol"]


class DayRecord:
    """Protocol record of one day (docs/protocol.md)."""

    def __init__(self, number: int, opened_by: int | None) -> None:
        self.number = number
        self.opened_by = opened_by
        self.nominations: list[int] = []
        self.rounds: list[dict[str, Any]] = []
        self.crash: dict[str, Any] | None = None
        self.out: list[int] = []
        #: what only some rulesets record (put_up, extra, justified, stays)
        self.extra: dict[str, Any] = {}

    def to_json(self) -> dict[str, Any]:
        out = {"day": self.number, "opened_by": self.opened_by,
               "nominations": list(self.nominations), "rounds": self.rounds,
               "crash": self.crash, "out": list(self.out)}
        if self.extra:
            out.update(self.extra)
        return out


@dataclass(frozen=True, slots=True)
class NightAct:
    """One act a role did at night, as the game took it: a check (its answer), a kill, a save
    (the seat saved, if any). ``step``: the serial of the step it was done in; ``night``: the
    night's number. Secret: for the acting role's own pad and the host."""

    step: int
    night: int  # the night's number (night 1 is the deal)
    role: str
    act: Literal["check", "kill", "save"]
    target: int
    result: bool | None = None  # a check's answer
    saved: int | None = None  # a save: whom it saved (None: nobody)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"night": self.night, "role": self.role, "act": self.act,
                               "target": self.target}
        if self.act == "check":
            out["result"] = self.result
        elif self.act == "save":
            out["saved"] = self.saved
        return out


#: each night's record with its keys in order, by the night's steps: laid out once per steps
#: (a ruleset makes each shape of its nights once), kept with the steps it was made from
_LAYOUTS: dict[int, tuple[tuple[NightStep, ...], dict[str, Any]]] = {}


def new_night(rules: Rules, steps: tuple[NightStep, ...], number: int) -> dict[str, Any]:
    """The record of night ``number`` before its steps: every key its steps write, in order,
    each None until written (the protocol's ``nights``)."""
    layout = _LAYOUTS.get(id(steps))
    if layout is None or layout[0] is not steps:
        keys: dict[str, Any] = {"night": None}
        for step in steps:
            keys.update(dict.fromkeys(_record_keys(rules, step)))
        layout = _LAYOUTS[id(steps)] = (steps, keys)
    record = dict(layout[1])
    record["night"] = number
    return record


def _record_keys(rules: Rules, step: NightStep) -> tuple[str, ...]:
    """The keys a step writes into the night's record."""
    if isinstance(step, Hunt):
        return ("shot",)
    if not isinstance(step, Wake):
        return ()
    keys = {"check": f"{step.role}_check", "save": f"{step.role}_save",
            "kill": rules.kill_name(step.role)}
    return tuple(keys[act] for act in step.acts)


class Recorded(Protocol):
    """What the protocol and the notation read of a game's state."""

    rules: Rules
    seats: int
    roles: dict[int, Role]
    dealt: dict[str, str]
    out: dict[int, dict[str, Any]]
    fouls: dict[int, int]
    refused: list[dict[str, Any]]
    days: list[DayRecord]
    nights: list[dict[str, Any]]
    best_move: dict[str, Any] | None
    winner: Team | None
    phase: str

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
        case _:
            return f"{game.phase}:{e.timer.name if e.timer else e.tag}"


def protocol(game: Recorded, names: dict[int, str]) -> dict[str, Any]:
    """The protocol (docs/protocol.md), without ``said`` (the host adds what it spoke);
    ``names``: the seats' nicknames."""
    out: dict[str, Any] = {
        "rules": game.rules.name,
        "winner": game.winner.value if game.winner else None,
        "seats": {str(s): _seat(game, names, s) for s in range(1, game.seats + 1)},
        **({"best_move": game.best_move} if game.rules.best_move else {}),
        "days": [d.to_json() for d in game.days],
        "nights": [dict(n) for n in game.nights],
        "refused": list(game.refused),
    }
    out.update(game.dealt)  # what was dealt besides the cards (the maniac's side)
    return out


def _seat(game: Recorded, names: dict[int, str], seat: int) -> dict[str, Any]:
    record: dict[str, Any] = {"role": game.roles[seat].value, "out": game.out.get(seat),
                              "fouls": game.fouls.get(seat, 0)}
    if seat in names:
        record["name"] = names[seat]
    return record
