"""A seat's presses on its pad: each checked against what the game waits for and the moment it
came in, written to the journal, then applied through the host.

Whether an action is taken, and why not, is the engine's (``Game.refusal``); what the console
adds is the moment (:mod:`narrator.console.windows`) and what only a table keeps (the desk's
cards seen, points, the one accused):

- **a role's night act** (a kill, a save, a check or the sheriff's shot): the role's pad acts
  once, within the role's time; the mafia's kill is the don's decision while the don is at the
  table (his partners' pads only point, for him to see), and without a don the kill is taken the
  moment every mafioso at the table points at the same seat (a point may change until then; no
  agreement by the end of the time is the miss, as for the operator's ``-``);
- **the floor, the thumbs, the hands for more time**: the first raised hand takes the floor;
  the speaker names the one he accuses during his speech, and after it each pad gives its thumb
  once; the hands for 30 s more are raised in the window the game opens.
"""

from __future__ import annotations

from typing import Any, assert_never

from narrator.console.presses import (
    AccusePress,
    ActPress,
    BestMovePress,
    CheckPress,
    EndPress,
    ExtraPress,
    FloorPress,
    NominatePress,
    OnRecordPress,
    PadPress,
    SeenPress,
    ShootPress,
    ThumbPress,
    VotePress,
    WithdrawPress,
)
from narrator.console.taking import OK, Reply, Taker, refused
from narrator.console.views import vote_candidate
from narrator.engine import (
    Act,
    Action,
    Actor,
    BestMove,
    Check,
    EndSpeech,
    Hands,
    HandsUp,
    Nominate,
    OnRecord,
    Save,
    Shot,
    TakeFloor,
    Thumbs,
    Withdraw,
    night_act,
)
from narrator.engine import events as ev
from narrator.engine import waits as w
from narrator.reasons import Reason

#: a save's refusals the protocol keeps, as every front end's: the one who saves picks again,
#: as at a table with a host (vrn's doctor: no victim; amateur's nurse: a seat out)
_STRETCHER = (Reason.NOT_A_VICTIM, Reason.TARGET_OUT)


