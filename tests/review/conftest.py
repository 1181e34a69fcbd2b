"""The review's tests share one recorded session (a second of Vosk) and the console's browser."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.console.conftest import browser_context  # noqa: F401
from tests.review.recorded import Recorded, record


@pytest.fixture(scope="session")
def recorded(tmp_path_factory: pytest.TempPathFactory, ko_model: Any) -> Recorded:
    """Day 1 at a table, recorded (read only: each test writes its review elsewhere)."""
    return record(tmp_path_factory.mktemp("recorded") / "session", ko_model)


@pytest.fixture()
def review_of(tmp_path: Path) -> Any:
    """``narrator review SOURCE -o OUT`` run in-process: OUT's page."""
    from narrator.cli import main

    def run(source: Path, *args: str) -> Path:
        out = tmp_path / "review"
        assert main(["review", str(source), "-o", str(out), *args]) == 0
        return out

    return run
