"""A scoring system as data: MafiaRatings' JSON (include/scoring.php, its ``scoring_versions``)
read as its code reads it, checked and applied to one player's game.

A system has up to five groups of policies — ``main`` (wins and losses), ``legacy`` (the
first night's victim's guess), ``extra``, ``penalty``, ``night1`` (for being killed the first
night) — each a list of ``{"matter": mask, "roles": mask, "points": number or formula,
"name": …, "mvp": …}``. A policy counts for a game when the game has every matter of its mask
and, with ``roles``, the player's role is in that mask (1 civilian, 2 sheriff, 4 mafia, 8
don). ``counters`` (``{"matter", "roles"}``) count such games for ``counter(i, j)`` of a
formula; ``sorting`` breaks ties (default ``"(epg)wsk"``, see :func:`sort_terms`).

Read as the site's code reads it: a key it never reads — another group's name (``prima_nocta``,
``legacy``'s name before the site's ``db/alter114.sql``), a policy's ``name_ru``, the old
``min_difficulty`` or ``figm_first_night_score`` — scores nothing, here as there, and
:attr:`ScoringSystem.ignored` lists them for the one line that says so (:func:`ignored_line`).
A policy without ``points`` gives 0, one without ``matter`` counts for every game.

Built in: ``fiim`` (FIIM, MafiaRatings' scoring 19, at its latest version; ``fiim@N`` at
version N: :mod:`narrator.scoring.fiim`) and ``points``, the club's flat ``[points]`` table of
the evening's results as a system of its own (:func:`points_table_system`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from narrator.engine import Exit
from narrator.errors import NarratorError
from narrator.reading import BadJSON, loads, read_text
from narrator.scoring.fiim import LATEST, VERSIONS
from narrator.scoring.formula import Env, Formula, parse
from narrator.scoring.matters import Matter, PlayerGame

if TYPE_CHECKING:
    from narrator.engine import Game

#: the groups, in the order MafiaRatings sums them (scoring.php, ``$_scoring_groups``)
GROUPS = ("main", "extra", "legacy", "penalty", "night1")
#: every matter bit (27 of them; scoring.php, SCORING_FLAG_END is the next)
ALL_MATTERS = (1 << len(Matter)) - 1
#: a policy's keys; ``noWeight`` is read and has no effect (we have no event weight)
POLICY_KEYS = ("matter", "roles", "points", "name", "mvp", "noWeight")
COUNTER_KEYS = ("matter", "roles")
DEFAULT_SORTING = "(epg)wsk"
#: a scoring system's JSON is a few kilobytes; a club's biggest far less than this
MAX_JSON = 1024 * 1024
#: a sorting letter → what it sums (scoring.php, SCORING_SORTING_*)
SORT_LETTERS = {"m": "main", "g": "legacy", "e": "extra", "p": "penalty", "n": "night1",
                "w": "wins", "s": "special_role_wins", "k": "killed_first_night"}

Value = float | Formula


def _value(value: Value, env: Env) -> float:
    return value if isinstance(value, float) else value.evaluate(env)


@dataclass(frozen=True, slots=True)
class Policy:
    """One line of a group: the points for the games with all of ``matter`` (and a role of
    ``roles``); ``mvp`` what it gives to the best-player count (None: nothing)."""

    matter: int
    points: Value = 0.0
    roles: int | None = None
    name: str | None = None
    mvp: Value | bool | None = None

    def applies(self, game: PlayerGame) -> bool:
        return game.flags & self.matter == self.matter and \
            (self.roles is None or bool(self.roles & (1 << game.role)))

    def mvp_points(self, points: float, env: Env) -> float:
        if self.mvp is None or self.mvp is False:
            return 0.0
        if self.mvp is True:
            return points
        return _value(self.mvp, env)


@dataclass(frozen=True, slots=True)
class Counter:
    """A count of the player's games with all of ``matter`` (and a role of ``roles``)."""

    matter: int
    roles: int | None = None

    def counts(self, game: PlayerGame) -> bool:
        return game.flags & self.matter == self.matter and \
            (self.roles is None or bool(self.roles & (1 << game.role)))


