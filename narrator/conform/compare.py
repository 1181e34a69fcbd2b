"""Two protocols, compared key by key: the first path where they differ."""

from __future__ import annotations

import json
from typing import Any

_SHOWN = 60


def first_difference(left: Any, right: Any, path: str = "") -> tuple[str, Any, Any] | None:
    """(key path, left value, right value) where ``left`` and ``right`` first differ, in the
    order of ``left``'s keys (then ``right``'s); None when they are equal."""
    if isinstance(left, dict) and isinstance(right, dict):
        for key in [*left, *(k for k in right if k not in left)]:
            here = f"{path}.{key}" if path else str(key)
            if key not in left or key not in right:
                return here, left.get(key, MISSING), right.get(key, MISSING)
            found = first_difference(left[key], right[key], here)
            if found is not None:
                return found
        return None
    if isinstance(left, list) and isinstance(right, list):
        for i, (a, b) in enumerate(zip(left, right, strict=False)):
            found = first_difference(a, b, f"{path}[{i}]")
            if found is not None:
                return found
        if len(left) != len(right):
            i = min(len(left), len(right))
            return (f"{path}[{i}]", left[i] if i < len(left) else MISSING,
                    right[i] if i < len(right) else MISSING)
        return None
    if left == right and type(left) is type(right):
        return None
    return path, left, right


class MISSINGType:
    def __repr__(self) -> str:
        return "(missing)"


MISSING: Any = MISSINGType()


def shown(value: Any) -> str:
    """A value as one short line of JSON."""
    if value is MISSING:
        return "(missing)"
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"


def without(protocol: dict[str, Any], keys: set[str]) -> dict[str, Any]:
    """``protocol`` without the top-level ``keys``."""
    return {k: v for k, v in protocol.items() if k not in keys}
