"""Sending games to MafiaRatings (``narrator export --send URL``): not built yet."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from narrator.errors import NarratorError


def send_games(games: Sequence[tuple[str, dict[str, Any]]], *, url: str, user: str,
               password: str, ledger: Path) -> list[str]:
    """Post each (key, record) of ``games`` to ``url``; a line per game."""
    raise NarratorError("sending is not built yet")
