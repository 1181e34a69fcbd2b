"""The evening's console: one server all evening, one link per player, games coming and going.

What the console serves (:class:`EveningFront`, in place of one game's table): while a game is
on, a player's press goes to the game's table as the press of the seat they sit on, and each
seat's view goes to the player on it (with their nickname and the game's number); the operator's
presses and view are the game's. Between games — and for a player who sits a game out — the
pages show the lobby: the last game's result with every card (the game is over: keeping the
cards closed is a rule of play), the results table, and the seat drawn for the next game. There
the operator seats the players (draws the seats, or has them seated fairly: the default after
a game), adds a player (who gets a link of their own), lets one go home, and starts the next
game.

Everything here runs on the evening's one driver: between games it runs the console's presses
alone, during a game the game is attached to it too (:class:`~narrator.host.driver.Driver`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeGuard

import segno

from narrator.clock import Clock
from narrator.console.presses import MarkPress, PressError, read_operator_press
from narrator.console.table import ConsoleTable, Press, Publish, Reply, refused
from narrator.console.tokens import OPERATOR, Who
from narrator.console.view import OMIT_NONE, MarksForm, Part, View, to_json
from narrator.console.views import marks_form
from narrator.engine import Game
from narrator.engine.rules import RULESETS
from narrator.errors import NarratorError
from narrator.evening.book import EveningBook, GameEntry
from narrator.evening.fair import explain, fair_choice
from narrator.evening.marks import mark_over
from narrator.evening.plan import planned
from narrator.evening.results import PlayerResult, cards_of
from narrator.reasons import Reason
from narrator.seating.fair import Choice, Past

#: the operator's presses the evening takes (the rest are the game's)
COMMANDS = ("seat", "draw", "fair", "plan", "start", "add", "rating_id", "leave", "back", "close")


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerTag(Part):
    """Whose page it is, on an evening: the player, the seat (None: not seated, or sitting the
    game out) and the game (None: the lobby); ``left``: gone home (the lobby says)."""

    number: int
    name: str
    left: bool | None = field(default=None, metadata=OMIT_NONE)
    seat: int | None
    game: int | None


@dataclass(frozen=True, eq=False, kw_only=True)
class SeatedView(View):
    """A seat's pad in the game in play, as the player on it gets it."""

    game: View
    player: PlayerTag

    def head(self) -> View:
        return self.game

    def body(self) -> dict[str, Any]:
        return {"player": self.player.to_json()}


@dataclass(frozen=True, eq=False, kw_only=True)
class EveningOperatorView(View):
    """The game's operator view with the evening's: the seats' nicknames, the roster."""

    game: View
    names: Mapping[str, str]
    evening: Mapping[str, Any]

    def head(self) -> View:
        return self.game

    def body(self) -> dict[str, Any]:
        return {"names": to_json(self.names), "evening": to_json(self.evening)}


@dataclass(frozen=True, slots=True, kw_only=True)
class LobbyPhase(Part):
    """The lobby, where a game's phase would be."""

    time: str = "day"
    number: int = 0
    step: str = "lobby"
    label: str


@dataclass(frozen=True, eq=False, kw_only=True)
class LobbyView(View):
    """The lobby: for the operator (``evening``) or a player (``player``), between games or
    while sitting the game in play out."""

    lang: str
    who: Who
    phase: LobbyPhase
    lobby: Mapping[str, Any]
    evening: Mapping[str, Any] | None = None
    player: PlayerTag | None = None
    #: the operator's: the host's marks for the last game, until the next one starts
    marks: MarksForm | None = None

    def body(self) -> dict[str, Any]:
        out: dict[str, Any] = {"lang": self.lang, "who": self.who,
                               "phase": self.phase.to_json(), "timer": None, "paused": None,
                               "lobby": to_json(self.lobby)}
        if self.evening is not None:
            out["evening"] = to_json(self.evening)
            out["marks"] = to_json(self.marks)
        if self.player is not None:
            out["player"] = self.player.to_json()
        return out


@dataclass
class Finished:
    """The last game over: its entry and its game."""

    entry: GameEntry
    game: Game


