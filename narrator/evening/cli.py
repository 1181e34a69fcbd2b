"""``narrator evening DIR``: a hostless evening of games with the table console.

The first run creates the evening in DIR (its book, a link per player); every later run of the
same command resumes it — the same links, the same roster, a game in play at its step. One
console serves the whole evening (:mod:`narrator.evening.front`); each game is a hostless game
of ``narrator play`` (:func:`narrator.play.cli.run_table`) whose console is mounted on it, with
its journal ``DIR/game-NN.jsonl``. After each game the results are written
(``DIR/results.csv``, ``DIR/results.json``).
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TextIO

from narrator import words as vocab
from narrator.arguments import EveningArgs
from narrator.audio.devices import NoDevice
from narrator.broadcast.serve import Broadcast, BroadcastOptions, broadcast_options
from narrator.clock import Clock
from narrator.club.file import read_club
from narrator.console.links import check_address, parse_address, qr_text, write_links
from narrator.console.presses import MarkPress
from narrator.console.serve import ConsoleOptions, Mount, console_table
from narrator.console.server import serve
from narrator.console.table import ConsoleTable
from narrator.engine import Game, Mark
from narrator.engine.entries import parse_operator_line
from narrator.engine.options import options_of
from narrator.engine.tuning import settings_of
from narrator.errors import NarratorError
from narrator.evening.book import BOOK, EveningBook, GameEntry
from narrator.evening.cast import show_standings
from narrator.evening.fair import evenings_beside, previous_games
from narrator.evening.forward import Forwarder
from narrator.evening.front import EveningFront, Finished
from narrator.evening.join import forward, take_join
from narrator.evening.outbox import Outbox
from narrator.evening.pages import ended_word, player_lines
from narrator.evening.plan import attach_plan
from narrator.evening.results import PlayerResult, tally, write_results
from narrator.evening.status import table_status
from narrator.host.club import table_options
from narrator.host.driver import Driver
from narrator.host.host import Host
from narrator.host.journal import Journal, JournalContents, load_journal
from narrator.host.speaker import next_part, speaker_narration, wav_narration
from narrator.host.texts import mark as mark_words
from narrator.host.texts import reason, tx, where
from narrator.host.transcript import Transcript
from narrator.inputs import Input
from narrator.outputs import private_folder, replace_whole
from narrator.play.cli import TableOptions, check_devices, check_outputs, run_table
from narrator.play.model import preload
from narrator.play.operator import TerminalOperator
from narrator.reading import read_text
from narrator.replay.roster import MAX_ROSTER, Roster, key_of, load_roster
from narrator.table.session import table_clock

#: the roster given with --roster, kept in the evening's folder
ROSTER = "roster.csv"


def say(text: str) -> None:
    print(text, flush=True)


@dataclass
class _Attached:
    """A game's console mounted on the evening's: the game's table, shown through the
    evening's front (its own server stays up after the game; nothing to stop)."""

    table: ConsoleTable

    def stop(self, ended: str | None = None) -> None:
        pass  # the front goes back to the lobby when the evening finishes the game


