"""«любительська Мафія»: 8 to 15 players, the mafia, the commissar, the nurse.

What differs from crime-time, in the text's own order:
- the cards: two mafia below ten players, three from ten («Якщо гравців 10 та більше,
  вводять третього мафіозі»), one commissar, one nurse, no don; the first night the host meets
  the mafia, then the commissar, then the nurse; no kill;
- the day: whoever raises a hand first speaks first, each seat once; after a speech the table
  may put the one just accused up for the vote by thumbs, and a seat may give its thumb after
  any number of speeches; the two most put up (three when more than ten are at the table) get
  30 s to justify themselves and are voted on, one hand each, those not raised counting for the
  last; one seat put up: no vote, «місто прожило день без жертв»;
- the eliminated open their card: the narrator names the role; only the commissar has a final
  word. «Для ускладнення гри можна усувати з гри без відкриття картки»: with the club option
  ``cards = "closed"`` they leave without it, said as crime-time says it («Игрок номер …
  покидает стол»; a night's victim: only the night's result);
- a night: the mafia agree and point at their victim (none: a miss); the commissar checks (the
  host's nod: is it the mafia); the nurse heals a seat, herself too, and the victim she guesses
  is not shot;
- the end: the city wins when no mafia is left; the mafia when no civilian is, or when two are
  left, one of them a mafioso — not when they are as many as the city.

Where the text is silent (see docs/rulesets.md): thumbs add up over the day, and a tie at the cut of
the two (three) goes to the one put up first; the candidates are voted on in the order they were
first put up; a tie in the vote sends nobody out; speeches are 60 s with «Десять секунд», the
final word 60 s; a night's kill decided by nobody is a miss, said at day as crime-time says it;
with the cards closed the commissar keeps his final word (the text gives it without condition:
in it he tells his checks, so he makes himself known).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import ClassVar

from narrator.engine.rules import NamedLength, Rules, register
from narrator.engine.steps import (
    Announce,
    DayStep,
    NightStep,
    Resolve,
    Speeches,
    StepFigure,
    VoteStep,
    Wake,
)
from narrator.engine.types import Act, Actor, Exit, Role, Team
from narrator.engine.verdict import Verdict, VoteState
from narrator.reasons import Reason

_DAY: tuple[DayStep, ...] = (Speeches("day", order="floor", put_up=True, announce=True),
                             VoteStep(justify=True))


@register
class Amateur(Rules):
    """«любительська Мафія»."""

    name = "amateur"
    #: «Кількість гравців: од 8 до 15 чоловік … Оптимально: 10 + 1»
    seats = 10
    min_seats = 8
    max_seats = 15
    roles: ClassVar[dict[Role, int]] = {Role.MAFIA: 2, Role.COMMISSAR: 1, Role.NURSE: 1}
    checkers = (Role.COMMISSAR,)
    first_night = ("night", "dealing", "mafia_meets", "commissar_meets", "nurse_meets",
                   "nurse_sleeps")
    #: the text gives no figures for the nights: what a host takes
    meet_seconds: ClassVar[float] = 10.0
    mafia_meets_seconds: ClassVar[float] = 20.0
    first_night_figures: ClassVar[Mapping[str, StepFigure]] = {
        **Rules.first_night_figures, "mafia_meets": StepFigure("mafia_meets_seconds"),
        "commissar_meets": StepFigure("meet_seconds"), "nurse_meets": StepFigure("meet_seconds")}
    agreement_seconds = 30.0
    #: «протягом 30 секунд виправдати себе»
    justify_seconds = 30.0
    own_figures = ("mafia_meets_seconds", "meet_seconds", "floor_seconds", "put_up_seconds",
                   "justify_seconds")
    nominations = False
    #: its day 1 is every day's: thumbs put up, and a tie sends nobody out — there is no
    #: question for a lift to stand on
    own_first_day = "it puts up by thumbs and has no question for the tied"
    #: 6.3: no circle to rotate: speeches go by raised hands
    fixed_groups: ClassVar[Mapping[str, str]] = {
        "rotation": "has no circle: speeches go by raised hands"}
    reveal_cards = True
    #: the text has no removals; a removal does not cancel the day's vote
    monster_rule = False
    split_on_four = "allowed"  # 7.22.1

    night_keys = frozenset({"mafia", "commissar", "nurse"})
    script_keys = Rules.script_keys - {"crash"} | {"put_up"}

    lines: ClassVar[Mapping[str, tuple[str, ...]]] = {
        # the first night
        "phase.mafia_meets": ("amateur.mafia_wakes",),
        "phase.commissar_meets": ("amateur.mafia_sleeps", "amateur.commissar_wakes"),
        "phase.nurse_meets": ("amateur.commissar_sleeps", "amateur.nurse_wakes"),
        "phase.nurse_sleeps": ("amateur.nurse_sleeps",),
        # the nights
        "phase.mafia_chooses": ("amateur.mafia_wakes", "amateur.mafia_choose"),
        "missed.mafia": (),
        "phase.commissar_check": ("amateur.mafia_sleeps", "amateur.commissar_wakes"),
        "phase.nurse_heals": ("amateur.commissar_sleeps", "amateur.nurse_wakes"),
        "night_saved": ("amateur.nurse_saved",),
        # the day
        "day_opens": ("amateur.raise_hands",),
        "single_put_up": ("amateur.single_candidate",),
        # nobody nominates: the two (three) most put up are voted on, «Голосуються на усунення»
        "nominated.{n}": ("amateur.vote_on",),
        "justify.{n}": ("amateur.justify.{n}",),
        "tie_stays": ("amateur.tie_stays",),
        "leaves.{n}": (),  # «…, откройте карту и покиньте стол» says it
        "open_card.{n}": ("amateur.open_card.{n}",),
        "card.civilian": ("amateur.card.civilian",),
        "card.mafia": ("amateur.card.mafia",),
        "card.commissar": ("amateur.card.commissar",),
        "card.nurse": ("amateur.card.nurse",),
        "last_word.{n}": ("amateur.final_word.{n}",),
        "win_civilians": ("amateur.win_civilians",),
        "win_mafia_stalemate": ("amateur.win_mafia_stalemate",),
    }
    open_card_lines = frozenset({"leaves.{n}"})
    #: the one line above that names a length (none of crime-time's: amateur never says them)
    named_lengths: ClassVar[Mapping[str, NamedLength]] = {
        "amateur.justify.{n}": NamedLength("justify_seconds", 30.0,
                                           "amateur.justify_no_length.{n}"),
    }

    def composition(self, seats: int) -> dict[Role, int]:
        """«Кількість мафіозі до 10 гравців становить 2 чоловіка. Якщо гравців 10 та більше,
        вводять третього мафіозі»."""
        return {Role.MAFIA: 3 if seats >= 10 else 2, Role.COMMISSAR: 1, Role.NURSE: 1}

    def check_refusal(self, checker: int | None, target: int,
                      known_out: Mapping[int, Exit]) -> Reason | None:
        """The text (004) is silent on whom the commissar may check; our decision: not himself
        (``own_seat``: nothing to learn), not a seat the table knows is out (``target_out``:
        with closed cards the check would tell the card of one the table never saw). Tonight's
        victim is not known yet: he stays (leaving him out would tell the kill)."""
        if target == checker:
            return Reason.OWN_SEAT
        if target in known_out:
            return Reason.TARGET_OUT
        return None

    def night_steps(self, night: int, alive: Callable[[Role], bool]) -> tuple[NightStep, ...]:
        return _night_steps(self)

    def day_steps(self, day: int) -> tuple[DayStep, ...]:
        return _DAY

    def last_word(self, role: Role, team: Team, how: Exit) -> bool:
        """«Комісар, якщо його усунено з гри, має право заключного слова»; everybody else
        leaves at once («негайно вийти з-за грального столу»)."""
        return role is Role.COMMISSAR and how is not Exit.REMOVED

    def ballot(self, day: int, living: tuple[int, ...], nominated: tuple[int, ...],
               put_up: Mapping[int, int]) -> tuple[int, ...]:
        """«Голосуються на усунення з гри тільки два гравця (три, якщо гравців більше десяти),
        які набрали найбільшу кількість голосів під час виставлення»: by the day's thumbs, a
        tie at the cut to the one put up first; voted on in the order they were put up."""
        at_table = [s for s in put_up if s in living]
        order = {seat: i for i, seat in enumerate(at_table)}
        size = 3 if len(living) > 10 else 2
        chosen = sorted(at_table, key=lambda s: (-put_up[s], order[s]))[:size]
        return tuple(sorted(chosen, key=order.__getitem__))

    def no_vote(self, day: int, candidates: tuple[int, ...]) -> str | None:
        """«Якщо містяни виставили тільки одного гравця, то голосування не проводиться»."""
        return "single_put_up" if len(candidates) == 1 else None

    def verdict(self, vote: VoteState) -> Verdict:
        """The most votes leaves; a tie: nobody (the text plays no tie out)."""
        leaders = vote.leaders
        if len(leaders) == 1:
            return Verdict(out=leaders)
        return Verdict(tie_stays=leaders)

    def tie_goes_to_crash(self, rnd: int, leaders: tuple[int, ...],
                          candidates: tuple[int, ...]) -> bool:
        return False

    def winner(self, black: int, red: int) -> Team | None:
        """«Мафії – усунути з гри всіх мирних мешканців»; «Мафія перемогла, якщо … залишається
        двоє гравців, один з яких мафіозі»; the city when no mafia is left."""
        if black == 0:
            return Team.RED
        if red == 0 or (black == 1 and red == 1):
            return Team.BLACK
        return None

    def why_won(self, winner: Team, black: int, red: int) -> str:
        return "stalemate" if winner is Team.BLACK and red == 1 else ""


_NIGHTS: dict[type[Amateur], tuple[NightStep, ...]] = {}


def _night_steps(rules: Amateur) -> tuple[NightStep, ...]:
    """The same steps every night: made once per ruleset (and its tuned figures)."""
    steps = _NIGHTS.get(type(rules))
    if steps is None:
        steps = _NIGHTS[type(rules)] = (
            Wake(Actor.MAFIA, (Act.KILL,), rules.agreement_seconds, "mafia_chooses"),
            Wake(Actor.COMMISSAR, (Act.CHECK,), rules.check_seconds, "commissar_check"),
            Wake(Actor.NURSE, (Act.SAVE,), rules.check_seconds, "nurse_heals"),
            Announce("nurse_sleeps"),
            Resolve(),
        )
    return steps