class EveningFront:
    """The console's side of the evening (see the module). ``on_start(rules)`` is called when
    the operator starts the next game (the evening's loop starts it); ``on_close()`` when the
    operator ends the evening; ``on_roster()`` after each change of the roster or the seating
    (the book is saved by then); ``on_marked()`` after the host's mark of the last game is
    taken (its points change the results). ``before``: previous evenings' games (their seats
    and meetings weigh in the fair seating)."""

    def __init__(self, book: EveningBook, clock: Clock, *, rng: random.Random | None = None,
                 before: list[Past[int]] | None = None,
                 on_start: Callable[[str], None] | None = None,
                 on_close: Callable[[], None] | None = None,
                 on_roster: Callable[[], None] | None = None,
                 on_marked: Callable[[], None] | None = None) -> None:
        self.book = book
        self._clock = clock
        self.rng = rng or random.Random()
        self.on_start = on_start or (lambda rules: None)
        self.on_close = on_close or (lambda: None)
        self.on_roster = on_roster or (lambda: None)
        self.on_marked = on_marked or (lambda: None)
        self.publish: Publish = lambda views: None
        self.base = ""  # the links' base URL (known once the server listens)
        self.table: ConsoleTable | None = None
        self.entry: GameEntry | None = None
        self.last: Finished | None = None
        self.results: list[PlayerResult] = []
        #: the next game is starting (the operator pressed start; its console not up yet)
        self.starting = False
        self.before = before or []
        #: the last fair seating chosen, with its explanation (the operator's view shows it)
        self.fair: Choice[int] | None = None
        self._qr: dict[str, str] = {}
        #: the tournament's director, as the operator's page shows it (None: no director)
        self.director: Callable[[], Mapping[str, Any] | None] = lambda: None
        #: each publishing's table state told (narrator.evening.status: for the director)
        self.on_status: Callable[[GameEntry | None, View | None], None] = lambda e, v: None

    @property
    def clock(self) -> Clock:
        return self._clock

    @property
    def lang(self) -> str:
        """The pages' language (a reply's words are in it)."""
        return self.book.lang

    @property
    def final_protocol(self) -> dict[str, Any] | None:
        """The protocol of the game just over (the operator's download)."""
        if self.table is not None:
            return self.table.final_protocol
        return self.last.game.protocol() if self.last is not None else None

    def link(self, token: str) -> str:
        return f"{self.base}/pad/{token}"

    def links(self) -> dict[str, Any]:
        """``{"operator": URL, "players": {"1 Ника": URL, …}}`` (every player, gone or not)."""
        return {"operator": f"{self.base}/op/{self.book.operator}",
                "players": {f"{p.number} {p.name}": self.link(p.token)
                            for p in self.book.players}}

    # -- a game comes and goes (on the loop's thread) ------------------------------------------

    def attach(self, table: ConsoleTable, entry: GameEntry) -> None:
        """The game of ``entry`` is on: its table serves the seats."""
        self.table, self.entry = table, entry
        self.starting = False
        table.publish = self._game_views
        table.publish_views()

    def detach(self, finished: Finished | None, results: list[PlayerResult]) -> None:
        """Back to the lobby; ``finished``: the game, if it ended with a winner."""
        self.table, self.entry = None, None
        self.starting = False
        if finished is not None:  # a game over: the next one is seated fairly to begin with
            self.last = finished
            self.seat_fairly()
        self.results = results
        self.publish_views()

    def seat_fairly(self) -> None:
        """The next game's seating, saved: the plan's round when the evening follows a
        tournament's plan (:mod:`narrator.evening.plan`), else the fair one."""
        if not self._planned_seating():
            self._fair_seating()
        self.book.save()
        self.on_roster()

    def _planned_seating(self) -> bool:
        """The next game seated as the plan says (False: no plan, or past its last round)."""
        plan = planned(self.book)
        if plan is None:
            return False
        self.fair = None
        self.book.seating = dict(plan.seating)
        return True

    def _fair_seating(self) -> None:
        """The next game's seating the fair one (:mod:`narrator.seating.fair`); the seed comes
        from the evening's random numbers (``--seed`` repeats an evening)."""
        self.fair = fair_choice(self.book, self.before, self.rng.randrange(1 << 32))
        self.book.seating = dict(self.fair.seating)

    def open(self) -> None:
        """The evening opens between games: an empty seating is the fair one."""
        if not self.book.seating and self.book.present:
            self.seat_fairly()

    # -- presses -------------------------------------------------------------------------------

    def handle(self, press: Press) -> Reply:
        table = self.table
        if press.who == OPERATOR:
            if press.do in COMMANDS:
                reply = self._command(press)
                self.publish_views()
                return reply
            if table is None and press.do == MarkPress.DO:
                reply = self._mark_last(press)
                self.publish_views()
                return reply
            return table.handle(press) if table is not None else refused(Reason.NOT_NOW)
        seat = self._seat_of(press.who)
        if table is None or seat is None:
            return refused(Reason.NOT_NOW)
        return table.handle(Press(seat, press.do, press.data, press.t))

    def _mark_last(self, press: Press) -> Reply:
        """Between games: the host's marks for the last game over, into its journal (the
        engine's to take; none once the next game has begun)."""
        if self.last is None:
            return refused(Reason.NOT_NOW)
        try:
            typed = read_operator_press(press, self.last.game.seats)
        except PressError as e:
            return Reply(False, e.reason, {"field": e.field})
        assert isinstance(typed, MarkPress)
        return self.mark_last(typed, press.t)

    def mark_last(self, press: MarkPress, t: float) -> Reply:
        """The host's marks ``press`` for the last game over (the operator view's form, or a
        line typed at the terminal), made at ``t``."""
        last = self.last
        if last is None or self.starting or self.table is not None:
            return refused(Reason.NOT_NOW)
        try:
            reason = mark_over(last.game, self.book.journal(last.entry), press, t)
        except NarratorError as e:  # its journal cannot be written: the mark is not given
            return Reply(False, Reason.CANNOT, {"why": str(e)})
        if reason is not None:
            return refused(reason)
        self.on_marked()
        return Reply(True)

    def _seat_of(self, who: Who) -> int | None:
        """The seat ``who`` sits on in the game in play (None: no game, or sitting out)."""
        if self.entry is None:
            return None
        player = self.book.by_who(who)
        if player is None:
            return None
        return next((s for s, n in self.entry.seating.items() if n == player.number), None)

    def _command(self, press: Press) -> Reply:
        data = press.data
        book = self.book
        in_play = self.entry is not None
        try:
            match press.do:
                case "add":
                    name = data.get("name")
                    if not isinstance(name, str):
                        return refused(Reason.BAD_REQUEST)
                    player = book.add_player(name)
                    book.save()
                    self.on_roster()
                    return Reply(True, detail={"player": player.number,
                                               "link": self.link(player.token)})
                case "rating_id":  # a player's MafiaRatings id, for the export (None: none)
                    number, user = data.get("player"), data.get("user")
                    if not _number(number) or not (user is None or _number(user)):
                        return refused(Reason.BAD_REQUEST)
                    book.set_id(number, user)
                case ("seat" | "draw" | "fair" | "plan"  # (draw lots: not the game's word)
                      | "start" | "close") if in_play or self.starting:
                    return refused(Reason.NOT_NOW)  # the seating is the game's until it ends
                case "seat" | "draw" | "fair" | "plan":  # (draw lots: not the game's word)
                    refusal = self._seating_command(press)
                    if refusal is not None:
                        return refusal
                case "leave" | "back":
                    number = data.get("player")
                    if not _number(number):
                        return refused(Reason.BAD_REQUEST)
                    if press.do == "back":
                        book.come_back(number)
                    else:
                        if in_play and self.entry is not None and \
                                number in self.entry.seating.values():
                            return refused(Reason.NOT_NOW)  # a seat is given up between games
                        book.leave(number)
                case "start":
                    rules = data.get("rules", book.rules)
                    if not isinstance(rules, str) or rules not in RULESETS:
                        return refused(Reason.BAD_REQUEST)
                    if book.seating_problem() is not None:
                        return Reply(False, Reason.CANNOT_START, {"why": self._problem()})
                    book.game_rules(rules)  # its figures and options fit the ruleset
                    self.starting = True
                    self.on_start(rules)
                    return Reply(True)
                case "close":
                    self.on_close()
                    return Reply(True)
        except NarratorError as e:
            return Reply(False, Reason.CANNOT, {"why": str(e)})
        book.save()
        self.on_roster()
        return Reply(True)

    def _seating_command(self, press: Press) -> Reply | None:
        """The next game's seating changed by the operator (None: done; else the refusal)."""
        match press.do:
            case "seat":
                seat, number = press.data.get("seat"), press.data.get("player")
                if not _number(seat) or not (number is None or _number(number)):
                    return refused(Reason.BAD_REQUEST)
                self.book.seat(seat, number)
            case "draw":  # (the seats drawn by lot: not the game's word)
                self.book.draw(self.rng)
            case "fair":
                self._fair_seating()
            case _:
                if not self._planned_seating():
                    return refused(Reason.NOT_NOW)  # no plan, or its rounds are played
        return None

    # -- views ---------------------------------------------------------------------------------

    def publish_views(self) -> None:
        if self.table is not None:
            self.table.publish_views()  # → _game_views
        else:
            self.publish(self._lobby_views())
            self.on_status(None, None)

    def _game_views(self, views: dict[Who, View]) -> None:
        """A game's views (by seat) as the evening sends them (by player)."""
        entry = self.entry
        assert entry is not None
        names = {str(s): n for s, n in sorted(self.book.names_of(entry.seating).items())}
        out: dict[Who, View] = {OPERATOR: EveningOperatorView(
            game=views[OPERATOR], names=names, evening=self._evening())}
        seated = {n: s for s, n in entry.seating.items()}
        for player in self.book.players:
            seat = seated.get(player.number)
            if seat is None:
                out[player.who] = self._lobby_view(player.number)
                continue
            out[player.who] = SeatedView(game=views[seat], player=PlayerTag(
                number=player.number, name=player.name, seat=seat, game=entry.number))
        self.publish(out)
        self.on_status(entry, views[OPERATOR])

    def _lobby_views(self) -> dict[Who, View]:
        views: dict[Who, View] = {OPERATOR: self._lobby_view(None)}
        for player in self.book.players:
            views[player.who] = self._lobby_view(player.number)
        return views

    def _lobby_view(self, number: int | None) -> LobbyView:
        """The lobby: for the operator (``number`` None) or a player (between games, or
        sitting the game in play out)."""
        book = self.book
        playing = self.entry.number if self.entry is not None else None
        label = {"ru": "Ждём следующую игру", "uk": "Чекаємо на наступну гру"}
        if self.starting:
            coming = len(book.games) + 1
            label = {"ru": f"Начинается игра {coming}", "uk": f"Починається гра {coming}"}
        if playing is not None:
            label = {"ru": f"Идёт игра {playing}", "uk": f"Триває гра {playing}"}
        lobby = {"playing": playing, "next": len(book.games) + (playing is None),
                 "last": self._last(), "results": self._results()}
        phase = LobbyPhase(label=label.get(book.lang, label["ru"]))
        if number is None:
            marks = (marks_form(self.last.game) if self.last is not None and playing is None
                     and not self.starting else None)
            return LobbyView(lang=book.lang, who=OPERATOR, phase=phase, lobby=lobby,
                             evening=self._evening(), marks=marks)
        player = book.player(number)
        assert player is not None
        seat = next((s for s, n in book.seating.items() if n == number), None)
        return LobbyView(lang=book.lang, who=number, phase=phase, lobby=lobby,
                         player=PlayerTag(number=number, name=player.name, left=player.left,
                                          seat=None if playing is not None else seat,
                                          game=None))

    def _last(self) -> dict[str, Any] | None:
        """The last game over, every card shown (it is over: the cards are no secret now)."""
        if self.last is None:
            return None
        game, entry = self.last.game, self.last.entry
        names = self.book.names_of(entry.seating)
        return {"number": entry.number, "rules": entry.rules,
                "winner": game.winner.value if game.winner else None,
                "cards": [{"seat": s, "name": names.get(s, ""), "role": game.roles[s].value,
                           "team": game.team(s).value, "out": game.how_out(s)}
                          for s in range(1, game.seats + 1)]}

    def _results(self) -> dict[str, Any]:
        """The table on the pages: each game's points stay in ``results.json``."""
        return {"cards": cards_of(self.results), "system": self.book.scoring.shown(),
                "players": [{k: v for k, v in r.to_json().items() if k != "per_game"}
                            for r in self.results]}

    def _evening(self) -> dict[str, Any]:
        """The operator's evening: the roster with each link, the seating, the settings."""
        book = self.book
        playing = self.entry is not None
        seating = self.entry.seating if self.entry is not None else book.seating
        return {
            "game": self.entry.number if self.entry is not None else None,
            "games": len(book.games), "seats": book.seats, "rules": book.rules,
            "rulesets": list(RULESETS),
            "seating": {str(s): n for s, n in sorted(seating.items())},
            "problem": None if playing else self._problem(),
            "fair": None if playing or self.fair is None else explain(book, self.fair),
            "plan": None if playing or (plan := planned(book)) is None else dict(
                plan.to_json(), changed=book.seating != plan.seating),
            "director": self.director(),
            "players": [{"number": p.number, "name": p.name, "left": p.left,
                         "mafiaratings": p.mafiaratings,
                         "link": self.link(p.token), "qr": self._qr_of(p.token)}
                        for p in book.players],
        }

    def _problem(self) -> str | None:
        """Why the next game cannot start yet, in the pages' language (None: it can)."""
        book = self.book
        if book.seating_problem() is None:
            return None
        empty = [str(s) for s in range(1, book.seats + 1) if s not in book.seating]
        if empty:
            return {"uk": "Не зайняті місця: ", "ru": "Не заняты места: "}.get(
                book.lang, "Не заняты места: ") + ", ".join(empty)
        gone = next(s for s, n in sorted(book.seating.items())
                    if (p := book.player(n)) is None or p.left)
        return {"uk": f"Місце {gone}: гравець пішов"}.get(book.lang,
                                                            f"Место {gone}: игрок ушёл")

    def _qr_of(self, token: str) -> str:
        """A player's link as a QR code (an SVG data URI, made once)."""
        qr = self._qr.get(token)
        if qr is None:
            qr = segno.make(self.link(token), error="l").svg_data_uri(scale=4, border=2)
            self._qr[token] = qr
        return qr


def _number(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1

