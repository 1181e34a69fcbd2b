"""The evening's book: ``DIR/evening.json``, readable by its owner only (it holds every link).

It keeps what must outlive a game and a kill: the roster (a number, a nickname and a secret
link token per player; a player who left keeps their line, marked), the operator's token, the
evening's settings (language, ruleset with its figures and club options, seats, the console's
address: the links stay the same only on the same address), the points table, the seating
drawn for the next game, and every game started: its number, journal, ruleset, seating and
who sat it out.
Each change is written whole to a new file and renamed over the old one, so a kill leaves
either the old book or the new one, never half of one.
"""

from __future__ import annotations

import json
import random
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from narrator.club.scoring import DEFAULT_POINTS, POINTS_SPEC, Points, ScoringSpec
from narrator.console.tokens import OPERATOR, Who, owner_of
from narrator.engine.options import OptionError, apply_options
from narrator.engine.rules import Rules, find_rules
from narrator.engine.tuning import with_settings
from narrator.errors import NarratorError
from narrator.outputs import replace_whole
from narrator.reading import read_text
from narrator.replay.roster import key_of

BOOK = "evening.json"
VERSION = 1
#: the longest nickname (a phone's header shows it beside the seat)
MAX_NAME = 32
#: players in one evening's roster (a club's evening: two tables' worth and more)
MAX_PLAYERS = 60
#: the book's size: 60 players and a hundred games are some 20 KB
MAX_BOOK = 1 << 20


def new_id() -> str:
    """An evening's id: 64 random bits, as hex (a file name and a URL's part as it is)."""
    return secrets.token_hex(8)


def player_id(number: int) -> str:
    """The console's identity of the roster's player ``number``."""
    return f"player {number}"


@dataclass
class Player:
    """One line of the roster."""

    number: int
    name: str
    token: str
    left: bool = False
    mafiaratings: int | None = None  # the player's user id there (the export's ``id``)

    @property
    def who(self) -> str:
        return player_id(self.number)


@dataclass
class GameEntry:
    """A game of the evening: ``journal`` is a file name in the evening's folder."""

    number: int
    journal: str
    rules: str
    seating: dict[int, int]  # seat → player number
    #: the players present but not seated (a sit-out is a game played while one was there;
    #: a book written before this was kept holds none)
    out: list[int] = field(default_factory=list)


def check_name(text: str, taken: list[str]) -> str:
    """A nickname as the roster keeps it; NarratorError saying what is wrong with it."""
    name = " ".join(str(text).split())
    if not name:
        raise NarratorError("a player's nickname is empty")
    if len(name) > MAX_NAME:
        raise NarratorError(f"the nickname {name[:MAX_NAME]!r}… is longer than {MAX_NAME} "
                            "characters")
    if not name.isprintable():
        raise NarratorError(f"the nickname {name!r} holds a control character")
    if name.casefold() in (t.casefold() for t in taken):
        raise NarratorError(f"there is a player called {name!r} already")
    return name


@dataclass(frozen=True)
class PlanLink:
    """A tournament's plan for this table (:mod:`narrator.evening.plan`): its file's name
    (or the director's label), the table, the games of the evening before its first round,
    each round's nicknames seat by seat, and a director's pad tokens per round (each round's
    seat by seat; none for a plan from a file)."""

    file: str
    table: int
    start: int
    rounds: tuple[tuple[str, ...], ...]
    pads: tuple[tuple[str, ...], ...] = ()

    def round_of(self, game: int) -> int | None:
        """The plan's round (from 1) the evening's game number ``game`` plays, or None."""
        index = game - self.start
        return index if 1 <= index <= len(self.rounds) else None

    def to_json(self) -> dict[str, Any]:
        return {"file": self.file, "table": self.table, "start": self.start,
                "rounds": [list(r) for r in self.rounds],
                **({"pads": [list(p) for p in self.pads]} if self.pads else {})}


@dataclass(frozen=True)
class JoinLink:
    """The tournament's director this table joined (:mod:`narrator.evening.join`): its join
    link (a secret: the book is the owner's only) and the table's number."""

    url: str
    table: int


