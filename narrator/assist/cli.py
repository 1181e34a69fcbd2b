"""``narrator assist``: a human host runs the game; the narrator speaks and times.

The command builds the real collaborators — the monotonic clock, the narration (the sound card,
or a WAV file with ``--out-wav``), the journal, the host and its live loop on a thread — and
hands them to :class:`~narrator.assist.ui.AssistApp`. The host deals the cards, so the app
first asks where the don, the mafia and the sheriff sit. ``narrator resume JOURNAL`` on an
assist journal reopens the app at the same phase.
"""

from __future__ import annotations

import contextlib
import threading
from dataclasses import dataclass, field, replace
from pathlib import Path

from narrator.arguments import AssistArgs, AudioArgs, ConsoleArgs, ResumeArgs
from narrator.assist.control import describe, hold_for_host, public_action
from narrator.assist.ui import AssistApp, Deal, Session, card_fields, parse_cards
from narrator.clock import Clock
from narrator.console.serve import (
    ConsoleOptions,
    GameConsole,
    Mount,
    console_options,
)
from narrator.engine import EndSpeech, Game, Role, Team, TimeUp
from narrator.engine.rules import Rules, find_rules
from narrator.errors import NarratorError
from narrator.host.club import table_options
from narrator.host.driver import Driver
from narrator.host.journal import Journal, JournalContents
from narrator.host.speaker import (
    Narration,
    next_part,
    speaker_narration,
    wav_narration,
)
from narrator.outputs import check_new_file
from narrator.table.session import open_table, table_clock
from narrator.voice.manifest import Manifest

DEFAULT_JOURNAL = "journal.jsonl"
#: how many of the entries before a resume its log shows
RECALLED_ENTRIES = 8


def make_session(game: Game, clock: Clock, *, journal: Journal | None,
                 narration: Narration | None = None, manifest: Manifest | None = None,
                 driver: Driver | None = None) -> Session:
    """The table session of ``game`` (:func:`~narrator.table.session.open_table`) for the
    host's screen; ``driver``: an evening's, lent for the game.

    The game is neither started nor resumed here.
    """
    table = open_table(game, clock, journal=journal, narration=narration, manifest=manifest,
                       driver=driver)
    return Session(table.host, table.driver, table.transcript,
                   journal.path if journal else None, table=table)


def _narration(audio: AudioArgs, clock: Clock, lang: str) -> Narration:
    if audio.out_wav:
        return wav_narration(audio.out_wav, clock, lang=lang, voices=audio.voices,
                             night_music=audio.night_music)
    try:
        return speaker_narration(clock, lang=lang, voices=audio.voices,
                                 night_music=audio.night_music)
    except NarratorError as e:
        raise NarratorError(f"{e}; use --out-wav FILE to write the narration to a file") from None


@dataclass
class _HostLoop:
    """The host's loop, on a thread of its own while the host's screen holds the main one;
    and what it opened around the game (the console), closed once the screen is."""

    app: AssistApp
    console: ConsoleOptions | None
    lang: str
    resumed: JournalContents | None
    mount: Mount | None
    stop: threading.Event = field(default_factory=threading.Event)
    session: Session | None = None
    thread: threading.Thread | None = None
    served: GameConsole | None = None

    def drive(self, session: Session) -> Session:
        """Serve the game's console (if any), watch the table, run its loop on a thread."""
        self.session = session
        table = session.table
        assert table is not None
        if isinstance(table.journal, Journal) and (self.mount or self.console) is not None:
            # (the terminal is the host's screen: no operator's lines come from it)
            self.served = table.serve(self.console, self.lang, resumed=self.resumed,
                                      mount=self.mount)
        app = self.app

        def tell(text: str) -> None:  # from the playback thread, onto the host's screen
            with contextlib.suppress(Exception):
                app.call_from_thread(app.notify, text, severity="warning", timeout=8)

        table.watch(tell)

        def loop() -> None:
            while not self.stop.is_set():
                session.loop.step()

        self.thread = threading.Thread(target=loop, name="narrator-host", daemon=True)
        self.thread.start()
        return session

    def close(self) -> None:
        """The screen has closed: the console and the loop stop (an evening's driver is let
        go, its console stays), the journal marks where a resume goes on."""
        self.stop.set()
        if self.served is not None:
            self.served.stop()
        session = self.session
        if session is None:
            return
        session.loop.call(lambda: None)  # wakes its thread, which then sees ``stop``
        if self.thread is not None:
            self.thread.join(timeout=5)
        if session.table is not None:
            session.table.release()
        else:
            session.loop.stop()
        journal = session.host.journal
        if isinstance(journal, Journal) and not session.host.game.is_over:
            journal.stop(session.host.now())  # where the host stopped

    def report(self) -> None:
        """The last line: where the game's journal is, and how to go on with it."""
        session = self.session
        if session is None or session.journal is None:
            print("narrator: no game was started")
            return
        path, game = session.journal, session.host.game
        again = self.mount.resume if self.mount is not None else f"narrator resume {path}"
        if game.winner is not None:
            won = "a draw" if game.winner is Team.DRAW else f"{game.winner.value} won"
            print(f"narrator: the game is over ({won}); its journal is {path}")
        else:
            print(f"narrator: the game is journaled in {path}; continue it with `{again}`")


