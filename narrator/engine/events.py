"""Events: what the engine reports after each action. One small typed vocabulary.

The host turns events into speech (``narrator.host.narration``), timers and the protocol; the
engine itself never says anything.
"""

from __future__ import annotations

from dataclasses import dataclass

from narrator.engine.types import Act, Actor, Exit, Role, SpeechKind, Team, Timer, quick_init
from narrator.reasons import Reason


@dataclass(frozen=True, slots=True)
class PhaseStarted:
    """A step of the night or the day begins (``name``: night, dealing, hunt, day, …)."""

    name: str
    number: int  # the night's or the day's number


@dataclass(frozen=True, slots=True)
class TimerStarted:
    """The host should run ``timer`` and answer ``TimeUp(timer.name)`` when it ends."""

    timer: Timer


@dataclass(frozen=True, slots=True)
class ShotsResolved:
    """The hunt's outcome (rule 2.1.2); not announced until day."""

    night: int
    target: int | None


@dataclass(frozen=True, slots=True)
class Checked:
    """A night check (rule 2.1.3): ``result`` is "is the sheriff" for the don, "is black" for the
    sheriff."""

    role: Actor
    target: int
    result: bool


@dataclass(frozen=True, slots=True)
class NightResult:
    """Announced at day (rule 2.2): a seat killed at night (one event per victim), or None for
    a night with no victim (``saved``: there was one, and the doctor or the nurse saved them)."""

    night: int
    killed: int | None
    saved: bool = False


@dataclass(frozen=True, slots=True)
class Declared:
    """Something dealt besides the cards is announced to the table (the maniac's side)."""

    name: str
    value: str


@dataclass(frozen=True, slots=True)
class Acted:
    """A night's kill or save (``act``), known to the host only until day."""

    role: Actor
    act: Act
    target: int


@dataclass(frozen=True, slots=True)
class Saved:
    """The save of the night: ``role`` picked ``target`` and ``saved`` is saved (another
    victim when ``target`` had been saved before; None: nobody)."""

    role: Actor
    target: int
    saved: int | None


@dataclass(frozen=True, slots=True)
class Missed:
    """``role`` woke to kill and killed nobody («Мафія не домовилась»)."""

    role: Actor


@dataclass(frozen=True, slots=True)
class Victims:
    """Shown to the one who saves: ``count`` victims this night («на носилках двоє»)."""

    count: int


@dataclass(frozen=True, slots=True)
class CardShown:
    """An eliminated player opens their card; the narrator names the role."""

    seat: int
    role: Role

    def __repr__(self) -> str:  # the card as its string (the recorded games')
        return f"CardShown(seat={self.seat!r}, role={self.role.value!r})"


@dataclass(frozen=True, slots=True)
class SpeechesBegin:
    """A round of speeches (``kind`` day or intro) begins; ``first`` speaks first (None: by
    raised hands)."""

    kind: SpeechKind
    first: int | None


@dataclass(frozen=True, slots=True)
class SpeechStarted:
    """``kind`` is "day" (2.3), "last" (last word, 2.2/2.4), "tie" (2.4.1), "intro", "extra",
    "justify" or "leader" (a first day's single leader, who stays)."""

    seat: int
    kind: SpeechKind


@dataclass(frozen=True, slots=True)
class SpeechEnded:
    seat: int
    early: bool  # ended by «Спасибо» / «Пас» (or a removal), not by the timer


@dataclass(frozen=True, slots=True)
class Nominated:
    """«Принято» (rule 2.3.1)."""

    seat: int
    target: int


@dataclass(frozen=True, slots=True)
class Withdrawn:
    """«Снято» (rule 2.3.2)."""

    seat: int
    target: int


@dataclass(frozen=True, slots=True)
class Replaced(Withdrawn):
    """7.5.2: the speaker's nomination withdrawn by his next one («Оно происходит
    автоматически при следующем выставлении»): a withdrawal, of which nothing is said — the
    new one's «Принято» tells it."""


quick_init(Replaced)


@dataclass(frozen=True, slots=True)
class Refused:
    """An input the engine did not act on, with a stable reason code (docs/formats.md, "Reason codes")."""

    seat: int | None
    kind: str
    target: int | None
    reason: Reason


@dataclass(frozen=True, slots=True)
class PutUpCounted:
    """Thumbs for putting ``target`` up after a speech: ``thumbs`` now, ``total`` today."""

    target: int
    thumbs: int
    total: int


@dataclass(frozen=True, slots=True)
class VotingCancelled:
    """No vote today: ``reason`` is no_candidates, single_candidate_day1 (2.2.1), monster
    (2.4.3), first_day (the club option ``first_day = "none"``: day 1 never votes) or a reason
    of another ruleset's."""

    reason: str


@dataclass(frozen=True, slots=True)
class VotingStarted:
    """A round of voting (2.4, 2.4.1) over ``candidates`` in order of nomination, or in the
    reverse of the previous round's (``reverse``: the club's ``split_order``, 7.18.2)."""

    round: int
    candidates: tuple[int, ...]
    reverse: bool = False

    def __repr__(self) -> str:  # the order said only when reversed (the recorded games')
        more = ", reverse=True" if self.reverse else ""
        return f"VotingStarted(round={self.round!r}, candidates={self.candidates!r}{more})"


