"""The narrator's own seating files: the plan in JSON (what ``narrator tournament plan``
writes) and in CSV (one seat a line, for a spreadsheet).

JSON::

    {"plan": 1, "players": ["Ника", …], "ids": [1234, null, …], "tables": 2, "games": 10,
     "apart": [["Ника", "Бублик"]], "seed": 7,
     "rounds": [[["Ника", …ten], [… the second table]], … a round each],
     "score": {…}}

``ids`` (MafiaRatings user ids, null: none), ``seed`` and ``score`` may be left out; ``score`` is
what the writer measured and is not read back. CSV: the header ``round,table,seat,player``,
then a line a seat, rounds, tables and seats counted from 1.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping
from typing import Any

from narrator.errors import NarratorError
from narrator.seating import fields as f
from narrator.seating.score import SEATS, Score
from narrator.seating.value import Roster, Seating, ids_by_name, key_of, seating

VERSION = 1
CSV_HEADER = ("round", "table", "seat", "player")


# -- JSON ---------------------------------------------------------------------------------------

def to_ours_json(plan: Seating, *, seed: int | None = None,
                 score: Score | Mapping[str, Any] | None = None) -> str:
    """The plan file's text: a key a line, a table of each round a line."""
    head: dict[str, Any] = {"plan": VERSION, "players": list(plan.names)}
    if any(i is not None for i in plan.ids):
        head["ids"] = list(plan.ids)
    head.update(tables=plan.tables, games=plan.games,
                apart=[[plan.names[p] for p in sorted(g)] for g in plan.apart])
    if seed is not None:
        head["seed"] = seed
    lines = [f"{json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in head.items()]
    rounds = ",\n".join(" " + json.dumps(rnd, ensure_ascii=False) for rnd in plan.named_rounds())
    lines.append(f'"rounds": [\n{rounds}\n]')
    if score is not None:
        value = score.to_json() if isinstance(score, Score) else dict(score)
        lines.append(f'"score": {json.dumps(value, ensure_ascii=False)}')
    return "{" + ",\n".join(lines) + "}\n"


def read_ours_json(doc: Any, name: str, roster: Roster = ()) -> Seating:
    """The Seating in a parsed plan file; NarratorError naming the file and the field."""
    doc = f.obj(doc, name, "the plan")
    if doc.get("plan") != VERSION:
        raise f.fault(name, "plan", f"{f.shown(doc.get('plan'))} is not {VERSION} (a plan "
                                    f"file has \"plan\": {VERSION})")
    names = [f.text(p, name, f"players: {i + 1}")
             for i, p in enumerate(f.array(doc.get("players"), name, "players"))]
    index = {key_of(n): i for i, n in enumerate(names)}
    ids = None
    if doc.get("ids") is not None:
        ids = [None if i is None else f.whole(i, name, f"ids: {n + 1}", 1)
               for n, i in enumerate(f.array(doc["ids"], name, "ids"))]
        if len(ids) != len(names):
            raise f.fault(name, "ids", f"{len(ids)} ids for {len(names)} players")
    rounds = [[[_player(p, index, name, f"rounds: {f.seat_where(r, t, s)}")
                for s, p in enumerate(f.array(table, name, f"rounds: {f.seat_where(r, t)}"))]
               for t, table in enumerate(f.array(rnd, name, f"rounds: round {r + 1}"))]
              for r, rnd in enumerate(f.array(doc.get("rounds"), name, "rounds"))]
    apart = [[_player(p, index, name, f"apart: group {g + 1}")
              for p in f.array(group, name, f"apart: group {g + 1}")]
             for g, group in enumerate(f.array(doc.get("apart", []), name, "apart"))]
    plan = seating(name, rounds, names, ids_by_name(names, ids, roster), apart)
    for key, real in (("tables", plan.tables), ("games", plan.games)):
        if key in doc and f.whole(doc[key], name, key, 1) != real:
            raise f.fault(name, key, f"{doc[key]}, but the rounds have {real}")
    return plan


def _player(value: Any, index: dict[str, int], name: str, where: str) -> int:
    nick = f.text(value, name, where)
    if key_of(nick) not in index:
        raise f.fault(name, where, f"«{nick}» is not one of the players")
    return index[key_of(nick)]


# -- CSV ----------------------------------------------------------------------------------------

def to_ours_csv(plan: Seating) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_HEADER)
    for r, rnd in enumerate(plan.rounds, start=1):
        for t, table in enumerate(rnd, start=1):
            for s, p in enumerate(table, start=1):
                writer.writerow((r, t, s, plan.names[p]))
    return out.getvalue()


