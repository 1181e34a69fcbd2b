"""Host-assist: what the human host's keys mean, run on the live loop's thread.

The keyboard UI never touches the game. Each key becomes an operator entry — the same text
hostless play's operator types (a number then ``w`` is ``w 5``, Space in a speech is ``-``) —
handed to the :class:`~narrator.host.driver.Driver`'s thread. There the entry is read against
:attr:`Game.expect` by :func:`~narrator.engine.entries.parse_operator_line` (so "Enter" means a
nomination during a speech, a hand count during a vote, a shot during the hunt, a check at
night), its actions are applied through the :class:`~narrator.host.host.Host` (journaled
first), and a :class:`Snapshot` of the table is published back to the UI. Errors, refusals and what was
applied go to ``on_message``; nothing an input does can stop the loop.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import assert_never

from narrator import words as vocab
from narrator.engine import (
    Act,
    Action,
    Actor,
    Check,
    Colour,
    Exit,
    Expect,
    Game,
    HandCount,
    HandsUp,
    Kill,
    Nominate,
    Role,
    Save,
    Shot,
    Team,
    Withdraw,
    night_act,
)
from narrator.engine import events as ev
from narrator.engine import waits as w
from narrator.errors import NarratorError
from narrator.host.driver import Driver
from narrator.host.host import Host
from narrator.host.intake import parse_entry, refusals_of
from narrator.host.texts import act as act_word
from narrator.host.texts import action_words, card, departure, refused_kind, screen_lang, tx
from narrator.host.texts import reason as reason_word
from narrator.host.transcript import Transcript, mark_words
from narrator.reasons import Reason
from narrator.typed import typed_number

SAID_LINES = 8

#: the longest hint: the input line is «Number: » and up to 12 characters typed, four spaces,
#: then the hint, and the screen needs 100 columns (docs/modes.md, host-assist)
HINT_WIDTH = 100 - len("Number: ") - 12 - 4


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    role: Role  # shown only behind ``r``
    out: Exit | None  # vote, crash, removed; shot once the day has told it
    fouls: int
    name: str = ""
    shot_tonight: bool = False  # out tonight: secret until the day tells it (2.1.2)
    how: Exit | None = None  # how it left the game (who killed: shown only behind ``r``)


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The table as the UI shows it; built on the loop's thread, read on the UI's."""

    phase: str  # readable: "Day 2 · speech of seat 4"
    notation: str  # Game.notation(secret=False)
    hint: str  # what the keys do now
    seats: tuple[SeatView, ...]
    speaker: int | None
    nominations: tuple[tuple[int, int], ...]  # standing (nominator, target)
    voting: tuple[int, ...]  # candidates of the round being voted on
    timer: str | None  # the running timer's name
    timer_seconds: float
    timer_ends: float | None  # clock time when it runs out
    held: bool  # the step then waits for the host's entry (a vote, the hunt, a check)
    said: tuple[str, ...]  # the last lines spoken, oldest first
    over: bool
    wait: Expect  # what the game waits for
    secrets: tuple[str, ...] = ()  # the nights' shots and checks: shown only behind ``r``
    #: the day's candidates as the ruleset makes them (None: it makes none — vrn votes
    #: against every seat): «Nominations: 3→5» where words nominate, «Put up: 5 ×3» by thumbs
    standing: str | None = None
    #: the host's marks once the game is over, a line a seat: «4: +0.3, best player — why»
    marks: tuple[str, ...] = ()


def describe(game: Game, lang: str = "en") -> str:
    """A readable phase, from the same state as :meth:`Game.notation`, in ``lang``."""
    e = game.expect
    when = f"{tx('night' if game.phase.is_night else 'day', lang)} {game.phase.number}"
    what = e.label(screen_lang(lang))  # the step in the engine's words
    match e:
        case w.Over():
            if game.winner is Team.DRAW:
                return tx("over_draw", lang)  # 7.21.2
            if game.winner is None:
                return tx("over", lang)
            side = (game.winner.value if lang == "en"
                    else vocab.word("winner", game.winner.value, lang))
            return tx("over_win", lang, side=side)
        case w.Vote() | w.Crash():
            # the step in the engine's words, and on whom
            seats = ", ".join(map(str, game.voting_candidates))
            return f"{when} · {what}{tx('on', lang, seats=seats)}"
        case (w.Pause() | w.Deal() | w.Speech() | w.Hunt() | w.NightAct() | w.Floor()
              | w.PutUp() | w.Extra()):
            return f"{when} · {what}"
        case _:
            assert_never(e)


