"""A second reading of the matters, from the other end: MafiaRatings' game record as our
export writes it, read the way include/game_players_stats.php reads it (written here from its
description, field by field: ``role``, ``death`` {type, round}, ``sheriff`` and ``don`` (the
round of the check), ``bonus``, ``legacy``, ``voting`` per round). The tests compare it with
:func:`narrator.scoring.matters.matters_of`, which reads our game instead."""

from __future__ import annotations

from typing import Any

from narrator.scoring.matters import Matter

_BLACK = ("maf", "don")
_TITLES = {"bestPlayer": Matter.BEST_PLAYER, "bestMove": Matter.BEST_MOVE,
           "worstMove": Matter.WORST_MOVE}
_DEATHS = {"giveUp": Matter.SURRENDERED, "warnings": Matter.WARNINGS_4,
           "techFouls": Matter.WARNINGS_4, "kickOut": Matter.KICK_OUT,
           "teamKickOut": Matter.TEAM_KICK_OUT}


def _shared(players: list[dict[str, Any]]) -> tuple[int, int, int]:
    """The flags every player shares, and the day kills of the blacks and the reds."""
    shared = Matter.PLAY.flag
    black_day = red_day = black_checks = red_checks = 0
    for p in players:
        if "sheriff" in p:
            if p["role"] in _BLACK:
                black_checks += 1
            else:
                red_checks += 1
        death = p.get("death")
        if death is None:
            continue
        if death["type"] != "night":
            if p["role"] in _BLACK:
                black_day += 1
            else:
                red_day += 1
        elif p["role"] == "sheriff":
            if "don" in p and death["round"] == p["don"] + 1:
                shared |= Matter.SHERIFF_KILLED_AFTER_FINDING.flag
            if p.get("don") == 1:
                shared |= Matter.SHERIFF_FOUND_FIRST_NIGHT.flag
            if death["round"] == 1:
                shared |= Matter.SHERIFF_KILLED_FIRST_NIGHT.flag
    if black_checks >= 3:
        shared |= Matter.BLACK_CHECKS.flag
    elif red_checks >= 3:
        shared |= Matter.RED_CHECKS.flag
    return shared, black_day, red_day


def _result(p: dict[str, Any], winner: str, black_day: int, red_day: int) -> int:
    mine, theirs = ("maf", "civ") if p["role"] in _BLACK else ("civ", "maf")
    own_day, other_day = (black_day, red_day) if mine == "maf" else (red_day, black_day)
    if winner == mine:
        flags = Matter.WIN.flag | (Matter.CLEAR_WIN.flag if own_day == 0 else 0)
        return flags | (Matter.SURVIVE.flag if "death" not in p else 0)
    if winner == theirs:
        return Matter.LOSE.flag | (Matter.CLEAR_LOSE.flag if other_day == 0 else 0)
    return Matter.TIE.flag


def _own(p: dict[str, Any], players: list[dict[str, Any]]) -> int:
    flags = 0
    bonus = p.get("bonus")
    for b in bonus if isinstance(bonus, list) else [bonus]:
        flags |= _TITLES[b].flag if b in _TITLES else 0
    if bonus is not None:
        flags |= Matter.EXTRA_POINTS.flag
    death = p.get("death")
    if death is not None and death["type"] == "night":
        flags |= Matter.KILLED_NIGHT.flag | (
            Matter.KILLED_FIRST_NIGHT.flag if death["round"] == 1 else 0)
    elif death is not None and death["type"] in _DEATHS:
        flags |= _DEATHS[death["type"]].flag
    guessed = sum(1 for s in p.get("legacy", []) if players[s - 1]["role"] in _BLACK)
    if guessed:
        flags |= (Matter.FIRST_LEGACY_3 if guessed >= 3 else Matter.FIRST_LEGACY_2
                  if guessed == 2 else Matter.FIRST_LEGACY_1).flag
    against = [0, 0]  # blacks, reds
    for entry in p.get("voting", [])[1:]:  # round 0 left out
        for target in entry if isinstance(entry, list) else [entry]:
            if isinstance(target, bool) or target is None:
                break  # the car crash's hand
            against[0 if players[target - 1]["role"] in _BLACK else 1] += 1
    if against[1] == 0 and against[0] >= 3:
        flags |= Matter.ALL_VOTES_VS_MAF.flag
    if against[0] == 0 and against[1] >= 3:
        flags |= Matter.ALL_VOTES_VS_CIV.flag
    return flags


def record_flags(record: dict[str, Any]) -> list[int]:
    """Each player's flags (seat order) of a MafiaRatings game record."""
    players = record["players"]
    shared, black_day, red_day = _shared(players)
    return [shared | _result(p, record["winner"], black_day, red_day) | _own(p, players)
            for p in players]
