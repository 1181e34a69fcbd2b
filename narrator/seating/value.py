"""A seating plan as every format carries it: who the players are and who sits where.

A :class:`Seating` is a plan (``rounds → tables → ten seats → player index``, 0-based, as
:mod:`narrator.seating.score` takes it), the players' nicknames and MafiaRatings ids by index,
and the groups kept apart. :func:`seating` builds one from what a reader found and checks it as
MafiaRatings would (every table ten, nobody twice in a round, equal games): a fault is one
NarratorError naming the file.

The formats that know players by index only (MafiaRatings, a web_schedule file without its
players) name them from a roster (``(nickname, id)`` pairs, read by the command) or «Игрок N».
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from narrator.errors import NarratorError
from narrator.seating.score import MAX_PLAYERS as MAX_PLAYERS  # (the plan's, re-exported)
from narrator.seating.score import SEATS, Plan, PlanError, Shape, check

Rounds = tuple[tuple[tuple[int, ...], ...], ...]
#: a roster as the readers take it: (nickname, MafiaRatings id or None), in the file's order
Roster = Sequence[tuple[str, int | None]]
#: the name of a player a file knows by number only (1-based)
UNNAMED = "Игрок {}"


def unnamed(index: int) -> str:
    return UNNAMED.format(index + 1)


def key_of(name: str) -> str:
    """How nicknames are matched: letter case and repeated spaces aside."""
    return " ".join(name.split()).casefold()


@dataclass(frozen=True)
class Seating:
    """A tournament's seating: ``rounds`` of tables of ten player indices, each player's
    nickname (``names``) and MafiaRatings id (``ids``, None: unknown), the groups kept apart."""

    names: tuple[str, ...]
    rounds: Rounds
    ids: tuple[int | None, ...]
    apart: tuple[frozenset[int], ...] = field(default=())

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def tables(self) -> int:
        return len(self.rounds[0])

    @property
    def games(self) -> int:
        """Games a player (equal for all: :func:`seating` checked it)."""
        return len(self.rounds) * self.tables * SEATS // self.players

    def shape(self) -> Shape:
        return Shape(self.players, self.tables, self.games, self.apart)

    def named_rounds(self) -> list[list[list[str]]]:
        """The plan in nicknames: what stays the same whatever the players' order."""
        return [[[self.names[p] for p in table] for table in rnd] for rnd in self.rounds]


def frozen(plan: Plan) -> Rounds:
    return tuple(tuple(tuple(table) for table in rnd) for rnd in plan)


def seating(where: str, plan: Plan, names: Sequence[str],
            ids: Sequence[int | None] | None = None,
            apart: Iterable[Iterable[int]] = ()) -> Seating:
    """The checked Seating; NarratorError ``WHERE: the first fault``."""
    if not plan or not plan[0]:
        raise NarratorError(f"{where}: the plan has no round")
    if len(names) > MAX_PLAYERS:
        raise NarratorError(f"{where}: {len(names):,} players; a plan seats at most "
                            f"{MAX_PLAYERS:,}")
    try:
        check(plan, len(names), len(plan[0]))
    except PlanError as e:
        raise NarratorError(f"{where}: {e}") from None
    ids = [None] * len(names) if ids is None else list(ids)
    if len(ids) != len(names):
        raise NarratorError(f"{where}: {len(ids)} ids for {len(names)} players")
    owner: dict[int, int] = {}
    for i, number in enumerate(ids):
        if number is not None and owner.setdefault(number, i) != i:
            raise NarratorError(f"{where}: the MafiaRatings id {number} twice (players "
                                f"{owner[number] + 1} and {i + 1})")
    seen: dict[str, int] = {}
    for i, name in enumerate(names):
        if not name.strip():
            raise NarratorError(f"{where}: player {i + 1} has an empty nickname")
        if key_of(name) in seen:
            raise NarratorError(f"{where}: the nickname «{name}» twice (players "
                                f"{seen[key_of(name)] + 1} and {i + 1})")
        seen[key_of(name)] = i
    groups = tuple(frozenset(g) for g in apart)
    for g in groups:
        if len(g) < 2 or not all(0 <= p < len(names) for p in g):
            raise NarratorError(f"{where}: a group kept apart needs two players or more of "
                                f"the plan's {len(names)}")
    return Seating(tuple(names), frozen(plan), tuple(ids), groups)


def players_in(plan: Plan, name: str, at_least: int = 0) -> int:
    """The players a plan of indices seats: its highest index and one (or ``at_least``, what
    the file says); NarratorError when there are more than its seats or :data:`MAX_PLAYERS`
    (before a list of them is made)."""
    top = max((p for rnd in plan for table in rnd for p in table), default=-1)
    players = max(top + 1, at_least)
    seats = sum(len(table) for rnd in plan for table in rnd)
    if players > MAX_PLAYERS:
        raise NarratorError(f"{name}: {players:,} players; a plan seats at most "
                            f"{MAX_PLAYERS:,}")
    if players > seats:
        raise NarratorError(f"{name}: {players:,} players but {seats:,} seats in the plan: "
                            f"not everybody plays")
    return players


def ids_by_name(names: Sequence[str], ids: Sequence[int | None] | None,
                roster: Roster) -> list[int | None]:
    """Each player's id: the file's, else the roster's line of the same nickname."""
    known = {key_of(n): i for n, i in roster if i is not None}
    given = list(ids) if ids is not None else [None] * len(names)
    return [i if i is not None else known.get(key_of(n)) for n, i in zip(names, given,
                                                                           strict=True)]


def names_by_id(ids: Sequence[int | None], names: Sequence[str | None],
                roster: Roster) -> list[str]:
    """Each player's nickname: the file's, else the roster's line of the same id, else
    «Игрок N»."""
    known = {i: n for n, i in roster if i is not None}
    out = []
    for index, (i, name) in enumerate(zip(ids, names, strict=True)):
        if name is None and i is not None:
            name = known.get(i)
        out.append(name if name is not None else unnamed(index))
    return out