def hint(game: Game, lang: str = "en") -> str:
    """What typing a number and Enter does now, in at most :data:`HINT_WIDTH` characters: the
    keys for what the engine takes now, no other (the engine's answers, not a copy of them)."""
    e = game.expect
    match e:
        case w.Speech():
            return _speech_hint(game, e, lang)
        case w.Crash():
            return tx("h_crash", lang)
        case w.Vote(candidate=candidate):
            # the engine says where a hand not raised goes (vrn's re-vote of one: nowhere)
            rest = tx("h_to_last", lang) if e.to_last else ""
            if game.refusal(HandCount(1)) == Reason.SEATS_NEEDED:  # 7.16.4: seats, no count
                last = tx("h_last", lang) if e.to_last else ""
                return tx("h_seats_vote", lang, c=candidate, last=last)
            return tx("h_vote", lang, c=candidate, rest=rest)
        case w.Hunt():
            # the count waits for the target once it is over (docs/modes.md says so)
            return tx("h_hunt", lang)
        case w.NightAct():
            return _act_hint(game, e, lang)
        case w.Floor():
            return tx("h_floor", lang)
        case w.PutUp():
            return tx("h_put_up", lang)
        case w.Extra():
            if not game.seats_taken(lambda s: HandsUp((s,))):
                return tx("h_extra_none", lang)
            return tx("h_extra", lang)
        case w.Over():  # the host's marks now (the engine takes them only once it is over)
            return tx("h_over", lang)
        case w.Pause() | w.Deal():
            return tx("h_timer", lang)
        case _:
            assert_never(e)


def _speech_hint(game: Game, e: w.Speech, lang: str) -> str:
    """A speech's keys: a nomination while none stands, then its withdrawal (2.3.1, 2.3.2);
    the club's best move where it is asked; the speech's end."""
    parts = []
    if e.nominates:
        if game.seats_taken(Nominate):
            parts.append(tx("h_nominate", lang))
        if game.standing is not None and game.refusal(Withdraw(game.standing)) is None:
            parts.append(tx("h_withdraw", lang))
    if game.asks_best_move:
        parts.append(tx("h_best", lang))
    parts.append(tx("h_thanks", lang) if e.speech == "day" else tx("h_end", lang))
    record = tx("h_record", lang)  # the club's colours (6.7); the footer has them
    if game.takes_on_record and len(" · ".join([record, *parts])) <= HINT_WIDTH:
        parts.insert(-1, record)
    return " · ".join(parts)


def _act_hint(game: Game, e: w.NightAct, lang: str) -> str:
    """A night step's keys: each act the engine takes of some seat now (none once the role
    has acted, none for a role out of the game, no save without a victim)."""
    acts = [a for a in e.acts if game.seats_taken(partial(night_act, a, e.role))]
    if e.checks:
        return (tx("h_checks", lang, role=card(e.role, lang)) if acts
                else tx("h_let_run", lang))
    keys = {"kill": "k", "check": "c", "save": "Enter"}
    parts = [tx("h_first_act", lang, role=card(e.role, lang), act=act_word(a, lang))
             if a == e.acts[0] else tx("h_act", lang, key=keys[a], act=act_word(a, lang))
             for a in acts]
    return " · ".join([*parts, tx("h_none", lang)])


