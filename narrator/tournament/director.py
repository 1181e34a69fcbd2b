"""The director's side of the tournament: what a table is sent (its plan), what it sends (a
finished game, stored once; its journal extended by the host's marks later, replaced), and
what each page shows (the standings, the next seatings, the games in), all from the database
(:mod:`narrator.tournament.store`).

A game is "in" for round R at table N when a game of round R came from table N. A player's
next seat is the first round of the plan that seats him at a table that has sent no game of
that round yet; during his game, or once his table has begun the round before it, his page
links to his pad there (the console's address the table gave, the seat's pad token). A hidden
stage (the final) hides the standings while it plays: until every
table has sent every round of it, the public pages show the standings before it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from narrator.console.links import qr_of
from narrator.console.requests import shown
from narrator.console.tokens import owner_of
from narrator.engine import Game
from narrator.errors import NarratorError
from narrator.seating.value import key_of
from narrator.tournament.standings import Line, read_game, standings
from narrator.tournament.status import phase_text, status_of
from narrator.tournament.store import Player, Received, Stage, Store, Table

SEATS = 10
#: the longest key a table may give a game
MAX_KEY = 200
#: the Unix seconds a game's ``ended`` may say: 2000-01-01 to 2100-01-01 (a clock off by
#: more is no clock)
ENDED = range(946_684_800, 4_102_444_800)


class BadGame(NarratorError):
    """A body the games endpoint refuses: 400."""


class OtherJournal(NarratorError):
    """The same key came with another journal: 409."""


@dataclass(frozen=True)
class Posted:
    """A game as a table posts it, checked."""

    key: str
    round: int
    game: int
    journal: str
    seating: dict[int, str]
    ended: int | None = None  # when the table says it ended (Unix seconds)


def _same_game(before: Game, after: Game) -> bool:
    """Whether ``after`` is the finished game ``before`` is (its seats, roles, names and
    winner), only marked since."""
    return (before.rules.name, before.seats, before.roles, before.names, before.winner) == \
        (after.rules.name, after.seats, after.roles, after.names, after.winner)


def posted(body: object) -> Posted:
    """The checked body of ``POST /join/TOKEN/games``; BadGame naming the field."""
    if not isinstance(body, dict):
        raise BadGame("expected an object {key, round, game, journal, seating}")
    key = body.get("key")
    if not isinstance(key, str) or not key or len(key) > MAX_KEY:
        raise BadGame(f"key: expected text of 1 to {MAX_KEY} characters")
    numbers = {}
    for field in ("round", "game"):
        value = body.get(field)
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 10_000:
            raise BadGame(f"{field}: expected a whole number from 1, got {shown(value)}")
        numbers[field] = value
    journal = body.get("journal")
    if not isinstance(journal, str) or not journal.strip():
        raise BadGame("journal: expected the journal's text (JSON lines)")
    ended = body.get("ended")
    if ended is not None and (isinstance(ended, bool) or not isinstance(ended, int)
                              or ended not in ENDED):
        raise BadGame(f"ended: expected the game's end in Unix seconds, got {shown(ended)}")
    return Posted(key, numbers["round"], numbers["game"], journal,
                  _seating(body.get("seating")), ended)


def _seating(raw: object) -> dict[int, str]:
    """``{"1": nickname, …}``; a seat left out or null is empty (an absent player)."""
    if not isinstance(raw, dict):
        raise BadGame('seating: expected an object {"1": nickname, …, "10": nickname}')
    out: dict[int, str] = {}
    for seat, name in raw.items():
        if not isinstance(seat, str) or not (seat.isascii() and seat.isdigit()) or \
                len(seat) > 2 or not 1 <= int(seat) <= SEATS:
            raise BadGame(f"seating: {shown(seat)}: expected a seat from 1 to {SEATS}")
        if name is None:
            continue
        if not isinstance(name, str) or not name.strip() or not name.isprintable():
            raise BadGame(f"seating.{seat}: expected a nickname, got {shown(name)}")
        out[int(seat)] = " ".join(name.split())
    return out


def _seated_as_played(game: Posted, played: Game) -> None:
    """BadGame unless each seat's nickname posted is the one the journal seats there (when
    it names its seats): the standings credit the seating, the journal is what was played."""
    if not played.names:
        return
    for seat in sorted(set(game.seating) | set(played.names)):
        name, named = game.seating.get(seat), played.names.get(seat)
        if name is None or named is None or key_of(named) != key_of(name):
            raise BadGame(f"seating.{seat}: {'empty' if name is None else shown(name)}, but "
                          f"the journal seats {'nobody' if named is None else shown(named)} "
                          "there")


class Director:
    """The tournament being run: the store, the folder it is in, the clock (Unix seconds),
    the base URL of the links, and the games read (a journal is read once a run)."""

    def __init__(self, store: Store, folder: Path, now: Callable[[], int],
                 base: str = "", lang: str = "ru") -> None:
        self.store = store
        #: the pages' language (the board, the players' pages, the director's)
        self.lang = lang
        self.folder = folder
        self.now = now
        self.base = base
        self.tournament = store.tournament()
        self.system = self.tournament.scoring.system(self.tournament.points,
                                                     "the tournament's scoring")
        self.players: list[Player] = store.players()
        self.rounds = store.rounds()
        self.stages: list[Stage] = store.stages()
        #: each game read, by key, with the length of the journal it was read from (a game's
        #: journal is only ever extended: a longer one is read again)
        self._games: dict[str, tuple[int, Game]] = {}
        #: the games as the store's version gave them
        self._received: tuple[int, list[tuple[Received, Game]]] | None = None
        #: the standings of the first N games received (N, the note) while no game comes
        self._standings: dict[tuple[int, str | None], list[Line]] = {}
        self._lock = threading.Lock()
        #: a new game judged against the games stored and stored, one at a time
        self._storing = threading.Lock()

    # -- the tables ------------------------------------------------------------------------

    def table_of(self, token: str) -> Table | None:
        """The table whose join token is ``token`` (each compared in constant time)."""
        tables = {t.number: t for t in self.store.tables()}
        number = owner_of(token, [(n, t.token) for n, t in tables.items()])
        return tables.get(number) if isinstance(number, int) else None

    def plan_for(self, table: Table) -> dict[str, Any]:
        """What ``GET /join/TOKEN/plan`` answers."""
        self.store.touch(table.number, self.now())
        mine = [rnd[table.number - 1] for rnd in self.rounds]
        seen = sorted({p for seats in mine for p in seats})
        return {"tournament": 1, "table": table.number, "tables": len(self.rounds[0]),
                "name": self.tournament.name,
                "rounds": [[self.players[p].nickname for p in seats] for seats in mine],
                "players": [{"name": self.players[p].nickname,
                             "mafiaratings": self.players[p].mafiaratings} for p in seen],
                "rules": self.tournament.rules,
                # each seat's pad token, round by round: this table's secret, no other's
                "pads": self.store.pads(table.number)}

    def take_status(self, table: Table, body: object) -> dict[str, Any]:
        """What a table says of itself kept (BadStatus: a body it is not)."""
        status = status_of(body)
        self.store.set_status(table.number, status.console, status.state, self.now())
        return {"ok": True, "standings": self.standings_view()}

    def standings_view(self) -> dict[str, Any]:
        """The tournament's standings as a table's pads show them (in every answer to a
        table: its pads show the tournament's, not the table's own points) — the public ones,
        as the board and a player's page have them."""
        lines, note = self.standings(self.received(), public=True)
        return {"name": self.tournament.name, "system": self.system.name,
                "standings": [line.to_json() for line in lines], "note": note}

    def receive(self, table: Table, body: object) -> dict[str, Any]:
        """Store a posted game once: ``{"stored": true}``; a key stored already is
        :meth:`_again`'s. A new key must be a game of the plan (:meth:`_in_plan`, BadGame),
        its seating the journal's, and not one the director holds already (:meth:`_not_in`,
        OtherJournal): nobody's game counts twice, nor for another."""
        self.store.touch(table.number, self.now())
        game = posted(body)
        if self.store.game(game.key) is not None:
            return self._again(table, game)
        self._in_plan(table, game)
        played = self._played(game)
        _seated_as_played(game, played)
        received = Received(game.key, game.round, table.number, game.game, game.journal,
                            game.seating, self.now(), game.ended)
        with self._storing:  # (two tables posting at once: each judged against the other)
            if self.store.game(game.key) is None:
                self._not_in(table, game)
            with self._lock:
                stored = self.store.add_game(received)
                if stored:
                    self._games[game.key] = (len(game.journal), played)
        if not stored:  # another request stored it meanwhile
            return self._again(table, game)
        return {"stored": True}

    def _in_plan(self, table: Table, game: Posted) -> None:
        """BadGame unless ``game`` is one of the plan's: a round it has, each player on one
        seat, and none the plan seats at another table in that round (his game there would
        count twice: the standings go by nickname). A nickname the plan does not seat in
        that round (a substitute) may sit anywhere."""
        rounds = len(self.rounds)
        if not 1 <= game.round <= rounds:
            raise BadGame(f"round: the plan has rounds 1 to {rounds}, not {game.round}")
        seats: dict[str, list[int]] = {}
        for seat, name in sorted(game.seating.items()):
            seats.setdefault(key_of(name), []).append(seat)
        for _, name in sorted(game.seating.items()):
            taken = seats[key_of(name)]
            if len(taken) > 1:
                raise BadGame(f"seating: {shown(name)} on seats {', '.join(map(str, taken))}: "
                              "a player has one seat")
        planned = {key_of(self.players[p].nickname): t
                   for t, seated in enumerate(self.rounds[game.round - 1], 1) for p in seated}
        for seat, name in sorted(game.seating.items()):
            at = planned.get(key_of(name))
            if at is not None and at != table.number:
                raise BadGame(f"seating.{seat}: {shown(name)} plays round {game.round} at "
                              f"table {at} by the plan, not at table {table.number}")

    def _not_in(self, table: Table, game: Posted) -> None:
        """OtherJournal when the director holds ``game`` already under another key, or a game
        of its round from its table or with one of its players (nobody plays a round twice),
        each naming the game it holds."""
        head = game.journal.split("\n", 1)[0]
        for other in self.store.games_beginning(head):
            if other.journal.startswith(game.journal) or game.journal.startswith(other.journal):
                raise OtherJournal(f"journal: this game is in already, round {other.round} at "
                                   f"table {other.table} (key {shown(other.key)})")
        names = {key_of(n): n for n in game.seating.values()}
        for other in self.store.games_of_round(game.round):
            if other.table == table.number:
                raise OtherJournal(f"round {game.round}: table {table.number}'s game of it is "
                                   f"in already (key {shown(other.key)}); a table plays each "
                                   "round once")
            both = [names[k] for k in map(key_of, other.seating.values()) if k in names]
            if both:
                raise OtherJournal(f"seating: {shown(both[0])} played round {game.round} at "
                                   f"table {other.table} already (key {shown(other.key)})")

    def _again(self, table: Table, game: Posted) -> dict[str, Any]:
        """A key stored already. The journal stored, or an older one (a late retry of the
        first version after an update), is no news: ``{"stored": false, "already": true}``.
        One that extends it with the same finished game (the host's marks given after the
        game was sent) replaces it: ``{"stored": true, "updated": true}``. Anything else is
        another journal: OtherJournal."""
        while True:
            before = self.store.game(game.key)
            assert before is not None  # (a game stored is never taken away)
            if before.journal.startswith(game.journal):
                return {"stored": False, "already": True}
            if not game.journal.startswith(before.journal) or \
                    (before.round, before.table, before.game, before.seating) != \
                    (game.round, table.number, game.game, game.seating):
                raise OtherJournal(f"key {game.key!r}: stored already with another journal")
            played = self._played(game)
            if not _same_game(self._game_of(before), played):
                raise OtherJournal(f"key {game.key!r}: stored already with another game")
            with self._lock:
                if self.store.update_game(game.key, before.journal, game.journal):
                    self._games[game.key] = (len(game.journal), played)
                    return {"stored": True, "updated": True}
            # (another request changed it meanwhile: judged again against what it stored)

    def _played(self, game: Posted) -> Game:
        """The finished game of a posted journal; BadGame saying why it is none."""
        try:
            return read_game(game.journal, self.folder)
        except NarratorError as e:
            raise BadGame(f"journal: {e}") from None

    def _game_of(self, got: Received) -> Game:
        """The game of a stored journal, read once a run (and again once it is extended)."""
        with self._lock:
            known = self._games.get(got.key)
            if known is not None and known[0] == len(got.journal):
                return known[1]
        game = read_game(got.journal, self.folder)
        with self._lock:
            self._games[got.key] = (len(got.journal), game)
        return game

    # -- what the pages show ---------------------------------------------------------------

    def received(self) -> list[tuple[Received, Game]]:
        """Every game stored with its game, read again only when a game has come or changed
        since (the pages ask every two seconds each; a journal is read once a run)."""
        version = self.store.version()
        with self._lock:
            if self._received is not None and self._received[0] == version:
                return self._received[1]
        out = [(got, self._game_of(got)) for got in self.store.games()]
        with self._lock:
            self._received = (version, out)
            self._standings.clear()
        return out

    def hidden_from(self, games: list[tuple[Received, Game]]) -> Stage | None:
        """The hidden stage playing now (begun, not every table's every round of it in)."""
        done = {(g.round, g.table) for g, _ in games}
        begun = {g.round for g, _ in games}
        for i, stage in enumerate(self.stages):
            if not stage.hidden:
                continue
            end = self.stages[i + 1].first_round if i + 1 < len(self.stages) else \
                len(self.rounds) + 1
            rounds = range(stage.first_round, end)
            if any(r in begun for r in rounds) and not all(
                    (r, t) in done for r in rounds for t in range(1, len(self.rounds[0]) + 1)):
                return stage
        return None

    def standings(self, games: list[tuple[Received, Game]], public: bool) -> tuple[
            list[Line], str | None]:
        """The standings and a note: the public ones stop before a hidden stage playing."""
        hidden = self.hidden_from(games) if public else None
        note = None
        if hidden is not None:
            games = [(g, game) for g, game in games if g.round < hidden.first_round]
            note = (f"«{hidden.name}» іде: таблиця до нього, підсумки — після останньої гри"
                    if self.lang == "uk" else
                    f"«{hidden.name}» идёт: таблица до него, итоги — после последней игры")
        with self._lock:
            known = self._standings.get((len(games), note))
        if known is None:
            known = standings(games, [p.nickname for p in self.players], self.stages,
                              self.system)
            with self._lock:
                self._standings[(len(games), note)] = known
        return known, note

    def next_seat(self, player: int, done: set[tuple[int, int]]) -> dict[str, Any] | None:
        """The player's next game of the plan: round, table, seat, and his pad there once
        the table is at that round or the one before it (``pad``: None till then)."""
        for r, rnd in enumerate(self.rounds, 1):
            for t, seats in enumerate(rnd, 1):
                if player in seats and (r, t) not in done:
                    seat = seats.index(player) + 1
                    return {"round": r, "table": t, "seat": seat, "pad": self._pad(r, t, seat)}
        return None

    def _pad(self, rnd: int, number: int, seat: int) -> str | None:
        """The pad's link of ``seat`` at table ``number`` in round ``rnd``, when the table
        takes it now: it gave its console's address, and plays (or is about to play) that
        round or the one before (the table takes a round's tokens from then on)."""
        table = next((t for t in self.store.tables() if t.number == number), None)
        if table is None or table.console is None or not table.status:
            return None
        at = table.status.get("round")
        if not isinstance(at, int) or at not in (rnd - 1, rnd):
            return None
        token = self.store.pad(rnd, number, seat)
        return None if token is None else f"{table.console}/pad/{token}"

    def tables_now(self) -> list[dict[str, Any]]:
        """Each table's state as it last said (the board's «which table is where»)."""
        return [{"table": t.number, "phase": phase_text(t.status, self.lang),
                 "playing": bool(t.status and t.status.get("playing"))}
                for t in self.store.tables()]

    def next_rounds(self, done: set[tuple[int, int]]) -> list[dict[str, Any]]:
        """Each table's next round of the plan (the first it has sent no game of)."""
        out = []
        for t in range(1, len(self.rounds[0]) + 1):
            r = next((r for r in range(1, len(self.rounds) + 1) if (r, t) not in done), None)
            seats = [] if r is None else [self.players[p].nickname
                                          for p in self.rounds[r - 1][t - 1]]
            out.append({"table": t, "round": r, "seats": seats})
        return out

    def games_in(self, games: list[tuple[Received, Game]]) -> list[dict[str, Any]]:
        done = {(g.round, g.table) for g, _ in games}
        return [{"table": t, "rounds": [{"round": r, "in": (r, t) in done}
                                        for r in range(1, len(self.rounds) + 1)],
                 "games": sum(1 for g, _ in games if g.table == t)}
                for t in range(1, len(self.rounds[0]) + 1)]

    def view(self, public: bool = True) -> dict[str, Any]:
        """What ``/tv`` shows (``public``), or the director's full standings."""
        games = self.received()
        done = {(g.round, g.table) for g, _ in games}
        lines, note = self.standings(games, public)
        return {"name": self.tournament.name, "system": self.system.name, "lang": self.lang,
                "standings": [line.to_json() for line in lines], "note": note,
                "next": self.next_rounds(done), "games": self.games_in(games),
                "now": self.tables_now(),
                "stages": [{"first_round": s.first_round, "name": s.name,
                            "coefficient": s.coefficient, "hidden": s.hidden}
                           for s in self.stages]}

    def is_director(self, token: str) -> bool:
        return owner_of(token, [("director", self.tournament.token)]) == "director"

    def player_of(self, token: str) -> Player | None:
        index = owner_of(token, [(p.index, p.token) for p in self.players])
        return self.players[index] if isinstance(index, int) else None

    def player_view(self, player: Player) -> dict[str, Any]:
        games = self.received()
        done = {(g.round, g.table) for g, _ in games}
        lines, note = self.standings(games, public=True)
        mine = next((line.place for line in lines if key_of(line.name) ==
                     key_of(player.nickname)), None)
        return {"name": self.tournament.name, "system": self.system.name, "lang": self.lang,
                "player": player.nickname,
                "next": self.next_seat(player.index, done), "place": mine,
                "standings": [line.to_json() for line in lines], "note": note}

    def director_view(self) -> dict[str, Any]:
        body = self.view(public=False)
        now = self.now()
        body["tables"] = [{"table": t.number, "contact": t.contact,
                           "ago": None if t.contact is None else max(0, now - t.contact),
                           "phase": phase_text(t.status, self.lang), "console": t.console,
                           "join": f"{self.base}/join/{t.token}"} for t in self.store.tables()]
        body["players"] = [{"name": p.nickname, "mafiaratings": p.mafiaratings,
                            "link": (link := f"{self.base}/p/{p.token}"), "qr": qr_of(link)}
                           for p in self.players]
        body["tv"] = f"{self.base}/tv"
        return body
