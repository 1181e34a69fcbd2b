"""The director's state: one SQLite file, ``DIR/tournament.sqlite``.

It holds the tournament (its name, MafiaRatings id, scoring system, ruleset and the director's
token), the players (nickname, MafiaRatings id, link token), the plan (round, table, seat →
player, and that seat's pad token: the player's pad at that table that round, a secret only
the director and that table know), the tables (number, join token, last contact, the address
of its console and its state as it last said), the stages (first round, name, coefficient,
hidden) and the games received from the tables.

Every change is one transaction: the box killed at any moment keeps each change whole or not
at all, and a later run takes the file up as it is. The journal is SQLite's WAL with
``synchronous=FULL``: the pages poll every two seconds while the tables post their games, and
in WAL a reader never waits for the writer (nor the writer for a reader); FULL syncs each
commit, so a game answered ``stored`` survives a power cut too, not only a killed process.
"""

from __future__ import annotations

import json
import os
import secrets
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from narrator.club.scoring import DEFAULT_POINTS, Points, ScoringSpec
from narrator.errors import NarratorError

FILE = "tournament.sqlite"

SCHEMA = """
CREATE TABLE tournament (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    name TEXT NOT NULL,
    mafiaratings INTEGER,
    scoring TEXT NOT NULL,
    rules TEXT,
    token TEXT NOT NULL,
    created INTEGER NOT NULL
);
CREATE TABLE players (
    idx INTEGER PRIMARY KEY,
    nickname TEXT NOT NULL,
    mafiaratings INTEGER,
    token TEXT NOT NULL UNIQUE
);
CREATE TABLE plan (
    round INTEGER NOT NULL,
    table_no INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    player INTEGER NOT NULL REFERENCES players (idx),
    pad TEXT,
    PRIMARY KEY (round, table_no, seat)
);
CREATE TABLE tables (
    number INTEGER PRIMARY KEY,
    token TEXT NOT NULL UNIQUE,
    contact INTEGER,
    console TEXT,
    status TEXT
);
CREATE TABLE stages (
    first_round INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    coefficient REAL NOT NULL,
    hidden INTEGER NOT NULL
);
CREATE TABLE games (
    key TEXT NOT NULL UNIQUE,
    round INTEGER NOT NULL,
    table_no INTEGER NOT NULL,
    game INTEGER NOT NULL,
    journal TEXT NOT NULL,
    seating TEXT NOT NULL,
    received INTEGER NOT NULL,
    ended INTEGER
);
"""
#: a game's columns, in the order of Received
_GAME = "key, round, table_no, game, journal, seating, received, ended"


@dataclass(frozen=True)
class Player:
    index: int  # 0-based, as the plan's
    nickname: str
    mafiaratings: int | None
    token: str


@dataclass(frozen=True)
class Stage:
    first_round: int  # 1-based
    name: str
    coefficient: float
    hidden: bool


@dataclass(frozen=True)
class Table:
    number: int  # 1-based
    token: str
    contact: int | None  # Unix seconds of the last request, None: never
    console: str | None = None  # its console's base URL, as it last said
    status: dict[str, Any] | None = None  # its state as it last said (game, round, phase)


@dataclass(frozen=True)
class Received:
    """A game a table sent: its key, round, table, number, journal, seating (seat → nickname),
    when it came and when the table says it ended (Unix seconds; None: a table that did not
    say)."""

    key: str
    round: int
    table: int
    game: int
    journal: str
    seating: dict[int, str]
    received: int
    ended: int | None = None