@dataclass(frozen=True)
class GameScore:
    """What a system gives one player's game: the points of each group, and the best-player
    points (``mvp``)."""

    groups: dict[str, float]
    mvp: float = 0.0

    @property
    def total(self) -> float:
        return sum(self.groups.values())


@dataclass(frozen=True)
class ScoringSystem:
    """A scoring system read from MafiaRatings' JSON (:func:`from_json`)."""

    name: str
    groups: dict[str, tuple[Policy, ...]] = field(default_factory=dict)
    counters: tuple[Counter, ...] = ()
    sorting: str = DEFAULT_SORTING
    #: the keys of its JSON that MafiaRatings' code never reads (they score nothing)
    ignored: tuple[str, ...] = ()

    def count(self, game: PlayerGame) -> list[int]:
        """1 for each counter the game counts for, else 0."""
        return [int(c.counts(game)) for c in self.counters]

    def env(self, game: PlayerGame, counters: tuple[list[int], list[int]]) -> Env:
        return Env(counters=counters, bonus=game.extra, role=int(game.role), flags=game.flags)

    def game_score(self, game: PlayerGame, counters: tuple[list[int], list[int]]) -> GameScore:
        """The game's points (scoring.php, add_player_score): each policy that applies adds
        its number, or its formula's value for this game and these counters."""
        env = self.env(game, counters)
        groups = {g: 0.0 for g in GROUPS}
        mvp = 0.0
        for group, policies in self.groups.items():
            for policy in policies:
                if policy.applies(game):
                    points = _value(policy.points, env)
                    groups[group] += points
                    mvp += policy.mvp_points(points, env)
        return GameScore(groups, mvp)


def sort_terms(sorting: str, where: str = "sorting") -> tuple[tuple[tuple[int, str], ...], ...]:
    """The tie-breaks of a sorting string, each a sum of (sign, what): a letter alone is one
    tie-break, letters in brackets are summed into one; ``-`` before a letter counts it
    negatively (scoring.php, compare_scores; there the sign is lost before the letter it
    precedes, a slip we do not copy). ``"(epg)wsk"``: extra+penalty+legacy, then wins, then
    sheriff/don wins, then first-night deaths."""
    terms: list[tuple[tuple[int, str], ...]] = []
    current: list[tuple[int, str]] | None = None
    sign = 1
    for i, char in enumerate(sorting):
        if char == "-":
            sign = -1
            continue
        if char == "(" and current is None:
            current = []
        elif char == ")" and current:
            terms.append(tuple(current))
            current = None
        elif char in SORT_LETTERS:
            if current is None:
                terms.append(((sign, SORT_LETTERS[char]),))
            else:
                current.append((sign, SORT_LETTERS[char]))
        else:
            raise NarratorError(f"{where}: {sorting!r}: unexpected {char!r} at column {i + 1} "
                                f"(letters: {''.join(SORT_LETTERS)}, '-', brackets)")
        sign = 1
    if current is not None or sorting.endswith("-"):
        raise NarratorError(f"{where}: {sorting!r}: unfinished at its end")
    return tuple(terms)


