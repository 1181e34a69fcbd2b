"""The MafiaRatings format: a finished game for a club's rating system.

MafiaRatings (mafiaratings.com) takes one game as a JSON object: the game's times, language and
winner, then ten players in seat order, each with the role, the death (round, type and, for a
removal, the moment), the warnings (each with its moment), the rounds in which the don or the
sheriff checked them, the best move, and per round how they nominated and voted and, for the
mafia, whom they shot. ``features`` lists, one letter each, which of these the record holds.
Rounds count from 0: round 0 is the dealing night and the first day, round N is night N+1 and
day N+1 of the narrator's numbering.

The protocol has totals only, so the record is built from the game's history: the same actions
are applied again to a fresh game of the same deal, and each action is read together with what
the game was waiting for when it came (whose speech, which candidate's voting window). What the
history cannot give is left out the way the format provides for it: votes that a human host
counted without naming the hands leave ``v`` (and ``k``) out of ``features`` and every player's
``voting`` out of the record; :attr:`MafiaRatingsGame.notes` says so.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, assert_never

from narrator.engine import (
    Action,
    BestMove,
    Expect,
    Foul,
    Game,
    HandCount,
    Hands,
    OnRecord,
    Phase,
    Remove,
    Role,
    Shot,
    Team,
    TechFoul,
)
from narrator.engine import events as ev
from narrator.engine import waits as w
from narrator.errors import NarratorError
from narrator.replay.source import GameSource

#: MafiaRatings' role names (its ``players[].role``)
_ROLE = {Role.CIVILIAN: "civ", Role.SHERIFF: "sheriff", Role.MAFIA: "maf", Role.DON: "don"}
#: its language codes (Ukrainian is "ua" there)
_LANGUAGE = {"ru": "ru", "uk": "ua"}
#: what the narrator's first night is doing, as MafiaRatings names the moments of round 0
_FIRST_NIGHT = {"dealing": "start", "don_noted": "start", "agreement": "arrangement",
                "sheriff_noted": "relaxed sitting"}
#: MafiaRatings' table: ten seats, 6 civilians, a sheriff, 2 mafia and a don
_DECK = {Role.CIVILIAN: 6, Role.SHERIFF: 1, Role.MAFIA: 2, Role.DON: 1}


# -- the walk over the history ------------------------------------------------------------------


@dataclass
class _Round:
    candidates: tuple[int, ...]
    hands: dict[int, int] = field(default_factory=dict)  # voter → candidate
    counted: bool = False  # hands counted without seats (host-assist)
    done: bool = False


@dataclass
class _Day:
    nominations: list[tuple[int, int]] = field(default_factory=list)  # standing, in order
    settled: list[tuple[int, int]] | None = None  # as the discussion ended
    rounds: list[_Round] = field(default_factory=list)
    cancelled: bool = False
    crash_for: set[int] | None = None  # seats «за» in the car crash, when there was one
    crash_voters: tuple[int, ...] = ()


@dataclass
class MafiaRatingsGame:
    """The record and what the format could not hold (one sentence each)."""

    record: dict[str, Any]
    notes: list[str]


class _Walk:
    """Applies a game's history to a fresh game of the same deal and collects per-player facts."""

    def __init__(self, game: Game) -> None:
        self.final = game
        self.game = Game(game.rules, seats=game.seats, roles=dict(game.roles))
        self.days: dict[int, _Day] = {}
        self.shots: dict[int, dict[int, set[int]]] = {}  # night → shooter → targets
        self.hunters: dict[int, list[int]] = {}  # night → the mafia at the table for its hunt
        self.checks: dict[str, dict[int, int]] = {"don": {}, "sheriff": {}}  # target → night
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

    def day(self, n: int) -> _Day:
        return self.days.setdefault(n, _Day())

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
            case ev.SeatOut(seat=s, how="removed") if phase.is_day:
                day = self.day(number)
                if day.settled is None:  # the engine drops a removed seat's candidacy
                    day.nominations = [(a, t) for a, t in day.nominations if t != s]
                if g.fouls.get(s, 0) >= 4:
                    self.by_fouls.add(s)
            case ev.VotingStarted(candidates=cands):
                day = self.day(number)
                self._settle(day)
                day.rounds.append(_Round(cands))
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
            case ev.CrashStarted():
                day = self.day(number)
                day.crash_for = set()
                day.crash_voters = tuple(g.living)
            case ev.Checked(role=role, target=t):
                self.checks[role].setdefault(t, number)
            case ev.Fouled(seat=s, count=4) if g.rules.fouls == "sport":
                self.by_fouls.add(s)
            case (ev.PhaseStarted() | ev.TimerStarted() | ev.ShotsResolved() | ev.NightResult()
                  | ev.Declared() | ev.Acted() | ev.Saved() | ev.Missed() | ev.Victims() |
                  ev.CardShown() | ev.SpeechesBegin() | ev.SpeechStarted() | ev.SpeechEnded() |
                  ev.Refused() | ev.PutUpCounted() | ev.VoteCall() | ev.Tie() | ev.TieStays() |
                  ev.Unopposed() | ev.Stays() | ev.CrashResult() | ev.CrashNotApplied() |
                  ev.SeatOut() | ev.Fouled() | ev.SpeechSkipped() | ev.SpeechCut() |
                  ev.TechFouled() | ev.BestMoveAsked() |
                  ev.BestMoveNamed() | ev.OnRecordLeft() | ev.PlaysOn() | ev.GameOver() |
                  ev.Marked()):
                pass  # what the format does not record, or records from the game itself
            case _:
                assert_never(event)

    def _settle(self, day: _Day) -> None:
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
                elif self.final.how_out(seat) == "shot":
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