@dataclass(frozen=True)
class Tournament:
    name: str
    mafiaratings: int | None
    scoring: ScoringSpec  # the system that scores (narrator.club)
    rules: str | None
    token: str  # the director's page
    points: Points = DEFAULT_POINTS  # the club's flat table, for the ``points`` system

    def kept_scoring(self) -> dict[str, Any]:
        """The ``scoring`` column: the spec, and the flat table when it scores."""
        return {**self.scoring.to_kept(),
                **({"points": self.points.as_dict()} if self.scoring.is_points else {})}

    @classmethod
    def read_scoring(cls, text: str, where: str) -> tuple[ScoringSpec, Points]:
        try:
            raw = json.loads(text)
        except ValueError:
            raise NarratorError(f"{where}: scoring: not JSON") from None
        points = raw.get("points", {}) if isinstance(raw, dict) else {}
        return ScoringSpec.from_kept(raw, f"{where}: scoring"), \
            Points.of(points, f"{where}: scoring.points")


@dataclass(frozen=True)
class Setup:
    """What a first run writes: the tournament, the players (nickname, id), the plan
    (rounds → tables → ten player indices) and the stages."""

    tournament: Tournament
    players: Sequence[tuple[str, int | None]]
    rounds: Sequence[Sequence[Sequence[int]]]
    stages: Sequence[Stage]


def new_token() -> str:
    return secrets.token_urlsafe(24)


