"""The table desk: what every front end asks of the step the game waits at.

One desk sits on each :class:`~narrator.host.host.Host` (``host.desk``), shared by every front
end that drives that host — assist's keys, the listening loop's operator, the console's pads and
operator, two of them at once when assist serves the console. It answers:

- **who is asked now**: the wait itself (:attr:`Desk.wait`: the engine's typed wait, with the
  seats whose answer it takes) and whether the table still waits for a human's answer to it
  (:attr:`Desk.awaits_human`: the step wants one, and nobody gave it yet);
- **what was pressed in this step**: the engine's own record of the step (the hunt's shots,
  the hands, the thumbs, the hands held up) and what only a table keeps — the cards seen or
  skipped while dealing, where the mafia's pads point, the one a speaker accuses. Each is tied
  to the serial of the step it was pressed in, so it is gone the moment the game moves on and
  stays through anything that keeps the step (an undo of a foul while dealing keeps the cards
  seen). Each is a typed note (:data:`TableNote`); :meth:`Desk.restore` takes the notes of a
  journal's presses back, each at its place in the game;
- **what undo takes back**: the log of human entries, each with the timer's state just before
  it, and :meth:`Desk.undo`, which takes back exactly the last one;
- **a count of hands**: what a human's count means as actions (:meth:`Desk.hand_count`).

Whether an input is taken, and why not, is the engine's alone (:meth:`Game.refusal
<narrator.engine.game.Game.refusal>`, :meth:`Game.check <narrator.engine.game.Game.check>`):
the desk never repeats a rule. The desk runs on the thread that drives the host.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol, assert_never

from narrator.engine import Action, EngineError, Game, HandCount, Hands, Phase, TimeUp
from narrator.engine import events as ev
from narrator.engine import waits as w
from narrator.engine.waits import Expect
from narrator.errors import NarratorError
from narrator.host.narration import Line
from narrator.host.recorder import InputLog
from narrator.inputs import Input
from narrator.reasons import Reason

__all__ = ["Accusal", "CardSeen", "CardSkipped", "Desk", "Entry", "Noted", "Point", "TableNote"]


class DeskHost(Protocol):
    """What the desk uses of its :class:`~narrator.host.host.Host` (which makes the desk)."""

    game: Game
    journal: InputLog | None
    held: bool
    said: int

    @property
    def time_left(self) -> float | None: ...

    def apply(self, action: Action, *,
              accepted: Callable[[Action], None] | None = None) -> list[ev.Event]: ...

    def take_back(self, count: int) -> list[Action]: ...

    def resume(self, left: float | None = None) -> None: ...

    def hold(self) -> None: ...

    def release(self) -> None: ...

    def say(self, line: Line) -> None: ...


@dataclass(frozen=True, slots=True)
class Entry:
    """One human entry, for undo: where the game and its timer stood just before it."""

    history: int  # how many actions the game had taken
    serial: int  # the step it was made at
    left: float | None  # seconds left on the step's timer
    held: bool  # the step was waiting for the human past its time
    said: int  # lines said so far
    text: str  # as the screen may show it (nothing secret)
    after: int  # how many actions the game had taken once the entry was acted on


# -- what only the table keeps: one typed note a press ------------------------------------------


@dataclass(frozen=True, slots=True)
class CardSeen:
    """``seat`` saw its card while dealing (2.1.1)."""

    seat: int


@dataclass(frozen=True, slots=True)
class CardSkipped:
    """The operator skipped ``seat``'s card while dealing (its phone is not ready)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Point:
    """``seat``'s pad points at ``target`` for the mafia's kill at night (a point may change)."""

    seat: int
    target: int


@dataclass(frozen=True, slots=True)
class Accusal:
    """``speaker`` names, in his speech, the one the thumbs after it would put up."""

    speaker: int
    target: int


#: what a table's press leaves on the desk (the rest of its presses are the engine's)
TableNote = CardSeen | CardSkipped | Point | Accusal


@dataclass(frozen=True, slots=True)
class Noted:
    """A journal's note at its place: ``at`` actions of the game came before it."""

    at: int
    note: TableNote


