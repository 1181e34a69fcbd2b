"""The MafiaRatings format: a finished game for a club's rating system.

MafiaRatings (mafiaratings.com) takes one game a request as a JSON object: where it is filed
(club, event, tournament, table, game number), who hosted it (``moderator.id``), the club's
13-digit rules code, the times in Unix seconds, language and winner, then ten players in seat
order, each with their user id and name, the role, the death (round, type and, for a removal,
the moment), the warnings (each with its moment), the rounds in which the don or the sheriff
checked them, the best move, the host's bonus and comment, and per round how they nominated and
voted and, for the mafia, whom they shot. ``features`` lists, one letter each, which of these
the record holds. Rounds count from 0: round 0 is the dealing night and the first day, round N
is night N+1 and day N+1 of the narrator's numbering.

The facts come from a walk over the game's history (:mod:`narrator.engine.walk`). What the
history cannot give is left out the way the format provides for it: votes that a human host
counted without naming the hands leave ``v`` (and ``k``) out of ``features`` and every player's
``voting`` out of the record; :attr:`MafiaRatingsGame.notes` says so. A day without a vote
keeps no nominations: MafiaRatings drops every vote of a game where a round has nominations
and a living seat without a vote.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from narrator.engine import Actor, Exit, Game, Mark, Role, Team
from narrator.engine.catalogue import code_of
from narrator.engine.walk import Day, Walk
from narrator.errors import NarratorError
from narrator.replay.roster import Roster
from narrator.replay.source import GameSource

#: its language codes (Ukrainian is "ua" there)
_LANGUAGE = {"ru": "ru", "uk": "ua"}
#: MafiaRatings' table: ten seats, 6 civilians, a sheriff, 2 mafia and a don
_DECK = {Role.CIVILIAN: 6, Role.SHERIFF: 1, Role.MAFIA: 2, Role.DON: 1}
#: MafiaRatings' role names (its ``players[].role``): the engine's, but two it shortens
_ROLE = {role: {Role.CIVILIAN: "civ", Role.MAFIA: "maf"}.get(role, str(role)) for role in _DECK}
#: the checkers whose checks it keeps (``players[].don``, ``players[].sheriff``)
_CHECKERS = (Actor.DON, Actor.SHERIFF)
#: the host's titles (Mark.titles) as MafiaRatings' ``bonus`` names them
_TITLE = {"best_player": "bestPlayer", "best_move": "bestMove", "worst_move": "worstMove"}
#: a seat's name when the game has none for it
_SEAT_NAME = {"ru": "Игрок {}", "uk": "Гравець {}"}


@dataclass
class MafiaRatingsGame:
    """The record and what the format could not hold (one sentence each)."""

    record: dict[str, Any]
    notes: list[str]


@dataclass(frozen=True)
class Filing:
    """Where MafiaRatings files the game (each optional here: the command asks for what the
    rating system needs) and the roster giving each seat's user id."""

    club_id: int | None = None
    event_id: int | None = None
    moderator_id: int | None = None
    tournament_id: int | None = None
    table: int | None = None
    game_number: int | None = None
    roster: Roster | None = None

    def head(self) -> dict[str, Any]:
        """The record's keys of the filing, in the order of MafiaRatings' own help."""
        out: dict[str, Any] = {}
        for key, value in (("clubId", self.club_id), ("eventId", self.event_id),
                           ("tournamentId", self.tournament_id), ("tableNum", self.table),
                           ("gameNum", self.game_number)):
            if value is not None:
                out[key] = value
        return out


# -- the record ------------------------------------------------------------------------------------


def _cut(values: list[Any]) -> list[Any]:
    while values and values[-1] is None:
        values.pop()
    return values