def run_app(app: AssistApp, narration: Narration, console: ConsoleOptions | None = None,
            lang: str = "ru", resumed: JournalContents | None = None,
            out_wav: str | None = None, *, mount: Mount | None = None) -> int:
    """Run the UI; the host's loop runs on its own thread until the UI closes. With
    ``console``, the table console serves the same host (its links are printed first); with
    ``mount``, the console is the mount's (an evening's: it stays up after the game). When
    no game was started (the host left the cards' form), the narration's WAV ``out_wav`` holds
    nothing of a game and is not left behind."""
    host_loop = _HostLoop(app, console, lang, resumed, mount)
    if app.session is not None:
        host_loop.drive(app.session)
    else:
        setup = app.setup
        assert setup is not None
        app.setup = lambda deal: host_loop.drive(setup(deal))
    narration.player.start()
    try:
        app.run()
    finally:
        host_loop.close()
        narration.close()
        if out_wav and host_loop.session is None:
            Path(out_wav).unlink(missing_ok=True)  # silence at most: no game in it to keep
        journal = host_loop.session.host.journal if host_loop.session is not None else None
        if isinstance(journal, Journal):
            journal.close()
    if app.error:
        raise NarratorError(app.error)
    host_loop.report()
    return 0


def run(args: AssistArgs) -> int:
    """``narrator assist``."""
    rules, seats, names = table_options(args.table)
    lang = args.table.lang
    # the deal is checked before anything is opened or written
    cards = cards_option(args.roles, seats, rules) if args.roles else None
    path = Path(args.journal or DEFAULT_JOURNAL)
    # a folder is no journal, and holds no game: check_new_file says what it is
    if path.is_file() and path.stat().st_size > 0:
        raise NarratorError(f"{path} already holds a game: continue it with `narrator resume "
                            f"{path}`, or give a new file with --journal FILE")
    check_new_file(path, "--journal")  # before the narration opens its WAV or the device
    if args.audio.out_wav:
        check_new_file(args.audio.out_wav, "--out-wav")
    clock = table_clock()
    narration = _narration(args.audio, clock, lang)

    def setup(deal: Deal) -> Session:
        game = Game(rules, seats=seats, roles=deal.roles, names=deal.names, dealt=deal.dealt)
        try:
            journal = Journal.for_game(path, game, lang=lang, mode="assist")
        except OSError as e:
            raise NarratorError(f"{path}: cannot write the journal ({e.strerror})") from None
        session = make_session(game, clock, journal=journal, narration=narration)
        session.host.start()
        return session

    console = _console(args.console)
    if cards is not None:
        roles, dealt = cards
        return run_app(AssistApp(setup(Deal(roles, names, dealt)), lang=lang, debug=args.debug),
                       narration, console, lang)
    if console is not None:
        raise NarratorError("--console starts with the game: give the cards with --roles")
    return run_app(AssistApp(setup=setup, seats=seats, rules=rules, names=names, lang=lang,
                             debug=args.debug), narration,
                   out_wav=args.audio.out_wav)


