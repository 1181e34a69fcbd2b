"""The broadcast's picture of a game: every seat's nickname and card, the night acts, the
timer, the speaker, the nominations and the votes — as a typed value, read from the game's
record (nothing here changes a game).

Unlike every screen of the table (:mod:`narrator.console.views`), this one holds every secret:
it is made for the stream's viewers only, and reaches them late (:mod:`narrator.broadcast.feed`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, assert_never

from narrator.bidi import neutral
from narrator.console.view import Part, to_json
from narrator.engine import Act, Actor, Exit, Game, Role, Team
from narrator.engine import waits as w
from narrator.host.host import Host

#: the scenes a stream switches between (OBS's scenes: docs/broadcast.md)
Scene = Literal["night", "day", "vote", "over", "standings"]
SCENES: tuple[Scene, ...] = ("night", "day", "vote", "over", "standings")


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatShot(Part):
    """One seat as the viewers see it: nickname, card, side, how it left, its fouls."""

    seat: int
    name: str
    role: Role
    black: bool
    out: Exit | None
    fouls: int


@dataclass(frozen=True, slots=True, kw_only=True)
class NightAct(Part):
    """A night act the game took: the hunt's shot (``role`` the mafia, ``act`` "shot"; target
    None: a miss), a check and its answer, a kill, a save."""

    night: int
    role: Actor
    act: Act | Literal["shot"]
    target: int | None
    result: bool | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class TimerShot(Part):
    """The running timer as deadlines on the table's clock (the page counts on the delayed
    one)."""

    name: str
    starts: float
    ends: float


@dataclass(frozen=True, slots=True, kw_only=True)
class VoteShot(Part):
    """A vote round of the day: its candidates and the votes for each, as the protocol has
    them; ``abstained``: of the last candidate's, the hands not raised (2.4)."""

    day: int
    candidates: tuple[int, ...]
    votes: dict[str, int]
    abstained: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class Snapshot(Part):
    """The whole game at one moment of the table's clock (``at``)."""

    at: float
    scene: Scene
    phase: str
    step: str
    label: str
    speaker: int | None
    seats: tuple[SeatShot, ...]
    nominations: tuple[tuple[int, int], ...]
    candidates: tuple[int, ...]
    voting: int | None
    #: the hands for ``voting`` (the car crash's: for all its candidates)
    hands: tuple[int, ...]
    #: the round in progress: each candidate's hands so far, by seat (the engine's record of
    #: the round, never another candidate's)
    round_hands: dict[str, tuple[int, ...]]
    #: 2.4: the hands not raised that the last candidate's count will add
    abstaining: int
    votes: tuple[VoteShot, ...]
    night_acts: tuple[NightAct, ...]
    timer: TimerShot | None
    winner: Team | None
    #: the words the page shows the codes in (its script looks them up: narrator/words.py)
    lang: str = "ru"


def scene_of(game: Game) -> Scene:
    """The scene the game is in: over, a vote (or the car crash), night or day."""
    exp = game.expect
    match exp:
        case w.Over() if game.is_over:
            return "over"
        case w.Vote() | w.Crash():
            return "vote"
        case (w.Over() | w.Pause() | w.Deal() | w.Speech() | w.Hunt() | w.NightAct() | w.Floor()
              | w.PutUp() | w.Extra()):
            return "night" if game.phase.is_night else "day"
        case _:
            assert_never(exp)


def _seats(game: Game) -> tuple[SeatShot, ...]:
    return tuple(SeatShot(seat=s, name=neutral(game.names.get(s, "")), role=game.roles[s],
                          black=game.team(s) is Team.BLACK, out=game.how_out(s),
                          fouls=game.fouls.get(s, 0))
                 for s in range(1, game.seats + 1))


def _night_acts(game: Game) -> tuple[NightAct, ...]:
    """The shots of each night's hunt, then every role's act, in the night's order."""
    acts: list[NightAct] = []
    for night in game.nights:
        acts.append(NightAct(night=night.number, role=Actor.MAFIA, act="shot",
                             target=night.shot))
        acts.extend(NightAct(night=a.night, role=a.role, act=a.act, target=a.target,
                             result=a.result)
                    for a in game.night_acts if a.night == night.number)
    # (the first night's acts: the don's and the sheriff's looks of a ruleset with them)
    first = [NightAct(night=a.night, role=a.role, act=a.act, target=a.target, result=a.result)
             for a in game.night_acts if a.night not in {n.number for n in game.nights}]
    return tuple(first + acts)


def _votes(game: Game) -> tuple[VoteShot, ...]:
    return tuple(VoteShot(day=day.number, candidates=tuple(r.candidates),
                          votes={str(c): r.votes.get(c, 0) for c in r.candidates},
                          abstained=r.abstained)
                 for day in game.days for r in day.rounds)


def snapshot_of(host: Host, lang: str = "ru") -> Snapshot:
    """The game on ``host`` now (read on the loop's thread)."""
    game = host.game
    exp = game.expect
    t = host.timer
    label_lang: w.Lang = "uk" if lang == "uk" else "ru"
    return Snapshot(
        at=round(host.now(), 3), scene=scene_of(game), phase=str(game.phase), step=exp.tag,
        label=exp.label(label_lang),
        speaker=exp.seat if isinstance(exp, w.Speech) else None,
        seats=_seats(game), nominations=tuple(game.nominations),
        candidates=tuple(game.voting_candidates if isinstance(exp, w.Vote | w.Crash)
                         else game.candidates),
        voting=exp.candidate if isinstance(exp, w.Vote) else None,
        hands=(game.round_hands.get(exp.candidate, ()) if isinstance(exp, w.Vote) else
               tuple(sorted(game.step_hands)) if isinstance(exp, w.Crash) else ()),
        round_hands={str(c): h for c, h in game.round_hands.items()},
        abstaining=game.abstaining,
        votes=_votes(game), night_acts=_night_acts(game),
        timer=(TimerShot(name=t.name, starts=round(host.timer_started, 3),
                         ends=round(host.timer_started + t.seconds, 3))
               # (a step that waits for inputs, the deal for every card: no time runs)
               if t is not None and host.timer_runs and not game.is_over else None),
        winner=game.winner, lang=label_lang)


@dataclass(frozen=True, slots=True, kw_only=True)
class StandingRow(Part):
    """One player's line of the evening's standings."""

    place: int
    name: str
    games: int
    wins: int
    points: float


@dataclass(frozen=True, slots=True, kw_only=True)
class Standings(Part):
    """The evening's table between games (the evening's results)."""

    at: float
    scene: Scene
    games: int
    rows: tuple[StandingRow, ...]
    lang: str = "ru"


def as_json(value: Part) -> dict[str, Any]:
    """A snapshot's JSON, as the page gets it."""
    out = to_json(value)
    assert isinstance(out, dict)
    return out