def _number(value: str, name: str, line: int, what: str, top: int | None = None) -> int:
    value = value.strip()
    if not value.isascii() or not value.isdigit() or int(value) < 1 or len(value) > 6 or (
            top is not None and int(value) > top):
        upto = f"1–{top}" if top else "a whole number from 1"
        raise NarratorError(f"{name}:{line}: {what}: {f.shown(value)} is not {upto}")
    return int(value)


def _csv_rows(text: str, name: str) -> list[tuple[int, int, int, int, str]]:
    """(line, round, table, seat, nickname) of each seat line, every field checked."""
    reader = csv.reader(io.StringIO(text.removeprefix("\ufeff")), strict=True)
    rows: list[tuple[int, int, int, int, str]] = []
    header = False
    try:
        for row in reader:
            line = reader.line_num
            if not any(cell.strip() for cell in row):
                continue
            if not header:
                if tuple(c.strip().lower() for c in row) != CSV_HEADER:
                    raise NarratorError(f"{name}:{line}: the header is not "
                                        f"{','.join(CSV_HEADER)}")
                header = True
                continue
            if len(row) != len(CSV_HEADER):
                raise NarratorError(f"{name}:{line}: {len(row)} fields, not 4 "
                                    f"({','.join(CSV_HEADER)})")
            r = _number(row[0], name, line, "round")
            t = _number(row[1], name, line, "table")
            s = _number(row[2], name, line, "seat", SEATS)
            if not row[3].strip():
                raise NarratorError(f"{name}:{line}: player: empty")
            rows.append((line, r, t, s, row[3].strip()))
    except csv.Error as e:
        raise NarratorError(f"{name}:{reader.line_num}: not CSV ({e})") from None
    return rows


def read_ours_csv(text: str, name: str, roster: Roster = ()) -> Seating:
    """The Seating in a CSV plan; NarratorError ``FILE:LINE: field: what is wrong``."""
    places: dict[tuple[int, int, int], int] = {}  # (round, table, seat) → its line
    sits: dict[tuple[int, str], int] = {}  # (round, nickname) → its line
    index: dict[str, int] = {}
    names: list[str] = []
    grid: dict[tuple[int, int, int], int] = {}
    for line, r, t, s, nick in _csv_rows(text, name):
        if (r, t, s) in places:
            raise NarratorError(f"{name}:{line}: seat: round {r}, table {t}, seat {s} is "
                                f"given twice (line {places[r, t, s]} too)")
        if (r, key_of(nick)) in sits:
            raise NarratorError(f"{name}:{line}: player: «{nick}» sits twice in round {r} "
                                f"(line {sits[r, key_of(nick)]} too)")
        places[r, t, s] = sits[r, key_of(nick)] = line
        if key_of(nick) not in index:
            index[key_of(nick)] = len(names)
            names.append(nick)
        grid[r, t, s] = index[key_of(nick)]
    return seating(name, _grid_plan(grid, name), names, ids_by_name(names, None, roster))


def _grid_plan(grid: dict[tuple[int, int, int], int], name: str) -> list[list[list[int]]]:
    """The plan of (round, table, seat) → player: every round and table there, and ten
    seats at each."""
    if not grid:
        raise NarratorError(f"{name}: no seat lines (round,table,seat,player)")
    rounds = max(r for r, _, _ in grid)
    tables = max(t for _, t, _ in grid)
    plan: list[list[list[int]]] = []
    for r in range(1, rounds + 1):
        plan.append([])
        for t in range(1, tables + 1):
            missing = [s for s in range(1, SEATS + 1) if (r, t, s) not in grid]
            if missing:
                raise NarratorError(f"{name}: round {r}, table {t}: no line for seat "
                                    f"{missing[0]}" + (f" (and {len(missing) - 1} more)"
                                                       if len(missing) > 1 else ""))
            plan[-1].append([grid[r, t, s] for s in range(1, SEATS + 1)])
    return plan
