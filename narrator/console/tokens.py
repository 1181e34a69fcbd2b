"""Secret link tokens: one per seat and one for the operator, compared in constant time."""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Iterable
from dataclasses import dataclass

#: who a token belongs to: "operator" or a seat number
Who = str | int

OPERATOR = "operator"


@dataclass(frozen=True)
class Tokens:
    """The table's tokens; :meth:`who` finds the owner of a presented token."""

    operator: str
    seats: dict[int, str]

    @classmethod
    def new(cls, seats: int) -> Tokens:
        """Fresh unguessable tokens (192 random bits each, URL-safe)."""
        return cls(secrets.token_urlsafe(24), {s: secrets.token_urlsafe(24)
                                               for s in range(1, seats + 1)})

    def who(self, presented: str | None) -> Who | None:
        """The owner of ``presented``, or None (see :func:`owner_of`)."""
        return owner_of(presented, [(OPERATOR, self.operator), *self.seats.items()])


def owner_of(presented: str | None, pairs: Iterable[tuple[Who, str]]) -> Who | None:
    """Whose of ``pairs`` (owner, token) ``presented`` is, or None. Every token is compared,
    each with :func:`hmac.compare_digest`, so the time taken says nothing about a near miss."""
    if not presented:
        return None
    given = presented.encode("utf-8", "replace")
    found: Who | None = None
    for owner, token in pairs:
        if hmac.compare_digest(given, token.encode()):
            found = owner
    return found
