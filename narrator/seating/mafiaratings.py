"""MafiaRatings' seatings: what its ``api/get/seating.php`` answers and what an event keeps.

MafiaRatings knows players by index (0-based) and user id only:

* the API's answer: ``{"seating": [round][table][seat] = index, "status": "ok",
  "seating_version": "P.T.N"}`` (status and version are not read);
* an event's seating (its ``misc.seating``): ``{"hash": "N_T_G[_group…]", "rounds":
  [round][table][seat] = index, "mapping": [index → user id, 0: nobody yet]}``; a mapping entry
  may also be an object with ``id`` and ``name`` (as the site keeps a guest);
* a bare ``[round][table][seat]`` array.

The hash is built as ``SeatingDef::generateHash`` builds it: ``players_tables_games``, then
``_`` and each group kept apart (from 12 players), its sorted indices with runs of consecutive
ones written ``a-b`` and the rest joined by ``:`` (``20_2_10_0-2_5:9``), groups that would
take the hash past 255 characters left out. (MafiaRatings renumbers the players so that the
groups come first before it stores a seating of its own; a hash written here keeps this plan's
numbers, which is what the plan's ``rounds`` and ``mapping`` mean.)
"""

from __future__ import annotations

import json
from typing import Any

from narrator.errors import NarratorError
from narrator.seating import fields as f
from narrator.seating.score import APART_FROM, Shape
from narrator.seating.value import Roster, Seating, names_by_id, players_in, seating

#: MafiaRatings keeps the hash in a VARCHAR(255)
HASH_LIMIT = 255


def group_text(group: list[int]) -> str:
    """``[0, 1, 2, 5, 9]`` → ``0-2:5:9``."""
    parts: list[str] = []
    i = 0
    while i < len(group):
        start = i
        while i + 1 < len(group) and group[i + 1] == group[i] + 1:
            i += 1
        parts.append(str(group[start]) + (f"-{group[i]}" if i > start else ""))
        i += 1
    return ":".join(parts)


def hash_of(shape: Shape) -> str:
    out = f"{shape.players}_{shape.tables}_{shape.games}"
    if shape.players < APART_FROM:
        return out
    for group in shape.apart:
        part = group_text(sorted(group))
        if len(out) + 1 + len(part) > HASH_LIMIT:
            break
        out += "_" + part
    return out


def parse_hash(value: Any, name: str) -> tuple[int, int, int, list[list[int]]]:
    """(players, tables, games, the groups kept apart) of a hash."""
    if not isinstance(value, str):
        raise f.fault(name, "hash", f"{f.shown(value)} is not players_tables_games")
    parts = value.split("_")
    try:
        n, t, g = (int(p) for p in parts[:3])
        groups = [[p for seg in part.split(":") for p in _segment(seg)] for part in parts[3:]]
    except ValueError:
        raise f.fault(name, "hash", f"{f.shown(value)} is not players_tables_games"
                                    f"[_group…]") from None
    return n, t, g, groups if n >= APART_FROM else []


def _segment(text: str) -> range:
    low, _, high = text.partition("-")
    if not (low.isdigit() and (not high or high.isdigit())):
        raise ValueError(text)
    return range(int(low), int(high or low) + 1)


def to_mafiaratings(plan: Seating) -> str:
    """An event's seating, as MafiaRatings keeps it (a round a line)."""
    rounds = ",\n".join(" " + json.dumps([list(t) for t in rnd]) for rnd in plan.rounds)
    mapping = [0 if i is None else i for i in plan.ids]
    return (f'{{"hash": {json.dumps(hash_of(plan.shape()))},\n"rounds": [\n{rounds}\n],\n'
            f'"mapping": {json.dumps(mapping)}}}\n')


def read_mafiaratings(doc: Any, name: str, roster: Roster = ()) -> Seating:
    """The Seating of any of MafiaRatings' forms; names from the mapping's objects, else the
    roster's line of the player's id, else «Игрок N»."""
    if isinstance(doc, dict) and isinstance(doc.get("seating"), dict):
        doc = doc["seating"]  # an event's whole misc
    if isinstance(doc, list):
        doc = {"rounds": doc}
    doc = f.obj(doc, name, "the seating")
    field = "seating" if "seating" in doc else "rounds"
    if field not in doc:
        raise NarratorError(f"{name}: neither \"seating\" nor \"rounds\": not a MafiaRatings "
                            f"seating")
    plan = f.index_plan(doc[field], name, field)
    players = players_in(plan, name)
    apart: list[list[int]] = []
    declared = None
    if "hash" in doc:
        *declared, apart = parse_hash(doc["hash"], name)
        if plan and plan[0] and declared[:2] != [players, len(plan[0])]:
            raise _hash_fault(name, doc["hash"], declared, [players, len(plan[0]), None])
    ids, names = _mapping(doc.get("mapping"), players, name)
    made = seating(name, plan, names_by_id(ids, names, roster), ids, apart)
    if declared is not None and declared[2] != made.games:
        raise _hash_fault(name, doc["hash"], declared, [made.players, made.tables, made.games])
    return made


def _hash_fault(name: str, value: str, declared: list[int],
                real: list[int | None]) -> NarratorError:
    has = ", ".join("?" if v is None else str(v) for v in real)
    return f.fault(name, "hash", f"{value} says {declared[0]} players, {declared[1]} tables, "
                                 f"{declared[2]} games; the plan has {has}")


def _mapping(value: Any, players: int,
             name: str) -> tuple[list[int | None], list[str | None]]:
    """Each index's user id (None: 0 or none) and name (an object's ``name``)."""
    ids: list[int | None] = [None] * players
    names: list[str | None] = [None] * players
    if value is None:
        return ids, names
    entries = f.array(value, name, "mapping")
    if len(entries) > players:
        raise f.fault(name, "mapping", f"{len(entries)} entries for {players} players")
    for i, entry in enumerate(entries):
        where = f"mapping: {i}"
        if isinstance(entry, dict):
            if entry.get("name") is not None:
                names[i] = f.text(entry["name"], name, f"{where}: name")
            entry = entry.get("id", 0)
        ids[i] = f.whole(entry, name, where) or None
    return ids, names
