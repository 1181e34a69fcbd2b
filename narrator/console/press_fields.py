"""A press's fields as a page sent them, read one by one: a field that is not what the press
takes is a :class:`PressError` naming it, with the reason code the page is answered with."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeGuard

from narrator.errors import NarratorError
from narrator.reasons import Reason


class PressError(NarratorError):
    """A press that is not one the console reads: ``field`` names what is wrong (``do``: no
    such press), ``reason`` is the code the page is answered with; the message is one line."""

    def __init__(self, do: str, name: str, reason: Reason, why: str) -> None:
        super().__init__(f"{do!r} press: {name!r} {why}")
        self.field = name
        self.reason = reason


class Fields:
    """A press's fields as sent, read one by one against what the press takes."""

    def __init__(self, do: str, data: Mapping[str, Any], seats: int) -> None:
        self.do, self.data, self.seats = do, data, seats

    def _bad(self, name: str, reason: Reason, what: str) -> PressError:
        got = self.data.get(name)
        given = "none given" if name not in self.data else f"got {got!r}"
        return PressError(self.do, name, reason, f"must be {what}, {given}")

    def _is_seat(self, value: Any) -> TypeGuard[int]:
        return is_int(value) and 1 <= value <= self.seats

    def seat(self, name: str) -> int:
        """A seat of the table (a missing one is no seat either)."""
        value = self.data.get(name)
        if not self._is_seat(value):
            raise self._bad(name, Reason.NOT_A_SEAT, f"a seat from 1 to {self.seats}")
        return value

    def maybe_seat(self, name: str) -> int | None:
        return None if self.data.get(name) is None else self.seat(name)

    def seats_list(self, name: str) -> tuple[int, ...]:
        """A list of seats: a list it must be, and each of it a seat."""
        value = self.data.get(name)
        if not isinstance(value, list | tuple):
            raise self._bad(name, Reason.BAD_REQUEST, "a list of seats")
        if not all(self._is_seat(x) for x in value):
            raise self._bad(name, Reason.NOT_A_SEAT, f"seats from 1 to {self.seats}")
        return tuple(int(x) for x in value)

    def count(self, name: str) -> int:
        """A whole number, 0 or more."""
        value = self.data.get(name)
        if not is_int(value) or value < 0:
            raise self._bad(name, Reason.BAD_REQUEST, "a whole number, 0 or more")
        return value

    def maybe_count(self, name: str) -> int | None:
        return None if self.data.get(name) is None else self.count(name)

    def maybe_number(self, name: str) -> int | None:
        """A whole number or none (a window's candidate: none for the car crash)."""
        value = self.data.get(name)
        if value is not None and not is_int(value):
            raise self._bad(name, Reason.BAD_REQUEST, "a whole number or null")
        return None if value is None else int(value)

    def points(self, name: str) -> float:
        """A number (0 when none is given): the host's extra points."""
        value = self.data.get(name, 0)
        if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
            raise self._bad(name, Reason.BAD_REQUEST, "a number")
        return float(value)

    def words(self, name: str) -> tuple[str, ...]:
        """A list of strings (none given: an empty one)."""
        value = self.data.get(name, [])
        if not isinstance(value, list | tuple) or not all(isinstance(x, str) for x in value):
            raise self._bad(name, Reason.BAD_REQUEST, "a list of strings")
        return tuple(value)

    def maybe_text(self, name: str) -> str | None:
        value = self.data.get(name)
        if value is not None and not isinstance(value, str):
            raise self._bad(name, Reason.BAD_REQUEST, "a string")
        return value


def is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)