def snapshot(host: Host, transcript: Transcript, lang: str = "en") -> Snapshot:
    """Read the table; call on the loop's thread."""
    game = host.game
    e = game.expect
    # the table's view of who is out (a night's victim from the day, as "shot": who killed is
    # behind r); a victim not yet told is the host's secret
    public = game.public_out()
    seats = []
    for s in range(1, game.seats + 1):
        how = game.how_out(s)
        seats.append(SeatView(s, game.roles[s], public.get(s), game.fouls.get(s, 0),
                              game.names.get(s, ""), how is not None and s not in public,
                              how))
    timer = host.timer
    return Snapshot(
        phase=describe(game, lang),
        notation=game.notation(secret=False),  # on screen: the table may see it
        hint=hint(game, lang),
        seats=tuple(seats),
        speaker=e.seat if isinstance(e, w.Speech) else None,
        nominations=tuple(game.nominations),
        voting=game.voting_candidates if isinstance(e, w.Vote | w.Crash) else (),
        timer=timer.name if timer is not None else None,
        timer_seconds=timer.seconds if timer is not None else 0.0,
        timer_ends=None if timer is None else host.timer_started + timer.seconds,
        held=host.held,
        said=tuple(transcript.spoken[-SAID_LINES:]),
        over=game.is_over,
        wait=e,
        secrets=night_secrets(game, lang),
        standing=standing(game, lang),
        marks=marks_given(game, lang),
    )


def marks_given(game: Game, lang: str = "en") -> tuple[str, ...]:
    """The host's marks so far, in seat order, as the transcript words them (in ``lang``)."""
    if lang == "en":
        return tuple(f"{seat}: {mark_words(ev.Marked(m.seat, m.points, m.titles, m.comment))}"
                     for seat, m in sorted(game.marks.items()))
    out = []
    for seat, m in sorted(game.marks.items()):
        given = ([f"{m.points:+g}"] if m.points else []) + [
            vocab.word("title", t, lang) for t in m.titles]
        said = ", ".join(given)
        if m.comment:
            said = f"{said} — {m.comment}" if said else m.comment
        out.append(f"{seat}: {said or tx('none', lang)}")
    return tuple(out)


def standing(game: Game, lang: str = "en") -> str | None:
    """The day's candidates so far, in the ruleset's way of making them: nominations by words
    (2.3.1: nominator→candidate), seats put up by thumbs (with today's thumbs), or None where
    nobody is made a candidate (vrn votes against every seat)."""
    by = game.rules.candidates_by()
    if by == "words":
        noms = ", ".join(f"{a}→{t}" for a, t in game.nominations) or tx("none", lang)
        return tx("nominations", lang, noms=noms)
    if by is None:
        return None
    thumbs = game.put_up
    shown = ", ".join(f"{seat} ×{n}" for seat, n in thumbs.items()) or tx("none", lang)
    return tx("put_up", lang, noms=shown)


def night_secrets(game: Game, lang: str = "en") -> tuple[str, ...]:
    """The nights as only the host knows them: the hunt's result and the checks' answers."""
    out: list[str] = []
    for night in game.nights:
        shot = night.hit
        parts = [tx("s_night", lang, n=night.number)
                 + (tx("s_miss", lang) if shot is None else tx("s_shot", lang, seat=shot))]
        for act in game.night_acts:  # in the order they were done
            if act.night != night.number:
                continue
            if act.act is Act.CHECK:
                parts.append(tx("s_checked", lang, role=card(act.role, lang), seat=act.target,
                                answer=tx("yes" if act.result else "no", lang)))
            elif act.act is Act.SAVE:
                parts.append(tx("s_saved", lang, role=card(act.role, lang), seat=act.target,
                                saved=act.saved))
            elif act.role is not Actor.MAFIA:  # (the mafia's kill is the night's shot, above)
                how = game.rules.kill_name(act.role)
                parts.append(f"{departure(how, lang)} {act.target}")
        out.append(" · ".join(parts))
    if game.best_move is not None:
        named = ", ".join(map(str, game.best_move.named))
        out.append(tx("s_best", lang, seat=game.best_move.seat, named=named,
                      black=game.best_move.black_named))
    return tuple(out)


def hold_for_host(host: Host) -> None:
    """A step the host answers waits for the answer: a vote for the count (a human cannot
    count within the rules' one second), the hunt for the mafia's target once the count is
    over, a check for the seat checked (when the checker is still at the table); the thumbs,
    the hands held up and the next hand are counted too."""
    if host.desk.awaits_human:
        host.hold()


