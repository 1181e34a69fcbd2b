"""MafiaRatings' own check of an imported game's votes, restated for the tests.

include/game.php (its ``check``, the loop over the players' votes): for every round with
nominees — and in round 0 more than one — every player alive at that round's voting and not in
a voting cancelled by a removal must have a vote, else «Player N did not vote in round R …
All votings are removed». A death counts as at the voting when it is that round's "day"
death (the vote's own); a removal in the round ("warnings", "kickOut", "techFouls") cancels
its voting, as its ``is_voting_canceled`` reads it.
"""

from __future__ import annotations

from typing import Any

_REMOVALS = ("warnings", "kickOut", "techFouls", "teamKickOut", "giveUp")


def _at_the_vote(player: dict[str, Any], rnd: int) -> bool:
    death = player.get("death")
    if death is None or death["round"] > rnd:
        return True
    return bool(death["round"] == rnd and death["type"] == "day")


def _cancelled(players: list[dict[str, Any]], rnd: int) -> bool:
    return any(p.get("death", {}).get("round") == rnd and p["death"]["type"] in _REMOVALS
               for p in players)


def votes_dropped(record: dict[str, Any]) -> list[str]:
    """What MafiaRatings would say before removing every vote of ``record`` (empty: none)."""
    if "v" not in record["features"]:
        return []
    players: list[dict[str, Any]] = record["players"]
    rounds = max((len(p.get(k, [])) for p in players for k in ("nominating", "voting")),
                 default=0)
    said: list[str] = []
    for rnd in range(rounds):
        nominees = [p["nominating"][rnd] for p in players
                    if rnd < len(p.get("nominating", [])) and p["nominating"][rnd] is not None]
        if not nominees or (rnd == 0 and len(nominees) == 1) or _cancelled(players, rnd):
            continue
        for seat, p in enumerate(players, 1):
            voting = p.get("voting", [])
            if _at_the_vote(p, rnd) and (rnd >= len(voting) or voting[rnd] is None):
                said.append(f"Player {seat} did not vote in round {rnd}")
    return said


def assert_votes_kept(record: dict[str, Any]) -> None:
    said = votes_dropped(record)
    assert not said, said
