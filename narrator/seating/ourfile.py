"""Our own plan files: ``PLAN.json`` (the plan with what it was made for) and ``PLAN.csv``.

The JSON::

    {"plan": 1, "players": [nickname…], "tables": T, "games": G, "apart": [[nickname…]…],
     "seed": S, "rounds": [[[nickname ×10] per table] per round], "score": {…},
     "mafiaratings_ids": {nickname: id}}

(``mafiaratings_ids`` only for the players the roster gave one). The CSV has a line a seat,
``round,table,seat,player``, rounds, tables and seats counted from 1.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping, Sequence

from narrator.seating.score import Plan, Shape, score

VERSION = 1


def to_json(plan: Plan, names: Sequence[str], shape: Shape, seed: int,
            ids: Mapping[str, int] | None = None) -> str:
    """The plan as our JSON (players by nickname)."""
    doc: dict[str, object] = {
        "plan": VERSION, "players": list(names), "tables": shape.tables, "games": shape.games,
        "apart": [[names[p] for p in sorted(group)] for group in shape.apart], "seed": seed,
        "rounds": [[[names[p] for p in table] for table in rnd] for rnd in plan],
        "score": score(plan, shape).to_json()}
    if ids:
        doc["mafiaratings_ids"] = {n: ids[n] for n in names if n in ids}
    return json.dumps(doc, ensure_ascii=False, indent=1) + "\n"


def to_csv(plan: Plan, names: Sequence[str]) -> str:
    """The plan as CSV, a line a seat."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(("round", "table", "seat", "player"))
    for r, rnd in enumerate(plan, start=1):
        for t, table in enumerate(rnd, start=1):
            for s, p in enumerate(table, start=1):
                writer.writerow((r, t, s, names[p]))
    return out.getvalue()
