"""What an evening or a tournament keeps of the club's scoring: the flat ``[points]`` table
(:class:`Points`) and the system that scores (:class:`ScoringSpec`) — typed values, written to
``evening.json`` and the tournament's database and read back with a one-line error naming the
file and the field.

A spec is a built-in system by name (``fiim`` — FIIM at its latest version —, ``fiim@N``,
``points``) or a MafiaRatings scoring JSON kept whole, so that the evening scores the same
when the club's file moves or changes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any

from narrator.errors import NarratorError
from narrator.scoring.system import (
    KNOWN,
    POINTS_DEFAULTS,
    ScoringSystem,
    built_in,
    from_json,
    points_table_system,
)

#: the flat table's points are within this (a typo of 1000 is refused, not scored)
BOUND = 100.0


@dataclass(frozen=True, slots=True)
class Points:
    """The club's flat ``[points]`` table: a win, a loss, each black seat a best move named,
    each foul, a removal."""

    win: float = POINTS_DEFAULTS["win"]
    loss: float = POINTS_DEFAULTS["loss"]
    best_move_black: float = POINTS_DEFAULTS["best_move_black"]
    foul: float = POINTS_DEFAULTS["foul"]
    removal: float = POINTS_DEFAULTS["removal"]

    @classmethod
    def of(cls, table: object, where: str) -> Points:
        """The table ``[points]`` (``where``: "club.toml: points"); the defaults for what it
        leaves out; NarratorError naming ``where`` and the key."""
        if not isinstance(table, Mapping):
            raise NarratorError(f"{where}: expected a table ([points])")
        known = [f.name for f in fields(cls)]
        values: dict[str, float] = {}
        for key, value in table.items():
            if key not in known:
                raise NarratorError(f"{where}.{key}: unknown (known: {', '.join(known)})")
            if isinstance(value, bool) or not isinstance(value, int | float) or \
                    not -BOUND <= value <= BOUND:
                raise NarratorError(f"{where}.{key}: expected a number from {-BOUND:g} to "
                                    f"{BOUND:g}, got {str(value)[:40]!r}")
            values[key] = float(value)
        return cls(**values)

    def as_dict(self) -> dict[str, float]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class ScoringSpec:
    """The system that scores: ``name`` a built-in one's, or (with ``json``) the name a
    MafiaRatings JSON goes by; ``json`` that JSON, kept whole."""

    name: str = "points"
    json: Mapping[str, Any] | None = None

    @property
    def is_points(self) -> bool:
        return self.json is None and self.name == "points"

    def system(self, points: Points | None = None, where: str = "scoring") -> ScoringSystem:
        """The system itself (``points``: the flat table the ``points`` system scores by)."""
        if self.json is not None:
            return from_json(dict(self.json), where, self.name)
        if self.is_points:
            return points_table_system((points or Points()).as_dict())
        found = built_in(self.name)
        if found is None:
            raise NarratorError(f"{where}: {self.name!r} is unknown (known: {KNOWN})")
        return found

    def shown(self) -> str:
        """The name the pages and the results show (``fiim`` as its version: ``fiim@7``)."""
        return self.system().name if self.json is None and not self.is_points else self.name

    def to_kept(self) -> dict[str, Any]:
        """As ``evening.json`` and the tournament's database keep it."""
        if self.json is not None:
            return {"name": self.name, "json": dict(self.json)}
        return {"system": self.name}

    @classmethod
    def from_kept(cls, raw: object, where: str) -> ScoringSpec:
        """A kept spec (:meth:`to_kept`; ``{}`` — an evening before specs were kept — is the
        ``points`` system); NarratorError naming ``where`` and the field."""
        if not isinstance(raw, Mapping):
            raise NarratorError(f"{where}: expected an object")
        if "json" in raw:
            name = raw.get("name", "club")
            if not isinstance(name, str) or not name:
                raise NarratorError(f"{where}.name: expected a text")
            if not isinstance(raw["json"], Mapping):
                raise NarratorError(f"{where}.json: expected a MafiaRatings scoring object")
            spec = cls(name, dict(raw["json"]))
        else:
            name = raw.get("system", "points")
            if not isinstance(name, str) or (name != "points" and built_in(name) is None):
                raise NarratorError(f"{where}.system: {str(name)[:40]!r} is unknown "
                                    f"(known: {KNOWN})")
            spec = cls(name)
        spec.system(where=where)  # every check of the JSON now, with its one line
        return spec


#: the flat table's defaults, and the spec of the ``points`` system (no club's system)
DEFAULT_POINTS = Points()
POINTS_SPEC = ScoringSpec()
