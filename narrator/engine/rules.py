"""Rulesets: class-level settings and hook methods, found by name (python-chess's variants).

Only crime-time (the default, ``rules/crime-time-2013.ru.txt``) is implemented so far; the other
rule texts share its shape and become subclasses that override settings and hooks.
"""

from __future__ import annotations

import random
from typing import ClassVar

from narrator.engine.types import Role, Team
from narrator.errors import NarratorError


class Rules:
    """Base ruleset. Figures are seconds unless named otherwise."""

    name: ClassVar[str] = "base"
    seats: ClassVar[int] = 10
    #: roles dealt besides civilians (1.2, 1.3)
    roles: ClassVar[dict[Role, int]] = {Role.SHERIFF: 1, Role.DON: 1, Role.MAFIA: 2}
    speech_seconds: ClassVar[float] = 60.0  # 2.3
    speech_warning: ClassVar[float | None] = 50.0  # 2.3: «Десять секунд»
    last_word_seconds: ClassVar[float] = 60.0  # 2.2, 2.4
    tie_speech_seconds: ClassVar[float] = 30.0  # 2.4.1
    vote_window: ClassVar[float] = 1.0  # 2.4: a pause of one second, then «Спасибо»
    check_seconds: ClassVar[float] = 15.0  # 2.1.3
    agreement_seconds: ClassVar[float] = 60.0  # 2.1.1
    agreement_warning: ClassVar[float | None] = 50.0  # 2.1.1
    sheriff_first_night_seconds: ClassVar[float] = 15.0  # 2.1.1
    #: the texts give no figures for these two; what a host takes at a club table
    don_noted_seconds: ClassVar[float] = 10.0
    deal_seconds_per_seat: ClassVar[float] = 3.0
    #: pace of the hunt's count (2.1.2): one number per this many seconds
    count_pace: ClassVar[float] = 1.5
    #: 2.4.2 does not apply with exactly this many seats at the table
    no_crash_at: ClassVar[int | None] = 4

    def deal(self, seats: int, rng: random.Random) -> dict[int, Role]:
        """Deal the cards (1.2, 1.3) at random from ``rng``."""
        deck = [role for role, n in self.roles.items() for _ in range(n)]
        deck += [Role.CIVILIAN] * (seats - len(deck))
        rng.shuffle(deck)
        return {seat: role for seat, role in enumerate(deck, start=1)}

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

    def winner(self, black: int, red: int) -> Team | None:
        """1.2/1.3: civilians win when no black seat remains; mafia when black ≥ red."""
        if black == 0:
            return Team.RED
        if black >= red:
            return Team.BLACK
        return None

    def crash_passes(self, votes_for: int, living: int) -> bool:
        """2.4.2: «большинство» of the seats at the table; exactly half is not a majority."""
        return 2 * votes_for > living


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
