"""Rulesets: class-level settings and hook methods, found by name (python-chess's variants).

The game (:class:`~narrator.engine.game.Game`) runs one flow — nights, days, votes — and asks its
ruleset wherever the rule texts differ: who opens the day's discussion, when no vote is held,
when a tie goes to the car crash and when that passes, what a night check answers, how many
seats a table has and which cards are dealt, who has won. A ruleset is a subclass of
:class:`Rules` that overrides these settings and hooks; the game itself never branches on a
ruleset's name. Only crime-time (the default) is implemented so far.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import ClassVar

from narrator.engine.errors import InvalidActionError
from narrator.engine.types import Role, Team
from narrator.errors import NarratorError


class Rules:
    """Base ruleset: crime-time's settings and hooks, which the other rulesets override.

    Figures are seconds unless named otherwise; clause numbers are crime-time's.
    """

    name: ClassVar[str] = "base"
    seats: ClassVar[int] = 10
    #: the table sizes the ruleset is played with
    min_seats: ClassVar[int] = 4
    max_seats: ClassVar[int] = 15
    #: roles dealt besides civilians (1.2, 1.3); :meth:`composition` may vary them with the seats
    roles: ClassVar[dict[Role, int]] = {Role.SHERIFF: 1, Role.DON: 1, Role.MAFIA: 2}
    #: the night's checks, in the order the checkers wake (2.1.3)
    checkers: ClassVar[tuple[Role, ...]] = (Role.DON, Role.SHERIFF)
    speech_seconds: ClassVar[float] = 60.0  # 2.3
    speech_warning: ClassVar[float | None] = 50.0  # 2.3: «Десять секунд»
    last_word_seconds: ClassVar[float] = 60.0  # 2.2, 2.4
    tie_speech_seconds: ClassVar[float] = 30.0  # 2.4.1
    vote_window: ClassVar[float] = 1.0  # 2.4: a pause of one second, then «Спасибо»
    check_seconds: ClassVar[float] = 15.0  # 2.1.3
    agreement_seconds: ClassVar[float] = 60.0  # 2.1.1
    agreement_warning: ClassVar[float | None] = 50.0  # 2.1.1
    #: club options (see :mod:`narrator.engine.options`), off in the rule texts themselves:
    #: "count" records fouls only; "sport" makes the 3rd cost a speech and the 4th remove
    fouls: ClassVar[str] = "count"
    #: the first-night victim names three seats («лучший ход») before the last word
    best_move: ClassVar[bool] = False
    sheriff_first_night_seconds: ClassVar[float] = 15.0  # 2.1.1
    #: the texts give no figures for these two; what a host takes at a club table
    don_noted_seconds: ClassVar[float] = 10.0
    deal_seconds_per_seat: ClassVar[float] = 3.0
    #: pace of the hunt's count (2.1.2): one number per this many seconds
    count_pace: ClassVar[float] = 1.5
    #: 2.4.2 does not apply with exactly this many seats at the table
    no_crash_at: ClassVar[int | None] = 4
    #: 2.4.3, the «monster» rule: a removal before the vote is complete cancels that vote
    monster_rule: ClassVar[bool] = True

    # -- the deal ------------------------------------------------------------------------------

    def composition(self, seats: int) -> dict[Role, int]:
        """The cards dealt besides civilians at a table of ``seats`` (1.2, 1.3)."""
        return dict(self.roles)

    def _decided_at_deal(self, seats: int) -> bool:
        comp = self.composition(seats)
        black = sum(n for role, n in comp.items() if role.team is Team.BLACK)
        return sum(comp.values()) > seats or self.winner(black, seats - black) is not None

    def smallest_table(self) -> int:
        """The smallest table whose deal leaves the game open (1.3: the mafia wins once it
        equals the town, so it must start outnumbered)."""
        for seats in range(self.min_seats, self.max_seats + 1):
            if not self._decided_at_deal(seats):
                return seats
        return self.max_seats + 1

    def check_seats(self, seats: object) -> int:
        """``seats`` if a table of this ruleset can have that many; InvalidActionError if not."""
        if isinstance(seats, bool) or not isinstance(seats, int) or not (
                self.min_seats <= seats <= self.max_seats):
            raise InvalidActionError(
                f"a table has {self.min_seats}..{self.max_seats} seats, not {seats}")
        if self._decided_at_deal(seats):
            black = sum(n for role, n in self.composition(seats).items()
                        if role.team is Team.BLACK)
            raise InvalidActionError(
                f"{self.name} needs at least {self.smallest_table()} seats: at {seats} its "
                f"{black} mafia cards would win at the deal")
        return seats

    def check_deal(self, seats: int, roles: Mapping[int, Role]) -> None:
        """InvalidActionError unless ``roles`` (seats not named are civilians) is this ruleset's
        deal (1.2, 1.3) at a table of ``seats``."""
        self.check_seats(seats)
        for seat in roles:
            if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= seats:
                raise InvalidActionError(f"role: seat {seat!r} does not exist (seats 1..{seats})")
        comp = self.composition(seats)
        for role, count in comp.items():
            have = sum(1 for r in roles.values() if r is role)
            if have != count:
                raise InvalidActionError(
                    f"expected {count} {role.value} for {self.name}, got {have}")
        extra = sorted({r.value for r in roles.values()} - {r.value for r in comp}
                       - {Role.CIVILIAN.value})
        if extra:
            raise InvalidActionError(f"{self.name} deals no {', '.join(extra)}")

    def deal(self, seats: int, rng: random.Random) -> dict[int, Role]:
        """Deal the cards of :meth:`composition` at random from ``rng``."""
        deck = [role for role, n in self.composition(seats).items() for _ in range(n)]
        deck += [Role.CIVILIAN] * (seats - len(deck))
        rng.shuffle(deck)
        return {seat: role for seat, role in enumerate(deck, start=1)}

    # -- the night -----------------------------------------------------------------------------

    def hunt_target(self, living_black: list[int], shots: dict[int, set[int]],
                    living: set[int]) -> int | None:
        """2.1.2: a hit only when every living mafioso shot the same living seat and no other."""
        target: int | None = None
        for shooter in living_black:
            aimed = shots.get(shooter)
            if not aimed or len(aimed) != 1:
                return None
            (seat,) = aimed
            if target is None:
                target = seat
            elif seat != target:
                return None
        return target if target in living else None

    def check_answer(self, checker: Role, target: Role) -> bool:
        """What the host's nod says to ``checker`` about a seat holding ``target``: 1.3.1, the
        don asks "is it the sheriff?"; 1.2.1, the sheriff asks "is it black?"."""
        if checker is Role.DON:
            return target is Role.SHERIFF
        return target.team is Team.BLACK

    # -- the day -------------------------------------------------------------------------------

    def day_opener(self, day: int, previous: int | None, seats: int) -> int:
        """The seat the day's discussion starts from (the first living seat from it speaks).

        2.3: day 1 from seat 1; every later day from the seat after the one who opened the
        previous day (``previous``)."""
        return 1 if previous is None else previous % seats + 1

    def no_vote(self, day: int, candidates: tuple[int, ...]) -> str | None:
        """Why no vote is held on the ``candidates`` standing after day ``day``'s discussion
        (a :class:`~narrator.engine.events.VotingCancelled` reason), or None: vote.

        2.2.1: on day 1 a single candidate is not voted on. (No candidate at all never votes;
        the monster rule is :attr:`monster_rule`.)"""
        if day == 1 and len(candidates) == 1:
            return "single_candidate_day1"
        return None

    def tie_goes_to_crash(self, rnd: int, leaders: tuple[int, ...],
                          candidates: tuple[int, ...]) -> bool:
        """After round ``rnd`` of a vote on ``candidates``, ``leaders`` share the most votes:
        True for the car crash, False for tie speeches and another round.

        2.4.1: the first tie is always voted again; from the second round on, a tie of every
        candidate goes to the car crash (2.4.2), a tie of some of them is voted again."""
        return rnd > 1 and len(leaders) == len(candidates)

    def crash_passes(self, votes_for: int, living: int) -> bool:
        """2.4.2: «большинство» of the seats at the table; exactly half is not a majority."""
        return 2 * votes_for > living

    # -- the end -------------------------------------------------------------------------------

    def winner(self, black: int, red: int) -> Team | None:
        """1.2/1.3: civilians win when no black seat remains; mafia when black ≥ red."""
        if black == 0:
            return Team.RED
        if black >= red:
            return Team.BLACK
        return None


class CrimeTime(Rules):
    """Club «Crime Time», edition of 11.12.2013: 6 civilians + sheriff, 2 mafia + don."""

    name = "crime-time"


#: figures a club may change without a ruleset of its own (``--count-pace``, ``--timer``), in
#: seconds; a changed speech or agreement keeps its «Десять секунд» ten seconds before its end
TUNABLE = ("count_pace", "deal_seconds_per_seat", "don_noted_seconds", "speech_seconds",
           "last_word_seconds", "tie_speech_seconds", "vote_window", "check_seconds",
           "agreement_seconds", "sheriff_first_night_seconds")
_WARNED = {"speech_seconds": "speech_warning", "agreement_seconds": "agreement_warning"}
MAX_FIGURE = 600.0


def with_settings(rules: Rules, **settings: float) -> Rules:
    """``rules`` with some of its figures changed, e.g. ``with_settings(r, count_pace=2.0)``."""
    unknown = sorted(set(settings) - set(TUNABLE))
    if unknown:
        raise NarratorError(f"cannot change {', '.join(unknown)}; only {', '.join(TUNABLE)}")
    for name, value in settings.items():
        if not 0 < value <= MAX_FIGURE:
            raise NarratorError(f"{name} must be between 0 and {MAX_FIGURE:g} seconds, "
                                f"not {value}")
    if not settings:
        return rules
    figures: dict[str, float | None] = dict(settings)
    for name, warning in _WARNED.items():
        if name in settings:  # 2.3, 2.1.1: the warning comes with ten seconds left
            figures[warning] = settings[name] - 10.0 if settings[name] > 10.0 else None
    cls = type(rules)
    tuned: type[Rules] = type(cls.__name__, (cls,), figures)
    return tuned()


def settings_of(rules: Rules) -> dict[str, float]:
    """The tunable figures of ``rules`` that differ from its ruleset's (for the journal)."""
    base = RULESETS.get(rules.name, type(rules))
    return {k: getattr(rules, k) for k in TUNABLE if getattr(rules, k) != getattr(base, k)}