def _mask(value: object, where: str, known: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0 or value & ~known:
        raise NarratorError(f"{where}: {value!r} is not a {what}")
    return value


def _roles(raw: dict[str, object], where: str) -> int | None:
    if "roles" not in raw:
        return None
    roles = _mask(raw["roles"], f"{where}.roles", 15, "role mask 1-15")
    if roles == 0:
        raise NarratorError(f"{where}.roles: 0 is not a role mask 1-15")
    return roles


def _points(value: object, where: str) -> Value:
    if isinstance(value, str):
        try:
            return parse(value)
        except NarratorError as e:
            raise NarratorError(f"{where}: {e}") from None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise NarratorError(f"{where}: expected a number or a formula, got {value!r}")
    return float(value)


def _policy(raw: object, source: str, path: str, ignored: list[str]) -> Policy:
    where = f"{source}: {path}"
    if not isinstance(raw, dict):
        raise NarratorError(f"{where}: expected an object {{matter, points, …}}")
    ignored.extend(f"{path}.{key}" for key in raw if key not in POLICY_KEYS)
    # «($policy->matter & $game_flags) != $policy->matter»: without a matter, every game
    matter = _mask(raw.get("matter", 0), f"{where}.matter", ALL_MATTERS,
                   "mask of matters 0-26")
    roles = _roles(raw, where)
    name = raw.get("name")
    if name is not None and not isinstance(name, str):
        raise NarratorError(f"{where}.name: expected text, got {name!r}")
    mvp = raw.get("mvp")
    if mvp is not None and not isinstance(mvp, bool):
        mvp = _points(mvp, f"{where}.mvp")
    return Policy(matter, _points(raw.get("points", 0), f"{where}.points"), roles, name, mvp)


def _counters(raw: object, source: str, ignored: list[str]) -> tuple[Counter, ...]:
    where = f"{source}: counters"
    if not isinstance(raw, list):
        raise NarratorError(f"{where}: expected a list of {{matter, roles}}")
    out = []
    for i, item in enumerate(raw):
        at = f"{where}[{i}]"
        if not isinstance(item, dict):
            raise NarratorError(f"{at}: expected an object {{matter, roles}}")
        ignored.extend(f"counters[{i}].{key}" for key in item if key not in COUNTER_KEYS)
        out.append(Counter(_mask(item.get("matter", 0), f"{at}.matter", ALL_MATTERS,
                                 "mask of matters 0-26"), _roles(item, at)))
    return tuple(out)


def from_json(data: object, source: str, name: str | None = None) -> ScoringSystem:
    """A system from MafiaRatings' JSON value ``data``, read as include/scoring.php reads it:
    its five groups (``$_scoring_groups``), ``counters`` and ``sorting``; any other key is
    kept in :attr:`ScoringSystem.ignored` and scores nothing. A value of the wrong kind is a
    one-line NarratorError naming ``source`` and the key path."""
    if not isinstance(data, dict):
        raise NarratorError(f"{source}: expected an object of groups")
    groups: dict[str, tuple[Policy, ...]] = {}
    ignored: list[str] = []
    for key, raw in data.items():
        if key in ("counters", "sorting"):
            continue
        if key not in GROUPS:
            ignored.append(key)
            continue
        if not isinstance(raw, list):
            raise NarratorError(f"{source}: {key}: expected a list of policies")
        groups[key] = tuple(_policy(p, source, f"{key}[{i}]", ignored)
                            for i, p in enumerate(raw))
    counters = _counters(data.get("counters", []), source, ignored)
    sorting = data.get("sorting", DEFAULT_SORTING)
    if not isinstance(sorting, str):
        raise NarratorError(f"{source}: sorting: expected text, got {sorting!r}")
    sort_terms(sorting, f"{source}: sorting")
    return ScoringSystem(name or source, groups, counters, sorting, tuple(ignored))


def ignored_line(system: ScoringSystem, source: str) -> str | None:
    """The one line saying which keys of ``source``'s JSON score nothing, or None."""
    if not system.ignored:
        return None
    keys = ", ".join(system.ignored[:6]) + (" …" if len(system.ignored) > 6 else "")
    return (f"{source}: MafiaRatings' scoring reads no {keys}: "
            f"{'it scores' if len(system.ignored) == 1 else 'they score'} nothing")


#: the evening's ``[points]`` table and its defaults (:func:`load_points`)
POINTS_DEFAULTS = {"win": 1.0, "loss": 0.0, "best_move_black": 0.0, "foul": 0.0,
                   "removal": 0.0}
#: how many blacks a first night's victim named, by the matter MafiaRatings gives it
LEGACY_BLACKS = ((Matter.FIRST_LEGACY_3, 3), (Matter.FIRST_LEGACY_2, 2),
                 (Matter.FIRST_LEGACY_1, 1))


@dataclass(frozen=True, slots=True)
class ClubGame(PlayerGame):
    """A player's game with what the club's flat ``[points]`` table counts and MafiaRatings'
    matters cannot say exactly: the fouls (a matter says only "four of them"), the blacks
    named in the player's best move, and a removal. Left None, the latter two are read from
    the matters (FIRST_LEGACY_n; WARNINGS_4 or KICK_OUT)."""

    fouls: int = 0
    black_named: int | None = None
    removed: bool | None = None

    @classmethod
    def of(cls, game: Game, seat: int, played: PlayerGame) -> ClubGame:
        """The seat's matters (``played``) with what ``game`` says besides them."""
        best = game.best_move if game.best_move and game.best_move.seat == seat else None
        return cls(played.seat, played.role, played.flags, played.extra,
                   fouls=game.fouls.get(seat, 0), black_named=best.black_named if best else 0,
                   removed=game.how_out(seat) is Exit.REMOVED)

    def blacks(self) -> int:
        return self.black_named if self.black_named is not None else _blacks(self)

    def was_removed(self) -> bool:
        return self.removed if self.removed is not None else _removed(self)


def _blacks(game: PlayerGame) -> int:
    return next((n for matter, n in LEGACY_BLACKS if game.has(matter)), 0)


def _removed(game: PlayerGame) -> bool:
    return game.has(Matter.WARNINGS_4) or game.has(Matter.KICK_OUT)


@dataclass(frozen=True)
class PointsTableSystem(ScoringSystem):
    """The club's flat ``[points]`` table as a system: ``main`` a win's or a loss's points,
    ``legacy`` ``best_move_black`` for each black the player's best move named, ``penalty``
    ``foul`` for each foul and ``removal`` for a removal; ties by wins, then the player.
    Fouls count only from a :class:`ClubGame` (a plain game has none)."""

    points: dict[str, float] = field(default_factory=lambda: dict(POINTS_DEFAULTS))

    def game_score(self, game: PlayerGame, counters: tuple[list[int], list[int]]) -> GameScore:
        score = super().game_score(game, counters)  # main: the policies of win and loss
        groups = dict(score.groups)
        club = game if isinstance(game, ClubGame) else None
        blacks = club.blacks() if club else _blacks(game)
        removed = club.was_removed() if club else _removed(game)
        fouls = club.fouls if club else 0
        groups["legacy"] += blacks * self.points["best_move_black"]
        groups["penalty"] += fouls * self.points["foul"] + int(removed) * self.points["removal"]
        return GameScore(groups, score.mvp)


def points_table_system(points: dict[str, float] | None = None) -> PointsTableSystem:
    """The system of the club's ``[points]`` table (the evening's defaults for what is not
    given); an unknown key or a value that is no number is a one-line NarratorError."""
    table = dict(POINTS_DEFAULTS)
    for key, value in (points or {}).items():
        if key not in table:
            raise NarratorError(f"points.{key}: unknown (known: {', '.join(table)})")
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise NarratorError(f"points.{key}: expected a number, got {value!r}")
        table[key] = float(value)
    main = (Policy(Matter.WIN.flag, table["win"], name="win"),
            Policy(Matter.LOSE.flag, table["loss"], name="loss"))
    return PointsTableSystem("points", {"main": main}, sorting="w", points=table)


#: the systems a club names by ``[scoring] system = "…"``: ``fiim`` is FIIM at its latest
#: version, ``fiim@N`` at version N (:mod:`narrator.scoring.fiim`)
SYSTEMS: dict[str, ScoringSystem] = {
    **{f"fiim@{v}": from_json(data, f"fiim@{v}", f"fiim@{v}") for v, data in VERSIONS.items()},
    "points": points_table_system(),
}
SYSTEMS["fiim"] = SYSTEMS[f"fiim@{LATEST}"]
#: the names shown in a refusal (every version of FIIM too)
KNOWN = f"fiim (version {LATEST}), fiim@1 … fiim@{LATEST}, points"


def built_in(name: str, points: dict[str, float] | None = None) -> ScoringSystem | None:
    """The built-in system ``name`` (``points`` with the club's table), or None."""
    if name == "points":
        return points_table_system(points)
    return SYSTEMS.get(name)


def read_json(path: Path) -> ScoringSystem:
    """A system from MafiaRatings' JSON in the file ``path``."""
    return read_scoring_file(path)[1]


def read_scoring_file(path: Path) -> tuple[Any, ScoringSystem]:
    """MafiaRatings' JSON in the file ``path`` (a regular file of at most :data:`MAX_JSON`
    bytes) and the system it is; a one-line NarratorError naming it."""
    text = read_text(path, "the scoring system", limit=MAX_JSON)
    try:
        data = loads(text)
    except BadJSON as e:
        raise NarratorError(f"{path}: not a scoring system ({e})") from None
    return data, from_json(data, str(path), path.stem)
