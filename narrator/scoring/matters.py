"""What a player's game had, as MafiaRatings' scoring reads it: its 27 "matters"
(include/scoring.php, ``SCORING_FLAG_*``; set per player in include/game_players_stats.php).

A matter is a bit of a game's flags: matter ``n`` is the bit ``1 << n``. A policy of a scoring
system names the matters it needs as a mask of these bits, and the roles it is for.

:func:`matters_of` gives each seat's :class:`PlayerGame` of a finished game (NarratorError for
one not over), read from the game and the walk over its history
(:mod:`narrator.engine.walk`, the one the MafiaRatings export reads), as MafiaRatings would
read the record our export sends it. Where its stats differ from its labels, the stats are
followed: a tie is TIE alone, neither WIN nor LOSE; SURVIVE is a winner's only; a removal is a
day kill of its team; EXTRA_POINTS is any bonus, a title alone too; BLACK_CHECKS and RED_CHECKS
are three checks of a colour in all; the sheriff's three matters need him killed at night.
SURRENDERED and TEAM_KICK_OUT are never set: no seat of ours gives up, and no game of ours ends
by a team's removal. Other rulesets' cards score by :func:`scoring_role`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from narrator.engine import Actor, Exit, Game, Role, Team
from narrator.engine.walk import Walk
from narrator.errors import NarratorError


class Matter(IntEnum):
    """MafiaRatings' matters by number (its comments quoted)."""

    PLAY = 0  # Played the game
    WIN = 1  # Player wins
    LOSE = 2  # Player loses
    CLEAR_WIN = 3  # All players killed in a daytime were from another team
    CLEAR_LOSE = 4  # All players killed in a daytime were from player's team
    BEST_PLAYER = 5  # Best player
    BEST_MOVE = 6  # Best move
    SURVIVE = 7  # Survived in the game
    KILLED_FIRST_NIGHT = 8  # Killed in the first night
    KILLED_NIGHT = 9  # Killed in the night
    FIRST_LEGACY_3 = 10  # Guessed 3 mafia after being killed first night
    FIRST_LEGACY_2 = 11  # Guessed 2 mafia after being killed first night
    WARNINGS_4 = 12  # Killed by warnings
    KICK_OUT = 13  # Kicked out
    SURRENDERED = 14  # Surrendered
    ALL_VOTES_VS_MAF = 15  # All votes vs mafia (>3 votings)
    ALL_VOTES_VS_CIV = 16  # All votes vs civs (>3 votings)
    SHERIFF_KILLED_AFTER_FINDING = 17  # Killed sheriff next day after finding
    SHERIFF_FOUND_FIRST_NIGHT = 18  # Sheriff was found first night
    SHERIFF_KILLED_FIRST_NIGHT = 19  # Sheriff was killed the first night
    BLACK_CHECKS = 20  # Sheriff did three black checks in a row
    RED_CHECKS = 21  # All sheriff checks are red
    EXTRA_POINTS = 22  # Extra points are assigned manually
    FIRST_LEGACY_1 = 23  # Guessed 1 mafia after being killed first night
    WORST_MOVE = 24  # Worst move
    TEAM_KICK_OUT = 25  # Team kicked out (opposite team wins)
    TIE = 26  # Tie

    @property
    def flag(self) -> int:
        return 1 << self.value


class ScoringRole(IntEnum):
    """MafiaRatings' roles in scoring (``role()`` in a formula; a policy's ``roles`` is a mask
    of ``1 << role``: 1 civilian, 2 sheriff, 4 mafia, 8 don; 3 the reds, 12 the blacks)."""

    CIVILIAN = 0
    SHERIFF = 1
    MAFIA = 2
    DON = 3


@dataclass(frozen=True, slots=True)
class PlayerGame:
    """One player's game as a scoring system reads it: the seat, the role, the matters
    (a bit mask: :attr:`Matter.flag`), and the host's extra points (``bonus()``)."""

    seat: int
    role: ScoringRole
    flags: int
    extra: float = 0.0

    def has(self, matter: Matter) -> bool:
        return bool(self.flags & matter.flag)


# -- a finished game's matters ---------------------------------------------------------------------
#
# What follows reads our typed record (the finished Game, and the walk over its history that the
# MafiaRatings export reads too) the way include/game_players_stats.php reads its game JSON
# (``calculate_scoring_flags``). Its rounds count from 0: round 0 is our night 1 (the deal, no
# kill) and day 1; round N is our night N+1 and day N+1. So its "first night" (round 1) is our
# night 2, the first night with a kill.

#: its death types (include/game.php's DEATH_TYPE_*) as our departures give them; it has
#: "giveUp" and "teamKickOut" too, which no game of ours has (no seat surrenders, no team is
#: removed as a whole), so SURRENDERED and TEAM_KICK_OUT are never set
_NIGHT, _DAY, _WARNINGS, _TECH_FOULS, _KICK_OUT = "night", "day", "warnings", "techFouls", "kickOut"

