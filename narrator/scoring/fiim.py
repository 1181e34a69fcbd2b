"""FIIM, MafiaRatings' scoring 19 ("ФИИМ"), at each of its versions, as the site keeps them.

The site's database holds a system as versions (``scoring_versions``: one JSON per version;
an event names the version it is scored by). Scoring 19's versions, as its migrations leave
them:

- version 1 as the sample database (``db/create_sample_db.sql``) holds it — a win 1, the
  first night's victim guessing 3 mafia 0.4 or 2 mafia 0.25, killed by warnings or kicked out
  −0.5 — with its group under today's name, ``legacy`` (``db/alter114.sql`` renamed
  ``prima_nocta``). These are the figures narrator published before versions came in, and
  ``fiim@1`` keeps them so that a season scored by them keeps its points. (``db/alter153.sql``
  later rewrote the site's own version 1 with a difficulty formula, the host's bonus and the
  first-night compensation; a club that wants that one fetches it: ``narrator club fetch``.)
- versions 2 to 7 as ``db/alter153.sql``, the last migration that touches scoring 19, writes
  them (``db/alter152.sql`` had written 5 to 7 without the ``mvp`` parts and the names).
  Version 7, today's: a win 1; the host's bonus (``bonus()``); 0.3 to every player but the
  one given the worst move; the first night's red victim guessing 3 mafia 0.7, 2 mafia 0.5;
  −0.5 for a removal (warnings, kicked out, surrendered), else −0.7 when the team was kicked
  out; a red killed the first night and losing gets up to 0.5 as compensation, by how often
  that befell him in the set (``counter(0, 1)``) against 40% of his games (``counter(0, 0)``).

The ``name_ru`` keys are the site's and its scoring code reads none of them: here they are
left out (they score nothing), and the names kept are those the code does read (``name``).
"""

from __future__ import annotations

from typing import Any

#: the latest version: what ``fiim`` means
LATEST = 7

_WIN = [{"matter": 2, "points": 1}]
_COUNTERS = [{"matter": 1}, {"matter": 256, "roles": 3}]
_BONUS = {"matter": 4194304, "points": "bonus()", "mvp": True}
_AUTO = {"matter": 1, "points": "matter(24) ? 0 : 0.3", "name": "auto-bonus",
         "mvp": "matter(24) ? -0.3 : 0"}


def _legacy(three: float, two: float) -> list[dict[str, Any]]:
    return [{"matter": 1, "roles": 3, "mvp": True,
             "points": f"matter(10) ? {three:g} : (matter(11) ? {two:g} : 0)"}]


def _penalty(surrendered: bool, team: bool) -> list[dict[str, Any]]:
    removed = "matter(12) || matter(13)" + (" || matter(14)" if surrendered else "")
    return [{"matter": 1, "mvp": True,
             "points": f"{removed} ? -0.5 : " + ("(matter(25) ? -0.7 : 0)" if team else "0")}]


def _night1(most: float) -> list[dict[str, Any]]:
    return [{"matter": 260, "name": "Ci", "roles": 3,
             "points": f"max(min(counter(0,1)*{most:g}/round(counter(0,0)*0.4),{most:g}),0)"}]


#: version → the system's JSON
VERSIONS: dict[int, dict[str, Any]] = {
    1: {"main": _WIN,
        "legacy": [{"matter": 1024, "roles": 3, "points": 0.4},
                   {"matter": 2048, "roles": 3, "points": 0.25}],
        "penalty": [{"matter": 4096, "points": -0.5}, {"matter": 8192, "points": -0.5}]},
    2: {"main": _WIN, "extra": [_BONUS], "legacy": _legacy(0.4, 0.25),
        "penalty": _penalty(False, False), "night1": _night1(0.4), "counters": _COUNTERS},
    3: {"main": _WIN, "extra": [_BONUS], "legacy": _legacy(0.4, 0.25),
        "penalty": _penalty(True, False), "night1": _night1(0.4), "counters": _COUNTERS},
    4: {"main": _WIN, "extra": [_BONUS, {"matter": 1, "name": "auto-bonus", "points": 0.3}],
        "legacy": _legacy(0.5, 0.3), "penalty": _penalty(True, False), "night1": _night1(0.4),
        "counters": _COUNTERS},
    5: {"main": _WIN, "extra": [_BONUS, _AUTO], "legacy": _legacy(0.5, 0.3),
        "penalty": _penalty(True, True), "night1": _night1(0.4), "counters": _COUNTERS},
    6: {"main": _WIN, "extra": [_BONUS, _AUTO], "legacy": _legacy(0.7, 0.5),
        "penalty": _penalty(True, True), "night1": _night1(0.4), "counters": _COUNTERS},
    7: {"main": _WIN, "extra": [_BONUS, _AUTO], "legacy": _legacy(0.7, 0.5),
        "penalty": _penalty(True, True), "night1": _night1(0.5), "counters": _COUNTERS},
}
