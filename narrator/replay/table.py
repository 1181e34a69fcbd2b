"""Replaying a table script on a virtual clock (SPEC §1 replay, §4, §5).

The script's lines are fed to the same :class:`~narrator.host.host.Host` that runs a live game;
time moves only when the replay moves it: to the moment of each ``say`` inside a speech, and to
the next deadline whenever the game waits on nothing but a timer. Same script, same protocol.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from narrator.clock import VirtualClock
from narrator.engine import Check, EndSpeech, EngineError, Foul, Game, Hands, Remove, Shot
from narrator.errors import ScriptError
from narrator.grammar import parse
from narrator.host.hearing import action_for
from narrator.host.host import ActionLog, Host, Tee, Voice
from narrator.host.scheduler import Scheduler
from narrator.host.transcript import Transcript
from narrator.replay.script import ScriptLine, TableScript
from narrator.voice.manifest import Manifest, default_manifest


@dataclass
class ReplayResult:
    game: Game
    transcript: Transcript

    def protocol(self) -> dict[str, Any]:
        """SPEC §5: the engine's protocol plus every phrase spoken."""
        out = self.game.protocol()
        out["said"] = list(self.transcript.said)
        return out


class ScriptReplay:
    """Feeds one table script to a host on a fake clock."""

    def __init__(self, script: TableScript, *, manifest: Manifest | None = None,
                 voice: Voice | None = None, journal: ActionLog | None = None,
                 clock: VirtualClock | None = None) -> None:
        self.script = script
        rng = random.Random(script.seed) if script.seed is not None else random.Random()
        self.game = Game(script.rules, seats=script.seats, roles=script.roles, rng=rng)
        self.clock = clock or VirtualClock()
        self.scheduler = Scheduler(self.clock)
        self.transcript = Transcript(manifest or default_manifest(script.lang))
        out: Voice = self.transcript if voice is None else Tee(self.transcript, voice)
        self.host = Host(self.game, self.scheduler, out, journal)
        self.host.listeners.append(self.transcript.note)

    def run(self) -> ReplayResult:
        self.host.start()
        for line in self.script.inputs:
            self.feed(line)
        self._settle()
        return ReplayResult(self.game, self.transcript)

    # -- helpers -----------------------------------------------------------------------------

    def _settle(self) -> None:
        """Let every step that waits only on its timer run out."""
        while self.game.expect.kind == "timer":
            self.scheduler.advance_to_next()

    def _close_window(self) -> None:
        """Run the clock to the end of the current timer."""
        timer = self.game.expect.timer
        while timer is not None and self.game.expect.timer is timer:
            if not self.scheduler.advance_to_next():
                break

    def _fail(self, line: ScriptLine, got: str) -> ScriptError:
        return self.script.error(line.line, f"expected {self.game.expect}, got {got}")

    def _apply(self, line: ScriptLine, action: Any) -> None:
        try:
            self.host.apply(action)
        except EngineError as e:
            raise self.script.error(line.line, str(e)) from None

    # -- feeding one line ------------------------------------------------------------------

    def feed(self, line: ScriptLine) -> None:
        """Apply one script line, or raise ScriptError naming it."""
        if self.game.is_over:
            raise self.script.error(
                line.line, f"expected nothing (the game is over: {self.game.winner.value} won),"  # type: ignore[union-attr]
                           f" got {line.key}")
        if line.key == "foul":
            self._apply(line, Foul(line.value))
            return
        if line.key == "remove":
            self._apply(line, Remove(line.value))
            return
        self._settle()
        handler = {"speech": self._speech, "vote": self._vote, "crash": self._crash,
                   "night": self._night}[line.key]
        handler(line)

    def _speech(self, line: ScriptLine) -> None:
        exp = self.game.expect
        seat = line.value
        if exp.kind != "speech" or exp.seat != seat:
            raise self._fail(line, f"a speech of seat {seat}")
        assert exp.timer is not None
        start = self.host.timer_started  # after the announcement, when the narrator is heard
        limit = exp.timer.seconds
        timer = exp.timer
        if line.say is None:  # SPEC §4: a speech that ends at once
            self._apply(line, EndSpeech())
            return
        for t, text in line.say:
            if t >= limit:
                break  # the speech is over by then: not heard
            self.scheduler.advance_until(start + t)
            if self.game.expect.timer is not timer:
                break
            for intent in parse(text, self.script.lang, self.script.seats):
                action = action_for(intent)
                if action is None:
                    continue
                self._apply(line, action)
                if self.game.expect.timer is not timer:
                    return  # «Спасибо» (or the game ended)
        self._close_window()

    def _vote(self, line: ScriptLine) -> None:
        exp = self.game.expect
        if exp.kind != "hands" or exp.candidate is None:
            raise self._fail(line, "a vote")
        candidates = self.game.voting_candidates
        votes: dict[int, list[int]] = line.value
        strangers = [c for c in votes if c not in candidates]
        if strangers:
            raise self.script.error(
                line.line, f"expected votes for candidates {', '.join(map(str, candidates))}, "
                           f"got votes for {', '.join(map(str, strangers))}")
        for cand in candidates:
            if self.game.expect.kind != "hands" or self.game.expect.candidate != cand:
                break  # the vote was cancelled (2.4.3) or the game ended
            seats = tuple(votes.get(cand, ()))
            if seats:
                self._apply(line, Hands(seats))
            self._close_window()

    def _crash(self, line: ScriptLine) -> None:
        exp = self.game.expect
        if exp.kind != "hands" or exp.candidate is not None:
            raise self._fail(line, "the car-crash vote")
        if line.value:
            self._apply(line, Hands(tuple(line.value)))
        self._close_window()

    def _night(self, line: ScriptLine) -> None:
        exp = self.game.expect
        if exp.kind != "hunt":
            raise self._fail(line, "a night")
        night: dict[str, Any] = line.value
        # shots in the order of the count: a mafioso fires when he hears the number (2.1.2)
        shots = sorted((t, s) for s, targets in night["shots"].items() for t in targets)
        for target, shooter in shots:
            self._apply(line, Shot(shooter, target))
        self._close_window()
        for role in ("don", "sheriff"):
            if self.game.is_over:
                return
            self._settle()
            target = night[role]
            if target is not None:
                self._apply(line, Check(role, target))
            self._close_window()


def replay_script(script: TableScript, **kwargs: Any) -> ReplayResult:
    """Replay ``script`` to its end (or to the end of the game)."""
    return ScriptReplay(script, **kwargs).run()