@dataclass
class EveningBook:
    """The roster, the settings and the games of an evening kept in ``folder``."""

    folder: Path
    operator: str
    lang: str
    rules: str
    address: str
    seats: int
    settings: dict[str, float] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    #: the club's flat ``[points]`` table (the ``points`` system scores by it)
    points: Points = DEFAULT_POINTS
    players: list[Player] = field(default_factory=list)
    games: list[GameEntry] = field(default_factory=list)
    #: the next game's seating as the operator has set it so far: seat → player number
    seating: dict[int, int] = field(default_factory=dict)
    #: the host's MafiaRatings user id (the export's ``moderator.id``), from the roster
    moderator: int | None = None
    #: the club's scoring system (narrator.club)
    scoring: ScoringSpec = POINTS_SPEC
    #: a tournament's plan for this table (narrator.evening.plan); None: none
    plan: PlanLink | None = None
    #: the tournament's director this table joined (narrator.evening.join); None: none
    join: JoinLink | None = None
    #: the evening's own random id: a game sent to a director is "<id>-<number>", unique
    #: across every table's evenings (a book written before it was kept gets one when read)
    id: str = field(default_factory=new_id)

    @property
    def path(self) -> Path:
        return self.folder / BOOK

    # -- who is who --------------------------------------------------------------------------

    def who(self, presented: str | None) -> Who | None:
        """The owner of a presented token: :data:`OPERATOR` or a player's identity. Every
        token is compared in constant time, so the time taken says nothing of a near miss."""
        return owner_of(presented, [(OPERATOR, self.operator),
                                    *((p.who, p.token) for p in self.players),
                                    *self.round_tokens()])

    def round_tokens(self) -> list[tuple[Who, str]]:
        """The director's pad tokens this table takes now: those of the plan's round last
        started (in play, or just over) and of the next one, each its planned player's. A
        round's token opens nobody's pad before the round before it starts, nor once the
        round after it has."""
        plan = self.plan
        if plan is None or not plan.pads:
            return []
        pads, rounds = plan.pads, plan.rounds
        upcoming = len(self.games) - plan.start  # (0-based: the next game's round)
        by_name = {key_of(p.name): p.who for p in self.players}
        out: list[tuple[Who, str]] = []
        for index in (upcoming - 1, upcoming):
            if 0 <= index < min(len(pads), len(rounds)):
                out.extend((by_name[key_of(name)], token)
                           for name, token in zip(rounds[index], pads[index], strict=True)
                           if key_of(name) in by_name)
        return out

    def player(self, number: int) -> Player | None:
        return next((p for p in self.players if p.number == number), None)

    def by_who(self, who: Who) -> Player | None:
        return next((p for p in self.players if p.who == who), None)

    @property
    def present(self) -> list[Player]:
        """The players still at the club tonight."""
        return [p for p in self.players if not p.left]

    # -- the roster --------------------------------------------------------------------------

    def add_player(self, name: str) -> Player:
        """A new player with a link of their own (NarratorError: a bad or taken nickname)."""
        if len(self.players) >= MAX_PLAYERS:
            raise NarratorError(f"the roster holds {MAX_PLAYERS} players already")
        clean = check_name(name, [p.name for p in self.players])
        player = Player(max((p.number for p in self.players), default=0) + 1, clean,
                        secrets.token_urlsafe(24))
        self.players.append(player)
        return player

    def set_id(self, number: int, user: int | None) -> None:
        """Player ``number``'s MafiaRatings user id (None: none); one id is one player's."""
        player = self.player(number)
        if player is None:
            raise NarratorError(f"there is no player {number} in the roster")
        if user is not None and user < 1:
            raise NarratorError(f"a MafiaRatings id is a whole number from 1, not {user}")
        other = next((p for p in self.players if user is not None and p.mafiaratings == user
                      and p.number != number), None)
        if other is not None:
            raise NarratorError(f"the MafiaRatings id {user} is {other.name}'s already")
        player.mafiaratings = user

    def leave(self, number: int) -> None:
        """The player goes home: off the next game's seating; their results stay."""
        player = self._present(number)
        player.left = True
        self.seating = {s: n for s, n in self.seating.items() if n != number}

    def come_back(self, number: int) -> None:
        player = self.player(number)
        if player is None:
            raise NarratorError(f"there is no player {number} in the roster")
        player.left = False

    def _present(self, number: int) -> Player:
        player = self.player(number)
        if player is None or player.left:
            raise NarratorError(f"there is no player {number} at the club tonight")
        return player

    # -- seating the next game -----------------------------------------------------------------

    def seat(self, seat: int, number: int | None) -> None:
        """Put player ``number`` on ``seat`` (None: empty it). A player seated elsewhere moves
        there, and whoever sat on ``seat`` takes the seat he left (a swap)."""
        if not 1 <= seat <= self.seats:
            raise NarratorError(f"there is no seat {seat} at a table of {self.seats}")
        if number is None:
            self.seating.pop(seat, None)
            return
        self._present(number)
        before = next((s for s, n in self.seating.items() if n == number), None)
        there = self.seating.get(seat)
        self.seating[seat] = number
        if before is not None and before != seat:
            if there is None:
                del self.seating[before]
            else:
                self.seating[before] = there

    def draw(self, rng: random.Random) -> None:
        """A random seating of the players present (when more are present than there are
        seats, a random table of them plays)."""
        players = [p.number for p in self.present]
        rng.shuffle(players)
        self.seating = {seat: n for seat, n in enumerate(players[:self.seats], start=1)}

    def seating_problem(self) -> str | None:
        """Why the next game cannot start with this seating (None: it can)."""
        empty = [s for s in range(1, self.seats + 1) if s not in self.seating]
        if empty:
            return f"seat {empty[0]} is empty" if len(empty) == 1 else \
                f"seats {', '.join(map(str, empty))} are empty"
        for seat, number in sorted(self.seating.items()):
            player = self.player(number)
            if player is None or player.left:
                return f"seat {seat}: player {number} is not at the club tonight"
        return None

    def names_of(self, seating: dict[int, int]) -> dict[int, str]:
        """The nicknames per seat of a game seated so."""
        out: dict[int, str] = {}
        for seat, number in seating.items():
            player = self.player(number)
            if player is not None:
                out[seat] = player.name
        return out

    # -- the games -----------------------------------------------------------------------------

    def game_rules(self, name: str | None = None) -> Rules:
        """The ruleset ``name`` (the evening's by default) with the evening's figures and club
        options (a figure or option the ruleset does not have: a one-line NarratorError)."""
        rules = find_rules(name or self.rules)
        if self.settings:
            rules = with_settings(rules, **self.settings)
        try:
            return apply_options(rules, self.options, where="the evening's options")
        except OptionError as e:
            raise NarratorError(str(e)) from None

    def new_game(self, rules: str) -> GameEntry:
        """The next game, with the seating as it stands (checked by the caller)."""
        number = len(self.games) + 1
        seated = set(self.seating.values())
        entry = GameEntry(number, f"game-{number:02d}.jsonl", rules, dict(self.seating),
                          [p.number for p in self.present if p.number not in seated])
        self.games.append(entry)
        return entry

    def journal(self, entry: GameEntry) -> Path:
        return self.folder / entry.journal

    # -- the file ------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "evening": VERSION, "id": self.id, "lang": self.lang, "rules": self.rules, "seats": self.seats,
            "address": self.address, "settings": self.settings, "options": self.options,
            "points": self.points.as_dict(), "operator": self.operator,
            "players": [{"number": p.number, "name": p.name, "token": p.token,
                         **({"left": True} if p.left else {}),
                         **({"mafiaratings": p.mafiaratings} if p.mafiaratings else {})}
                        for p in self.players],
            "games": [{"number": g.number, "journal": g.journal, "rules": g.rules,
                       "seating": {str(s): n for s, n in sorted(g.seating.items())},
                       "out": list(g.out)}
                      for g in self.games],
            "seating": {str(s): n for s, n in sorted(self.seating.items())},
            **({"moderator": self.moderator} if self.moderator is not None else {}),
            **({"scoring": self.scoring.to_kept()} if not self.scoring.is_points else {}),
            **({"plan": self.plan.to_json()} if self.plan is not None else {}),
            **({"join": {"url": self.join.url, "table": self.join.table}}
               if self.join is not None else {}),
        }

    def save(self) -> None:
        """Write the book whole, owner-only, then rename it over the old one."""
        text = json.dumps(self.to_json(), ensure_ascii=False, indent=1) + "\n"
        replace_whole(self.path, text, "the evening's book", mode=0o600)

    @classmethod
    def new(cls, folder: Path, *, lang: str, rules: Rules, seats: int, address: str,
            settings: dict[str, float], options: dict[str, Any],
            points: Points = DEFAULT_POINTS, scoring: ScoringSpec = POINTS_SPEC) -> EveningBook:
        return cls(folder, secrets.token_urlsafe(24), lang, rules.name, address, seats,
                   dict(settings), dict(options), points, scoring=scoring)

    @classmethod
    def load(cls, folder: Path) -> EveningBook:
        """The book of ``folder``; a one-line NarratorError naming the file and the field."""
        path = folder / BOOK
        text = read_text(path, "the evening's book", limit=MAX_BOOK)  # (a regular file, bounded)
        try:
            raw = json.loads(text)
        except json.JSONDecodeError as e:
            raise NarratorError(f"{path}:{e.lineno}: not JSON ({e.msg})") from None
        return _read(path, raw)