def mafiaratings(source: GameSource, *, start: datetime | None = None,
                 filing: Filing | None = None) -> MafiaRatingsGame:
    """The game of ``source`` as MafiaRatings' game JSON; NarratorError if it cannot be one."""
    game = source.game
    filing = filing or Filing()
    if game.winner is None:
        raise NarratorError(f"{source.path}: the game is not over; only a finished game can be "
                            f"exported")
    if game.seats != 10 or _deck(game) != _DECK:
        raise NarratorError(f"{source.path}: MafiaRatings takes ten seats with 6 civilians, a "
                            f"sheriff, 2 mafia and a don; {_other_table(game)}")
    walk = Walk(game)
    notes: list[str] = []
    if start is None:
        mtime = datetime.fromtimestamp(source.path.stat().st_mtime).astimezone()
        start = mtime - timedelta(seconds=source.seconds)
    begun = round(start.timestamp())  # its create path reads Unix seconds
    counted = sorted(n for n, d in walk.days.items() if any(r.counted for r in d.rounds))
    if counted:
        notes.append(f"the hands of day(s) {', '.join(map(str, counted))} were counted, not "
                     f"named: the export has no per-player votes (no \"v\" in features)")
    features = "gsdutc" + ("l" if game.rules.best_move else "") + "h"
    features += "" if counted else "vk"
    features += "nwr" + ("o" if game.rules.on_record != "none" else "")
    record: dict[str, Any] = filing.head()
    if filing.moderator_id is not None:
        record["moderator"] = {"id": filing.moderator_id}
    record.update(
        features=features,
        rules=code_of(game.rules),
        startTime=begun,
        endTime=begun + round(source.seconds),
        language=_LANGUAGE.get(source.lang, source.lang),
        # include/game.php's API help: «Possible values: "civ", "maf", or "tie"» (a draw,
        # the catalogue's 7.21.2)
        winner=_WINNER[game.winner],
        players=[_player(game, walk, seat, votes=not counted, notes=notes)
                 for seat in range(1, game.seats + 1)],
    )
    for seat, player in enumerate(record["players"], start=1):
        user = filing.roster.id_of(game.names.get(seat)) if filing.roster else None
        name = game.names.get(seat) or _SEAT_NAME.get(source.lang, "Seat {}").format(seat)
        record["players"][seat - 1] = {**({"id": user} if user is not None else {}),
                                       "name": name, **player}
    return MafiaRatingsGame(record, notes)


def bonus_of(mark: Mark) -> Any:
    """MafiaRatings' ``bonus``: «either number of bonus points for the game, or "bestPlayer",
    or "bestMove", or "worstMove", or an array with any combination of these three» (its API
    help), the points first as its game client writes them; None: nothing given."""
    given: list[Any] = [mark.points] if mark.points else []
    given += [_TITLE[title] for title in mark.titles]
    if not given:
        return None
    return given[0] if len(given) == 1 else given


_WINNER = {Team.RED: "civ", Team.BLACK: "maf", Team.DRAW: "tie"}


def _deck(game: Game) -> dict[Role, int]:
    """How many of each card the game dealt (civilians too), in the order cards are named."""
    order = list(Role)
    dealt = {role: sum(1 for r in game.roles.values() if r is role) for role in order}
    return {role: n for role, n in dealt.items() if n}


def _other_table(game: Game) -> str:
    """What the game has instead of MafiaRatings' table: the seats when they are not ten,
    else the cards (a vrn game has ten seats, and a doctor and a maniac)."""
    if game.seats != 10:
        return f"this game has {game.seats} seats ({game.rules.name})"
    cards = [role.counted(n) for role, n in _deck(game).items()]
    return f"this game's cards are {', '.join(cards[:-1])} and {cards[-1]} ({game.rules.name})"


def _player(game: Game, walk: Walk, seat: int, *, votes: bool,
            notes: list[str]) -> dict[str, Any]:
    player: dict[str, Any] = {}
    player["role"] = _ROLE[game.roles[seat]]
    out = game.out.get(seat)
    if out is not None:
        death: dict[str, Any] = {"round": out.phase.number - 1}
        how = out.how
        if how is Exit.SHOT:
            death["type"] = "night"
        elif how in (Exit.VOTE, Exit.CRASH):
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
    for role in _CHECKERS:
        night = walk.checks[role].get(seat)
        if night is not None:
            player[str(role)] = night - 1
    if walk.legacy is not None and out is not None and out.how is Exit.SHOT \
            and out.night == 2:
        player["legacy"] = list(walk.legacy)
    mark = game.marks.get(seat)
    if mark is not None and bonus_of(mark) is not None:
        player["bonus"] = bonus_of(mark)
    if mark is not None and mark.comment:
        player["comment"] = mark.comment
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


def _last_day(walk: Walk) -> int:
    return max(walk.days, default=0)


def _last_night(walk: Walk) -> int:
    return max(walk.hunters, default=1)


def _vote(day: Day | None, seat: int) -> Any:
    """One round's entry: the candidate, several when the table split, and the car-crash hand."""
    if day is None or day.cancelled:
        return None
    picks = [r.hands[seat] for r in day.rounds if r.done and seat in r.hands]
    if not picks:
        return None
    if day.crash_for is not None and seat in day.crash_voters:
        return [*picks, seat in day.crash_for]
    return picks[0] if len(picks) == 1 else picks


def _nomination(day: Day | None, seat: int, number: int, notes: list[str]) -> int | None:
    """The candidate ``seat`` stood behind when the discussion ended; the format has one
    nominator per candidate, so a second nominator of the same seat keeps no entry."""
    if day is None or not day.voted:
        return None  # (see Day.voted)
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


def _shot(walk: Walk, night: int, seat: int) -> int | None:
    """2.1.2 as the format has it: the seat shot, or null for no shot or several."""
    if seat not in walk.hunters.get(night, []):
        return None
    aimed = walk.shots.get(night, {}).get(seat, set())
    return next(iter(aimed)) if len(aimed) == 1 else None