def roles_option(text: str, seats: int, rules: Rules | None = None) -> dict[int, Role]:
    """``--roles "don=3 mafia=5,9 sheriff=1"``: the cards of ``rules`` (crime-time's when not
    given)."""
    return cards_option(text, seats, rules)[0]


def cards_option(text: str, seats: int,
                 rules: Rules | None = None) -> tuple[dict[int, Role], dict[str, str]]:
    """``--roles "don=3 mafia=5,9 sheriff=1"``: a seat (or several) per card of the ruleset
    (crime-time's when not given), and what else it deals (``maniac_side=mafia``); checked to
    be the ruleset's deal."""
    rules = rules or find_rules("crime-time")
    names = [name for name, _ in card_fields(rules, seats)]
    example = " ".join(f"{n}=" + "|".join(rules.dealt_choices.get(n, ("N",))) for n in names)
    fields: dict[str, str] = {}
    for item in text.split():
        name, _, value = item.partition("=")
        if name not in names or not value:
            raise NarratorError(f'--roles: expected "{example}" for {rules.name}, got {item!r}')
        fields[name] = value
    for name, values in rules.dealt_choices.items():  # vrn: the maniac's side
        if name not in fields:
            raise NarratorError(f'--roles: {name}= missing: {" or ".join(values)} (e.g. '
                                f'"{example}")')
    try:
        return parse_cards(rules, seats, fields)
    except NarratorError as e:
        raise NarratorError(f"--roles: {e}") from None


def resume_session(contents: JournalContents, path: str | Path, clock: Clock, *,
                   narration: Narration | None = None, manifest: Manifest | None = None,
                   fsync: bool = True, driver: Driver | None = None) -> Session:
    """The game of ``contents`` at its last state, journaling on into ``path`` (``driver``:
    an evening's, lent for the game)."""
    game = contents.game()
    journal = Journal(path, contents.header, fsync=fsync)
    session = make_session(game, clock, journal=journal, narration=narration,
                           manifest=manifest, driver=driver)
    if narration is not None and game.phase.is_night and not game.is_over:
        narration.player.set_bed(narration.bed)  # back into the night: its bed again
    session.host.resume(left=contents.time_left(game))  # on with the time it had left
    hold_for_host(session.host)
    # the screen goes on from where the killed one was: the last lines said, and the log of
    # what had been entered (in the form the screen may show: no night act is named)
    session.transcript.recall(game)
    # (the ends of speeches and of timers would fill it: what was entered into the game)
    entered = [public_action(a) for a in game.history if not isinstance(a, TimeUp | EndSpeech)]
    session.notes.append(("ok", f"resumed {path}: {len(game.history)} inputs taken up, "
                                f"at {describe(game)}"))
    if entered:
        shown = entered[-RECALLED_ENTRIES:]
        more = len(entered) - len(shown)
        session.notes.append(("ok", "entered before: " + ("… " if more else "")
                                    + " · ".join(shown)))
    return session


def resume(args: ResumeArgs, contents: JournalContents) -> int:
    """``narrator resume JOURNAL`` for a journal written by ``narrator assist``."""
    clock = table_clock()
    note = None
    audio = args.audio
    if audio.out_wav:
        out_wav, note = next_part(audio.out_wav)
        audio = replace(audio, out_wav=out_wav)
        if note:
            print(f"narrator: {note}")  # seen once the screen has closed …
    narration = _narration(audio, clock, contents.header.lang)
    session = resume_session(contents, args.journal, clock, narration=narration)
    if note:
        session.notes.append(("refused", note))  # … and on it, in the log, all along
    return run_app(AssistApp(session, lang=contents.header.lang), narration,
                   _console(args.console), contents.header.lang,
                   contents)


def _console(args: ConsoleArgs) -> ConsoleOptions | None:
    """``--console``: the human host dealt the cards and counts the hands; the pads show each
    seat its card and its night steps, the operator view the table."""
    if args.links and args.address is None:
        raise NarratorError("--links FILE writes the console's links; add --console [HOST:]PORT")
    return console_options(args, hand_votes=True, wait_for_cards=False)
