"""The input vocabulary: frozen, timed, typed events with a JSON round-trip."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from narrator.inputs import Input, InputError

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                  max_size=3),
    max_leaves=8)


@given(st.text(min_size=1, max_size=10).filter(lambda s: s not in ("type", "t")),
       st.floats(0, 1e6, allow_nan=False),
       st.dictionaries(st.text(max_size=6).filter(lambda k: k not in ("type", "t")),
                       json_values, max_size=4))
def test_an_input_survives_its_json_round_trip(kind: str, t: float, data: dict) -> None:
    event = Input(kind, round(t, 6), data)
    assert Input.loads(event.dumps()) == event
    assert Input.from_json(event.to_json()) == event


def test_an_input_is_frozen_down_to_its_data() -> None:
    event = Input("entry", 1.5, {"seats": [1, 2], "who": {"seat": 3}})
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.t = 2.0  # type: ignore[misc]
    with pytest.raises(TypeError):
        event.data["who"]["seat"] = 4  # type: ignore[index]
    assert event.get("seats") == (1, 2)


@pytest.mark.parametrize(("line", "message"), [
    ('[1, 2]', "expected an input object, got list"),
    ('{"t": 1}', "input has no 'type'"),
    ('{"type": "entry"}', "input has no 't'"),
    ('{"type": "entry", "t": "soon"}', "input time must be a finite number, got 'soon'"),
    ('{"type": "", "t": 1}', "input type must be a non-empty string"),
    ('{"type": "entry", "t": 1', "not JSON"),
    ('[' * 100_000, "not JSON"),
])
def test_a_bad_input_line_is_one_clear_error(line: str, message: str) -> None:
    with pytest.raises(InputError, match=message.replace("[", r"\[")):
        Input.loads(line)
