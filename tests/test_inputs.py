"""The input vocabulary: frozen, timed, typed events with a JSON round-trip."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from narrator.inputs import FIELDS, Input, InputError

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                  max_size=3),
    max_leaves=8)


#: a valid value for each required field of each type
REQUIRED: dict[str, dict[str, st.SearchStrategy[Any]]] = {
    "heard": {"text": st.text(max_size=12)}, "entry": {"text": st.text(max_size=8)},
    "action": {"action": st.sampled_from(["nominate 5", "hands 1 2", "end"])},
    "undo": {}, "stop": {},
    "pad": {"seat": st.integers(1, 10), "do": st.sampled_from(["shoot", "vote"])},
    "operator": {"do": st.sampled_from(["skip", "hands"])},
    "table": {"rules": st.just("crime-time"), "seats": st.integers(4, 15),
              "roles": st.dictionaries(st.sampled_from(["1", "3", "5"]),
                                       st.sampled_from(["don", "mafia"]))},
    "delay": {"seconds": st.floats(0, 10, allow_nan=False)}, "gated": {"end": st.integers(0, 99)},
    "timer": {"name": st.sampled_from(["speech", "hunt"]),
              "started": st.floats(0, 1e4, allow_nan=False)},
    "beat": {},
}


@st.composite
def events(draw: st.DrawFn) -> Input:
    kind = draw(st.sampled_from(sorted(FIELDS)))
    data = draw(st.fixed_dictionaries(REQUIRED[kind]))
    extra = draw(st.dictionaries(st.text(max_size=6).filter(
        lambda k: k not in ("type", "t") and k not in FIELDS[kind]), json_values, max_size=3))
    return Input(kind, round(draw(st.floats(0, 1e6, allow_nan=False)), 6), {**data, **extra})


def test_every_type_is_documented_and_has_required_values() -> None:
    import narrator.inputs as inputs

    assert set(REQUIRED) == set(FIELDS)
    for kind in FIELDS:
        assert f"``{kind}``" in (inputs.__doc__ or "")


@given(events())
def test_an_input_survives_its_json_round_trip(event: Input) -> None:
    assert Input.loads(event.dumps()) == event
    assert Input.from_json(event.to_json()) == event
    assert event.at(event.t + 1.0).to_json() == {**event.to_json(), "t": round(event.t + 1, 6)}


def test_an_input_is_frozen_down_to_its_data() -> None:
    event = Input("entry", 1.5, {"text": "1 2", "seats": [1, 2], "who": {"seat": 3}})
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
    ('{"type": "shout", "t": 1}', "unknown input type 'shout'"),
    ('{"type": "entry", "t": 1}', "entry input has no 'text'"),
    ('{"type": "entry", "t": 1, "text": 7}', "entry input: 'text' must be a string, got 7"),
    ('{"type": "delay", "t": 1, "seconds": true}', "delay input: 'seconds' must be a number"),
    ('{"type": "heard", "t": 1, "text": "a", "early": 1}', "'early' must be true or false"),
    ('[' * 100_000, "not JSON"),
])
def test_a_bad_input_line_is_one_clear_error(line: str, message: str) -> None:
    with pytest.raises(InputError, match=message.replace("[", r"\[")):
        Input.loads(line)
