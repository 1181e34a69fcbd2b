"""The console's side of the game: pad and operator presses → input events → the host.

Everything here runs on the thread that drives the host (the live loop): the server stamps a
press with the game clock when it arrives and hands it over; :meth:`ConsoleTable.handle` checks
it against what the game waits for, records it as an input event (before it is acted on),
applies it through the host and answers the pad with a :class:`Reply` — a stable reason code
when it is refused. After every change the views are rebuilt and published.

Timing rules the console adds to the host's timers:

- **dealing** (2.1.1): with seat pads the narrator waits until every seat has seen its card (or
  the operator skipped it), then the night goes on. While it waits, the narrator says whose
  cards it waits for (:data:`CARD_PROMPT_AFTER` seconds into the deal, then every
  :data:`CARD_PROMPT_EVERY` seconds): a prompt, heard and in the transcript, but not in the
  protocol's ``said``;
- **the hunt** (2.1.2): a press registers on the number being spoken ``hunt_grace`` seconds
  before the server received it — a tap arrives a little after the word that prompted it, and
  nobody reacts within a quarter of a second to a new word. The count's end waits that long too,
  so a press on the last number is not lost;
- **a voting window** (2.4): a press counts when the server received it before the window's end
  («Спасибо»); later presses are refused with ``after_thanks``. With ``hand_votes`` the table
  votes by hand: each window waits for the operator's count instead;
- **a role's night act** (a kill, a save, a check or the sheriff's shot): the role's pad acts
  once, within the role's time; the mafia's kill is the don's decision while the don is at the
  table (his partners' pads only point, for him to see), and without a don the kill is taken the
  moment every mafioso at the table points at the same seat (a point may change until then; no
  agreement by the end of the time is the miss, as for the operator's ``-``);
- **the floor, the thumbs, the hands for more time**: the first raised hand takes the floor;
  the speaker names the one he accuses during his speech, and after it each pad gives its thumb
  once; the hands for 30 s more are raised in the window the game opens. Each of these windows
  takes a press the server received before its end (``too_late`` after), like a vote.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, assert_never

from narrator.clock import Clock
from narrator.console.settings import ConsoleSettings
from narrator.console.tokens import OPERATOR, Who
from narrator.console.views import all_views, vote_candidate
from narrator.engine import (
    Action,
    BestMove,
    Check,
    EndSpeech,
    EngineError,
    Foul,
    Hands,
    HandsUp,
    Nominate,
    Remove,
    Save,
    Shot,
    TakeFloor,
    Thumbs,
    Timer,
    TimeUp,
    Withdraw,
    night_act,
)
from narrator.engine import events as ev
from narrator.engine import waits as w
from narrator.errors import NarratorError
from narrator.host.host import Host
from narrator.host.narration import cards_awaited
from narrator.inputs import Input
from narrator.reasons import Reason, words

#: seconds into the deal (2.1.1, from its timer's start) before the narrator first names the
#: seats whose card it still waits for, and between two such prompts while it waits
CARD_PROMPT_AFTER = 20.0
CARD_PROMPT_EVERY = 20.0
_CARD_PROMPT = "console-card-prompt"  # the prompt's scheduler key


@dataclass(frozen=True)
class Press:
    """One message from a pad or the operator, stamped with the game clock on arrival."""

    who: Who
    do: str
    data: Mapping[str, Any]
    t: float


@dataclass(frozen=True)
class Reply:
    """The answer to one press: taken, or refused with a stable reason code (the page shows
    the reason's words, :data:`narrator.reasons.WORDS`, which the reply carries)."""

    ok: bool
    reason: Reason | None = None
    detail: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self, lang: str = "ru") -> dict[str, Any]:
        text = words(self.reason, lang) if self.reason is not None else None
        return {"ok": self.ok, "reason": self.reason, "text": text, **self.detail}


def refused(reason: Reason) -> Reply:
    return Reply(False, reason)


OK = Reply(True)


Record = Callable[[Input], None]
Publish = Callable[[dict[Who, dict[str, Any]]], None]