# -- the record ------------------------------------------------------------------------------------


def _cut(values: list[Any]) -> list[Any]:
    while values and values[-1] is None:
        values.pop()
    return values


def mafiaratings(source: GameSource, *, start: datetime | None = None, club_id: int | None = None,
                 event_id: int | None = None) -> MafiaRatingsGame:
    """The game of ``source`` as MafiaRatings' game JSON; NarratorError if it cannot be one."""
    game = source.game
    if game.winner is None:
        raise NarratorError(f"{source.path}: the game is not over; only a finished game can be "
                            f"exported")
    if game.seats != 10 or _deck(game) != _DECK:
        raise NarratorError(f"{source.path}: MafiaRatings takes ten seats with 6 civilians, a "
                            f"sheriff, 2 mafia and a don; {_other_table(game)}")
    walk = _Walk(game)
    notes: list[str] = []
    if start is None:
        mtime = datetime.fromtimestamp(source.path.stat().st_mtime).astimezone()
        start = mtime - timedelta(seconds=source.seconds)
    end = start + timedelta(seconds=round(source.seconds))
    counted = sorted(n for n, d in walk.days.items() if any(r.counted for r in d.rounds))
    if counted:
        notes.append(f"the hands of day(s) {', '.join(map(str, counted))} were counted, not "
                     f"named: the export has no per-player votes (no \"v\" in features)")
    features = "gsdutc" + ("l" if game.rules.best_move else "") + "h"
    features += "" if counted else "vk"
    features += "nwr" + ("o" if game.rules.on_record != "none" else "")
    record: dict[str, Any] = {}
    if club_id is not None:
        record["clubId"] = club_id
    if event_id is not None:
        record["eventId"] = event_id
    record.update(
        features=features,
        startTime=start.isoformat(timespec="seconds"),
        endTime=end.isoformat(timespec="seconds"),
        language=_LANGUAGE.get(source.lang, source.lang),
        # include/game.php's API help: «Possible values: "civ", "maf", or "tie"» (a draw,
        # the catalogue's 7.21.2)
        winner=_WINNER[game.winner],
        players=[_player(game, walk, seat, votes=not counted, notes=notes)
                 for seat in range(1, game.seats + 1)],
    )
    return MafiaRatingsGame(record, notes)


_WINNER = {Team.RED: "civ", Team.BLACK: "maf", Team.DRAW: "tie"}


def _deck(game: Game) -> dict[Role, int]:
    """How many of each card the game dealt (civilians too), in the order cards are named."""
    order = list(Role)
    dealt = {role: sum(1 for r in game.roles.values() if r is role) for role in order}
    return {role: n for role, n in dealt.items() if n}


#: a card's name in the refusal, one and several
_CARD_WORDS = {Role.CIVILIAN: ("a civilian", "civilians"), Role.SHERIFF: ("a sheriff", "sheriffs"),
               Role.MAFIA: ("a mafioso", "mafia"), Role.DON: ("a don", "dons"),
               Role.DOCTOR: ("a doctor", "doctors"), Role.MANIAC: ("a maniac", "maniacs"),
               Role.COMMISSAR: ("a commissar", "commissars"), Role.NURSE: ("a nurse", "nurses")}