@dataclass(slots=True)
class _Cards:
    """The deal's cards seen and skipped, in the deal numbered ``serial``."""

    serial: int = -1
    seen: set[int] = field(default_factory=set)
    skipped: set[int] = field(default_factory=set)


@dataclass(slots=True)
class _Points:
    """Where each mafioso's pad points (seat → target), in the night step ``serial``."""

    serial: int = -1
    by_seat: dict[int, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class _Accused:
    """An accusal, made in the speech numbered ``speech`` on the day ``day``."""

    speech: int
    day: Phase
    speaker: int
    target: int


class Desk:
    """The desk of one host (see the module)."""

    def __init__(self, host: DeskHost) -> None:
        self.host = host
        #: the human entries that undo can take back, oldest first
        self.entries: list[Entry] = []
        self._answered: int | None = None  # the serial of the step a human answered
        # what only the table keeps, each tied to the step it belongs to
        self._cards = _Cards()
        self._points = _Points()
        self._accused: _Accused | None = None

    @property
    def game(self) -> Game:
        return self.host.game

    # -- who is asked now --------------------------------------------------------------------

    @property
    def wait(self) -> Expect:
        """What the game waits for (the engine's typed wait)."""
        return self.host.game.expect

    @property
    def awaits_human(self) -> bool:
        """The table waits, at the step's time, for a human's answer that has not come."""
        wait = self.wait
        return wait.waits_for_human and self._answered != wait.serial

    def answered(self, serial: int | None = None) -> None:
        """A human answered the step the game waits at (or the one numbered ``serial``): the
        hunt's target, a vote's count, the one checked, «-». It is not waited for nor asked
        again."""
        self._answered = self.wait.serial if serial is None else serial

    # -- the presses of this step ------------------------------------------------------------

    @property
    def hunt_shots(self) -> dict[int, tuple[int, ...]]:
        """This hunt's shots by shooter (the engine's; secret: the shooters' and the host's)."""
        return self.game.hunt_shots

    @property
    def hands(self) -> frozenset[int]:
        """The seats whose hand is in, this round or the car crash (the engine's)."""
        return self.game.step_hands

    @property
    def thumbs(self) -> frozenset[int]:
        """The seats whose thumb is in, in the put-up window open now (the engine's)."""
        return self.game.step_thumbs

    @property
    def raised(self) -> tuple[int, ...]:
        """The seats holding a hand up for 30 s more, in order (the engine's)."""
        return self.game.raised_hands

    def _deal(self) -> _Cards:
        """This deal's cards (another step's: none, kept as they were until a new deal)."""
        return self._cards if self._cards.serial == self.wait.serial else _Cards()

    @property
    def seen(self) -> frozenset[int]:
        """While dealing (2.1.1): the seats that saw their card."""
        return frozenset(self._deal().seen) if isinstance(self.wait, w.Deal) else frozenset()

    @property
    def skipped(self) -> frozenset[int]:
        """While dealing: the seats whose card the operator skipped."""
        return frozenset(self._deal().skipped) if isinstance(self.wait, w.Deal) else frozenset()

    def saw_card(self, seat: int) -> bool:
        """``seat`` saw its card in the last deal (after it, too: a pad that asks again)."""
        return seat in self._cards.seen

    def card_seen(self, seat: int) -> bool:
        """``seat`` saw its card; False when it had (or was skipped) already, or when nobody
        deals now."""
        return self._note(CardSeen(seat), self.wait, self.game.phase)

    def card_skipped(self, seat: int) -> bool:
        """The operator skipped ``seat``'s card; False when it was seen or skipped already, or
        when nobody deals now."""
        return self._note(CardSkipped(seat), self.wait, self.game.phase)

    def waiting_for_cards(self) -> list[int]:
        """While dealing: the seats whose card is neither seen nor skipped (the deal's seats,
        as the engine lists them)."""
        wait = self.wait
        if not isinstance(wait, w.Deal):
            return []
        cards = self._deal()
        return [s for s in wait.seats if s not in cards.seen and s not in cards.skipped]

    @property
    def points(self) -> dict[int, int]:
        """The mafia's kill at night: where each mafioso's pad points, in this step (a copy)."""
        points = self._points
        return dict(points.by_seat) if points.serial == self.wait.serial else {}

    def point(self, seat: int, target: int) -> None:
        """``seat``'s pad points at ``target`` for the mafia's kill (a point may change)."""
        self._note(Point(seat, target), self.wait, self.game.phase)

    def accuse(self, speaker: int, target: int) -> None:
        """``speaker`` names, in his speech, the one the thumbs after it would put up."""
        self._note(Accusal(speaker, target), self.wait, self.game.phase)

    @property
    def accused(self) -> int | None:
        """The one the speaker accuses, in his speech and in the thumbs' window after it: the
        window the engine opens for that speaker (its wait names him) on the day he spoke — a
        seat gives one speech a day in a day that puts up."""
        made = self._accused
        if made is None:
            return None
        wait = self.wait
        match wait:
            case w.Speech() if wait.serial == made.speech and wait.seat == made.speaker:
                return made.target
            case w.PutUp() if (wait.seat == made.speaker and wait.serial > made.speech
                               and self.game.phase == made.day):
                return made.target
            case (w.Speech() | w.PutUp() | w.Pause() | w.Deal() | w.Vote() | w.Crash() | w.Hunt()
                  | w.NightAct() | w.Floor() | w.Extra() | w.Over()):
                return None
            case _:
                assert_never(wait)

    def _note(self, note: TableNote, wait: Expect, day: Phase) -> bool:
        """Keep ``note``, pressed at ``wait`` on ``day``; False when it changes nothing (a card
        seen or skipped already, or no deal)."""
        match note:
            case CardSeen(seat) | CardSkipped(seat):
                if not isinstance(wait, w.Deal):
                    return False
                if self._cards.serial != wait.serial:
                    self._cards = _Cards(wait.serial)  # a new deal forgets the last one's
                cards = self._cards
                if seat in cards.seen or seat in cards.skipped:
                    return False
                (cards.seen if isinstance(note, CardSeen) else cards.skipped).add(seat)
            case Point(seat, target):
                if self._points.serial != wait.serial:
                    self._points = _Points(wait.serial)
                self._points.by_seat[seat] = target
            case Accusal(speaker, target):
                self._accused = _Accused(wait.serial, day, speaker, target)
            case _:
                assert_never(note)
        return True

    def restore(self, notes: Iterable[Noted]) -> None:
        """A game rebuilt from its journal: what only the desk keeps of the table's presses —
        the cards seen or skipped, the mafia's points, the one accused — read back, each note
        at its place (``at``: how many of the game's actions came before it). A note counts
        for the step the game stood at when it was pressed; the later ones are forgotten as
        they were live, and one after the game's last action is none of its."""
        game = self.game
        history = game.history
        marks = sorted((n for n in notes if n.at <= len(history)), key=lambda n: n.at)
        shadow = game.table_copy()
        shadow.start()
        i = 0
        for at in range(len(history) + 1):
            while i < len(marks) and marks[i].at == at:
                self._note(marks[i].note, shadow.expect, shadow.phase)
                i += 1
            if at < len(history):
                shadow.apply(history[at])

    # -- entries and undo --------------------------------------------------------------------

    def enter(self, actions: Sequence[Action], *, shown: str, done: bool = False,
              record: Input | None = None,
              accepted: Callable[[Action], None] | None = None) -> list[ev.Event]:
        """Apply a human entry: ``actions``, then, when it answers the step (``done``), close a
        window a human counts (a vote, the car crash, the thumbs, the hands held up) at once,
        or let a held step end at its time — now, when that has passed: a late answer never
        replays the count. ``record``, if given, is journaled first (a kill between two of the
        actions loses none); ``accepted`` is told each action the engine takes. Logged for
        :meth:`undo` when it changed anything."""
        host, game = self.host, self.host.game
        wait = game.expect
        mark = Entry(len(game.history), wait.serial, host.time_left, host.held, host.said,
                     shown, 0)
        if record is not None and host.journal is not None:
            host.journal.write(record)
        events: list[ev.Event] = []
        try:
            for action in actions:
                events.extend(host.apply(action, accepted=accepted))
            if done:
                if game.expect.serial == wait.serial:
                    self._answered = wait.serial
                if isinstance(wait, w.Vote | w.Crash | w.PutUp | w.Extra) \
                        and game.expect.serial == wait.serial and wait.timer is not None:
                    events.extend(host.apply(TimeUp(wait.timer.name), accepted=accepted))
                elif game.expect.serial == wait.serial and host.held:
                    host.release()
        finally:  # (an action refused half-way: what was taken of the entry can be undone)
            if len(game.history) > mark.history or host.held != mark.held:
                self.entries.append(Entry(mark.history, mark.serial, mark.left, mark.held,
                                          mark.said, mark.text, len(game.history)))
        return events

    def undoable(self) -> Entry | None:
        """The entry :meth:`undo` would take back now (None: nothing, or the game went on
        after it with more than the timers' ends)."""
        if not self.entries:
            return None
        mark = self.entries[-1]
        history = self.host.game.history
        if len(history) < mark.after or any(not isinstance(a, TimeUp)
                                            for a in history[mark.after:]):
            return None
        return mark

    def undo(self) -> Entry:
        """Take back exactly the last entry — every action it applied and the timers' ends
        after it — and put the step back as it was: a step that did not change keeps its clock
        running; a closed one comes back with the time it had left, waiting for the human again
        if it did. Refused (NarratorError) when anything but a timer's end came after it (a
        pad's press, a phrase heard), or when the narrator said something for it, a short
        correction follows."""
        host, game = self.host, self.host.game
        if not self.entries:
            raise NarratorError("nothing to undo")
        mark = self.undoable()
        if mark is None:
            raise NarratorError(f"too late to undo {self.entries[-1].text}: the game went on "
                                "after it")
        self.entries.pop()
        serial = game.expect.serial
        host.take_back(len(game.history) - mark.history)
        if game.expect.serial != serial:  # the entry closed its step: back to it, as it was
            host.resume(left=mark.left)
        if mark.held:
            host.hold()
        elif host.held:
            host.release()
        if self._answered is not None and self._answered >= game.expect.serial:
            self._answered = None  # the step is asked again
        if host.said > mark.said:
            host.say(Line(("correction",)))
            wait = game.expect
            if isinstance(wait, w.Vote):
                host.say(Line((f"who_for.{wait.candidate}",)))  # ask again
        return mark

    # -- counts ------------------------------------------------------------------------------

    def hand_count(self, count: int) -> tuple[Action, ...]:
        """A human's count of hands for the window open now, as actions: a vote's count
        (2.4), or the car crash's, which the engine counts by seat (2.4.2: the first ``count``
        seats stand for them; who they are does not matter). NarratorError when more are
        counted than play, or than the engine takes (2.4: the seats yet to vote in the round)."""
        wait, game = self.wait, self.game
        actions: tuple[Action, ...]
        try:
            match wait:
                case w.Crash():
                    actions = (Hands(game.counted_seats(count)),) if count else ()
                case w.Vote():
                    game.counted_seats(count)  # (the same bound)
                    actions = (HandCount(count),) if count else ()
                case (w.Pause() | w.Deal() | w.Speech() | w.Hunt() | w.NightAct() | w.Floor()
                      | w.PutUp() | w.Extra() | w.Over()):
                    raise NarratorError(f"no vote is open (waiting for {wait})")
                case _:
                    assert_never(wait)
        except EngineError:
            raise NarratorError(f"only {len(game.living)} players are at the table") from None
        reasons = [r for r in map(game.refusal, actions) if r is not None]
        if reasons and reasons[0] is Reason.SEATS_NEEDED:  # 7.16.4: the engine's reason
            raise NarratorError(f"{count} hands: today's vote takes the hands by seat (did "
                                f"the leader vote for himself?)")
        if reasons:
            raise NarratorError(f"{count} hands: more than the seats yet to vote in this round")
        return actions

    def counted_seats(self, count: int) -> tuple[int, ...]:
        """The seats a count stands for where the engine counts by seat (the thumbs that put
        a seat up); NarratorError when more are counted than play."""
        try:
            return self.game.counted_seats(count)
        except EngineError:
            raise NarratorError(f"only {len(self.game.living)} players are at the "
                                "table") from None

