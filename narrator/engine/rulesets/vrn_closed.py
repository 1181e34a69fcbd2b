"""«Закриті правила» of the mafia vrn club (the second part of its text): crime-time's cards, no
doctor or maniac.

What differs from crime-time, in the text's own order:
- the first night: the cards, «Мафія прокинулася» (the mafia meets the host and each other and
  agrees), «Мафія заснула», «Доброго ранку! Місто прокидається»: the don and the sheriff are not
  woken on the first night;
- day N opens at seat N: «У перший день виступ починає гравець під номером один, в другій — під
  номером два і т.д.»; when seat N is out, the first living seat after it opens (N+1, N+2, …);
  day 11 of a ten-seat table opens at seat 1 again;
- «Всього одна виставлена кандидатура на першому колі не видаляється з гри. У наступних колах,
  якщо на голосування виставлено тільки один гравець, він йде автоматично»;
- «автокатастрофа»: the tied speak 30 s each, a re-vote; a tie again puts the question «Хто за
  те, щоб всі ці кандидати покинули гру?» (a majority removes them, a minority or an equal split
  keeps them). The text makes no exception for four at the table: the question is put there
  too;
- the nights: «Мафія виходить на полювання», the count, «Прокидається Дон», «Дон заснув,
  прокинувся Шериф», then «Доброго ранку, місто прокидається!».

Where the text is silent the ruleset keeps crime-time's way (see docs/rulesets.md): three black
cards of ten (the don among them) and a sheriff; abstainers count for the last candidate; the
figures (60 s speeches and last words with «Десять секунд», 15 s checks, a minute's agreement)
and the «monster» rule for removals.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from narrator.engine.rules import Rules, register


@register
class VrnClosed(Rules):
    """«Закриті правила» (mafia vrn)."""

    name = "vrn-closed"
    #: «10 учасників надягають пов'язки або маски»
    min_seats = 10
    max_seats = 10
    first_night = ("night", "dealing", "agreement", "mafia_sleeps")
    #: no exception for four at the table (7.22.1)
    split_on_four = "allowed"  # 7.22.1
    #: 6.3: day N from seat N (:meth:`day_opener`), whoever closed the day before
    fixed_groups: ClassVar[Mapping[str, str]] = {"rotation": "opens day N from seat N"}

    lines: ClassVar[dict[str, tuple[str, ...]]] = {
        "city_sleeps": (),
        "mafia_agreement": ("vrn_closed.mafia_wakes",),
        "mafia_sleeps": ("vrn_closed.mafia_sleeps",),
        "day_breaks": ("vrn_closed.good_morning",),
        "mafia_hunts": ("vrn_closed.mafia_hunts",),
        "don_wakes": ("vrn_closed.don_wakes",),
        "don_sleeps_sheriff_wakes": ("vrn_closed.don_sleeps_sheriff_wakes",),
        "miss": ("vrn_closed.mafia_missed",),
        "unopposed": ("vrn_closed.single_candidate_leaves",),
        "crash_question": ("vrn_closed.crash_question",),
        "win_civilians": ("vrn_closed.win_red",),
        "win_mafia": ("vrn_closed.win_black",),
    }

    def day_opener(self, day: int, previous: int | None, seats: int) -> int:
        """Day N from seat N (the game starts the circle at the first living seat from it)."""
        return (day - 1) % seats + 1

    def lone_candidate_leaves(self, day: int) -> bool:
        """From day 2 a single candidate leaves without a vote (day 1: :meth:`no_vote`)."""
        return day > 1

    def tie_goes_to_crash(self, rnd: int, leaders: tuple[int, ...],
                          candidates: tuple[int, ...]) -> bool:
        """«Якщо ж і на переголосуванні вони наберуть однакову кількість голосів»: any tie at
        the top of the re-vote goes to the question, put about those tied."""
        return rnd > 1
