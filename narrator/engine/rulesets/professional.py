"""«Профессиональные правила»: 7 red (the sheriff among them), 3 black (the don among them).

What differs from crime-time, in the text's own order:
- the first night: the cards from the assistant's tray, «Наступает ночь», «Просыпается мафия»
  (their only night with open eyes), «Мафия засыпает», «Просыпается Дон и знакомится с
  ведущим», «Засыпает Дон», «Просыпается Шериф и знакомится с ведущим», «Засыпает Шериф. Утро.
  Все просыпаются»;
- «перестрелка»: the tied speak 30 s each, a re-vote; a tie again puts the question «Кто за то,
  чтобы все голосуемые покинули игру?» (a majority removes them all, an equal split keeps them);
  with four at the table a tie has no re-vote at all: everybody stays and night falls;
- the nights: «Мафия выходит на охоту», the count, «Мафия удаляется», «Просыпается Дон»; a night
  with no victim is announced as such («утро действительно доброе, и ночью никто не
  пострадал»).

Where the text is silent the ruleset keeps crime-time's way (see docs/rulesets.md): a night victim has
a last word; a single candidate on day 1 is not voted on; abstainers count for the last
candidate; black wins once it is not outnumbered; the figures (60 s speeches with «Десять
секунд», 15 s checks) and the «monster» rule for removals.
"""

from __future__ import annotations

from typing import ClassVar

from narrator.engine.rules import Rules, register


@register
class Professional(Rules):
    """«Профессиональные правила»."""

    name = "professional"
    #: «За игровой стол усаживаются десять игроков»; «7 красных карт и 3 черные»
    min_seats = 10
    max_seats = 10
    #: the cards are taken from the tray before «Наступает ночь»; the mafia meets first, then
    #: the don and the sheriff each meet the host
    first_night = ("dealing", "night", "agreement", "mafia_sleeps", "don_noted", "don_sleeps",
                   "sheriff_noted", "sheriff_sleeps")
    #: «перестрелка» ends in the question after one re-vote, whoever tied; four at the table
    #: never get that far (:meth:`tie_stays`)
    split_on_four = "allowed"  # 7.22.1

    lines: ClassVar[dict[str, tuple[str, ...]]] = {
        # the first night: the assistant deals in silence; no «Город спит» in this text
        "dealing": (),
        "city_sleeps": (),
        "mafia_agreement": ("professional.mafia_wakes",),
        "mafia_sleeps": ("professional.mafia_sleeps",),
        "don_wakes_first": ("professional.don_meets",),
        "don_sleeps": ("professional.don_sleeps",),
        "mafia_sleeps_sheriff_wakes": ("professional.sheriff_meets",),
        "sheriff_sleeps": ("professional.sheriff_sleeps",),
        "day_breaks": ("professional.morning",),
        # the nights
        "mafia_hunts": ("professional.mafia_hunts",),
        "don_wakes": ("professional.mafia_leaves", "professional.don_wakes"),
        "don_sleeps_sheriff_wakes": ("professional.don_sleeps_sheriff_wakes",),
        "miss": ("professional.nobody_hurt",),
        # «перестрелка»
        "crash": ("tie",),
        "crash_question": ("professional.crash_question",),
        "tie_stays": ("professional.four_left",),
        "win_civilians": ("professional.win_red",),
        "win_mafia": ("professional.win_black",),
    }

    def tie_stays(self, rnd: int, leaders: tuple[int, ...], living: int) -> bool:
        """«В случае, когда остаётся четыре игрока за столом повторное голосование при
        "перестрелке" не проводится. Все игроки остаются за игровым столом»."""
        return rnd == 1 and living == 4

    def tie_goes_to_crash(self, rnd: int, leaders: tuple[int, ...],
                          candidates: tuple[int, ...]) -> bool:
        """«Если игроки вновь набирают равное количество голосов, то ставится на голосование
        вопрос»: any tie at the top of the re-vote goes to the question, put about those tied
        (a re-vote of three that ends 4–4–2 asks about the two)."""
        return rnd > 1
