"""What a round of voting leaves for a ruleset to judge (:class:`VoteState`) and what it judges
follows (:class:`Verdict`): 2.4, 2.4.1, 2.4.2 and the other texts' ways, in
:meth:`Rules.verdict <narrator.engine.rules.Rules.verdict>`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass

from narrator.engine.types import SpeechKind

__all__ = ["Verdict", "VoteState"]


@dataclass(slots=True)
class VoteState:
    """What a ruleset's :meth:`Rules.verdict` sees after a round of voting (read only; not
    frozen, as one is made after every round)."""

    day: int
    round: int
    candidates: tuple[int, ...]
    counts: Mapping[int, int]
    #: the counts of today's earlier rounds, first round first
    rounds: Sequence[Mapping[int, int]]
    #: the seats that have used their justification (on any day)
    justified: AbstractSet[int]
    living: int

    @property
    def leaders(self) -> tuple[int, ...]:
        """The candidates with the most votes, in ballot order."""
        top = max(self.counts.values())
        return tuple(c for c in self.candidates if self.counts[c] == top)


@dataclass(frozen=True, slots=True)
class Verdict:
    """What follows a round of voting, in this order: ``out`` leave the table (with a last word
    where the ruleset gives one); or the car crash of ``crash``; or a tie of ``tie_stays`` is
    not played out and everybody stays; or ``stays`` stay, having got fewer votes than before;
    or a ``tie`` is announced, ``speak`` speak (``speech``) and ``revote`` are voted on again."""

    out: tuple[int, ...] = ()
    crash: tuple[int, ...] = ()
    tie_stays: tuple[int, ...] = ()
    stays: tuple[int, ...] = ()
    tie: tuple[int, ...] = ()
    speak: tuple[int, ...] = ()
    speech: SpeechKind = "tie"
    revote: tuple[int, ...] = ()
    #: why ``stays`` stay (the :class:`~narrator.engine.events.Stays` reason): fewer_votes, or
    #: first_day — a round's single leader on a first day where only the lift removes
    why: str = "fewer_votes"