class _Fields:
    """The book's fields read one by one; each fault a NarratorError naming the file and the
    field."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def bad(self, where: str, expected: str) -> NarratorError:
        return NarratorError(f"{self.path}: {where}: expected {expected}")

    def text(self, obj: dict[str, Any], key: str, where: str) -> str:
        value = obj.get(key)
        if not isinstance(value, str) or not value:
            raise self.bad(f"{where}{key}", "a text")
        return value

    def number(self, value: Any, where: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise self.bad(where, "a number from 1")
        return value

    def user(self, value: Any, where: str) -> int | None:  # a MafiaRatings id, or none
        return None if value is None else self.number(value, where)

    def table(self, value: Any, where: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.bad(where, "an object")
        return value

    def numbers(self, value: Any, where: str) -> list[int]:
        if not isinstance(value, list):
            raise self.bad(where, "a list of player numbers")
        return [self.number(n, f"{where}[{i}]") for i, n in enumerate(value)]

    def seating(self, value: Any, where: str) -> dict[int, int]:
        out: dict[int, int] = {}
        for seat, n in self.table(value, where).items():
            if not seat.isdigit():
                raise self.bad(f"{where}.{seat}", "a seat number")
            out[int(seat)] = self.number(n, f"{where}.{seat}")
        return out

    def game(self, raw: Any, i: int) -> GameEntry:
        g = self.table(raw, f"games[{i}]")
        journal = self.text(g, "journal", f"games[{i}].")
        if Path(journal).name != journal:
            raise self.bad(f"games[{i}].journal", "a file name in the evening's folder")
        return GameEntry(self.number(g.get("number"), f"games[{i}].number"), journal,
                         self.text(g, "rules", f"games[{i}]."),
                         self.seating(g.get("seating"), f"games[{i}].seating"),
                         self.numbers(g.get("out", []), f"games[{i}].out"))


    def id(self, value: Any) -> str:
        """The evening's id (none kept yet: a new one, written with the next save)."""
        if value is None:
            return new_id()
        if not isinstance(value, str) or not value.isalnum() or len(value) > 32:
            raise self.bad("id", "letters and digits (at most 32)")
        return value

    def join(self, value: Any) -> JoinLink | None:
        """The director this table joined (None: none)."""
        join = self.table(value, "join")
        if not join:
            return None
        return JoinLink(self.text(join, "url", "join."),
                        self.number(join.get("table"), "join.table"))

    def names(self, value: Any, where: str) -> tuple[tuple[str, ...], ...]:
        if not isinstance(value, list) or not all(
                isinstance(r, list) and all(isinstance(n, str) and n for n in r) for r in value):
            raise self.bad(where, "rounds of texts")
        return tuple(tuple(r) for r in value)

    def plan(self, value: Any) -> PlanLink | None:
        """A tournament's plan for this table (None: none)."""
        plan = self.table(value, "plan")
        if not plan:
            return None
        start = plan.get("start")
        if isinstance(start, bool) or not isinstance(start, int) or start < 0:
            raise self.bad("plan.start", "a number of games from 0")
        return PlanLink(self.text(plan, "file", "plan."),
                        self.number(plan.get("table"), "plan.table"), start,
                        self.names(plan.get("rounds"), "plan.rounds"),
                        self.names(plan.get("pads", []), "plan.pads"))