class Controller:
    """The host's inputs as thunks on ``loop``; results to ``on_snapshot`` / ``on_message``.

    ``on_message(kind, text)``: kind is "ok" (applied), "error" (not taken) or "refused" (the
    engine refused it by the rules). Both callbacks are called on the loop's thread.
    """

    def __init__(self, host: Host, loop: Driver, transcript: Transcript,
                 lang: str = "en") -> None:
        self.host = host
        #: the screen's language (``--lang``; the API's English by default)
        self.lang = lang
        self.loop = loop
        self.transcript = transcript
        self.on_snapshot: Callable[[Snapshot], None] = lambda snap: None
        self.on_message: Callable[[str, str], None] = lambda kind, text: None
        loop.on_error = lambda error: self.on_message("error", error.words(self.lang))
        host.listeners.append(self._on_event)
        #: the table's desk (the host's): the entry log and undo, shared with the console
        self.desk = host.desk

    # -- inputs (any thread): each key is an operator entry (narrator.engine.entries) ----------

    def next(self) -> None:
        """Space: end the speech early («Спасибо»), no more hands in a vote, no shot or no
        check at night (the step still ends at its time), or skip the timer."""
        self._submit(lambda: self._entry("-" if _ends_early(self.host.game.expect) else "t"))

    def time_up(self) -> None:
        """The current timer runs out now (a speech ends with «Спасибо»)."""
        self._submit(lambda: self._entry("t"))

    def enter(self, text: str) -> None:
        """A number and Enter: what it means depends on what the game waits for."""
        self._submit(lambda: self._entry(self._typed(text)))

    def withdraw(self, text: str) -> None:
        self._submit(lambda: self._entry(f"w {text}"))

    def on_record(self, text: str, colour: Colour) -> None:
        """The speaker's colours on record (6.7): the seats typed, red or black."""
        entry = f"o {text}" if colour is Colour.RED else f"o / {text}"
        self._submit(lambda: self._entry(entry))

    def best_move(self, text: str) -> None:
        """The club's best move (8.17): the seats typed («3,5,7»), then b."""
        self._submit(lambda: self._entry(f"b {text}"))

    def foul(self, text: str) -> None:
        self._submit(lambda: self._entry(f"f {text}"))

    def tech_foul(self, text: str) -> None:
        """9.6.2: a technical foul (the club's ``tech_fouls = "yes"``)."""
        self._submit(lambda: self._entry(f"e {text}"))

    def remove(self, text: str) -> None:
        self._submit(lambda: self._entry(f"r {text}"))

    def shot(self, text: str) -> None:
        self._submit(lambda: self._entry(f"k {text}"))

    def check(self, text: str) -> None:
        self._submit(lambda: self._entry(f"c {text}"))

    def mark(self, text: str) -> None:
        """The host's marks once the game is over: ``4 +0.3 bp -- why`` (``4``: none)."""
        self._submit(lambda: self._entry(f"m {text}"))

    def undo(self) -> None:
        self._submit(self._undo)

    def refresh(self) -> None:
        """Ask for a new snapshot."""
        self.loop.call(self.publish)

    # -- on the loop's thread --------------------------------------------------------------

    def publish(self) -> None:
        self.on_snapshot(snapshot(self.host, self.transcript, self.lang))

    def _submit(self, fn: Callable[[], None]) -> None:
        def run() -> None:
            try:
                fn()
            except NarratorError as e:  # said in the table's words
                self.on_message("error", e.words(self.lang))
            except Exception as e:  # a bug must not stop the loop nor the game
                self.on_message("error", tx("internal", self.lang,
                                            error=f"{e.__class__.__name__}: {e}"))
            self.publish()

        self.loop.call(run)

    def _typed(self, text: str) -> str:
        """The entry of a number typed then Enter. A vote is the host's count: an empty Enter
        is no hands, and the car crash's count is entered as that many seats (the engine
        counts its hands by seat); so are the thumbs that put the accused up (``7-4``: four
        thumbs for 7)."""
        text = text.strip()
        game = self.host.game
        e = game.expect
        match e:
            case w.PutUp() | w.Extra() if not text:
                return "-"
            case w.PutUp() if re.fullmatch(r"[0-9]{1,6}-[0-9]{1,6}", text):
                accused, thumbs = text.split("-")
                seats = self.desk.counted_seats(int(thumbs))
                return f"{int(accused)}: " + " ".join(map(str, seats))
            case w.Vote() | w.Crash() if not text:
                return "-"
            case w.Crash() if typed_number(text) is not None:
                count = typed_number(text) or 0
                return " ".join(map(str, self.desk.counted_seats(count))) or "-"
            case (w.Vote() | w.Crash() | w.PutUp() | w.Extra() | w.Pause() | w.Deal() | w.Speech()
                  | w.Hunt() | w.NightAct() | w.Floor() | w.Over()):
                return text
            case _:
                assert_never(e)

    def _entry(self, text: str) -> None:
        """Apply one entry through the desk. An answer to a vote closes its window at once; an
        answer to the hunt or a check lets the step end at its time (the count goes on to
        «десять», the check's 15 s run out, 2.1.3), or now when that has passed: a late entry
        never replays the count."""
        game = self.host.game
        entry = parse_entry(text, game)  # (an error quotes the keys' line, then why)
        with refusals_of(text):
            self.desk.enter(entry.actions, shown=_shown(text, game.expect, self.lang),
                            done=entry.done,
                            accepted=lambda a: self.on_message("ok", public_action(a, self.lang)))

    def _undo(self) -> None:
        """Take back exactly the last host entry (the desk's undo: every action it applied and
        what the timers did after it, the timer put back as it was, a short correction if the
        narrator already said something for it)."""
        mark = self.desk.undo()
        self.on_message("ok", tx("undone", self.lang, what=mark.text))

    def _on_event(self, event: ev.Event, at: float) -> None:
        if isinstance(event, ev.TimerStarted):
            hold_for_host(self.host)  # the steps the host answers (it looks at what they are)
        elif isinstance(event, ev.Fouled) and event.count >= 3:
            self.on_message("refused", _foul_notice(event, self.host.game.rules.fouls,
                                                    self.lang))
        elif isinstance(event, ev.Refused):
            lang = self.lang
            who = tx("seat_of", lang, seat=event.seat) if event.seat is not None else ""
            target = f" {event.target}" if event.target is not None else ""
            self.on_message("refused", tx("refused", lang, who=who,
                                          kind=refused_kind(event.kind, lang), target=target,
                                          reason=reason_word(event.reason, lang)))


