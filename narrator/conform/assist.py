"""Host-assist as a front end: the human host's keys, as the assist screen hands them to its
:class:`~narrator.assist.control.Controller` (a number then Enter, ``w``, ``f``, ``x``, ``k``,
``c``, Space), on the assist session's loop; resumed with the function ``narrator resume``
uses for an assist journal."""

from __future__ import annotations

from pathlib import Path

from narrator.assist.cli import make_session, resume_session
from narrator.assist.control import Controller
from narrator.assist.ui import Session
from narrator.clock import VirtualClock
from narrator.conform.player import LoopPlayer, unspeakable
from narrator.conform.reference import Reference, Step
from narrator.conform.runs import Run, new_journal, reopen
from narrator.engine import (
    Act,
    Action,
    BestMove,
    Check,
    Colour,
    EndSpeech,
    Foul,
    HandCount,
    Hands,
    HandsUp,
    Kill,
    Mark,
    Nominate,
    OnRecord,
    Remove,
    Save,
    Shot,
    TakeFloor,
    TechFoul,
    Thumbs,
    Withdraw,
)
from narrator.engine import waits as w
from narrator.engine.waits import Expect
from narrator.host.journal import Journal
from narrator.reasons import Reason
from narrator.voice.manifest import default_manifest


class _Host(LoopPlayer):
    """A host at the keyboard who knows the game the reference records."""

    mode = "assist"

    def __init__(self, ref: Reference, session: Session, clock: VirtualClock) -> None:
        super().__init__(ref, session.host, session.loop, clock)
        self.keys = Controller(session.host, session.loop, session.transcript)
        self.keys.on_message = self._message

    def _message(self, kind: str, text: str) -> None:
        if kind == "error":
            self.errors.append(text)

    def cannot(self, action: Action) -> str | None:
        why = unspeakable(action)
        exp = self.game.expect
        usual_save = isinstance(exp, w.NightAct) and exp.acts[:1] == (Act.SAVE,)
        if why is None and isinstance(action, Save) and not usual_save:
            why = "a save that is not the role's usual act (no key for it)"
        return why

    def give(self, step: Step, action: Action) -> None:
        keys, exp = self.keys, self.game.expect
        if isinstance(action, Nominate):
            keys.enter(str(action.target))
        elif isinstance(action, Withdraw):
            keys.withdraw(str(action.target))
        elif isinstance(action, EndSpeech):
            keys.next()
        elif isinstance(action, OnRecord):  # 6.7: the seats typed, then o (red) or m (black)
            if action.red:
                keys.on_record(" ".join(map(str, action.red)), Colour.RED)
            if action.black:
                keys.on_record(" ".join(map(str, action.black)), Colour.BLACK)
        elif isinstance(action, Mark):  # once the game is over: m, the line, Enter
            keys.mark(str(action).removeprefix("mark").strip())
        elif isinstance(action, BestMove):  # 8.17: the seats typed, then b
            keys.best_move(",".join(map(str, action.seats)))
        elif isinstance(action, Foul):
            keys.foul(str(action.seat))
        elif isinstance(action, TechFoul):
            keys.tech_foul(str(action.seat))
        elif isinstance(action, Remove):
            keys.remove(str(action.seat))  # (the screen asks «y» first; this is its yes)
        elif isinstance(action, Hands):
            # the host counts the hands (a car crash's count: the first seats at the table),
            # or names them where the engine takes no count (7.16.4: «3 7», one seat «3,»)
            left = self._hands_left(step)
            if isinstance(exp, w.Vote) and \
                    self.game.refusal(HandCount(left)) is Reason.SEATS_NEEDED:
                seats = [s for a in self._todo(step) if isinstance(a, Hands) for s in a.seats]
                keys.enter(" ".join(map(str, seats)) + ("," if len(seats) == 1 else ""))
            else:
                keys.enter(str(left))
        elif isinstance(action, Shot):
            self._shots(step)
        elif isinstance(action, Check | Kill | Save):
            self._act(exp, action)
        elif isinstance(action, TakeFloor):
            keys.enter(str(action.seat))
        elif isinstance(action, Thumbs):
            keys.enter(f"{action.target}-{self._thumbs_left(step, action.target)}")
        elif isinstance(action, HandsUp):
            seats = [a.seats[0] for a in self._todo(step) if isinstance(a, HandsUp)]
            keys.enter(",".join(map(str, seats)) + ("," if len(seats) == 1 else ""))
        else:
            raise AssertionError(f"assist: no key for {action}")
        self.driver.take()

    def _todo(self, step: Step) -> list[Action]:
        return [a for _, a in self.remaining(step)]

    def _hands_left(self, step: Step) -> int:
        return sum(1 for a in self._todo(step) if isinstance(a, Hands))

    def _thumbs_left(self, step: Step, target: int) -> int:
        return sum(1 for a in self._todo(step) if isinstance(a, Thumbs) and a.target == target)

    def _shots(self, step: Step) -> None:
        shots = [a for a in self._todo(step) if isinstance(a, Shot)]
        shooters = [s for s in self.game.living if s in self.game.black]
        targets = {s.target for s in shots}
        if len(targets) == 1 and sorted(s.shooter for s in shots) == shooters:
            self.keys.enter(str(targets.pop()))  # the agreed target: one number
            return
        for shot in shots:  # shooter-target k, one by one
            self.keys.shot(f"{shot.shooter}-{shot.target}")
            self.driver.take()

    def _act(self, exp: Expect, action: Check | Kill | Save) -> None:
        act, seat = action.act, str(action.target)
        if isinstance(exp, w.NightAct) and (exp.checks or exp.acts[:1] == (act,)):
            self.keys.enter(seat)
        elif act is Act.KILL:
            self.keys.shot(seat)
        else:
            self.keys.check(seat)

    def close(self, step: Step) -> None:
        if self.host.held:
            self.keys.next()  # Space: nothing more for this step
            self.driver.take()
        elif not self.driver.run_next():
            self.keys.time_up()
            self.driver.take()


class Assist:
    name = "assist"

    def why_not(self, ref: Reference) -> str | None:
        return None

    def start(self, ref: Reference, journal: Path) -> Run:
        game = ref.game.table_copy()
        clock = VirtualClock()
        log = new_journal(ref, journal, game, mode="assist")
        session = make_session(game, clock, journal=log,
                               manifest=default_manifest(ref.script.lang))
        keys = _Host(ref, session, clock)  # before the first timer: the host's holds
        session.host.start()
        return self._run(keys, session, log)

    def _run(self, player: _Host, session: Session, journal: Journal) -> Run:
        try:
            player.play()
        finally:
            journal.close()
        protocol = session.host.game.protocol()
        protocol["said"] = list(session.transcript.said)
        return Run(protocol, player.left_out, player.errors)

    def resume(self, ref: Reference, journal: Path) -> Run:
        contents = reopen(journal)
        clock = VirtualClock(contents.last_t)
        session = resume_session(contents, journal, clock,
                                 manifest=default_manifest(ref.script.lang), fsync=False)
        player = _Host(ref, session, clock)
        log = session.host.journal
        assert isinstance(log, Journal)
        return self._run(player, session, log)