def _read(path: Path, raw: Any) -> EveningBook:
    f = _Fields(path)
    if not isinstance(raw, dict) or raw.get("evening") != VERSION:
        raise f.bad("evening", f"an evening's book of version {VERSION}")
    players: list[Player] = []
    for i, p in enumerate(raw.get("players") or []):
        p = f.table(p, f"players[{i}]")
        players.append(Player(f.number(p.get("number"), f"players[{i}].number"),
                              f.text(p, "name", f"players[{i}]."),
                              f.text(p, "token", f"players[{i}]."), bool(p.get("left", False)),
                              f.user(p.get("mafiaratings"), f"players[{i}].mafiaratings")))
    games = [f.game(g, i) for i, g in enumerate(raw.get("games") or [])]
    settings = f.table(raw.get("settings", {}), "settings")
    if not all(isinstance(v, int | float) and not isinstance(v, bool)
               for v in settings.values()):
        raise f.bad("settings", "numbers")
    points = Points.of(raw.get("points", {}), f"{path}: points")
    scoring = ScoringSpec.from_kept(raw.get("scoring", {}), f"{path}: scoring")
    return EveningBook(path.parent, f.text(raw, "operator", ""), f.text(raw, "lang", ""),
                       f.text(raw, "rules", ""), f.text(raw, "address", ""),
                       f.number(raw.get("seats"), "seats"), dict(settings),
                       dict(f.table(raw.get("options", {}), "options")), points,
                       players, games, f.seating(raw.get("seating", {}), "seating"),
                       f.user(raw.get("moderator"), "moderator"),
                       scoring, f.plan(raw.get("plan", {})), f.join(raw.get("join", {})),
                       f.id(raw.get("id")))