class SeatPresses(Taker):
    """The pads' presses (see the module)."""

    def handle(self, press: PadPress, seat: int, t: float) -> Reply:
        """Take ``seat``'s ``press``, made at ``t``."""
        match press:
            case SeenPress():
                return self._seen(press, seat, t)
            case ShootPress():
                return self._shoot(seat, t)
            case CheckPress():
                return self._check(press, seat, t)
            case VotePress():
                return self._vote(press, seat, t)
            case NominatePress() | WithdrawPress() | EndPress():
                return self._speech(press, seat, t)
            case ActPress():
                return self._act(press, seat, t)
            case FloorPress():
                return self._floor(press, seat, t)
            case AccusePress():
                return self._accuse(press, seat, t)
            case ThumbPress():
                return self._thumb(press, seat, t)
            case ExtraPress():
                return self._extra(press, seat, t)
            case BestMovePress():
                return self._best_move(press, seat, t)
            case OnRecordPress():
                return self._on_record(press, seat, t)
            case _:
                assert_never(press)

    # -- dealing (2.1.1) ---------------------------------------------------------------------

    def _seen(self, press: SeenPress, seat: int, t: float) -> Reply:
        desk = self.desk
        if not self.windows.dealing:
            return OK if desk.saw_card(seat) else refused(Reason.NOT_NOW)
        if seat not in desk.seen and seat not in desk.skipped:
            self.take(press, seat, t)
            desk.card_seen(seat)
            self.windows.deal_done()
        return OK

    # -- the hunt (2.1.2) --------------------------------------------------------------------

    def _shoot(self, seat: int, t: float) -> Reply:
        number = self.windows.number_at(t)
        if number is None:
            early = self.windows.before_the_count(t)
            return refused(Reason.COUNT_NOT_STARTED if early else Reason.NOT_NOW)
        reason = self.game.refusal(Shot(seat, number))  # the mafia at the table shoot (2.1.2)
        if reason is not None:
            return refused(reason)
        self.take(ShootPress(target=number), seat, t)  # (the number its moment took)
        self.apply(Shot(seat, number))
        return Reply(True, detail={"number": number})

    # -- checks (2.1.3) ----------------------------------------------------------------------

    def checker_role(self, seat: int) -> Actor | None:
        """The role (the don, the sheriff, …) whose check ``seat`` makes now, if any."""
        exp = self.game.expect
        if not isinstance(exp, w.NightAct) or not exp.checks:
            return None
        return exp.role if seat in exp.seats else None

    def _check(self, press: CheckPress, seat: int, t: float) -> Reply:
        role = self.checker_role(seat)
        if role is None:
            return refused(Reason.NOT_NOW)
        target = press.target
        reason = self.game.refusal(Check(role, target))  # 2.1.3: one check a night
        if reason is not None:
            return refused(reason)
        self.take(CheckPress(role=role, target=target), seat, t)
        for event in self.apply(Check(role, target)):
            if isinstance(event, ev.Checked):
                return Reply(True, detail={"target": event.target,
                                           "says": self.game.check_says(role, event.result)})
        return refused(Reason.NOT_NOW)

    # -- voting (2.4, 2.4.2) -----------------------------------------------------------------

    def _vote(self, press: VotePress, seat: int, t: float) -> Reply:
        exp = self.game.expect
        shown = press.candidate
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
        if self.windows.late(t):
            return refused(Reason.AFTER_THANKS)  # 2.4: a hand with «Спасибо» or after is ignored
        self.take(press, seat, t)
        self.apply(Hands((seat,)))
        return OK

    # -- a role's night act: a kill, a save, a check or a shot --------------------------------

    def actor(self, seat: int) -> Actor | None:
        """The role whose night act ``seat``'s pad takes now (the mafia for any mafioso's
        pad at the mafia's kill), if any."""
        exp = self.game.expect
        if not isinstance(exp, w.NightAct) or exp.checks:
            return None
        return exp.role if seat in exp.seats else None

    def act_done(self, role: Actor) -> dict[str, Any] | None:
        """What ``role`` did in this step (None: nothing yet), as its own pad may see it."""
        game = self.game
        exp = game.expect
        done = game.acted(role) if isinstance(exp, w.NightAct) and not exp.checks else None
        if done is None:
            return None
        out: dict[str, Any] = {"act": done.act, "target": done.target}
        if done.act is Act.CHECK:
            out["says"] = game.check_says(role, bool(done.result))
        elif done.act is Act.SAVE and game.rules.shows_victims:
            out["saved"] = done.saved  # (the nurse guesses: whether she was right is not told)
        return out

    def _act(self, press: ActPress, seat: int, t: float) -> Reply:
        exp = self.game.expect
        role = self.actor(seat)
        if role is None or not isinstance(exp, w.NightAct):  # (an actor: a night act)
            return refused(Reason.NOT_NOW)
        asked = press.act if press.act is not None else exp.acts[0]
        if asked not in exp.acts:
            return refused(Reason.BAD_REQUEST)
        act = Act(asked)  # (one of the step's: the vocabulary's word)
        target = press.target
        action = night_act(act, role, target)
        reason = self.game.refusal(action)
        if reason is not None and not (isinstance(action, Save) and reason in _STRETCHER):
            return refused(reason)
        self.take(ActPress(role=role, act=act, target=target), seat, t)
        if len(exp.seats) > 1:  # several seats act for the role (the mafia): each press a point
            self.desk.point(seat, target)
            points = self.desk.points
            if any(points.get(s) != target for s in exp.deciders):
                return Reply(True, detail={"act": act, "target": target, "agreed": False})
        return self._acted(role, act, target, action)

    def _acted(self, role: Actor, act: Act, target: int, action: Action) -> Reply:
        """Apply a role's act; its answer, on its own pad only."""
        for event in self.apply(action):
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

    def _floor(self, press: FloorPress, seat: int, t: float) -> Reply:
        reason = self.game.refusal(TakeFloor(seat))  # a seat in the game, once a day
        if reason is not None:
            return refused(reason)
        if self.windows.late(t):
            return refused(Reason.TOO_LATE)
        self.take(press, seat, t)
        self.apply(TakeFloor(seat))
        return OK

    def speech_puts_up(self) -> bool:
        """The speech in progress may accuse a seat for the thumbs after it (the wait's)."""
        exp = self.game.expect
        return isinstance(exp, w.Speech) and exp.accuses

    def _accuse(self, press: AccusePress, seat: int, t: float) -> Reply:
        game = self.game
        exp = game.expect
        if not isinstance(exp, w.Speech) or exp.seat != seat or not self.speech_puts_up():
            return refused(Reason.NOT_NOW)
        reason = game.accusation_refusal(seat, press.target)  # not himself, not a seat out
        if reason is not None:
            return refused(reason)
        self.take(press, seat, t)
        self.desk.accuse(seat, press.target)
        return OK

    def _thumb(self, press: ThumbPress, seat: int, t: float) -> Reply:
        accused = self.desk.accused
        if not isinstance(self.game.expect, w.PutUp) or accused is None:
            return refused(Reason.NOT_NOW)
        if press.target != accused:  # the pad showed another window
            return refused(Reason.TOO_LATE)
        reason = self.game.refusal(Thumbs(accused, (seat,)))  # a seat in the game, once
        if reason is not None:
            return refused(reason)
        if self.windows.late(t):
            return refused(Reason.TOO_LATE)
        self.take(press, seat, t)
        self.apply(Thumbs(accused, (seat,)))
        return OK

    def _extra(self, press: ExtraPress, seat: int, t: float) -> Reply:
        reason = self.game.refusal(HandsUp((seat,)))  # a seat in the game, one hand up
        if reason is not None:
            return refused(reason)
        if self.windows.late(t):
            return refused(Reason.TOO_LATE)
        self.take(press, seat, t)
        self.apply(HandsUp((seat,)))
        return OK

    # -- speech fallback (2.3) ---------------------------------------------------------------

    def _speech(self, press: NominatePress | WithdrawPress | EndPress, seat: int,
                t: float) -> Reply:
        exp = self.game.expect
        if not isinstance(exp, w.Speech) or exp.seat != seat:
            return refused(Reason.NOT_NOW)
        action: Action
        match press:
            case EndPress():
                action = EndSpeech()
            case NominatePress(target=target):
                action = Nominate(target)
            case WithdrawPress(target=target):
                action = Withdraw(target)
            case _:
                assert_never(press)
        self.take(press, seat, t)
        for event in self.apply(action):
            if isinstance(event, ev.Refused) and event.seat == seat:
                return refused(event.reason)  # the same reasons as a spoken phrase
        return OK

    def _best_move(self, press: BestMovePress, seat: int, t: float) -> Reply:
        """The first-night victim names the club's best move: three seats, on his pad."""
        exp = self.game.expect
        if not isinstance(exp, w.Speech) or exp.seat != seat:
            return refused(Reason.NOT_NOW)
        action = BestMove(press.seats)
        reason = self.game.refusal(action)  # three different seats, once, his last word
        if reason is not None:
            return refused(reason)
        self.take(press, seat, t)
        self.apply(action)
        return OK

    def _on_record(self, press: OnRecordPress, seat: int, t: float) -> Reply:
        """The speaker's colours on record (6.7), on his pad: the engine's refusal (not in
        this speech, more than ``on_record_count``) is the answer."""
        action = OnRecord(seat, press.red, press.black)
        reason = self.game.refusal(action)
        if reason is not None:
            return refused(reason)
        self.take(press, seat, t)
        self.apply(action)
        return OK