@dataclass(frozen=True, slots=True)
class VoteCall:
    """«Кто за то, чтобы стол покинул игрок номер …?»"""

    candidate: int


@dataclass(frozen=True, slots=True)
class VoteCounted:
    """«Спасибо» and the count for one candidate (abstainers included for the last one)."""

    candidate: int
    votes: int


@dataclass(frozen=True, slots=True)
class Tie:
    """Several candidates share the most votes (2.4.1)."""

    candidates: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TieStays:
    """A tie the ruleset does not play out: every candidate stays, night falls."""

    candidates: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Unopposed:
    """The only candidate leaves without a vote (the ruleset's
    :meth:`~narrator.engine.rules.Rules.lone_candidate_leaves`)."""

    candidate: int


@dataclass(frozen=True, slots=True)
class Stays:
    """The vote ends with nobody out: ``reason`` fewer_votes, the justified candidate got fewer
    votes in the re-vote than before; first_day, the single leader of a round of day 1 the
    club's ``first_voting`` keeps (7.16.2 "to_talk", which is ``first_day = "lift_only"``, and
    7.16.4 "breaking_to_themself": he then speaks; 7.16.3 "no_breaking": night falls).
    (A tie not played out is :class:`TieStays`.)"""

    seats: tuple[int, ...]
    reason: str


@dataclass(frozen=True, slots=True)
class CrashStarted:
    """The car crash question (2.4.2)."""

    candidates: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class CrashResult:
    votes_for: int
    votes_against: int
    passed: bool


@dataclass(frozen=True, slots=True)
class CrashNotApplied:
    """No car crash for the tied, everybody stays and night falls; ``why``: four, 2.4.2 does
    not apply with exactly four at the table (7.22.2); nine, three of nine tied (7.23.2);
    all, the whole table tied (7.21.1)."""

    candidates: tuple[int, ...]
    why: str = "four"

    def __repr__(self) -> str:  # four (the recorded games') unnamed
        more = "" if self.why == "four" else f", why={self.why!r}"
        return f"CrashNotApplied(candidates={self.candidates!r}{more})"


@dataclass(frozen=True, slots=True)
class SeatOut:
    """``seat`` leaves the game; ``how`` is the :class:`Exit` (shot, vote, crash, removed,
    maniac or sheriff_shot)."""

    seat: int
    how: Exit


@dataclass(frozen=True, slots=True)
class Fouled:
    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class SpeechSkipped:
    """With the sport fouls option: a 3rd foul costs ``seat`` this discussion speech;
    ``nominates``: he may still nominate in a short window (9.5.1 «остается право выставить
    кандидатуру»)."""

    seat: int
    nominates: bool = False


@dataclass(frozen=True, slots=True)
class SpeechCut:
    """With the sport fouls option: a 3rd foul cuts ``seat``'s discussion speech to 30 s
    (9.5.2; 9.5.1 with three or four players at the table)."""

    seat: int


@dataclass(frozen=True, slots=True)
class TechFouled:
    """9.6.2: a technical foul to ``seat``, counted apart from the fouls (the 2nd removes)."""

    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class BestMoveAsked:
    """With the best move option: the first-night victim may name three seats («лучший ход»)
    before the last word."""

    seat: int


@dataclass(frozen=True, slots=True)
class BestMoveNamed:
    """The three seats the first-night victim named; ``black`` of them are black."""

    seat: int
    named: tuple[int, ...]
    black: int


@dataclass(frozen=True, slots=True)
class OnRecordLeft:
    """The club's ``on_record`` (6.7): the speaker on ``seat`` left these colours on record
    (said aloud: public), as the host entered them."""

    seat: int
    red: tuple[int, ...]
    black: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GameOver:
    """``winner`` is the :class:`Team`: the civilians or the mafia (rules 1.2, 1.3), or a draw
    (7.21.2: the whole table voted out together); ``why``, when the ruleset names one, how
    they won ("stalemate")."""

    winner: Team
    why: str = ""


@dataclass(frozen=True, slots=True)
class PlaysOn:
    """The mafia's cards are all out, yet a seat playing for the mafia (the maniac) is not:
    the city plays on."""


@dataclass(frozen=True, slots=True)
class Marked:
    """The host's marks for ``seat`` after the game (:class:`~narrator.engine.actions.Mark`);
    nothing given takes the seat's earlier marks away."""

    seat: int
    points: float
    titles: tuple[str, ...]
    comment: str


Event = (
    PhaseStarted | TimerStarted | ShotsResolved | Checked | NightResult | Declared | Acted
    | Saved | Missed | Victims | CardShown | SpeechesBegin | SpeechStarted | SpeechEnded
    | Nominated | Withdrawn | Refused | PutUpCounted | VotingCancelled | VotingStarted | VoteCall
    | VoteCounted | Tie | TieStays | Unopposed | Stays | CrashStarted | CrashResult
    | CrashNotApplied | SeatOut | Fouled | SpeechSkipped | SpeechCut | TechFouled | BestMoveAsked
    | BestMoveNamed | OnRecordLeft | PlaysOn | GameOver | Marked
)


for _event in Event.__args__:  # every event is made often: see quick_init
    quick_init(_event)
