"""The replay as a front end: the script fed by :class:`~narrator.replay.table.ScriptReplay`
with a journal; resumed, the reference's actions are fed to a host rebuilt from that journal
(each at its moment in its step), as the kill-anywhere tests of the host do."""

from __future__ import annotations

from pathlib import Path

from narrator.conform.player import LoopPlayer, StepProgress
from narrator.conform.reference import Reference, Step
from narrator.conform.runs import Run, new_journal, take_up
from narrator.engine import Action, Hands, HandsUp, Thumbs
from narrator.inputs import action
from narrator.replay.table import ScriptReplay
from narrator.table.session import open_table
from narrator.voice.manifest import default_manifest


class _Feeder(LoopPlayer):
    mode = "replay"

    def cannot(self, action: Action) -> str | None:
        return None  # a script says everything

    def progress(self, step: Step) -> StepProgress:
        made = self._progress.get(id(step))
        if made is None:  # every action of the script, the refused hands too
            made = self._progress[id(step)] = StepProgress(step)
        return made.update(self.game.history, self.game.step_start)

    def give(self, step: Step, taken: Action) -> None:
        # the seats of one window go in one action, as the script's line gave them
        if isinstance(taken, Hands | Thumbs | HandsUp):
            same = [a for _, a in self.remaining(step) if type(a) is type(taken)
                    and getattr(a, "target", None) == getattr(taken, "target", None)]
            seats = tuple(s for a in same for s in a.seats)
            taken = (Hands(seats) if isinstance(taken, Hands) else HandsUp(seats)
                     if isinstance(taken, HandsUp) else Thumbs(taken.target, seats))
        self.driver.feed(action(self.driver.now(), str(taken)))


class Replay:
    name = "replay"

    def why_not(self, ref: Reference) -> str | None:
        return None

    def start(self, ref: Reference, journal: Path) -> Run:
        log = new_journal(ref, journal, ref.game)
        try:
            replay = ScriptReplay(ref.script, journal=log)
            result = replay.run()
        finally:
            log.close()
        return Run(result.protocol())

    def resume(self, ref: Reference, journal: Path) -> Run:
        up = take_up(journal)
        try:
            session = open_table(up.game, up.clock, journal=up.journal,
                                 manifest=default_manifest(ref.script.lang))
            session.begin(up.left)
            player = _Feeder(ref, session.host, session.driver, up.clock)
            player.play()
        finally:
            up.journal.close()
        return Run(session.protocol(), player.left_out)
