"""Helpers for scenario tests: table scripts written inline."""

from __future__ import annotations

import json
from typing import Any

import pytest

from narrator.replay.script import parse_table_script
from narrator.replay.table import ReplayResult, replay_script
from tests.helpers import SCRIPT_ROLES


def script_text(*lines: dict[str, Any], roles: dict[str, Any] | None = None,
                seats: int = 10, rules: str = "crime-time") -> str:
    header = {"rules": rules, "seats": seats, "roles": roles or SCRIPT_ROLES}
    return "\n".join(json.dumps(x, ensure_ascii=False) for x in (header, *lines))


def run(*lines: dict[str, Any], roles: dict[str, Any] | None = None,
        seats: int = 10, rules: str = "crime-time") -> ReplayResult:
    """Replay a game of ``rules`` given as input lines (header added) and return the result."""
    text = script_text(*lines, roles=roles, seats=seats, rules=rules)
    return replay_script(parse_table_script(text, "t"))


def day_speeches(seats: list[int], says: dict[int, list[Any]] | None = None) -> list[dict[str, Any]]:
    """One speech line per seat; ``says`` gives the ``say`` of some of them."""
    says = says or {}
    return [{"speech": s, "say": says[s]} if s in says else {"speech": s} for s in seats]


@pytest.fixture
def said_after() -> Any:
    def find(result: ReplayResult, phrase: str) -> list[str]:
        said = result.transcript.said
        return said[said.index(phrase) + 1:]
    return find