#: the cards MafiaRatings has, as it has them
_SAME = {Role.CIVILIAN: ScoringRole.CIVILIAN, Role.SHERIFF: ScoringRole.SHERIFF,
         Role.MAFIA: ScoringRole.MAFIA, Role.DON: ScoringRole.DON}


def scoring_role(game: Game, seat: int) -> ScoringRole:
    """The seat's role in scoring. MafiaRatings' four cards are themselves; another card goes
    by what it does for its side: a red that checks at night for the city (amateur's
    commissar: a checker of the ruleset, on the red side) is the sheriff; any other card is a
    civilian on the red side (vrn's doctor, amateur's nurse, a maniac playing for the city) and
    a mafioso on the black (a maniac dealt to the mafia, vrn's ``maniac_side``)."""
    role = game.roles[seat]
    if role in _SAME:
        return _SAME[role]
    team = game.rules.team(role, game.dealt)
    if team is Team.BLACK:
        return ScoringRole.MAFIA
    if role in game.rules.checkers:
        return ScoringRole.SHERIFF
    return ScoringRole.CIVILIAN


def _is_black(role: ScoringRole) -> bool:
    # «$p->role == 'maf' || $p->role == 'don'»
    return role in (ScoringRole.MAFIA, ScoringRole.DON)


@dataclass(frozen=True, slots=True)
class _Death:
    """A seat's ``death`` as the export writes it: its type and round."""

    type: str
    round: int


def _death(game: Game, walk: Walk, seat: int) -> _Death | None:
    out = game.out.get(seat)
    if out is None:
        return None
    number = out.phase.number - 1
    if out.how in (Exit.VOTE, Exit.CRASH):
        return _Death(_DAY, number)
    if out.how is not Exit.REMOVED:
        return _Death(_NIGHT, number)  # a night's kill, as the ruleset names it ("shot", …)
    if seat in walk.by_fouls:
        return _Death(_WARNINGS, number)  # the 4th foul (9.6.1)
    if seat in walk.by_tech_fouls:
        return _Death(_TECH_FOULS, number)  # the 2nd technical foul (9.6.2)
    return _Death(_KICK_OUT, number)  # the host removed the seat


@dataclass(frozen=True, slots=True)
class _Table:
    """What the PHP counts over the whole table before it sets each player's flags."""

    roles: dict[int, ScoringRole]
    deaths: dict[int, _Death]
    black_day_kills: int  # «$maf_day_kills»: every death not at night, removals too
    red_day_kills: int  # «$civ_day_kills»
    shared: int  # «$shared_scoring_flags»: the same for every player


def _table(game: Game, walk: Walk) -> _Table:
    roles = {seat: scoring_role(game, seat) for seat in range(1, game.seats + 1)}
    deaths = {seat: d for seat in roles if (d := _death(game, walk, seat)) is not None}
    day = [seat for seat, d in deaths.items() if d.type != _NIGHT]
    black_day = sum(1 for seat in day if _is_black(roles[seat]))
    shared = Matter.PLAY.flag | _sheriff_flags(game, walk, roles, deaths)
    shared |= _check_flags(game, walk, roles)
    return _Table(roles, deaths, black_day, len(day) - black_day, shared)


def _sheriff_flags(game: Game, walk: Walk, roles: dict[int, ScoringRole],
                   deaths: dict[int, _Death]) -> int:
    """The sheriff killed at night: «if ($death_round == $p->don + 1 …)» the night after the
    don found him (the exception «$death_round != $p->arranged» never holds: we record no
    arrangement); «if ($p->don == 1)» found the first night; «if ($death_round == 1)» killed
    the first night. A sheriff who left at day gives none of these."""
    flags = 0
    for seat, role in roles.items():
        death = deaths.get(seat)
        if role is not ScoringRole.SHERIFF or death is None or death.type != _NIGHT:
            continue
        night = walk.checks.get(Actor.DON, {}).get(seat)
        if night is not None:
            found = night - 1  # the export's ``don``: the round of the don's check
            if death.round == found + 1:
                flags |= Matter.SHERIFF_KILLED_AFTER_FINDING.flag
            if found == 1:
                flags |= Matter.SHERIFF_FOUND_FIRST_NIGHT.flag
        if death.round == 1:
            flags |= Matter.SHERIFF_KILLED_FIRST_NIGHT.flag
    return flags


def _check_flags(game: Game, walk: Walk, roles: dict[int, ScoringRole]) -> int:
    """The sheriff's checks, counted over the seats he checked: «if ($black_checks >= 3)»
    BLACK_CHECKS, «else if ($red_checks >= 3)» RED_CHECKS — three of a colour in all, not
    (as its labels say) the first three."""
    black = red = 0
    for seat, role in roles.items():
        if role is not ScoringRole.SHERIFF:
            continue
        for target in walk.checks.get(Actor.of(game.roles[seat]), {}):
            if _is_black(roles[target]):
                black += 1
            else:
                red += 1
    if black >= 3:
        return Matter.BLACK_CHECKS.flag
    return Matter.RED_CHECKS.flag if red >= 3 else 0


