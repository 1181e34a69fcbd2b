"""The seat pads as a front end: the hostless table with ``--listen off``, every input a press
as the pages send it (a seat's own pad, the operator's view for fouls and removals), the
console's table in-process on the host's loop; resumed as ``narrator resume`` takes a console
game up (the cards already seen)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from narrator.clock import VirtualClock
from narrator.conform.player import OUT_OF_REACH, LoopPlayer
from narrator.conform.reference import Reference, Step
from narrator.conform.runs import Run, new_journal, take_up
from narrator.console.serve import ConsoleOptions
from narrator.console.table import ConsoleTable, Press
from narrator.console.tokens import OPERATOR, Who
from narrator.console.views import vote_candidate
from narrator.engine import (
    Action,
    Actor,
    BestMove,
    Check,
    EndSpeech,
    Foul,
    Game,
    Hands,
    HandsUp,
    Kill,
    Mark,
    Nominate,
    OnRecord,
    Remove,
    Role,
    Save,
    Shot,
    TakeFloor,
    TechFoul,
    Thumbs,
    Withdraw,
)
from narrator.engine import waits as w
from narrator.host.journal import Journal, JournalContents
from narrator.table.session import TableSession, open_table
from narrator.voice.manifest import default_manifest

PADS = ConsoleOptions("127.0.0.1:0")  # play --console …: pads vote, the cards are waited for

class _PadTable(LoopPlayer):
    """Ten players with their phones, and an operator for the fouls."""

    mode = "pads"

    def __init__(self, ref: Reference, session: TableSession, clock: VirtualClock,
                 table: ConsoleTable) -> None:
        super().__init__(ref, session.host, session.driver, clock)
        self.table = table

    def press(self, who: Who, do: str, **data: Any) -> None:
        reply = self.table.handle(Press(who, do, data, self.driver.now()))
        if not reply.ok:
            self.errors.append(f"{who} {do} {data}: refused ({reply.reason})")

    def cannot(self, action: Action) -> str | None:
        if isinstance(action, Kill | Thumbs) and not self.game.is_alive(action.target):
            return OUT_OF_REACH
        return super().cannot(action)

    def seat_of(self, role: Actor | str) -> int:
        seat = self.game.seat_of(Role(role))
        assert seat is not None, role
        return seat

    def give(self, step: Step, action: Action) -> None:
        exp = self.game.expect
        if isinstance(action, Nominate | Withdraw | EndSpeech) and isinstance(exp, w.Speech):
            if isinstance(action, EndSpeech):
                self._accuse(step)
                self.press(exp.seat, "end")
            else:
                self.press(exp.seat, "nominate" if isinstance(action, Nominate) else "withdraw",
                           target=action.target)
        elif isinstance(action, BestMove) and isinstance(exp, w.Speech):  # the victim's pad (8.17)
            self.press(exp.seat, "best_move", seats=list(action.seats))
        elif isinstance(action, OnRecord):  # the speaker's pad (6.7)
            self.press(action.seat, "on_record", red=list(action.red), black=list(action.black))
        elif isinstance(action, Foul | TechFoul | Remove):
            self.press(OPERATOR, "foul" if isinstance(action, Foul) else
                       "tech_foul" if isinstance(action, TechFoul) else "remove",
                       seat=action.seat)
        elif isinstance(action, Mark):  # the operator view's form, once the game is over
            self.press(OPERATOR, "mark", seat=action.seat, points=action.points,
                       titles=list(action.titles), comment=action.comment)
        elif isinstance(action, Hands):
            self.press(action.seats[0], "vote", candidate=vote_candidate(exp))
        elif isinstance(action, Shot):
            self._shoot(action)
        elif isinstance(action, Check) and isinstance(exp, w.NightAct) and exp.checks:
            self.press(self.seat_of(action.role), "check", target=action.target)
        elif isinstance(action, Check | Kill | Save):
            act = "check" if isinstance(action, Check) else "kill" if isinstance(action, Kill) \
                else "save"
            # the wait's deciders: the don; without him every mafioso points the same
            pads = exp.deciders if isinstance(exp, w.NightAct) else ()
            for seat in pads:
                self.press(seat, "act", act=act, target=action.target)
        elif isinstance(action, TakeFloor):
            self.press(action.seat, "floor")
        elif isinstance(action, Thumbs):
            self.press(action.seats[0], "thumb", target=action.target)
        elif isinstance(action, HandsUp):
            self.press(action.seats[0], "extra")
        else:
            raise AssertionError(f"pads: no press for {action}")

    def _shoot(self, shot: Shot) -> None:
        """A tap as the count reaches the number (the press registers on the number spoken a
        moment before it arrives)."""
        timer = self.game.expect.timer
        assert timer is not None and timer.tick
        at = (self.host.timer_started + (shot.target - 1) * timer.tick
              + self.table.settings.hunt_grace + timer.tick / 2)
        if at > self.driver.now():
            self.driver.run_until(at)
        self.press(shot.shooter, "shoot")

    def _accuse(self, step: Step) -> None:
        """In a speech that may put a seat up, the speaker names the one the thumbs are for."""
        if not self.table.speech_puts_up() or self.game.step + 1 >= len(self.ref.steps):
            return
        after = self.ref.steps[self.game.step + 1]
        accused = [a.target for a in after.actions if isinstance(a, Thumbs)]
        exp = self.game.expect
        if isinstance(after.expect, w.PutUp) and accused and isinstance(exp, w.Speech):
            self.press(exp.seat, "accuse", target=accused[0])

    def close(self, step: Step) -> None:
        if self.table.dealing:  # every seat looks at its card
            for seat in self.table.waiting_for_cards():
                self.press(seat, "seen")
            return
        if isinstance(self.game.expect, w.Speech):
            self._accuse(step)
        if not self.driver.run_next():
            self.errors.append(f"nothing is scheduled at {self.game.expect}")


class Pads:
    name = "pads"

    def why_not(self, ref: Reference) -> str | None:
        return None

    def _run(self, ref: Reference, game: Game, clock: VirtualClock, journal: Journal, *,
             left: float | None = None, resumed: JournalContents | None = None) -> Run:
        try:
            session = open_table(game, clock, manifest=default_manifest(ref.script.lang),
                                 journal=journal)
            table = session.pads(PADS, ref.script.lang, resumed=resumed)
            player = _PadTable(ref, session, clock, table)
            if resumed is not None:
                session.begin(left)
                session.driver.run_until(session.driver.now())  # the console holds the timer
            else:
                session.begin()
            player.play()
        finally:
            journal.close()
        return Run(session.protocol(), player.left_out, player.errors)

    def start(self, ref: Reference, journal: Path) -> Run:
        game = ref.game.table_copy()
        return self._run(ref, game, VirtualClock(), new_journal(ref, journal, game))

    def resume(self, ref: Reference, journal: Path) -> Run:
        up = take_up(journal)
        return self._run(ref, up.game, up.clock, up.journal, left=up.left, resumed=up.contents)

