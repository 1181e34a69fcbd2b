"""Rendering a table script's narration to a WAV file, offline (``replay --out-wav``, ``demo``)."""

from __future__ import annotations

from narrator.clock import VirtualClock
from narrator.host.speaker import wav_narration
from narrator.replay.script import TableScript
from narrator.replay.table import ReplayResult, ScriptReplay


def render_replay(script: TableScript, out_wav: str, *, voices: str | None = None,
                  night_music: str | None = None) -> tuple[ReplayResult, float]:
    """Replay ``script`` with its narration rendered into ``out_wav`` (offline, on a virtual
    clock); returns the result and the length of the narration in seconds."""
    clock = VirtualClock()
    narration = wav_narration(out_wav, clock, lang=script.lang, voices=voices,
                              night_music=night_music)
    try:
        result = ScriptReplay(script, narration=narration, clock=clock).run()
        length = narration.finish()
    finally:
        narration.close()
    return result, length