class Store:
    """The open database; one connection shared by the server's threads under a lock."""

    def __init__(self, path: Path, connection: sqlite3.Connection) -> None:
        self.path = path
        self._db = connection
        self._lock = threading.Lock()
        #: this run's version of the games: one more at each game stored or updated
        self._version = 0

    # -- opening ---------------------------------------------------------------------------

    @classmethod
    def create(cls, folder: Path, setup: Setup, now: int) -> Store:
        """A new database in ``folder`` (made if missing), written in one transaction: a
        kill mid-way leaves no database a later run would take up."""
        path = folder / FILE
        if path.exists() and has_tournament(path):
            raise NarratorError(f"{path}: exists already")
        folder.mkdir(parents=True, exist_ok=True)
        for stale in (path, path.with_name(FILE + "-wal"), path.with_name(FILE + "-shm")):
            stale.unlink(missing_ok=True)  # a first run killed before its commit
        store = cls(path, _connect(path))
        with store._write() as db:
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    db.execute(statement)
            _fill(db, setup, now)
        return store

    @classmethod
    def open(cls, folder: Path) -> Store:
        """The database of ``folder`` as a run left it; one made by an earlier version gets
        the columns added since (in one transaction) and its seats' pad tokens."""
        path = folder / FILE
        if not path.is_file() or not has_tournament(path):
            raise NarratorError(f"{folder}: no tournament there (no {FILE} with one)")
        store = cls(path, _connect(path))
        with store._write() as db:
            _upgrade(db)
        return store

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One transaction: committed whole, or (an error, a kill) not at all."""
        with self._lock:
            try:
                if not self._db.in_transaction:
                    self._db.execute("BEGIN IMMEDIATE")
                yield self._db
                self._db.commit()
            except BaseException:
                self._db.rollback()
                raise

    def _read(self, sql: str, args: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return list(self._db.execute(sql, args).fetchall())

    # -- reading ---------------------------------------------------------------------------

    def tournament(self) -> Tournament:
        name, mr, scoring, rules, token = self._read(
            "SELECT name, mafiaratings, scoring, rules, token FROM tournament")[0]
        spec, points = Tournament.read_scoring(scoring, str(self.path))
        return Tournament(name, mr, spec, rules, token, points)

    def players(self) -> list[Player]:
        return [Player(*row) for row in self._read(
            "SELECT idx, nickname, mafiaratings, token FROM players ORDER BY idx")]

    def rounds(self) -> list[list[list[int]]]:
        """The plan: rounds → tables → ten player indices, seat 1 first."""
        out: list[list[list[int]]] = []
        for rnd, table, _seat, player in self._read(
                "SELECT round, table_no, seat, player FROM plan ORDER BY round, table_no, seat"):
            while len(out) < rnd:
                out.append([])
            while len(out[rnd - 1]) < table:
                out[rnd - 1].append([])
            out[rnd - 1][table - 1].append(player)
        return out

    def tables(self) -> list[Table]:
        return [Table(n, token, contact, console, None if status is None else json.loads(status))
                for n, token, contact, console, status in self._read(
                    "SELECT number, token, contact, console, status FROM tables "
                    "ORDER BY number")]

    def pads(self, table: int) -> list[list[str]]:
        """Table ``table``'s pad tokens: per round, seat 1 first."""
        out: list[list[str]] = []
        for rnd, pad in self._read("SELECT round, pad FROM plan WHERE table_no = ? "
                                   "ORDER BY round, seat", (table,)):
            while len(out) < rnd:
                out.append([])
            out[rnd - 1].append(pad)
        return out

    def pad(self, rnd: int, table: int, seat: int) -> str | None:
        rows = self._read("SELECT pad FROM plan WHERE round = ? AND table_no = ? AND seat = ?",
                          (rnd, table, seat))
        return str(rows[0][0]) if rows else None

    def stages(self) -> list[Stage]:
        return [Stage(r, n, c, bool(h)) for r, n, c, h in self._read(
            "SELECT first_round, name, coefficient, hidden FROM stages ORDER BY first_round")]

    def games(self) -> list[Received]:
        """Every game received, in the order of the tournament: round, table, game number."""
        return [_received(row) for row in self._read(
            f"SELECT {_GAME} FROM games ORDER BY round, table_no, game, received")]

    def count(self) -> int:
        """How many games are stored."""
        return int(self._read("SELECT count(*) FROM games")[0][0])

    def version(self) -> int:
        """The games' version in this run: it changes when a game is stored or updated (a
        game's journal extended: the count alone would not tell)."""
        with self._lock:
            return self._version

    def game(self, key: str) -> Received | None:
        rows = self._read(f"SELECT {_GAME} FROM games WHERE key = ?", (key,))
        return _received(rows[0]) if rows else None

    # -- writing ---------------------------------------------------------------------------

    def add_game(self, game: Received) -> bool:
        """Store ``game`` once: True if stored now, False if its key was there already."""
        with self._write() as db:
            cursor = db.execute(
                f"INSERT INTO games ({_GAME}) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO NOTHING",
                (game.key, game.round, game.table, game.game, game.journal,
                 json.dumps({str(s): n for s, n in sorted(game.seating.items())},
                            ensure_ascii=False), game.received, game.ended))
            if cursor.rowcount == 1:
                self._version += 1
            return cursor.rowcount == 1

    def update_game(self, key: str, before: str, journal: str) -> bool:
        """The journal of ``key`` replaced by ``journal`` if it is ``before`` still (one
        transaction); False if another request changed it meanwhile."""
        with self._write() as db:
            cursor = db.execute("UPDATE games SET journal = ? WHERE key = ? AND journal = ?",
                                (journal, key, before))
            if cursor.rowcount == 1:
                self._version += 1
            return cursor.rowcount == 1

    def set_mafiaratings(self, tournament: int) -> None:
        """The tournament's MafiaRatings id, given by a later run (the first had none)."""
        with self._write() as db:
            db.execute("UPDATE tournament SET mafiaratings = ?", (tournament,))

    def touch(self, table: int, now: int) -> None:
        """A table was heard from at ``now``."""
        with self._write() as db:
            db.execute("UPDATE tables SET contact = ? WHERE number = ?", (now, table))

    def set_status(self, table: int, console: str | None, status: dict[str, Any],
                   now: int) -> None:
        """What table ``table`` said of itself at ``now``: its console's address, its state."""
        with self._write() as db:
            db.execute("UPDATE tables SET contact = ?, console = ?, status = ? WHERE number = ?",
                       (now, console, json.dumps(status, ensure_ascii=False), table))