class Evening:
    """One evening's games, one after another, on one console and one driver: between games
    the driver runs the console's presses and the operator's lines, during a game the game is
    attached to it too (so no press waits for a hand-over). ``clock``: the table's, monotonic
    by default; ``terminal``: where the operator's lines come from (stdin by default);
    ``director``: the tournament's director this table sends its games to; ``broadcast``:
    the stream's view, one all evening (each game, and the standings between games)."""

    def __init__(self, book: EveningBook, opts: TableOptions, model: Path | None, *,
                 wav: bool, rng: random.Random, links: str | None = None,
                 assist: bool = False, clock: Clock | None = None,
                 terminal: TextIO | None = None, director: Forwarder | None = None,
                 broadcast: BroadcastOptions | None = None) -> None:
        self.book = book
        self.assist = assist
        self.opts = opts
        self.model = model
        self.wav = wav
        self.rng = rng
        self.links_file = links
        self.terminal = terminal
        self.clock = table_clock(clock)  # the evening's games share it
        self.lang = book.lang  # the terminal's too
        self.driver = Driver.between_games(self.clock, self._line,
                                           on_error=lambda e: say(e.words(self.lang)))
        others, notes = evenings_beside(book.folder)
        for note in notes:
            say(tx("v_note", self.lang, note=note))
        self.front = EveningFront(book, self.clock, rng=rng,
                                  before=previous_games(book, others), on_start=self._start,
                                  on_close=self._close, on_roster=self._roster,
                                  on_marked=self._marked)
        self.wanted: str | None = None
        self.closed = False
        self.games: dict[int, Game] = {}
        self.director = director
        self.broadcast_opts = broadcast
        self.broadcast: Broadcast | None = None
        if director is not None:
            self.front.director = director.state
            self.front.tournament = lambda: director.standings
            director.on_change = lambda: self.driver.call(self.front.publish_views)
            self.front.on_status = lambda entry, view: director.report(
                table_status(book, entry, view, self.front.base))

    # -- from the front and the terminal (on the driver, between games) ------------------------

    def _start(self, rules: str) -> None:
        self.wanted = rules

    def _close(self) -> None:
        self.closed = True

    def _roster(self) -> None:
        if self.links_file:
            write_links(self.links_file, self.front.links())

    def _line(self, event: Input) -> None:
        """A line typed at the terminal between games: ``q`` ends the evening, ``m 4 +0.3 bp
        -- why`` gives the host's marks for the last game. (During a game the game's intake
        takes the lines: ``q`` stops the game.)"""
        text = str(event.data.get("text", "")).strip()
        if text.lower() in ("q", "quit"):
            say(tx("v_ending", self.lang, folder=self.book.folder))
            self._close()
        elif text[:1].lower() == "m" and self.front.last is not None:
            self._mark(text, self.front.last.game, event.t)

    def _mark(self, text: str, game: Game, t: float) -> None:
        """A marks' line for the last game over (the operator's entry, read by the engine's
        reader); what was not taken is said with its reason."""
        try:
            actions = parse_operator_line(text, game).actions
        except NarratorError as e:
            say(tx("t_not_taken", self.lang, what=e.words(self.lang)))
            return
        for mark in actions:
            if isinstance(mark, Mark):
                reply = self.front.mark_last(MarkPress(seat=mark.seat, points=mark.points,
                                                       titles=mark.titles,
                                                       comment=mark.comment), t)
                why = f" ({reply.detail['why']})" if "why" in reply.detail else ""
                said = reason(reply.reason, self.lang) if reply.reason is not None else ""
                say(tx("t_taken", self.lang, what=mark_words(mark, self.lang)) if reply.ok
                    else tx("t_not_taken", self.lang, what=f"{said}{why}"))
                self.front.publish_views()

    def _between(self) -> None:
        """Run the console until the operator starts the next game or ends the evening."""
        while not (self.closed or self.wanted is not None or self.driver.stopping):
            self.driver.step()
            if self.director is not None:
                self.director.tick(self.clock.now())

    # -- the games -------------------------------------------------------------------------------

    def _mount(self, entry: GameEntry) -> Mount:
        copts = self.opts.console
        assert copts is not None

        def open_(host: Host, transcript: Transcript, journal: Journal, driver: Driver,
                  submit: Callable[[Input], None],
                  resumed: JournalContents | None) -> _Attached:
            table = console_table(host, transcript, journal, self.book.lang, copts,
                                  resumed=resumed)
            if self.broadcast is not None:  # (a hostless game's, or a human host's)
                self.broadcast.watch(host, self.book.lang)
            driver.call(lambda: self.front.attach(table, entry))
            return _Attached(table)

        return Mount(open_, f"narrator evening {self.book.folder}", self.driver)

    def _load(self) -> None:
        """The games of the evening so far, from their journals."""
        for entry in self.book.games:
            path = self.book.journal(entry)
            if path.is_file() and path.stat().st_size > 0:
                self.games[entry.number] = load_journal(path).game()

    def _unfinished(self) -> GameEntry | None:
        if not self.book.games:
            return None
        entry = self.book.games[-1]
        game = self.games.get(entry.number)
        return entry if game is None or game.winner is None else None

    def _play(self, entry: GameEntry) -> Game:
        path = self.book.journal(entry)
        opts = self.opts
        opts.mount = self._mount(entry)
        resumed: JournalContents | None = None
        if path.is_file() and path.stat().st_size > 0:
            resumed = load_journal(path)
            game = resumed.game()
            say(tx("v_resuming", self.lang, n=entry.number, where=where(game, self.lang)))
        else:
            names = self.book.names_of(entry.seating)
            game = Game(self.book.game_rules(entry.rules), seats=self.book.seats,
                        rng=self.rng, names=names)
            say(tx("v_dealt", self.lang, n=entry.number,
                   rules=vocab.word("rules", entry.rules, self.lang)))
        if self.wav:
            wav = self.book.folder / f"game-{entry.number:02d}.wav"
            opts.out_wav, note = next_part(str(wav)) if resumed is not None else (str(wav), None)
            if note:
                say(note)
            check_outputs(opts)
        if self.assist:
            game = self._assisted(entry, game, resumed)
        else:
            self._hostless(game, path, resumed)
        self.games[entry.number] = game
        return game

    def _hostless(self, game: Game, path: Path, resumed: JournalContents | None) -> None:
        if resumed is not None:
            journal = Journal(path, resumed.header)
            left = resumed.time_left(game)
        else:
            journal, left = Journal.for_game(path, game, lang=self.book.lang, mode="play"), None
        run_table(game, self.opts, journal, self.model, time.perf_counter(), left, resumed,
                  clock=self.clock)

    def _assisted(self, entry: GameEntry, game: Game, resumed: JournalContents | None) -> Game:
        """A game a human host runs in the terminal (``narrator assist``), the cards dealt by
        the narrator onto the pads; q in the host's screen goes back to the evening."""
        # (imported here: a hostless evening never loads the terminal UI)
        from narrator.assist.cli import make_session, resume_session, run_app
        from narrator.assist.ui import AssistApp

        opts = self.opts
        path = self.book.journal(entry)
        if opts.out_wav:
            narration = wav_narration(opts.out_wav, self.clock, lang=self.book.lang,
                                      voices=opts.voices, night_music=opts.night_music)
        else:
            narration = speaker_narration(self.clock, lang=self.book.lang, voices=opts.voices,
                                          night_music=opts.night_music)
        if resumed is not None:
            session = resume_session(resumed, path, self.clock, narration=narration,
                                     driver=self.driver)
        else:
            journal = Journal.for_game(path, game, lang=self.book.lang, mode="assist")
            session = make_session(game, self.clock, journal=journal, narration=narration,
                                   driver=self.driver)
            session.host.start()
        assert opts.console is not None and opts.mount is not None
        run_app(AssistApp(session, lang=self.book.lang), narration, opts.console, self.book.lang, resumed,
                 mount=opts.mount)
        return session.host.game

    def _finish(self, entry: GameEntry, game: Game) -> None:
        """Between games: the results written, the lobby's views."""
        results = self._tally()
        if game.winner is not None:
            self._forward()
        if self.broadcast is not None:
            show_standings(self.broadcast, results, self.games.values())
        self.front.detach(Finished(entry, game) if game.winner is not None else None, results)

    def _forward(self) -> None:
        """What the director is owed, sent on its own thread: the evening never waits."""
        if self.director is not None:
            forward(self.book, self.games, self.director, say)

    def _marked(self) -> None:
        """A mark between games: its points in the results (files and pages), and the game's
        longer journal owed to the director in place of the one it was sent (or waits) with."""
        self.front.results = self._tally()
        self._forward()

    def _tally(self) -> list[PlayerResult]:
        book = self.book
        played = [(self.games[g.number], g.seating) for g in book.games
                  if g.number in self.games]
        system = book.scoring.system(book.points, f"{book.path}: scoring")
        numbers = [g.number for g in book.games if g.number in self.games]
        results = tally(played, [(p.number, p.name) for p in book.players], system, numbers)
        write_results(book.folder, results, sum(1 for g, _ in played if g.winner is not None),
                      system)
        return results

    def run(self) -> int:
        book = self.book
        self._load()
        self._forward()  # (what a stopped or killed box owed)
        finished = [g for g in book.games if self.games.get(g.number) is not None and
                    self.games[g.number].winner is not None]
        self.front.results = self._tally()
        if finished:
            last = finished[-1]
            self.front.last = Finished(last, self.games[last.number])
        _, server, base = serve(self.front, self.driver.call, book.address, book)
        host, port = parse_address(book.address)
        if port != server.port:  # (port 0: the one given) the links stay on it from now on
            book.address = f"[{host}]:{server.port}" if ":" in host else f"{host}:{server.port}"
            book.save()
        self.front.base = base
        if self.broadcast_opts is not None:
            self.broadcast = Broadcast.start(self.broadcast_opts, self.clock)
            self.broadcast.announce(say, self.lang)
            show_standings(self.broadcast, self.front.results, self.games.values())
        if self._unfinished() is None:  # (once the links are known: a seating writes them)
            self.front.open()
        self._print_links()
        # q asks first: between games it ends the evening, in a game it stops the game
        if not self.assist:  # (with a human host the terminal is his screen during a game)
            terminal = TerminalOperator(
                self.terminal, confirm=True, stop_at_end=False, lang=self.lang,
                ask=tx("t_ask_evening", self.lang, folder=book.folder))
            terminal.start(self.driver.submit, self.clock)
        try:
            while not self.closed:
                entry = self._unfinished()
                if entry is None:
                    say(tx("v_between", self.lang, key="Ctrl-C" if self.assist else "q"))
                    self._between()
                    if self.closed or self.wanted is None:
                        break
                    entry = book.new_game(self.wanted)
                    self.wanted = None
                    book.save()
                game = self._play(entry)
                self._finish(entry, game)
                if game.winner is None:
                    break  # stopped (q, Ctrl-C): the evening resumes with it
        except KeyboardInterrupt:
            say(tx("t_interrupted", self.lang))
        finally:
            server.stop(ended_word(book, self.closed))  # (the pages told the end, or not)
            if self.broadcast is not None:
                self.broadcast.drain(say, self.lang)
                self.broadcast.stop()
            if self.director is not None:  # (the send in flight waited for, bounded)
                self.director.close(f"narrator evening {book.folder}")
        played = sum(1 for g in self.games.values() if g.winner is not None)
        say(tx("v_summary", self.lang, played=played, results=book.folder / "results.csv",
               folder=book.folder))
        return 0

    def _print_links(self) -> None:
        links = self.front.links()
        say(tx("v_operator", self.lang, link=links["operator"]))
        say(tx("v_links", self.lang))
        say("\n".join(player_lines(self.book, self.front.link)))
        if self.links_file:
            write_links(self.links_file, links)
            say(tx("v_written", self.lang, path=self.links_file))
        if sys.stdout.isatty():
            say(qr_text(links["operator"]))


