"""dimtom's web_schedule (dimtom.github.io/web_schedule): a schedule file and a players file.

The schedule::

    {"configuration": {"numPlayers": 20, "numTables": 2, "numRounds": 10, "numGames": 20,
                       "numAttempts": 10, "numTeams": 0},
     "rounds": [{"id": 0, "gameIds": [0, 1]}, …],
     "games": [{"id": 0, "players": [ten 0-based player indices]}, …]}

``numGames`` counts every game of the tournament, ``numAttempts`` the games a player. The
players: ``{"people": [{"id": 0, "name": "Ника"}, …]}`` (ids are the schedule's indices).
MafiaRatings imports the schedule as it is (its ``import_dimtom``).
"""

from __future__ import annotations

import json
from typing import Any

from narrator.seating import fields as f
from narrator.seating.value import Roster, Seating, ids_by_name, names_by_id, players_in, seating


def to_web_schedule(plan: Seating) -> tuple[str, str]:
    """The schedule's text and the players'."""
    games = [{"id": n, "players": list(table)}
             for n, table in enumerate(t for rnd in plan.rounds for t in rnd)]
    schedule = {
        "configuration": {"numPlayers": plan.players, "numTables": plan.tables,
                          "numRounds": len(plan.rounds), "numGames": len(games),
                          "numAttempts": plan.games, "numTeams": 0},
        "rounds": [{"id": r, "gameIds": list(range(r * plan.tables, (r + 1) * plan.tables))}
                   for r in range(len(plan.rounds))],
        "games": games}
    people = {"people": [{"id": i, "name": n} for i, n in enumerate(plan.names)]}
    return (json.dumps(schedule, ensure_ascii=False, indent=2) + "\n",
            json.dumps(people, ensure_ascii=False, indent=2) + "\n")


def read_web_schedule(doc: Any, name: str, people: Any = None, people_name: str = "",
                      roster: Roster = ()) -> Seating:
    """The Seating of a schedule, named by its players file (else the roster cannot: the
    schedule has no ids) or «Игрок N»."""
    doc = f.obj(doc, name, "the schedule")
    config = f.obj(doc.get("configuration"), name, "configuration")
    by_id: dict[int, list[int]] = {}
    for g, game in enumerate(f.array(doc.get("games"), name, "games")):
        game = f.obj(game, name, f"games: {g}")
        number = f.whole(game.get("id"), name, f"games: {g}: id")
        if number in by_id:
            raise f.fault(name, f"games: {g}: id", f"game {number} twice")
        seats = f.array(game.get("players"), name, f"games: {g}: players")
        by_id[number] = [f.whole(p, name, f"games: {g}: players: {s}")
                         for s, p in enumerate(seats)]
    plan: list[list[list[int]]] = []
    for r, rnd in enumerate(f.array(doc.get("rounds"), name, "rounds")):
        where = f"rounds: {r}: gameIds"
        ids = f.array(f.obj(rnd, name, f"rounds: {r}").get("gameIds"), name, where)
        for i in ids:
            if f.whole(i, name, where) not in by_id:
                raise f.fault(name, where, f"no game {i}")
        plan.append([by_id[i] for i in ids])
    players = players_in(plan, name, f.whole(config.get("numPlayers"), name,
                                             "configuration: numPlayers", 1))
    named: list[str | None] = [None] * players
    if people is not None:
        named = _people(people, people_name, players)
    names = names_by_id([None] * players, named, ())
    made = seating(name, plan, names, ids_by_name(names, None, roster))
    _check_configuration(config, made, name)
    return made


def _people(doc: Any, name: str, players: int) -> list[str | None]:
    names: list[str | None] = [None] * players
    for i, person in enumerate(f.array(f.obj(doc, name, "the players").get("people"), name,
                                       "people")):
        person = f.obj(person, name, f"people: {i}")
        number = f.whole(person.get("id"), name, f"people: {i}: id")
        if number >= players:
            raise f.fault(name, f"people: {i}: id", f"{number}, but the schedule has "
                                                    f"{players} players (0–{players - 1})")
        names[number] = f.text(person.get("name"), name, f"people: {i}: name")
    return names


def _check_configuration(config: dict[str, Any], plan: Seating, name: str) -> None:
    real = {"numPlayers": plan.players, "numTables": plan.tables,
            "numRounds": len(plan.rounds), "numGames": len(plan.rounds) * plan.tables,
            "numAttempts": plan.games}
    for key, value in real.items():
        if key in config and f.whole(config[key], name, f"configuration: {key}") != value:
            raise f.fault(name, f"configuration: {key}",
                          f"{config[key]}, but the schedule has {value}")