def public_action(action: Action, lang: str = "en") -> str:
    """An action as the screen may show it: the night's shots and checks are secret."""
    if isinstance(action, Shot):
        return tx("a_hunt", lang)
    if isinstance(action, Check | Kill | Save):
        return tx("a_night", lang, role=card(action.role, lang),
                  act=act_word(str(action).split()[0], lang))
    return action_words(action, lang)


def _shown(text: str, step: Expect, lang: str = "en") -> str:
    """What the host typed, as the screen may show it."""
    match step:
        case w.Hunt():
            return tx("e_hunt", lang)
        case w.NightAct() if not text.startswith(("f", "r")):
            return tx("e_check" if step.checks else "e_entry", lang, role=card(step.role, lang))
        case (w.NightAct() | w.Pause() | w.Deal() | w.Speech() | w.Vote() | w.Crash() | w.Floor()
              | w.PutUp() | w.Extra() | w.Over()):
            return text or "-"
        case _:
            assert_never(step)


def _ends_early(step: Expect) -> bool:
    """Whether Space ends ``step`` early (a speech's «Спасибо», no more hands, no shot, no
    check) rather than skipping its timer."""
    match step:
        case w.Speech() | w.Vote() | w.Crash() | w.Hunt():
            return True
        case w.NightAct():
            return step.checks
        case w.Pause() | w.Deal() | w.Floor() | w.PutUp() | w.Extra() | w.Over():
            return False
        case _:
            assert_never(step)


def _foul_notice(event: ev.Fouled, mode: str, lang: str = "en") -> str:
    """What the host is told at a player's 3rd and 4th foul."""
    seat, n = event.seat, event.count
    if mode == "sport":
        return tx("f_sport3" if n == 3 else "f_sport4" if n == 4 else "f_n", lang,
                  seat=seat, n=n)
    return tx("f_3" if n == 3 else "f_4", lang, seat=seat, n=n)
