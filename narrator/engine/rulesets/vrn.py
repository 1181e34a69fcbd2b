"""«mafia vrn» with the doctor and the maniac (the first part of the club's text).

What differs from crime-time, in the text's own order:
- the cards: the don and two mafia, the sheriff, the doctor, the maniac, four civilians; the
  first night «У місті настала ніч, все закрили очі і наділи маски», the cards, «Мафія
  знайомиться, дон позначається», then the sheriff, the doctor and the maniac each raise a
  finger; the host decides the maniac's side (dealt at random, or given) and announces it;
- day 1 is «коло уявлення»: 30 s for each seat from seat 1, no vote, and the city sleeps;
- a night: «У місті настала ніч і прокинулася мафія»; the don decides the victim (30 s, or
  «Мафія не домовилась»: a miss); with the don out the mafia hunts by the count, as crime-time;
  the don looks for the sheriff; the sheriff checks (the maniac is never found: "not black") or
  shoots, and his victim joins the mafia's; the maniac kills; the doctor is told how many are on
  the stretcher and saves one of them — each seat once in a game: a seat saved before gets
  crossed arms and the night's other victim is saved instead;
- the morning: «Дякую, Доктор. Місто, доброго ранку. Сьогодні не прокинувся номер …»; a
  victim has 30 s for a testament, but for the mafia's cards, the sheriff and a maniac playing
  for the mafia, who leave in silence;
- the discussion: 60 s each, «дякую» at the end; no nominations; a hand held up through the
  round gets 30 s more after it;
- the vote: every living seat is voted against («Хто голосує проти номера …?»), each seat's
  hand once, mandatory (a hand not raised counts against the last seat called); one leader
  justifies for a minute (once a game) and is voted on again, alone: fewer votes than the
  first time and he stays, else he leaves; one who has justified before and leads again leaves
  at once; two tied justify and are voted on again (a tie again: everybody stays); three or
  more tied: everybody stays, «місто не домовилося»;
- the end: no black seat left — the city wins; as many black as red — the mafia wins; a maniac
  playing for the mafia counts as black, so the city plays on until he is out.

Where the text is silent (see docs/rulesets.md): the voted out have no last word (they had their
justification); the count hunt when the don is out keeps crime-time's figures; the sheriff
checks or shoots, not both; a seat killed twice in a night is one victim; with three victims
and the picked one saved before, the first other victim of the night not saved before is saved.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import ClassVar

from narrator.engine.rules import NamedLength, Rules, register
from narrator.engine.steps import (
    Announce,
    DayStep,
    ExtraStep,
    HuntStep,
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

_INTRO: tuple[DayStep, ...] = (Speeches("intro", announce=True), Announce("intro_over"))
_DAY: tuple[DayStep, ...] = (Speeches("day", announce=True), ExtraStep(), VoteStep())


@register
class Vrn(Rules):
    """«mafia vrn» with the doctor and the maniac."""

    name = "vrn"
    #: «Кількість учасників - 10 осіб»
    min_seats = 10
    max_seats = 10
    roles: ClassVar[dict[Role, int]] = {
        Role.DON: 1, Role.MAFIA: 2, Role.SHERIFF: 1, Role.DOCTOR: 1, Role.MANIAC: 1}
    #: «Ведучий вирішує, а потім оголошує, на чиєму боці буде грати Маніяк»
    dealt_choices: ClassVar[Mapping[str, tuple[str, ...]]] = {"maniac_side": ("city", "mafia")}
    first_night = ("night", "masks", "dealing", "mafia_meets", "sheriff_noted", "doctor_noted",
                   "maniac_noted", "maniac_side")
    #: the text gives no figures for the first night's steps: what a host takes
    mafia_meets_seconds: ClassVar[float] = 20.0
    sheriff_first_night_seconds = 10.0
    noted_seconds: ClassVar[float] = 10.0
    first_night_figures: ClassVar[Mapping[str, StepFigure]] = {
        **Rules.first_night_figures, "mafia_meets": StepFigure("mafia_meets_seconds"),
        "doctor_noted": StepFigure("noted_seconds"), "maniac_noted": StepFigure("noted_seconds")}
    #: «Якщо протягом 30 секунд чорна команда не дійшла згоди …»
    decision_seconds: ClassVar[float] = 30.0
    own_figures = ("mafia_meets_seconds", "noted_seconds", "decision_seconds", "intro_seconds",
                   "extra_seconds", "extra_window_seconds", "justify_seconds")
    #: «60 секунд для своєї мови»; «дякую» at 60 s, no «Десять секунд»
    speech_warning = None
    #: «30 секунд, щоб оголосити свій заповіт»
    last_word_seconds = 30.0
    #: «є хвилина на виправдання»
    justify_seconds = 60.0
    nominations = False
    #: day 1 is the introduction round («Знайомство починаємо з гравця під номером один»): no
    #: discussion to nominate in, no vote to change
    own_first_day = "its day 1 is the introduction round"
    #: 6.3: «Обговорення першого кола починається з гравця номер один», then from the seat
    #: after the last opener (:meth:`day_opener`)
    fixed_groups: ClassVar[Mapping[str, str]] = {
        "rotation": "opens each round its own way (day 2 from seat 1)"}
    shows_victims = True
    morning_phase = "morning"
    #: the text has no removals; a removal does not cancel the day's vote
    monster_rule = False
    split_on_four = "allowed"  # 7.22.1

    night_keys = frozenset({"mafia", "shots", "don", "sheriff", "sheriff_shot", "maniac",
                            "doctor"})
    header_keys = frozenset({"maniac_side"})
    script_keys = Rules.script_keys - {"crash"} | {"extra"}

    lines: ClassVar[Mapping[str, tuple[str, ...]]] = {
        # the first night
        "night_falls": (),
        "city_sleeps": (),
        "phase.masks": ("vrn.night_masks",),
        "phase.mafia_meets": ("vrn.mafia_meets",),
        "mafia_sleeps_sheriff_wakes": ("vrn.mafia_sleeps_sheriff_wakes",),
        "phase.doctor_noted": ("vrn.sheriff_sleeps_doctor_wakes",),
        "phase.maniac_noted": ("vrn.doctor_sleeps_maniac_wakes",),
        "phase.maniac_side": (),
        "maniac_side.mafia": ("vrn.maniac_for_mafia",),
        "maniac_side.city": ("vrn.maniac_for_city",),
        # the introduction round
        "day_breaks": (),
        "intro_opens.{n}": ("vrn.intro_round",),
        "intro_speech.{n}": ("vrn.intro_speech.{n}",),
        "phase.intro_over": ("vrn.intro_over",),
        # the nights
        "phase.after_intro": ("vrn.night_mafia_wakes",),
        "phase.mafia_wakes": ("vrn.night_mafia",),
        "phase.mafia_decides": (),
        "missed.mafia": ("vrn.mafia_no_agreement",),
        "mafia_hunts": ("vrn.mafia_hunts",),
        "don_wakes": ("vrn.don_wakes",),
        "phase.sheriff_acts": ("vrn.don_sleeps_sheriff_wakes",),
        "phase.sheriff_wakes": ("vrn.mafia_sleeps_sheriff_wakes",),
        "phase.maniac_kills": ("vrn.sheriff_sleeps_maniac_wakes",),
        "missed.maniac": (),
        "phase.doctor_saves": ("vrn.maniac_sleeps_doctor_wakes",),
        "stretcher.0": ("vrn.stretcher.0", "vrn.who_to_save"),
        "stretcher.{n}": ("vrn.stretcher.{n}", "vrn.who_to_save"),
        # the morning
        "phase.morning": ("vrn.doctor_thanks_morning",),
        "killed.{n}": ("vrn.not_woken.{n}",),
        "miss": ("vrn.all_woke",),
        "night_saved": ("vrn.all_woke",),
        "last_word.{n}": ("vrn.testament.{n}",),
        "plays_on": ("vrn.maniac_remains",),
        # the discussion and the vote
        "day_opens.{n}": ("vrn.discussion_starts.{n}",),
        "extra_speech.{n}": ("vrn.extra_speech.{n}",),
        # the vote is against every seat, each called in turn: no candidates to announce
        "nominated.{n}": ("vrn.hands_off_vote",),
        "candidates.{n}": ("vrn.hands_off_vote",),
        "number.{n}": (),
        "number.and.{n}": (),
        "who_for.{n}": ("vrn.who_against.{n}",),
        "justify.{n}": ("vrn.justify.{n}",),
        "tie_speeches": ("vrn.tie_justify",),
        "stays.{n}": ("vrn.stays.{n}",),
        "tie_stays": ("vrn.city_disagreed",),
    }

    #: the lines above that name a length (none of crime-time's: vrn never says them)
    named_lengths: ClassVar[Mapping[str, NamedLength]] = {
        "vrn.intro_speech.{n}": NamedLength("intro_seconds", 30.0,
                                            "vrn.intro_speech_no_length.{n}"),
        "vrn.testament.{n}": NamedLength("last_word_seconds", 30.0,
                                         "vrn.testament_no_length.{n}"),
        "vrn.extra_speech.{n}": NamedLength("extra_seconds", 30.0,
                                            "vrn.extra_speech_no_length.{n}"),
        "vrn.justify.{n}": NamedLength("justify_seconds", 60.0, "vrn.justify_no_length.{n}"),
        "vrn.tie_justify": NamedLength("justify_seconds", 60.0, "vrn.tie_justify_no_length"),
    }

    def team(self, role: Role, dealt: Mapping[str, str]) -> Team:
        """A maniac playing for the mafia counts as black: «місто продовжує гру, поки не
        знищить маніяка»."""
        if role is Role.MANIAC and dealt.get("maniac_side") == "mafia":
            return Team.BLACK
        return role.team

    def night_steps(self, night: int, alive: Callable[[Role], bool]) -> tuple[NightStep, ...]:
        # the same few shapes night after night: each made once per ruleset (and its tuned
        # figures), so that the game's record of a night is laid out once too
        don = alive(Role.DON)
        shape = (type(self), night == 2, don, not don and alive(Role.MAFIA))
        steps = _NIGHTS.get(shape)
        if steps is None:
            steps = _NIGHTS[shape] = self._night_steps(*shape[1:])
        return steps

    def _night_steps(self, after_intro: bool, don: bool, hunt: bool) -> tuple[NightStep, ...]:
        steps: list[NightStep] = [Announce("after_intro" if after_intro else "mafia_wakes")]
        if don:  # «Остаточне рішення залишається за Доном»
            steps.append(Wake(Actor.MAFIA, (Act.KILL,), self.decision_seconds, "mafia_decides"))
            steps.append(Wake(Actor.DON, (Act.CHECK,), self.check_seconds, "don_check"))
        elif hunt:  # «Якщо мирним жителям вдалося знищити Дона»: the count
            steps.append(HuntStep())
        steps += [
            Wake(Actor.SHERIFF, (Act.CHECK, Act.KILL), self.check_seconds,
                 "sheriff_acts" if don else "sheriff_wakes"),
            Wake(Actor.MANIAC, (Act.KILL,), self.check_seconds, "maniac_kills"),
            Wake(Actor.DOCTOR, (Act.SAVE,), self.check_seconds, "doctor_saves"),
            Resolve(),
        ]
        return tuple(steps)

    def save(self, pick: int, victims: tuple[int, ...],
             saved_before: frozenset[int]) -> tuple[int | None, Reason | None]:
        """«Кого будемо рятувати?»: one of the night's victims. «Кожного гравця можна врятувати
        тільки одного разу … автоматично буде врятована друга жертва цієї ночі»."""
        if pick not in victims:
            return None, Reason.NOT_A_VICTIM
        if pick not in saved_before:
            return pick, None
        other = next((v for v in victims if v != pick and v not in saved_before), None)
        return other, None

    def day_steps(self, day: int) -> tuple[DayStep, ...]:
        return _INTRO if day == 1 else _DAY

    def day_opener(self, day: int, previous: int | None, seats: int) -> int:
        """«Знайомство починаємо з гравця під номером один», «Обговорення першого кола
        починається з гравця номер один»; later rounds from the seat after the last opener."""
        if day <= 2 or previous is None:
            return 1
        return previous % seats + 1

    def last_word(self, role: Role, team: Team, how: Exit) -> bool:
        """A night's victim has a testament, «Якщо вночі було вбито члени мафії, шериф або
        маніяк-мафіозі, вони йдуть з-за столу мовчки»; the voted out have none."""
        if how not in self.kill_how.values():
            return False
        return team is Team.RED and role is not Role.SHERIFF

    def ballot(self, day: int, living: tuple[int, ...], nominated: tuple[int, ...],
               put_up: Mapping[int, int]) -> tuple[int, ...]:
        """«Хто голосує проти номера …?»: every seat at the table, in seat order."""
        return living

    def no_vote(self, day: int, candidates: tuple[int, ...]) -> str | None:
        return None

    def abstainers_to_last(self, rnd: int, candidates: tuple[int, ...]) -> bool:
        """«Голосування обов'язково для всіх»: a hand not raised counts against the last seat
        called — but in a re-vote of one, where it counts for nobody."""
        return len(candidates) > 1

    def verdict(self, vote: VoteState) -> Verdict:
        leaders = vote.leaders
        if vote.round == 1:
            if len(leaders) == 1:
                (seat,) = leaders
                if seat in vote.justified:  # «знову набере максимум … автоматично виходить»
                    return Verdict(out=leaders)
                return Verdict(speak=leaders, speech="justify", revote=leaders)
            if len(leaders) == 2:  # «у кожного з них є хвилина на виправдання»
                speak = tuple(s for s in leaders if s not in vote.justified)
                return Verdict(tie=leaders, speak=speak, speech="justify", revote=leaders)
            return Verdict(tie_stays=leaders)  # «місто не домовилося»
        if len(vote.candidates) == 1:
            # «Якщо в цей раз даний гравець набрав менше голосів, то він залишається»: fewer
            # than against him in the first round
            (seat,) = vote.candidates
            if vote.counts[seat] < vote.rounds[0][seat]:
                return Verdict(stays=vote.candidates)
            return Verdict(out=vote.candidates)
        if len(leaders) == 1:
            return Verdict(out=leaders)
        return Verdict(tie_stays=leaders)

    def tie_goes_to_crash(self, rnd: int, leaders: tuple[int, ...],
                          candidates: tuple[int, ...]) -> bool:
        return False


#: vrn's night steps by (ruleset, the night after the introduction, the don at the table, the
#: mafia hunting by the count)
_NIGHTS: dict[tuple[type[Vrn], bool, bool, bool], tuple[NightStep, ...]] = {}