def _new_book(folder: Path, args: EveningArgs) -> EveningBook:
    club = read_club(args.table.rules_file)
    rules, seats, _ = table_options(args.table, club)
    if args.console.address is None:
        raise NarratorError("a new evening needs the console's address: --console "
                            "[HOST:]PORT (e.g. 0.0.0.0:8765 for the club's Wi-Fi)")
    book = EveningBook.new(folder, lang=args.table.lang, rules=rules, seats=seats,
                           address=args.console.address, settings=settings_of(rules),
                           options=options_of(rules),
                           points=club.points, scoring=club.scoring)
    if club.ignored is not None:
        say(tx("v_note", book.lang, note=club.ignored))
    return book


def _add_players(book: EveningBook, text: str | None) -> None:
    for name in (text or "").split(","):
        if name.strip() and name.strip().casefold() not in \
                (p.name.casefold() for p in book.players):
            book.add_player(name)


def _take_roster(book: EveningBook, path: str | None) -> Roster | None:
    """``--roster FILE``: its players join the evening (a nickname already there keeps its
    line) with their MafiaRatings ids, and its moderator line is the evening's host."""
    if path is None:
        return None
    roster = load_roster(path)
    for name, user in roster.players:
        player = next((p for p in book.players if key_of(p.name) == key_of(name)), None)
        try:
            if player is None:
                player = book.add_player(name)
            book.set_id(player.number, user)
        except NarratorError as e:  # (a nickname too long, the roster full, an id taken)
            raise NarratorError(f"{path}: {e}") from None
    if roster.moderator is not None:
        book.moderator = roster.moderator
    return roster


