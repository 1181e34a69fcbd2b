"""One way to put a host together, for every mode (play, assist, replay, tests).

A host is always the same parts: the game, a scheduler on the mode's clock, a transcript that
writes down what is said (and notes what is not), the narration when there is audio (its
queue delays the timers and its night bed follows the phases), and the input log (the game
journal, a recorded session) that every action is written to before it is acted on.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from narrator.clock import Clock
from narrator.engine import Game
from narrator.host.host import Host, Tee, Voice
from narrator.host.recorder import InputLog
from narrator.host.scheduler import Scheduler
from narrator.host.speaker import Narration
from narrator.host.transcript import Transcript
from narrator.voice.manifest import Manifest


@dataclass
class Assembly:
    """A host and the transcript of everything it said."""

    host: Host
    transcript: Transcript

    @property
    def game(self) -> Game:
        return self.host.game

    def protocol(self) -> dict[str, Any]:
        """The game's protocol with ``said``: every phrase spoken, in order."""
        out = self.host.game.protocol()
        out["said"] = list(self.transcript.said)
        return out


def assemble_host(game: Game, clock: Clock, *, manifest: Manifest | None = None,
                  narration: Narration | None = None,
                  journal: InputLog | None = None,
                  delay: Callable[[], float] | None = None) -> Assembly:
    """A host for ``game`` on ``clock``; neither started nor resumed.

    The transcript's phrases come from ``manifest`` (by default the narration's voice pack's).
    With a ``narration``, the host speaks through it too: a timer starts when the narrator falls
    quiet (a speech's 60 s run from the end of «Слово игроку номер …»), and the night bed
    follows the phases. ``delay``: how long the narrator will still speak, when it is not the
    narration's queue (a replay gives the recorded delays; a listening table records them).
    ``journal`` gets every input the game takes, before it acts.

    The host's hooks are attached here and by the table session, in this order, and run in
    it: the events go to (1) the transcript, (2) the narration's night bed, then (3) the mode's
    loop, (4) the console's table and (5) the terminal's progress; the timers to the console's
    windows and then the heartbeat; the lines said to the console.
    """
    if manifest is None:
        if narration is None:
            raise ValueError("assemble_host needs a manifest or a narration")
        manifest = narration.pack.manifest
    if delay is None and narration is not None:
        delay = narration.delay
    transcript = Transcript(manifest, names=dict(game.names))
    voice: Voice = transcript if narration is None else Tee(transcript, narration)
    host = Host(game, Scheduler(clock), voice, journal, delay=delay)
    host.listeners.append(transcript.note)
    if narration is not None:
        narration.attach(host)
    return Assembly(host, transcript)