def _result_flags(table: _Table, winner: Team, seat: int) -> int:
    """«if ($data->winner == 'maf')» the blacks win (and clear if no black left at day),
    survive if not out; «else if ($data->winner == 'civ')» they lose (clear if no red left at
    day); «else» TIE alone, neither WIN nor LOSE; the reds the other way round."""
    black = _is_black(table.roles[seat])
    if winner is Team.DRAW:
        return Matter.TIE.flag
    if (winner is Team.BLACK) is black:
        flags = Matter.WIN.flag
        if (table.black_day_kills if black else table.red_day_kills) == 0:
            flags |= Matter.CLEAR_WIN.flag
        if seat not in table.deaths:
            flags |= Matter.SURVIVE.flag
        return flags
    flags = Matter.LOSE.flag
    if (table.red_day_kills if black else table.black_day_kills) == 0:
        flags |= Matter.CLEAR_LOSE.flag
    return flags


#: the host's titles (Mark.titles) as matters (the PHP's ``bonus`` names)
_TITLE = {"best_player": Matter.BEST_PLAYER, "best_move": Matter.BEST_MOVE,
          "worst_move": Matter.WORST_MOVE}


def _mark_flags(game: Game, seat: int) -> tuple[int, float]:
    """The titles, and EXTRA_POINTS: «if (isset($game_player->bonus))», which the export
    writes for points other than 0 or any title (a mark with a comment only has none)."""
    mark = game.marks.get(seat)
    if mark is None:
        return 0, 0.0
    flags = 0
    for title in mark.titles:
        flags |= _TITLE[title].flag
    if mark.points or mark.titles:
        flags |= Matter.EXTRA_POINTS.flag
    return flags, float(mark.points)


def _death_flags(death: _Death | None) -> int:
    """«DEATH_TYPE_NIGHT»: KILLED_NIGHT, and KILLED_FIRST_NIGHT «if … round == 1»;
    «DEATH_TYPE_WARNINGS || DEATH_TYPE_TECH_FOULS» share WARNINGS_4; «DEATH_TYPE_KICK_OUT»."""
    if death is None or death.type == _DAY:
        return 0
    if death.type == _NIGHT:
        first = Matter.KILLED_FIRST_NIGHT.flag if death.round == 1 else 0
        return first | Matter.KILLED_NIGHT.flag
    if death.type in (_WARNINGS, _TECH_FOULS):
        return Matter.WARNINGS_4.flag
    return Matter.KICK_OUT.flag


#: «$mafs_guessed >= 3 / >= 2 / >= 1» of the legacy (the best move)
_LEGACY = {3: Matter.FIRST_LEGACY_3, 2: Matter.FIRST_LEGACY_2, 1: Matter.FIRST_LEGACY_1}


def _legacy_flags(game: Game, seat: int) -> int:
    """The first-night victim's best move: the blacks it named, as the engine counted them."""
    best = game.best_move
    if best is None or best.seat != seat or best.black_named < 1:
        return 0
    return _LEGACY[min(best.black_named, 3)].flag


def _votes(walk: Walk, roles: dict[int, ScoringRole]) -> dict[int, tuple[int, int]]:
    """Each seat's hands (against a black, against a red) as the PHP counts ``voting``:
    «We exclude voting in round 0 because this is mostly splitting» (our day 1), every
    counted round of a later day (a split's re-vote too), no car crash's hand. When a day's
    hands were counted without naming the seats the export has no votes at all, nor do we."""
    if any(r.counted for d in walk.days.values() for r in d.rounds):
        return {}
    out: dict[int, list[int]] = {seat: [0, 0] for seat in roles}
    for number, day in walk.days.items():
        if number < 2 or day.cancelled:
            continue
        for rnd in day.rounds:
            if not rnd.done:
                continue
            for voter, target in rnd.hands.items():
                out[voter][0 if _is_black(roles[target]) else 1] += 1
    return {seat: (black, red) for seat, (black, red) in out.items()}


def _vote_flags(votes: tuple[int, int] | None) -> int:
    """«voted_civil + voted_sheriff == 0 && voted_mafia >= 3» and the other way round."""
    if votes is None:
        return 0
    black, red = votes
    if red == 0 and black >= 3:
        return Matter.ALL_VOTES_VS_MAF.flag
    if black == 0 and red >= 3:
        return Matter.ALL_VOTES_VS_CIV.flag
    return 0


def matters_of(game: Game) -> dict[int, PlayerGame]:
    """Each seat's game (seat → :class:`PlayerGame`) of a finished game, its matters set as
    include/game_players_stats.php sets them; NarratorError if the game is not over."""
    winner = game.winner
    if winner is None:
        raise NarratorError("the game is not over: only a finished game has points")
    walk = Walk(game)
    table = _table(game, walk)
    votes = _votes(walk, table.roles)
    out: dict[int, PlayerGame] = {}
    for seat, role in table.roles.items():
        marks, extra = _mark_flags(game, seat)
        flags = (table.shared | _result_flags(table, winner, seat) | marks
                 | _death_flags(table.deaths.get(seat)) | _legacy_flags(game, seat)
                 | _vote_flags(votes.get(seat)))
        out[seat] = PlayerGame(seat, role, flags, extra)
    return out
