"""What a round of voting leaves for a ruleset to judge (:class:`VoteState`) and what it judges
follows (:class:`Verdict`): 2.4, 2.4.1, 2.4.2 and the other texts' ways, in
:meth:`Rules.verdict <narrator.engine.rules.Rules.verdict>`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field

from narrator.engine.types import SpeechKind

__all__ = ["Verdict", "VoteState", "first_day_verdict", "no_crash"]


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
    #: who voted for each candidate this round, by seat (hands counted without seats and
    #: the abstainers are not here)
    voters: Mapping[int, AbstractSet[int]] = field(default_factory=dict)
    #: the abstainers' hands count for the last candidate (2.4)
    to_last: bool = True

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


def _voted_for_himself(vote: VoteState, seat: int) -> bool:
    """Did ``seat`` vote for himself this round: his hand by seat on him, or none of his at
    all while the abstainers count for him as the last candidate (2.4)."""
    if seat in vote.voters.get(seat, ()):
        return True
    voted = any(seat in hands for hands in vote.voters.values())
    return vote.to_last and not voted and seat == vote.candidates[-1]


def first_day_verdict(first_voting: str, vote: VoteState) -> Verdict | None:
    """The single leader of a round of day 1 under the catalogue's 7.16 (None: he leaves as
    on any day, 7.16.1 and crime-time 2.4): 7.16.2 "to_talk", he speaks a tie speech's
    length and stays; "no_breaking", he stays without a word and night falls;
    "breaking_to_themself", he leaves only when he voted for himself, else speaks and stays."""
    (seat,) = vote.leaders
    if first_voting == "to_talk" or (first_voting == "breaking_to_themself"
                                     and not _voted_for_himself(vote, seat)):
        return Verdict(stays=(seat,), speak=(seat,), speech="leader", why="first_day")
    if first_voting == "no_breaking":
        return Verdict(stays=(seat,), why="first_day")
    return None


def no_crash(settings: Mapping[str, str], day: int, living: int,
             crash: tuple[int, ...]) -> str | None:
    """Why the car crash of ``crash`` is not put on day ``day`` with ``living`` at the table
    (a :class:`~narrator.engine.events.CrashNotApplied` reason), or None: put it. From the
    club's ``settings`` of the catalogue's groups: 7.22.2 (crime-time 2.4.2: «не применяется,
    если в игре осталось ровно четыре игрока», whoever is tied), 7.21.1 (the whole table
    tied), 7.23.2 (three of nine), 7.23 "after1" (three of nine on the rating's round 1, its
    "first day" after the zero one, or earlier: our days 1 and 2; js/src/game.js
    ``_gameCanKillAll``: ``game.time.round > 1``)."""
    if living == 4 and len(crash) < living and settings["split_on_four"] == "prohibited":
        return "four"
    if len(crash) == living:
        return "all" if settings["kill_all"] == "prohibited" else None
    if living == 9 and len(crash) == 3:
        nine = settings["split_on_nine"]
        if nine == "no" or (nine == "after1" and day <= 2):
            return "nine"
    return None
