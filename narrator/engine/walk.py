"""The walk over a game's history that the MafiaRatings record is read from.

The protocol has totals only, so the record is built from the game's history: the same actions
are applied again to a fresh game of the same deal, and each action is read together with what
the game was waiting for when it came (whose speech, which candidate's voting window). The walk
collects, per day, the nominations standing when the discussion ended and each voting round's
hands; per night the shots and the checks; per seat the warnings, the removals and the colours
left on record. :mod:`narrator.replay.mafiaratings` makes the record of it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, assert_never

from narrator.engine import (
    Action,
    Actor,
    BestMove,
    Exit,
    Expect,
    Foul,
    Game,
    HandCount,
    Hands,
    OnRecord,
    Phase,
    Remove,
    Shot,
    TechFoul,
)
from narrator.engine import events as ev
from narrator.engine import waits as w

#: what the narrator's first night is doing, as MafiaRatings names the moments of round 0
_FIRST_NIGHT = {"dealing": "start", "don_noted": "start", "agreement": "arrangement",
                "sheriff_noted": "relaxed sitting"}


@dataclass
class Round:
    candidates: tuple[int, ...]
    hands: dict[int, int] = field(default_factory=dict)  # voter → candidate
    counted: bool = False  # hands counted without seats (host-assist)
    done: bool = False


@dataclass
class Day:
    nominations: list[tuple[int, int]] = field(default_factory=list)  # standing, in order
    settled: list[tuple[int, int]] | None = None  # as the discussion ended
    rounds: list[Round] = field(default_factory=list)
    cancelled: bool = False
    crash_for: set[int] | None = None  # seats «за» in the car crash, when there was one
    crash_voters: tuple[int, ...] = ()

    @property
    def voted(self) -> bool:
        """Whether a vote was held and not cancelled: MafiaRatings wants, for a round with
        nominations, a vote of every seat at the table (its ``check``: «did not vote in round
        … All votings are removed»), so a day without one keeps no nominations either."""
        return bool(self.rounds) and not self.cancelled


class Walk:
    """Applies a game's history to a fresh game of the same deal and collects per-player facts."""

    def __init__(self, game: Game) -> None:
        self.final = game
        # the same deal: the cards and what the ruleset dealt besides them (the maniac's side)
        self.game = Game(game.rules, seats=game.seats, roles=dict(game.roles),
                         dealt=dict(game.dealt))
        self.days: dict[int, Day] = {}
        self.shots: dict[int, dict[int, set[int]]] = {}  # night → shooter → targets
        self.hunters: dict[int, list[int]] = {}  # night → the mafia at the table for its hunt
        #: role → target → night (the don's and the sheriff's always; another checker's,
        #: amateur's commissar, when it checked)
        self.checks: dict[Actor, dict[int, int]] = {Actor.DON: {}, Actor.SHERIFF: {}}
        self.warnings: dict[int, list[dict[str, Any]]] = {}
        self.removed_at: dict[int, dict[str, Any]] = {}
        self.by_fouls: set[int] = set()  # removed by the 4th foul
        #: 9.6.2: the technical fouls (each with its moment), and the seats the 2nd removed
        self.tech_fouls: dict[int, list[dict[str, Any]]] = {}
        self.by_tech_fouls: set[int] = set()
        self.legacy: tuple[int, ...] | None = None
        #: the colours each seat left on record (6.7): MafiaRatings' ``record``, one per speech
        self.records: dict[int, list[dict[str, Any]]] = {}
        self._orders: dict[str, int] = {}
        self.game.start()
        for action in game.history:
            self._step(action)

    def day(self, n: int) -> Day:
        return self.days.setdefault(n, Day())

    # one action ------------------------------------------------------------------------------

    def _step(self, action: Action) -> None:
        g = self.game
        exp, phase = g.expect, g.phase
        living = tuple(g.living)
        number = phase.number
        moment = self._moment(exp, phase)
        if isinstance(action, Foul):
            self.warnings.setdefault(action.seat, []).append(self._ordered(moment))
        elif isinstance(action, TechFoul):
            self.tech_fouls.setdefault(action.seat, []).append(self._ordered(moment))
            if g.is_alive(action.seat) and g.tech_fouls.get(action.seat) == 1:
                self.by_tech_fouls.add(action.seat)  # (the 2nd removes, 9.6.2)
        elif isinstance(action, Remove):
            self.removed_at[action.seat] = self._ordered(moment)
            if self.game.fouls.get(action.seat, 0) >= 4:
                self.by_fouls.add(action.seat)
        elif isinstance(action, Shot) and action.shooter in living:
            self.shots.setdefault(number, {}).setdefault(action.shooter, set()).add(action.target)
        elif isinstance(action, BestMove):
            self.legacy = action.seats
        elif isinstance(action, OnRecord):
            self._on_record(action, moment)
        elif isinstance(action, Hands | HandCount) and isinstance(exp, w.Vote | w.Crash):
            day = self.day(number)
            if isinstance(exp, w.Crash):
                if day.crash_for is not None and isinstance(action, Hands):
                    day.crash_for.update(action.seats)
            elif day.rounds:
                rnd = day.rounds[-1]
                if isinstance(action, HandCount):
                    rnd.counted = True
                else:
                    for seat in action.seats:
                        rnd.hands.setdefault(seat, exp.candidate)  # 2.4: a second hand is ignored
        for event in g.apply(action):
            self._event(event, phase, number, living)

    def _event(self, event: ev.Event, phase: Phase, number: int,
               living: tuple[int, ...]) -> None:
        g = self.game
        match event:
            case ev.PhaseStarted(name="hunt", number=n):
                self.hunters[n] = [s for s in g.living if s in g.black]
            case ev.Nominated(seat=s, target=t):
                self.day(number).nominations.append((s, t))
            case ev.Withdrawn(seat=s, target=t):
                noms = self.day(number).nominations
                if (s, t) in noms:
                    noms.remove((s, t))
            case ev.SeatOut(seat=s, how=Exit.REMOVED) if phase.is_day:
                day = self.day(number)
                if day.settled is None:  # the engine drops a removed seat's candidacy
                    day.nominations = [(a, t) for a, t in day.nominations if t != s]
                if g.fouls.get(s, 0) >= 4:
                    self.by_fouls.add(s)
            case ev.VotingStarted(candidates=cands):
                day = self.day(number)
                self._settle(day)
                day.rounds.append(Round(cands))
            case ev.VotingCancelled():
                day = self.day(number)
                self._settle(day)
                if event.reason == "monster":
                    day.cancelled = True
            case ev.VoteCounted(candidate=c):
                day = self.day(number)
                rnd = day.rounds[-1]
                if c == rnd.candidates[-1]:  # 2.4: abstainers count for the last candidate
                    for seat in living:
                        rnd.hands.setdefault(seat, c)
                    rnd.done = True
            case ev.Unopposed(candidate=c):
                # the lone candidate leaves without hands: as MafiaRatings records such a
                # round, every seat at the table voted for him
                day = self.day(number)
                self._settle(day)
                day.rounds.append(Round((c,), {s: c for s in living}, done=True))
            case ev.CrashStarted():
                day = self.day(number)
                day.crash_for = set()
                day.crash_voters = tuple(g.living)
            case ev.Checked(role=role, target=t):
                self.checks.setdefault(role, {}).setdefault(t, number)
            case ev.Fouled(seat=s, count=4) if g.rules.fouls == "sport":
                self.by_fouls.add(s)
            case (ev.PhaseStarted() | ev.TimerStarted() | ev.ShotsResolved() | ev.NightResult()
                  | ev.Declared() | ev.Acted() | ev.Saved() | ev.Missed() | ev.Victims() |
                  ev.CardShown() | ev.SpeechesBegin() | ev.SpeechStarted() | ev.SpeechEnded() |
                  ev.Refused() | ev.PutUpCounted() | ev.VoteCall() | ev.Tie() | ev.TieStays() |
                  ev.Stays() | ev.CrashResult() | ev.CrashNotApplied() |
                  ev.SeatOut() | ev.Fouled() | ev.SpeechSkipped() | ev.SpeechCut() |
                  ev.TechFouled() | ev.BestMoveAsked() |
                  ev.BestMoveNamed() | ev.OnRecordLeft() | ev.PlaysOn() | ev.GameOver() |
                  ev.Marked()):
                pass  # what the format does not record, or records from the game itself
            case _:
                assert_never(event)

    def _settle(self, day: Day) -> None:
        if day.settled is None:
            day.settled = list(day.nominations)

    # moments (MafiaRatings' "gametime") ---------------------------------------------------------

    def _moment(self, exp: Expect, phase: Phase) -> dict[str, Any]:
        n = phase.number
        out: dict[str, Any] = {"round": n - 1}
        if phase.is_night:
            if n == 1:
                name = exp.timer.name if exp.timer is not None else "dealing"
                out["time"] = _FIRST_NIGHT.get(name, "start")
            elif isinstance(exp, w.NightAct) and exp.checks:
                out["time"] = exp.role
            else:
                out["time"] = "shooting"
            return out
        rounds = len(self.days[n].rounds) if n in self.days else 0
        match exp:
            case w.Speech(seat=seat, speech=speech):
                if speech == "day":
                    out["time"] = "speaking"
                elif speech == "tie":  # the split's speeches come before the next voting round
                    out.update(time="voting", votingRound=rounds)
                elif speech == "leader":  # a first day's leader speaks after the round he led
                    out.update(time="voting", votingRound=rounds - 1)
                elif self.final.how_out(seat) is Exit.SHOT:
                    out["time"] = "night kill speaking"
                else:
                    out["time"] = "day kill speaking"
                out["speaker"] = seat
            case w.Crash():
                out.update(time="voting kill all", votingRound=rounds)
            case w.Vote(candidate=cand):
                out.update(time="voting", votingRound=rounds - 1, nominee=cand)
            case (w.Pause() | w.Deal() | w.Hunt() | w.NightAct() | w.Floor() | w.PutUp()
                  | w.Extra() | w.Over()):
                out["time"] = "day start"
            case _:
                assert_never(exp)
        return out

    def _on_record(self, action: OnRecord, moment: dict[str, Any]) -> None:
        """The format's ``record`` of the speech: a seat left red as its number, black as its
        negative; entries of one speech are one record (a seat named again takes its new
        colour), as its judge app keeps them."""
        when = {k: v for k, v in moment.items() if k != "speaker"}
        records = self.records.setdefault(action.seat, [])
        if not records or {k: v for k, v in records[-1].items() if k != "record"} != when:
            records.append({**when, "record": []})
        left: list[int] = records[-1]["record"]
        for seat, sign in [*((x, 1) for x in action.red), *((x, -1) for x in action.black)]:
            left[:] = [n for n in left if abs(n) != seat]
            left.append(sign * seat)

    def _ordered(self, moment: dict[str, Any]) -> dict[str, Any]:
        """Several warnings at one moment keep their order (the format's ``order``)."""
        key = json.dumps(moment, sort_keys=True)
        self._orders[key] = self._orders.get(key, 0) + 1
        return {**moment, "order": self._orders[key]}