def has_tournament(path: Path) -> bool:
    """Is ``path`` a database a first run committed? False where there is none: no file, an
    empty one, or one without the schema (a first run killed before its commit leaves that,
    and it may be made again). A file that holds anything else is a tournament's or a
    stranger's, and is never made again over: one that does not read whole (a damaged header,
    a damaged page, not SQLite at all) is a NarratorError naming it, and the file is kept."""
    if not path.exists() or (path.is_file() and path.stat().st_size == 0):
        return False
    if not path.is_file():
        raise NarratorError(f"{path}: not a file")
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            # quick_check reads every page of every table and index: a damaged page anywhere
            # is found now, when nothing has been served, not at the first game posted
            problems = [row[0] for row in db.execute("PRAGMA quick_check").fetchall()]
            if problems != ["ok"]:
                raise sqlite3.DatabaseError(problems[0])
            if not db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
                              "name = 'tournament'").fetchall():
                return False
            if db.execute("SELECT count(*) FROM tournament").fetchone()[0] != 1:
                raise sqlite3.DatabaseError("no tournament row")
            return True
        finally:
            db.close()
    except sqlite3.DatabaseError as error:
        reason = " ".join(str(error).split())[:120]
        raise NarratorError(
            f"{path}: damaged ({reason}); it is kept as it is: put back a copy of it, or "
            f"move it away to start a new tournament in this folder") from None


def _connect(path: Path) -> sqlite3.Connection:
    # owner-only, as the evening's book: it holds every link's token and the games' journals
    # (SQLite gives its -wal and -shm files the database file's mode)
    os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
    os.chmod(path, 0o600)
    # isolation_level=None: the transactions are ours (BEGIN … COMMIT), none implicit
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=5.0)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("PRAGMA foreign_keys=ON")
    return db


def _fill(db: sqlite3.Connection, setup: Setup, now: int) -> None:
    t = setup.tournament
    db.execute("INSERT INTO tournament (id, name, mafiaratings, scoring, rules, token, created) "
               "VALUES (1, ?, ?, ?, ?, ?, ?)",
               (t.name, t.mafiaratings, json.dumps(t.kept_scoring(), ensure_ascii=False), t.rules,
                t.token, now))
    db.executemany("INSERT INTO players (idx, nickname, mafiaratings, token) VALUES (?, ?, ?, ?)",
                   [(i, n, mr, new_token()) for i, (n, mr) in enumerate(setup.players)])
    db.executemany("INSERT INTO plan (round, table_no, seat, player, pad) "
                   "VALUES (?, ?, ?, ?, ?)",
                   [(r, t_no, s, p, new_token()) for r, rnd in enumerate(setup.rounds, 1)
                    for t_no, table in enumerate(rnd, 1) for s, p in enumerate(table, 1)])
    tables = len(setup.rounds[0]) if setup.rounds else 0
    db.executemany("INSERT INTO tables (number, token) VALUES (?, ?)",
                   [(n, new_token()) for n in range(1, tables + 1)])
    db.executemany("INSERT INTO stages (first_round, name, coefficient, hidden) "
                   "VALUES (?, ?, ?, ?)",
                   [(s.first_round, s.name, s.coefficient, int(s.hidden)) for s in setup.stages])


#: the columns added since the first version: (table, column, its type)
_ADDED = (("plan", "pad", "TEXT"), ("tables", "console", "TEXT"), ("tables", "status", "TEXT"),
          ("games", "ended", "INTEGER"))


def _upgrade(db: sqlite3.Connection) -> None:
    """A database of an earlier version brought up to this one: the missing columns added,
    every seat without a pad token given one."""
    for table, column, kind in _ADDED:
        have = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
        if column not in have:
            db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")
    rows = db.execute("SELECT round, table_no, seat FROM plan WHERE pad IS NULL").fetchall()
    db.executemany("UPDATE plan SET pad = ? WHERE round = ? AND table_no = ? AND seat = ?",
                   [(new_token(), *row) for row in rows])


def _received(row: tuple[Any, ...]) -> Received:
    key, rnd, table, game, journal, seating, received, ended = row
    return Received(key, rnd, table, game, journal,
                    {int(s): n for s, n in json.loads(seating).items()}, received, ended)
