"""The hostless table's speech model: found and checked, loaded once a process on a thread of
its own (a game's start, an evening's lobby go on meanwhile), handed to each game."""

from __future__ import annotations

import threading
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from narrator.audio.models import find_model, grammar_support
from narrator.audio.vosk_recognizer import load_model
from narrator.errors import NarratorError

__all__ = ["model_at", "model_folder", "preload"]


def model_folder(lang: str, explicit: str | None) -> Path:
    """The model to listen with; a one-line NarratorError when it is missing or unusable (a
    missing one also says how to play without one: the pads end the speeches)."""
    try:
        path = find_model(lang, explicit)
    except NarratorError as e:
        raise NarratorError(f"{e}; or play without listening: --listen off --console "
                            "[HOST:]PORT (the speeches are ended on the seat pads)") from None
    if not (path / "am" / "final.mdl").is_file():
        raise NarratorError(f"{path} is not a Vosk model (no am/final.mdl)")
    if not grammar_support(path):
        raise NarratorError(f"{path} does not support runtime grammars; "
                            f"use a small model: `narrator models fetch {lang}`")
    return path


#: the models of this process, loaded or loading, by folder: an evening's games load theirs once
#: (seconds each), and a start loads it while the rest of the start goes on (:func:`preload`)
_MODELS: dict[Path, Future[Any]] = {}
_MODELS_LOCK = threading.Lock()


def _load_into(path: Path, future: Future[Any]) -> None:
    try:
        future.set_result(load_model(path))
    except BaseException as e:  # (handed to whoever waits for the model)
        future.set_exception(e)


def preload(path: Path) -> Future[Any]:
    """Start loading the model at ``path`` on a thread of its own, unless this process has it
    (or is loading it) already: the deal, the journal, the voice and the console are made
    meanwhile (Vosk's loading lets go of the interpreter). Once a process: an evening's
    games share it."""
    with _MODELS_LOCK:
        future = _MODELS.get(path)
        if future is None:
            future = _MODELS[path] = Future()
            threading.Thread(target=_load_into, args=(path, future), name="model-load",
                             daemon=True).start()
    return future


def model_at(path: Path) -> Any:
    """The model at ``path``, loaded once a process (waiting for :func:`preload`'s thread);
    a model that failed to load is tried again next time, its error raised now."""
    future = preload(path)
    try:
        return future.result()
    except BaseException:
        with _MODELS_LOCK:
            if _MODELS.get(path) is future:
                del _MODELS[path]
        raise
