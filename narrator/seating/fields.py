"""Reading the fields of a seating file: each wrong one is a NarratorError naming the file and
the field (``plan.json: rounds: round 2, table 1: 9 seats, not 10``)."""

from __future__ import annotations

import json
from typing import Any

from narrator.errors import NarratorError
from narrator.reading import BadJSON, loads


def load_json(text: str, name: str) -> Any:
    """The JSON of a file; NarratorError ``FILE:LINE: bad JSON (…)``."""
    try:
        json.loads(text)
    except json.JSONDecodeError as e:  # (for the line: the strict reader does not keep it)
        raise NarratorError(f"{name}:{e.lineno}: bad JSON ({e.msg})") from None
    except (ValueError, RecursionError):
        pass  # the strict reader says what it is
    try:
        return loads(text)
    except BadJSON as e:
        raise NarratorError(f"{name}: {e}") from None


def fault(name: str, where: str, what: str) -> NarratorError:
    return NarratorError(f"{name}: {where}: {what}")


def shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "…"


def whole(value: Any, name: str, where: str, low: int = 0) -> int:
    """A whole number from ``low`` (JSON's true and false are none)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise fault(name, where, f"{shown(value)} is not a whole number from {low}")
    return value


def array(value: Any, name: str, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise fault(name, where, f"{shown(value)} is not an array")
    return value


def obj(value: Any, name: str, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise fault(name, where, f"{shown(value)} is not an object")
    return value


def text(value: Any, name: str, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise fault(name, where, f"{shown(value)} is not a nickname")
    return value


def seat_where(r: int, t: int, s: int | None = None) -> str:
    """A place in the plan as people count: from 1."""
    place = f"round {r + 1}, table {t + 1}"
    return place if s is None else f"{place}, seat {s + 1}"


def index_plan(value: Any, name: str, field: str) -> list[list[list[int]]]:
    """``[round][table][seat]`` of 0-based player indices (MafiaRatings, a bare plan)."""
    plan: list[list[list[int]]] = []
    for r, rnd in enumerate(array(value, name, field)):
        tables: list[list[int]] = []
        for t, table in enumerate(array(rnd, name, f"{field}: round {r + 1}")):
            seats = array(table, name, f"{field}: {seat_where(r, t)}")
            tables.append([whole(p, name, f"{field}: {seat_where(r, t, s)}")
                           for s, p in enumerate(seats)])
        plan.append(tables)
    return plan
