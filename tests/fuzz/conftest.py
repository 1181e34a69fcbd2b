"""The fuzzers' size: about 8·10⁴ cases across them by default (a minute or two of CI), times
``NARRATOR_FUZZ_SCALE`` for a longer run (``NARRATOR_FUZZ_SCALE=20 pytest tests/fuzz``).

The engine's fuzzer (the one that has found bugs) and the grammar's keep their counts; the
loaders' seeded batches (``test_hostile_scripts``, ``test_hostile_journals``) run 150 and 60
examples of 100 cases, half what they ran before (``NARRATOR_FUZZ_SCALE=2`` gives those back).

A case is one input handed to the code under test: a table script, a journal file, a phrase, a
game's sequence of actions. Most come from seeded generators (:mod:`tests.fuzz.hostile`), a
batch per Hypothesis example; the rest from Hypothesis' own strategies, which shrink a failure
to its smallest form. The count is printed at the end of the run (``tests/conftest.py``, which
also adds up the counts of pytest-xdist's workers).
"""

from __future__ import annotations

import os
from collections import Counter

import pytest
from hypothesis import HealthCheck, settings

SCALE = max(0.01, float(os.environ.get("NARRATOR_FUZZ_SCALE", "1")))
COUNTED: Counter[str] = Counter()


def cases(n: int) -> settings:
    """Hypothesis settings for ``n`` examples (scaled), no deadline: the machine is shared."""
    return settings(max_examples=max(5, int(n * SCALE)), deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])


def count(target: str, n: int = 1) -> None:
    COUNTED[target] += n


def pytest_sessionfinish(session: pytest.Session) -> None:
    # a worker of pytest-xdist hands its counts to the controller (tests/conftest.py prints)
    output = getattr(session.config, "workeroutput", None)
    if output is not None:
        output["fuzz_counted"] = dict(COUNTED)


def summary() -> str | None:
    """The line that ends the run: the cases of every fuzzer, by target."""
    if not COUNTED:
        return None
    parts = ", ".join(f"{k} {v:,}" for k, v in sorted(COUNTED.items()))
    return f"fuzz cases: {sum(COUNTED.values()):,} ({parts})"