def _take_plan(book: EveningBook, path: str | None, table: int) -> None:
    """``--plan FILE --plan-table N``: the next games seated as the plan says. Given again
    when the evening is taken up, the same plan and table keep their place in it."""
    if path is None:
        return
    if book.plan is not None and (book.plan.file, book.plan.table) == (Path(path).name, table):
        return
    attach_plan(book, path, table)
    book.seating = {}  # (the evening opens seated by the plan's next round)
    rounds = len(book.plan.rounds) if book.plan is not None else 0
    say(tx("v_plan", book.lang, rounds=rounds, path=path, table=table))


def _copy_roster(folder: Path, path: str) -> None:
    """The roster's file kept in the evening's folder, as given."""
    text = read_text(path, "the roster", limit=MAX_ROSTER)
    replace_whole(folder / ROSTER, text, "the evening's roster")


def _moves(address: str, held: str) -> bool:
    """Whether ``--console address`` gives the evening's links a new address (port 0: the
    one they are on)."""
    given = parse_address(address)
    return given[1] != 0 and given != parse_address(held)


def run(args: EveningArgs) -> int:
    """``narrator evening DIR``: a new evening, or the one DIR holds taken up again."""
    folder = Path(args.dir)
    address = args.console.address
    if (folder / BOOK).exists():
        book = EveningBook.load(folder)
        if address is not None and _moves(address, book.address):
            say(tx("v_moved", book.lang, old=book.address, new=address))
            book.address = address
        say(tx("v_again", book.lang, folder=folder, players=len(book.players),
               games=len(book.games)))
    else:
        if folder.exists() and any(folder.iterdir()):
            raise NarratorError(f"{folder} is not empty and holds no evening ({BOOK}): pass a "
                                "new folder")
        book = _new_book(folder, args)
    _add_players(book, args.players)
    _take_roster(book, args.roster)
    if args.plan is not None and (args.join is not None or book.join is not None):
        raise NarratorError("--plan: this evening follows its director's plan (--join); "
                            "one plan at a time")
    _take_plan(book, args.plan, args.plan_table)
    reached = take_join(book, args.join, args.join_table, say)
    check_address(*parse_address(book.address))
    cast = broadcast_options(args.broadcast, book.address)
    # with a human host (--assist) he listens and counts the hands; the pads show the cards
    opts = TableOptions(lang=book.lang, model=args.model, voices=args.audio.voices,
                        night_music=args.audio.night_music,
                        listen=args.pads.listen and not args.assist,
                        console=ConsoleOptions(book.address, None,
                                               args.assist or args.pads.hand_votes, True))
    # (with --wav each game's narration goes to DIR/game-NN.wav: no speaker needed); every
    # check before the folder is made: a failure leaves nothing behind
    try:
        model = check_devices(replace(opts, out_wav="-" if args.wav else None))
    except NoDevice as e:
        if e.kind != "output" or args.wav:
            raise
        raise NarratorError(f"{e}; --wav writes each game's narration to DIR/game-NN.wav "
                            "instead") from None
    if model is not None:  # loaded once for the evening, while its lobby opens
        preload(model)
    if not folder.exists():
        try:
            private_folder(folder, parents=True)  # (its links and cards: the owner's)
        except OSError as e:
            raise NarratorError(f"{folder}: cannot create the evening's folder "
                                f"({e.strerror})") from None
        say(tx("v_new", book.lang, folder=folder))
    if args.roster is not None:
        _copy_roster(folder, args.roster)
    book.save()
    rng = random.Random(args.seed) if args.seed is not None else random.Random()
    director = Forwarder(Outbox(folder), book.join.url, say=say,
                         reachable=reached, lang=book.lang) if book.join is not None else None
    return Evening(book, opts, model, wav=args.wav, rng=rng, links=args.console.links,
                   assist=args.assist, director=director, broadcast=cast).run()

