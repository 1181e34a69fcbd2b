"""A process loads its speech model once, on a thread of its own, while the start goes on: a
game waits for it only if it is not there yet, and an evening's games share it."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

import narrator.play.cli as play
import narrator.play.model as models
from narrator.errors import NarratorError
from narrator.host.hearing import Hearing


class FakeModel:
    pass


@pytest.fixture
def loads(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Path, str]]:
    """Each load of a model: its path and the thread it ran on (the model-load's own); the
    loads wait for ``release`` so that a test sees the start go on meanwhile."""
    done: list[tuple[Path, str]] = []
    monkeypatch.setattr(models, "_MODELS", {})
    monkeypatch.setattr(play, "table_recognizer",
                        lambda model, phrases, model_path=None: ("recognizer", model))

    def load(path: Path) -> Any:
        RELEASE.wait(timeout=30)
        if path.name == "broken":
            raise NarratorError(f"cannot load the Vosk model at {path}")
        done.append((path, threading.current_thread().name))
        return FakeModel()

    monkeypatch.setattr(models, "load_model", load)
    RELEASE.clear()
    return done


RELEASE = threading.Event()
HEARING = Hearing(["a"], lambda text: [])


def test_the_model_loads_on_its_own_thread_once_for_every_game(
        loads: list[tuple[Path, str]]) -> None:
    path = Path("/models/x")
    future = models.preload(path)
    assert not future.done()  # the start goes on meanwhile
    assert models.preload(path) is future  # a second start (the next game) loads nothing more
    RELEASE.set()
    first, _ = play.load_ears(path, HEARING)
    second, _ = play.load_ears(path, HEARING)  # the evening's next game
    assert first[1] is second[1]
    assert loads == [(path, "model-load")]


def test_a_model_that_fails_to_load_is_said_at_the_game_and_tried_again(
        loads: list[tuple[Path, str]]) -> None:
    broken = Path("/models/broken")
    models.preload(broken)
    RELEASE.set()
    with pytest.raises(NarratorError, match="cannot load the Vosk model"):
        play.load_ears(broken, HEARING)
    with pytest.raises(NarratorError):  # tried again, not the first failure kept for ever
        models.model_at(broken)
    assert loads == []
