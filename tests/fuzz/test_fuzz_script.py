"""Fuzzing the table-script loader (and the replay of what it takes): whatever the text, the
answer is a script or one line naming the file and the line — never a traceback."""

from __future__ import annotations

import random
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from narrator.errors import NarratorError, ScriptError
from narrator.replay.script import parse_table_script
from narrator.replay.table import replay_script
from tests.fuzz import hostile
from tests.fuzz.conftest import cases, count
from tests.fuzz.strategies import dumps, json_values, mutated, nasty_text

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.table.jsonl"))
TEXTS = [p.read_text(encoding="utf-8") for p in EXAMPLES]
HEADER = '{"rules": "crime-time", "roles": {"don": 3, "mafia": [5, 9], "sheriff": 1}}'
SEPARATORS = ["\n", "\r\n", "\n\n", "\u2028", "\u0085", "\n# note\n"]
BATCH = 100


def check(text: str) -> None:
    count("table scripts")
    try:
        script = parse_table_script(text, "t.jsonl")
    except ScriptError as e:
        assert "\n" not in str(e) and str(e).startswith("t.jsonl:"), repr(str(e))
        return
    try:
        replay_script(script)
    except NarratorError as e:  # the replay's refusals are script errors too
        assert "\n" not in str(e), repr(str(e))


@cases(150)
@given(st.integers(0, 2**63))
def test_hostile_scripts(seed: int) -> None:
    rng = random.Random(seed)  # plain Python: Hypothesis' own randoms are slow
    for _ in range(BATCH):
        if rng.random() < 0.5:
            lines = [hostile.json_line(rng) for _ in range(rng.randint(0, 5))]
            if rng.random() < 0.7:
                lines.insert(0, HEADER if rng.random() < 0.7 else hostile.mutate(rng, HEADER))
            text = rng.choice(SEPARATORS).join(lines)
        else:
            text = hostile.mutate(rng, rng.choice(TEXTS), rng.randint(1, 4))
        check(text)


@cases(2_000)
@given(st.lists(json_values.map(dumps) | nasty_text, max_size=6), st.sampled_from(SEPARATORS),
       st.booleans())
def test_lines_of_random_json_and_text(lines: list[str], sep: str, header: bool) -> None:
    check(sep.join(([HEADER] if header else []) + lines))


@cases(1_000)
@given(st.data())
def test_mutated_example_scripts(data: st.DataObject) -> None:
    check(data.draw(mutated(data.draw(st.sampled_from(TEXTS)))))