def _other_table(game: Game) -> str:
    """What the game has instead of MafiaRatings' table: the seats when they are not ten,
    else the cards (a vrn game has ten seats, and a doctor and a maniac)."""
    if game.seats != 10:
        return f"this game has {game.seats} seats ({game.rules.name})"
    cards = [_CARD_WORDS[role][0] if n == 1 else f"{n} {_CARD_WORDS[role][1]}"
             for role, n in _deck(game).items()]
    return f"this game's cards are {', '.join(cards[:-1])} and {cards[-1]} ({game.rules.name})"


def _player(game: Game, walk: _Walk, seat: int, *, votes: bool,
            notes: list[str]) -> dict[str, Any]:
    player: dict[str, Any] = {}
    if seat in game.names:
        player["name"] = game.names[seat]
    player["role"] = _ROLE[game.roles[seat]]
    out = game.out.get(seat)
    if out is not None:
        death: dict[str, Any] = {"round": out.phase.number - 1}
        how = out.how
        if how == "shot":
            death["type"] = "night"
        elif how in ("vote", "crash"):
            death["type"] = "day"
        elif seat in walk.by_fouls:
            death["type"] = "warnings"  # the 4th warning is the moment
        elif seat in walk.by_tech_fouls:
            death["type"] = "techFouls"  # 9.6.2: the 2nd technical foul is the moment
        else:
            death.update(type="kickOut", time=walk.removed_at[seat])
        player["death"] = death
    warnings = walk.warnings.get(seat, [])
    if warnings:
        player["warnings"] = warnings[:4]  # the format knows no 5th warning
    tech = walk.tech_fouls.get(seat, [])
    if tech:
        player["techFouls"] = tech[:2]  # the format's: the 2nd removes
    for role in ("don", "sheriff"):
        night = walk.checks[role].get(seat)
        if night is not None:
            player[role] = night - 1
    if walk.legacy is not None and out is not None and out.how == "shot" \
            and out.night == 2:
        player["legacy"] = list(walk.legacy)
    if walk.records.get(seat):
        player["record"] = walk.records[seat]
    if votes:
        voting = _cut([_vote(walk.days.get(n), seat) for n in range(1, _last_day(walk) + 1)])
        if voting:
            player["voting"] = voting
    nominating = _cut([_nomination(walk.days.get(n), seat, n, notes)
                       for n in range(1, _last_day(walk) + 1)])
    if nominating:
        player["nominating"] = nominating
    if seat in game.black:
        shooting = _cut([_shot(walk, night, seat) for night in range(2, _last_night(walk) + 1)])
        if shooting:
            player["shooting"] = shooting
    return player


def _last_day(walk: _Walk) -> int:
    return max(walk.days, default=0)


def _last_night(walk: _Walk) -> int:
    return max(walk.hunters, default=1)


def _vote(day: _Day | None, seat: int) -> Any:
    """One round's entry: the candidate, several when the table split, and the car-crash hand."""
    if day is None or day.cancelled:
        return None
    picks = [r.hands[seat] for r in day.rounds if r.done and seat in r.hands]
    if not picks:
        return None
    if day.crash_for is not None and seat in day.crash_voters:
        return [*picks, seat in day.crash_for]
    return picks[0] if len(picks) == 1 else picks


def _nomination(day: _Day | None, seat: int, number: int, notes: list[str]) -> int | None:
    """The candidate ``seat`` stood behind when the discussion ended; the format has one
    nominator per candidate, so a second nominator of the same seat keeps no entry."""
    if day is None:
        return None
    standing = day.settled if day.settled is not None else day.nominations
    first: dict[int, int] = {}
    for nominator, target in standing:
        first.setdefault(target, nominator)
    mine = next((t for s, t in standing if s == seat), None)
    if mine is None:
        return None
    if first[mine] != seat:
        notes.append(f"day {number}: seat {seat} also nominated {mine}, first nominated by "
                     f"{first[mine]}; the format keeps one nominator per candidate")
        return None
    return mine


def _shot(walk: _Walk, night: int, seat: int) -> int | None:
    """2.1.2 as the format has it: the seat shot, or null for no shot or several."""
    if seat not in walk.hunters.get(night, []):
        return None
    aimed = walk.shots.get(night, {}).get(seat, set())
    return next(iter(aimed)) if len(aimed) == 1 else None
