"""The timeline of a game's record: every step, phrase heard, press, action and what the game
made of each, timed on the record's clock.

The timeline is made of the record alone (a session's ``inputs.jsonl``, a journal's lines): its
actions are applied again to a fresh game of the same deal, and each engine event is written as
the host writes it — the narrator's lines and the transcript's notes come from
:mod:`narrator.host.transcript` itself, so the timeline's lines are the transcript's. A phrase
heard or a press is followed by what it became: «Принято», refused and why, the actions taken,
or nothing. Nothing here changes a game.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from narrator import words as vocab
from narrator.engine import (
    Action,
    EngineError,
    Foul,
    Game,
    HandCount,
    Hands,
    HandsUp,
    Malformed,
    Remove,
    TechFoul,
    Thumbs,
    parse_action,
)
from narrator.engine import events as ev
from narrator.engine import waits as w
from narrator.errors import NarratorError
from narrator.host.narration import lines_for
from narrator.host.texts import action_words
from narrator.host.transcript import Transcript
from narrator.inputs import ACTION, ENTRY, HEARD, OPERATOR, PAD, STOP, UNDO, Input
from narrator.reasons import words
from narrator.review.notes import note, page_text, press_fields, step_note
from narrator.voice.manifest import Manifest

#: the kinds of entries, in the order the page's filter lists them
KINDS = ("heard", "press", "said", "step", "nomination", "hand", "vote", "foul", "removal",
         "refused", "undo", "mark", "night", "end")
#: what the narrator says when it takes a phrase (the line a dispute is often about)
ACCEPTED = "«Принято»"

_KIND_OF: tuple[tuple[type | tuple[type, ...], str], ...] = (
    ((ev.Nominated, ev.Withdrawn, ev.PutUpCounted), "nomination"),
    ((ev.VoteCounted, ev.Tie, ev.TieStays, ev.Unopposed, ev.Stays, ev.CrashResult,
      ev.VotingCancelled, ev.CrashNotApplied), "vote"),
    ((ev.Fouled, ev.TechFouled, ev.SpeechSkipped, ev.SpeechCut), "foul"),
    (ev.SeatOut, "removal"),
    (ev.Refused, "refused"),
    (ev.Marked, "mark"),
    ((ev.ShotsResolved, ev.Checked, ev.Acted, ev.Missed, ev.Saved, ev.NightResult,
      ev.Victims), "night"),
    ((ev.GameOver, ev.PlaysOn), "end"),
)
#: the actions that are a hand on the table: a vote's, the thumbs', the hands held up
_HAND_ACTIONS = (Hands, HandCount, Thumbs, HandsUp)


@dataclass(frozen=True, slots=True)
class Entry:
    """One moment of the timeline. ``t`` is on the record's clock (a session's stream time);
    ``seats`` the seats it concerns (the filter's); ``transcribed``: ``text`` is a line of the
    transcript (a narrator's line or a note); ``outcome`` what a phrase heard or a press
    became; ``reason`` a refusal's code."""

    n: int
    t: float
    kind: str
    text: str
    seats: tuple[int, ...] = ()
    outcome: str = ""
    reason: str = ""
    transcribed: bool = False
    #: the engine event written here, or the action taken (a hand, a foul, an undone one)
    source: ev.Event | Action | None = None


def kind_of(event: ev.Event) -> str:
    """The timeline's kind of an engine event (``step`` for the rest: phases, speeches, …)."""
    for types, kind in _KIND_OF:
        if isinstance(event, types):
            return kind
    return "step"


def seats_of(thing: object) -> tuple[int, ...]:
    """The seats an event or an action names (its seat, target, candidate, seats …)."""
    found: list[int] = []
    for name in ("seat", "target", "candidate", "killed"):
        value = getattr(thing, name, None)
        if isinstance(value, int) and not isinstance(value, bool):
            found.append(value)
    for name in ("seats", "candidates", "named", "red", "black"):
        value = getattr(thing, name, None)
        if isinstance(value, tuple):
            found.extend(v for v in value if isinstance(v, int))
    return tuple(dict.fromkeys(found))


def _step_text(event: ev.Event) -> str | None:
    """A step the transcript does not note, in a few words (None: not a step worth a line)."""
    match event:
        case ev.PhaseStarted(name=name, number=n):
            return f"{name} {n}"
        case ev.SpeechStarted(seat=s, kind=k):
            return f"seat {s}: {k} speech"
        case ev.VotingStarted(round=r, candidates=c):
            return f"voting, round {r}: {', '.join(map(str, c))}"
        case ev.VoteCall(candidate=c):
            return f"the vote for {c}"
        case ev.CrashStarted(candidates=c):
            return f"car crash: {', '.join(map(str, c))}"
        case ev.BestMoveAsked(seat=s):
            return f"seat {s}: best move"
        case _:
            return None


class Walk:
    """Builds the timeline: give it the record's inputs in order (:meth:`take`)."""

    def __init__(self, game: Game, manifest: Manifest, lang: str = "ru") -> None:
        self.game = game
        self.lang = lang
        self.transcript = Transcript(manifest, names=dict(game.names))
        self.entries: list[Entry] = []
        self._open: int | None = None  # the phrase or press whose outcome is being gathered
        self._taken: list[str] = []

    def add(self, t: float, kind: str, text: str, seats: tuple[int, ...] = (), *,
            reason: str = "", transcribed: bool = False,
            source: ev.Event | Action | None = None) -> None:
        self.entries.append(Entry(len(self.entries) + 1, t, kind, text, seats, reason=reason,
                                  transcribed=transcribed, source=source))

    def start(self, t: float) -> None:
        """Start the game (the deal's first events) unless it is started already."""
        if not self.game.started:
            self.events(self.game.start(), t)

    def events(self, events: Iterable[ev.Event], t: float) -> None:
        """Each event as the host takes it: the lines said for it, then its note."""
        for event in events:
            for line in lines_for(event, self.game.rules.lines):
                self.transcript.say(line, t)
                self.add(t, "said", self.transcript.entries[-1][1], transcribed=True,
                         source=event)
            before = len(self.transcript.entries)
            self.transcript.note(event, t)
            kind = kind_of(event)
            reason = str(event.reason) if isinstance(event, ev.Refused) else ""
            if len(self.transcript.entries) > before:
                # (the transcript's note is the developer's English: the page says it in
                # the table's words, for the same events)
                noted = note(event, self.game.names, self.lang)
                self.add(t, kind, noted or self.transcript.entries[-1][1].strip(),
                         seats_of(event), reason=reason, transcribed=True, source=event)
            elif (text := _step_text(event)) is not None:
                text = step_note(event, self.game.names, self.lang) or text
                self.add(t, kind, text, seats_of(event), source=event)

    def take(self, event: Input) -> None:
        """One input of the record."""
        kind = event.type
        if kind == ACTION:
            self._action(event.t, parse_action(str(event.get("action"))))
            return
        if kind == UNDO:  # the console operator's «undo» press is followed by it
            if self.game.history:
                last = self.game.pop()
                self.add(event.t, "undo", page_text("undo", self.lang,
                                                    action=action_words(last, self.lang)),
                         seats_of(last), source=last)
                self._taken.append(page_text("undo", self.lang,
                                             action=action_words(last, self.lang)))
            return
        self.close()
        if kind == HEARD:
            speaker = self.game.expect.seat if isinstance(self.game.expect, w.Speech) else None
            # an early decision (on stable partials), a Final that revised one
            how = (page_text("revised", self.lang) if event.get("revised")
                   else page_text("early", self.lang) if event.get("early") else "")
            self.add(event.t, "heard", f"«{event.get('text')}»{how}",
                     (speaker,) if speaker else ())
            self._open = len(self.entries) - 1
        elif kind in (ENTRY, PAD, OPERATOR):
            seat = event.get("seat")
            self.add(event.t, "press", _press_text(event, self.lang),
                     (seat,) if isinstance(seat, int) else ())
            self._open = len(self.entries) - 1
        elif kind == STOP:
            why = event.get("reason") or page_text("host_quit", self.lang)
            self.add(event.t, "step", page_text("stopped", self.lang, why=why))

    def _action(self, t: float, action: Action) -> None:
        expect = self.game.expect
        if isinstance(action, _HAND_ACTIONS):
            candidate = expect.candidate if isinstance(expect, w.Vote) else None
            what = page_text("for", self.lang, c=candidate) if candidate else ""
            self.add(t, "hand", f"{what}{action_words(action, self.lang)}", tuple(dict.fromkeys(
                ((candidate,) if candidate else ()) + seats_of(action))), source=action)
        elif isinstance(action, Foul | TechFoul | Remove):
            self.add(t, "foul" if not isinstance(action, Remove) else "removal",
                     page_text("host", self.lang, action=action_words(action, self.lang)),
                     seats_of(action), source=action)
        try:
            events = self.game.apply(action)
        except EngineError as e:
            raise NarratorError(f"at {t:.2f} s: {action}: {e}") from None
        if not isinstance(action, Malformed):
            self._taken.append(action_words(action, self.lang))
        self.events(events, t)

    def close(self) -> None:
        """The phrase or press gathered so far: its outcome written."""
        if self._open is None:
            return
        opened = self.entries[self._open]
        after = self.entries[self._open + 1:]
        refused = [e for e in after if e.kind == "refused"]
        if refused:
            outcome = "; ".join(page_text("o_refused", self.lang,
                                          reason=words(e.reason, self.lang), code=e.reason)
                                for e in refused)
        elif any(e.kind == "said" and e.text == ACCEPTED for e in after):
            outcome = ACCEPTED
        elif self._taken:
            outcome = page_text("o_taken", self.lang, actions=", ".join(self._taken))
        else:
            outcome = page_text("o_nothing", self.lang)
        self.entries[self._open] = replace(opened, outcome=outcome)
        self._open, self._taken = None, []


def _press_text(event: Input, lang: str = "ru") -> str:
    if event.type == ENTRY:
        return page_text("entry", lang, text=event.get("text"))
    # a pad's seat is who pressed; the operator's is whom the press is about (a foul's)
    mine = ("seat", "do") if event.type == PAD else ("do",)
    fields = press_fields(dict(event.data), mine, lang)
    who = (page_text("seat", lang, seat=event.get("seat")) if event.type == PAD
           else page_text("operator", lang))
    return f"{who}: {vocab.word('input', str(event.get('do')), lang)} {fields}".rstrip()


def timeline(game: Game, inputs: Iterable[Input], manifest: Manifest, *, lang: str = "ru",
             start: float = 0.0) -> list[Entry]:
    """The timeline of ``inputs`` on ``game`` (started at ``start`` unless it is already)."""
    walk = Walk(game, manifest, lang)
    walk.start(start)
    for event in inputs:
        walk.take(event)
    walk.close()
    return walk.entries