RULESETS: dict[str, type[Rules]] = {CrimeTime.name: CrimeTime}
KNOWN = ("crime-time", "professional", "vrn", "amateur")


def find_rules(name: str) -> Rules:
    """The ruleset called ``name`` (``"crime-time"``, …)."""
    try:
        return RULESETS[name]()
    except KeyError:
        if name in KNOWN:
            raise NarratorError(
                f"rules {name!r} are not implemented yet; implemented: {', '.join(RULESETS)}"
            ) from None
        raise NarratorError(f"unknown rules {name!r}; known: {', '.join(KNOWN)}") from None


def parse_figures(items: list[str]) -> dict[str, float]:
    """``--timer speech=20 --timer check_seconds=5`` → ``{"speech_seconds": 20.0, …}``: a
    figure's name with or without ``_seconds``."""
    out: dict[str, float] = {}
    for item in items:
        name, sep, value = item.partition("=")
        name = name.strip().replace("-", "_")
        full = name if name in TUNABLE else f"{name}_seconds"
        if full not in TUNABLE:
            names = ", ".join(n.removesuffix("_seconds") for n in TUNABLE)
            raise NarratorError(f"--timer {item!r}: unknown figure (known: {names})")
        try:
            out[full] = float(value) if sep else float("nan")
        except ValueError:
            out[full] = float("nan")
        if out[full] != out[full]:
            raise NarratorError(f"--timer {item!r}: expected NAME=SECONDS")
    return out