class ConsoleTable:
    """Pads and operator on one host. ``record(event)`` writes each press as an
    :class:`~narrator.inputs.Input` (type ``pad`` or ``operator``) before it is acted on; ``publish(views)`` gets every identity's view after each change; ``said()``
    gives the phrases spoken so far (public: everyone heard them); ``protocol()`` the game's
    protocol, kept for the operator once the game is over."""

    def __init__(self, host: Host, *, settings: ConsoleSettings | None = None,
                 record: Record | None = None, publish: Publish | None = None,
                 said: Callable[[], list[str]] | None = None,
                 protocol: Callable[[], dict[str, Any]] | None = None) -> None:
        self.host = host
        self.game = host.game
        self.settings = settings or ConsoleSettings()
        self.record: Record = record or (lambda event: None)
        self.publish: Publish = publish or (lambda views: None)
        self.said: Callable[[], list[str]] = said or (lambda: [])
        self.protocol: Callable[[], dict[str, Any]] = protocol or self.game.protocol
        #: the protocol, once the game is over (before, it would tell every secret)
        self.final_protocol: dict[str, Any] | None = None
        #: the table's desk (the host's): the step's presses, the operator's entries and undo
        self.desk = host.desk
        self.last_reply: dict[Who, dict[str, Any]] = {}
        self._unfinished: list[Input] = []  # presses read back that may not have been acted on
        self._dirty = False
        host.listeners.append(self._on_event)
        host.timer_listeners.append(self._timer_started)
        # what the narrator says is on the operator's view: it goes out when it is said, not
        # with the next press (which would tell its moment: a shot during the count)
        host.line_listeners.append(lambda line: self._changed())

    @property
    def clock(self) -> Clock:
        """The game's clock: presses are stamped on it, views' deadlines are on it."""
        return self.host.clock

    @property
    def lang(self) -> str:
        """The pages' language (a reply's words are in it)."""
        return self.settings.lang

    # -- presses -----------------------------------------------------------------------------

    def handle(self, press: Press) -> Reply:
        """Check, record and apply one press; then publish the views."""
        try:
            if self.host.paused:
                # the game stands still (the journal cannot be written, the sound is gone):
                # nothing is taken that could be lost; the views say why
                reply = refused(Reason.PAUSED)
            elif press.who == OPERATOR:
                reply = self._operator(press)
            elif isinstance(press.who, int) and 1 <= press.who <= self.game.seats:
                reply = self._pad(press, press.who)
            else:
                reply = refused(Reason.BAD_REQUEST)
        except EngineError as e:
            # the engine's message names the state (with roles): never shown to a pad; its
            # reason is a code that tells nothing of a card
            reply = refused(e.reason)
        self.publish_views()
        return reply

    def _pad(self, press: Press, seat: int) -> Reply:
        handlers: dict[str, Callable[[Press, int], Reply]] = {
            "seen": self._seen, "shoot": self._shoot, "check": self._check,
            "vote": self._vote, "nominate": self._speech, "withdraw": self._speech,
            "end": self._speech, "act": self._act, "floor": self._floor,
            "accuse": self._accuse, "thumb": self._thumb, "extra": self._extra,
            "best_move": self._best_move,
        }
        handler = handlers.get(press.do)
        return handler(press, seat) if handler else refused(Reason.BAD_REQUEST)

    def _operator(self, press: Press) -> Reply:
        handlers: dict[str, Callable[[Press], Reply]] = {
            "skip": self._skip, "hands": self._hand_count, "foul": self._aside,
            "remove": self._aside, "undo": self._undo,
        }
        handler = handlers.get(press.do)
        return handler(press) if handler else refused(Reason.BAD_REQUEST)

    def _apply(self, *actions: Action) -> list[ev.Event]:
        out: list[ev.Event] = []
        for action in actions:
            out.extend(self.host.apply(action))
        return out

    def _take(self, press: Press, do: str, data: Mapping[str, Any]) -> None:
        """Write the input event (journal, session) before it is acted on."""
        if press.who == OPERATOR:
            self.record(Input("operator", press.t, {"do": do, **data}))
        else:
            self.record(Input("pad", press.t, {"seat": press.who, "do": do, **data}))

    # -- dealing (2.1.1) ---------------------------------------------------------------------

    @property
    def dealing(self) -> bool:
        """The deal's timer is held for the cards (2.1.1, with seat pads)."""
        return self.settings.wait_for_cards and isinstance(self.game.expect, w.Deal)

    def _seen(self, press: Press, seat: int) -> Reply:
        desk = self.desk
        if not self.dealing:
            return OK if desk.saw_card(seat) else refused(Reason.NOT_NOW)
        if seat not in desk.seen and seat not in desk.skipped:
            self._take(press, "card_seen", {})
            desk.card_seen(seat)
            self._deal_done()
        return OK

    def _skip(self, press: Press) -> Reply:
        seat = _seat_of(press.data.get("seat"), self.game.seats)
        if seat is None:
            return refused(Reason.NOT_A_SEAT)
        if not self.dealing:
            return refused(Reason.NOT_NOW)
        desk = self.desk
        if seat not in desk.seen and seat not in desk.skipped:
            self._take(press, "card_skipped", {"seat": seat})
            desk.card_skipped(seat)
            self._deal_done()
        return OK

    def waiting_for_cards(self) -> list[int]:
        """Seats whose card has not been seen (nor skipped) while dealing."""
        return self.desk.waiting_for_cards() if self.dealing else []

    def _deal_done(self) -> None:
        if self.dealing and not self.waiting_for_cards():
            self.host.scheduler.cancel(_CARD_PROMPT)
            self._apply(TimeUp("dealing"))

    def _prompt_cards_at(self, when: float) -> None:
        """Name the seats the deal waits for at ``when`` (and on, every
        :data:`CARD_PROMPT_EVERY` seconds, while it waits)."""
        sched = self.host.scheduler
        sched.cancel(_CARD_PROMPT)
        serial = self.game.expect.serial

        def prompt() -> None:
            if not self.dealing or self.game.expect.serial != serial or self.host.paused:
                return  # (a paused game schedules its prompt again as its timer resumes)
            waiting = self.waiting_for_cards()
            if not waiting:
                return
            self.host.say(cards_awaited(waiting))
            self._prompt_cards_at(self.host.now() + CARD_PROMPT_EVERY)

        sched.call_at(when, _CARD_PROMPT, prompt)

    # -- the hunt (2.1.2) --------------------------------------------------------------------

    def number_at(self, t: float) -> int | None:
        """The number of the count a press arriving at ``t`` registers on (None: before «один»
        or after the count)."""
        exp = self.game.expect
        started = self.host.timer_started
        if not isinstance(exp, w.Hunt) or t < started:
            return None
        # a press in the grace after «один» is still on «один» (the count's first number)
        return exp.number_at(max(0.0, t - self.settings.hunt_grace - started))

    def _shoot(self, press: Press, seat: int) -> Reply:
        number = self.number_at(press.t)
        if number is None:
            early = isinstance(self.game.expect, w.Hunt) and press.t < self.host.timer_started
            return refused(Reason.COUNT_NOT_STARTED if early else Reason.NOT_NOW)
        reason = self.game.refusal(Shot(seat, number))  # the mafia at the table shoot (2.1.2)
        if reason is not None:
            return refused(reason)
        self._take(press, "shot", {"target": number})
        self._apply(Shot(seat, number))
        return Reply(True, detail={"number": number})

    # -- checks (2.1.3) ----------------------------------------------------------------------

    def checker_role(self, seat: int) -> str | None:
        """The role (``"don"``, ``"sheriff"``, …) whose check ``seat`` makes now, if any."""
        exp = self.game.expect
        if not isinstance(exp, w.NightAct) or not exp.checks:
            return None
        return exp.role if seat in exp.seats else None

    def _check(self, press: Press, seat: int) -> Reply:
        role = self.checker_role(seat)
        if role is None:
            return refused(Reason.NOT_NOW)
        target = _seat_of(press.data.get("target"), self.game.seats)
        if target is None:
            return refused(Reason.NOT_A_SEAT)
        reason = self.game.refusal(Check(role, target))  # 2.1.3: one check a night
        if reason is not None:
            return refused(reason)
        self._take(press, "check", {"role": role, "target": target})
        for event in self._apply(Check(role, target)):
            if isinstance(event, ev.Checked):
                return Reply(True, detail={"target": event.target,
                                           "says": self.game.check_says(role, event.result)})
        return refused(Reason.NOT_NOW)

    # -- voting (2.4, 2.4.2) -----------------------------------------------------------------

    def _vote(self, press: Press, seat: int) -> Reply:
        exp = self.game.expect
        shown = press.data.get("candidate")
        if not isinstance(exp, w.Vote | w.Crash) or exp.timer is None:
            late = shown in self.game.voting_candidates  # a window of this vote has closed
            return refused(Reason.AFTER_THANKS if late else Reason.NOT_NOW)
        candidate = vote_candidate(exp)
        if shown != candidate:  # the pad showed a window that has closed
            return refused(Reason.AFTER_THANKS)
        reason = self.game.refusal(Hands((seat,)))  # a seat at the table, one hand a round
        if reason is not None:
            return refused(reason)
        if self.settings.hand_votes:
            return refused(Reason.NOT_NOW)  # the operator counts the hands
        if press.t > self.host.timer_started + exp.timer.seconds:
            return refused(Reason.AFTER_THANKS)  # 2.4: a hand with «Спасибо» or after is ignored
        self._take(press, "hand", {"candidate": candidate})
        self._apply(Hands((seat,)))
        return OK

    def _hand_count(self, press: Press) -> Reply:
        """The operator's count for the open window (tables that vote by hand)."""
        exp = self.game.expect
        if not isinstance(exp, w.Vote | w.Crash) or not self.settings.hand_votes:
            return refused(Reason.NOT_NOW)
        candidate = vote_candidate(exp)
        if press.data.get("candidate") != candidate:
            return refused(Reason.NOT_NOW)
        count = press.data.get("count")
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            return refused(Reason.BAD_REQUEST)
        try:  # (the engine's bound: the seats yet to vote in the round)
            actions = self.desk.hand_count(count)
        except NarratorError:
            return refused(Reason.TOO_MANY)
        self._take(press, "hand_count", {"candidate": candidate, "count": count})
        # (the count closes the window: the desk's entry)
        self.desk.enter(actions, shown=f"{count} hands", done=True)
        return OK

    # -- a role's night act: a kill, a save, a check or a shot --------------------------------

    def actor(self, seat: int) -> str | None:
        """The role whose night act ``seat``'s pad takes now (``"mafia"`` for any mafioso's
        pad at the mafia's kill), if any."""
        exp = self.game.expect
        if not isinstance(exp, w.NightAct) or exp.checks:
            return None
        return exp.role if seat in exp.seats else None

    def deciders(self) -> tuple[int, ...]:
        """Whose points make the mafia's kill (the engine's: the wait's)."""
        exp = self.game.expect
        return exp.deciders if isinstance(exp, w.NightAct) else ()

    def act_done(self, role: str) -> dict[str, Any] | None:
        """What ``role`` did in this step (None: nothing yet), as its own pad may see it."""
        game = self.game
        exp = game.expect
        done = game.acted(role) if isinstance(exp, w.NightAct) and not exp.checks else None
        if done is None:
            return None
        out: dict[str, Any] = {"act": done.act, "target": done.target}
        if done.act == "check":
            out["says"] = game.check_says(role, bool(done.result))
        elif done.act == "save" and game.rules.shows_victims:
            out["saved"] = done.saved  # (the nurse guesses: whether she was right is not told)
        return out

    def _act(self, press: Press, seat: int) -> Reply:
        exp = self.game.expect
        role = self.actor(seat)
        if role is None or not isinstance(exp, w.NightAct):  # (an actor: a night act)
            return refused(Reason.NOT_NOW)
        act = press.data.get("act", exp.acts[0])
        if act not in exp.acts:
            return refused(Reason.BAD_REQUEST)
        target = _seat_of(press.data.get("target"), self.game.seats)
        if target is None:
            return refused(Reason.NOT_A_SEAT)
        action = night_act(act, role, target)
        reason = self.game.refusal(action)
        if reason is not None and not (isinstance(action, Save) and reason in _STRETCHER):
            return refused(reason)
        self._take(press, "act", {"role": role, "act": act, "target": target})
        if len(exp.seats) > 1:  # several seats act for the role (the mafia): each press a point
            self.desk.point(seat, target)
            points = self.desk.points
            if any(points.get(s) != target for s in exp.deciders):
                return Reply(True, detail={"act": act, "target": target, "agreed": False})
        for event in self._apply(action):
            if isinstance(event, ev.Refused):
                return refused(event.reason)  # e.g. the doctor's pick is no victim
            if isinstance(event, ev.Checked):
                return Reply(True, detail={"act": act, "target": target,
                                           "says": self.game.check_says(role, event.result)})
            if isinstance(event, ev.Saved):
                detail: dict[str, Any] = {"act": act, "target": target}
                if self.game.rules.shows_victims:  # a nurse's heal is a guess: never told
                    detail["saved"] = event.saved
                return Reply(True, detail=detail)
        return Reply(True, detail={"act": act, "target": target})

    # -- the day by raised hands: the floor, the thumbs, the hands for more time ----------------

    def _late(self, press: Press) -> bool:
        """The press arrived after the open window's end."""
        timer = self.game.expect.timer
        return timer is not None and press.t > self.host.timer_started + timer.seconds

    def _floor(self, press: Press, seat: int) -> Reply:
        reason = self.game.refusal(TakeFloor(seat))  # a seat in the game, once a day
        if reason is not None:
            return refused(reason)
        if self._late(press):
            return refused(Reason.TOO_LATE)
        self._take(press, "floor", {})
        self._apply(TakeFloor(seat))
        return OK

    def speech_puts_up(self) -> bool:
        """The speech in progress may accuse a seat for the thumbs after it (the wait's)."""
        exp = self.game.expect
        return isinstance(exp, w.Speech) and exp.accuses

    def accused_now(self) -> int | None:
        """The one the speaker accuses (his speech, or the thumbs after it; the desk's)."""
        return self.desk.accused

    def _accuse(self, press: Press, seat: int) -> Reply:
        game = self.game
        exp = game.expect
        if not isinstance(exp, w.Speech) or exp.seat != seat or not self.speech_puts_up():
            return refused(Reason.NOT_NOW)
        target = _seat_of(press.data.get("target"), game.seats)
        if target is None:
            return refused(Reason.NOT_A_SEAT)
        reason = game.accusation_refusal(seat, target)  # not himself, not a seat out
        if reason is not None:
            return refused(reason)
        self._take(press, "accuse", {"target": target})
        self.desk.accuse(seat, target)
        return OK

    def _thumb(self, press: Press, seat: int) -> Reply:
        accused = self.accused_now()
        if not isinstance(self.game.expect, w.PutUp) or accused is None:
            return refused(Reason.NOT_NOW)
        if press.data.get("target") != accused:  # the pad showed another window
            return refused(Reason.TOO_LATE)
        reason = self.game.refusal(Thumbs(accused, (seat,)))  # a seat in the game, once
        if reason is not None:
            return refused(reason)
        if self._late(press):
            return refused(Reason.TOO_LATE)
        self._take(press, "thumb", {"target": accused})
        self._apply(Thumbs(accused, (seat,)))
        return OK

    def _extra(self, press: Press, seat: int) -> Reply:
        reason = self.game.refusal(HandsUp((seat,)))  # a seat in the game, one hand up
        if reason is not None:
            return refused(reason)
        if self._late(press):
            return refused(Reason.TOO_LATE)
        self._take(press, "extra", {})
        self._apply(HandsUp((seat,)))
        return OK

    # -- speech fallback (2.3) ---------------------------------------------------------------

    def _speech(self, press: Press, seat: int) -> Reply:
        exp = self.game.expect
        if not isinstance(exp, w.Speech) or exp.seat != seat:
            return refused(Reason.NOT_NOW)
        action: Action
        if press.do == "end":
            action = EndSpeech()
        else:
            target = _seat_of(press.data.get("target"), self.game.seats)
            if target is None:
                return refused(Reason.NOT_A_SEAT)
            action = Nominate(target) if press.do == "nominate" else Withdraw(target)
        self._take(press, press.do, {} if press.do == "end"
                   else {"target": getattr(action, "target", None)})
        for event in self._apply(action):
            if isinstance(event, ev.Refused) and event.seat == seat:
                return refused(event.reason)  # the same reasons as a spoken phrase
        return OK

    def _best_move(self, press: Press, seat: int) -> Reply:
        """The first-night victim names the club's best move: three seats, on his pad."""
        exp = self.game.expect
        named = press.data.get("seats")
        if not isinstance(exp, w.Speech) or exp.seat != seat or not isinstance(named, list):
            return refused(Reason.NOT_NOW if isinstance(named, list) else Reason.BAD_REQUEST)
        seats = [_seat_of(x, self.game.seats) for x in named]
        if None in seats:
            return refused(Reason.NOT_A_SEAT)
        action = BestMove(tuple(s for s in seats if s is not None))
        reason = self.game.refusal(action)  # three different seats, once, his last word
        if reason is not None:
            return refused(reason)
        self._take(press, "best_move", {"seats": list(action.seats)})
        self._apply(action)
        return OK

    # -- operator: fouls, removals, undo ---------------------------------------------------------

    def _aside(self, press: Press) -> Reply:
        seat = _seat_of(press.data.get("seat"), self.game.seats)
        if seat is None:
            return refused(Reason.NOT_A_SEAT)
        action = Foul(seat) if press.do == "foul" else Remove(seat)
        # 1.4: a seat is at the table until its last word ends — a foul in it counts
        reason = self.game.refusal(action)
        if reason is not None:
            return refused(reason)
        self._take(press, press.do, {"seat": seat})
        self.desk.enter((action,), shown=str(action))
        return OK

    def _undo(self, press: Press) -> Reply:
        """Take back the operator's last entry (the desk's undo: what the timers did after it
        too, while no other input came since)."""
        last = self.desk.undoable()
        if last is None:
            return refused(Reason.TOO_LATE)
        self._take(press, "undo", {"actions": len(self.game.history) - last.history})
        self.desk.undo()
        return OK

    # -- the host's events ---------------------------------------------------------------------

    def _on_event(self, event: ev.Event, at: float) -> None:
        if not self.dealing:
            self.host.scheduler.cancel(_CARD_PROMPT)  # (the deal ended, however it did)
        if isinstance(event, ev.GameOver):
            self.publish_views()  # the last event: nobody may be left to run a later flush
            return
        self._changed()

    def _changed(self) -> None:
        """The views changed: one rebuild for the whole batch (of events, of lines said)."""
        if not self._dirty:
            self._dirty = True
            self.host.scheduler.call_at(self.host.now(), "console-views", self._flush)

    def restore(self, inputs: Sequence[Input], input_at: Sequence[int]) -> None:
        """A game rebuilt from its journal: the presses of the journal (``input_at``: how many
        of the game's actions came before each) read back in their places — the desk keeps
        what only the table knows (the cards seen, the one accused, the mafia's points); the
        shots, hands, thumbs and raised hands are the game's own — so that every pad shows
        what it had done and a second press is refused as the first one would have made it.
        Once the host has resumed its timer, it is held or stretched as the console holds
        it (:meth:`_timer_started`, a timer listener)."""
        history = len(self.game.history)
        presses = sorted(zip(input_at, range(len(inputs)), inputs, strict=True))
        # presses after the journal's last action may never have been acted on (the process
        # died between a press's line and its action's): they are pressed again below
        self._unfinished = [p for at, _, p in presses if at >= history]
        done = [(at, p) for at, _, p in presses if at < history]
        self.desk.restore([p for _, p in done], [at for at, _ in done])
        self.host.scheduler.call_at(self.host.now(), "console-resume", self._resumed)
        self.publish_views()

    def _resumed(self) -> None:
        timer = self.host.timer
        if timer is not None:  # (a host resumed before this table was made)
            self._timer_started(timer)
        unfinished, self._unfinished = self._unfinished, []
        for event in unfinished:  # as they came, at the moment they came
            press = _press_of(event)
            if press is not None:
                self.handle(press)
        self.publish_views()

    def _timer_started(self, timer: Timer) -> None:
        """Hold or stretch the host's timer where the console needs it (see the module); a
        host's timer listener: a new step's timer, or one resumed (a journal, an undo)."""
        wait = self.game.expect
        if wait.timer != timer:
            return  # (a timer the game has already moved past)
        end = self.host.timer_started + timer.seconds
        settle = self.settings.settle
        match wait:
            case w.Deal() if self.settings.wait_for_cards:
                self.host.scheduler.cancel("timer")
                if not self.waiting_for_cards():
                    self._deal_done()  # (a journal read back: every card was seen already)
                else:  # the prompt, CARD_PROMPT_AFTER s in (a resumed deal: from now on)
                    self._prompt_cards_at(max(self.host.timer_started, self.host.now())
                                          + CARD_PROMPT_AFTER)
            case w.Vote() | w.Crash() if self.settings.hand_votes:
                self.host.scheduler.cancel("timer")  # the window waits for the operator's count
            case w.Vote() | w.Crash() | w.Floor() | w.PutUp() | w.Extra():
                self._end_at(end + settle)
            case w.Hunt():
                self._end_at(end + self.settings.hunt_grace + settle)
            case w.Pause() | w.Deal() | w.Speech() | w.NightAct() | w.Over():
                pass
            case _:
                assert_never(wait)

    def _end_at(self, when: float) -> None:
        """The step ends at ``when`` (a press the server received before its end counts)."""
        sched = self.host.scheduler
        sched.cancel("timer")
        wait = self.game.expect

        def time_up() -> None:
            if self.game.expect.serial == wait.serial and wait.timer is not None:
                self.host.apply(TimeUp(wait.timer.name))

        sched.call_at(when, "timer", time_up)

    def _flush(self) -> None:
        if self._dirty:
            self.publish_views()

    def publish_views(self) -> None:
        self._dirty = False
        if self.game.is_over and self.final_protocol is None:
            self.final_protocol = self.protocol()
        elif not self.game.is_over:
            self.final_protocol = None
        self.publish(all_views(self))


def _seat_of(value: Any, seats: int) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= seats:
        return None
    return value


#: a save's refusals the protocol keeps, as every front end's: the one who saves picks again,
#: as at a table with a host (vrn's doctor: no victim; amateur's nurse: a seat out)
_STRETCHER = (Reason.NOT_A_VICTIM, Reason.TARGET_OUT)

#: a press as the journal writes it → as a page sends it
_PRESSES = {"card_seen": "seen", "card_skipped": "skip", "shot": "shoot", "hand": "vote",
            "hand_count": "hands"}


def _press_of(event: Input) -> Press | None:
    """The press a journal's ``pad`` or ``operator`` line wrote (None: not one to repeat)."""
    data = dict(event.data)
    do = str(data.pop("do", ""))
    who: Who
    if event.type == "operator":
        who = OPERATOR
    else:
        seat = data.pop("seat", None)
        if not isinstance(seat, int):
            return None
        who = seat
    if do == "undo":
        return None
    if do == "shot":
        data.pop("target", None)  # the number is the count's at the press's moment
    return Press(who, _PRESSES.get(do, do), data, event.t)
