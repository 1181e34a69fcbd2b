"""The narrator's voice in audio: host lines through the playback queue, with the night bed.

Used offline by ``replay --out-wav`` and ``demo`` (a VirtualClock: rendered byte for byte the
same) and live by play and assist (the real clock, a sound card).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from narrator.audio.clip import AudioClip
from narrator.audio.noise import load_music, soft_noise
from narrator.audio.playback import AudioPlayer
from narrator.audio.sinks import DEFAULT_RATE, Sink, SoundDeviceSink, WavFileSink
from narrator.clock import Clock
from narrator.engine import events as ev
from narrator.errors import NarratorError
from narrator.host.host import Host
from narrator.host.narration import Line
from narrator.voice.keys import spoken_keys
from narrator.voice.manifest import default_voices_root
from narrator.voice.pack import VoicePack, load_pack


def pack_for(lang: str, voices: str | None) -> VoicePack:
    """The voice pack at ``voices``, or the default pack of ``lang``; a one-line NarratorError
    when its manifest lacks a phrase the narrator may say (found now, not mid-game)."""
    pack = load_pack(Path(voices) if voices else default_voices_root() / lang)
    lacking = pack.manifest.lacking(spoken_keys())
    if lacking:
        shown = ", ".join(lacking[:5]) + (", …" if len(lacking) > 5 else "")
        raise NarratorError(f"{pack.path}: the manifest lacks {len(lacking)} phrase(s) the "
                            f"narrator says ({shown}); see `narrator voices check {pack.path}`")
    return pack


#: a human host's pause between two sentences, and between the phrase «номер …» parts of one
SENTENCE_PAUSE = 0.45
WORD_PAUSE = 0.12


def pauses(keys: tuple[str, ...]) -> list[float]:
    """The pause before each key after the first: a sentence pause, except before a number that
    continues a list («две кандидатуры: номер четыре, номер пять»)."""
    return [WORD_PAUSE if key.startswith("number.") else SENTENCE_PAUSE for key in keys[1:]]


class Narration:
    """A host voice that speaks through a :class:`AudioPlayer`; rule 2.1's night music under it."""

    def __init__(self, sink: Sink, clock: Clock, pack: VoicePack,
                 night_music: str | None = None) -> None:
        self.pack = pack
        self.player = AudioPlayer(sink, clock, pack, gap=SENTENCE_PAUSE)
        rate = sink.format.rate
        # rule 2.1: music plays loudly at night; without a file, a soft noise bed masks the table
        self.bed: AudioClip = load_music(night_music, rate) if night_music else soft_noise(rate=rate)

    def delay(self) -> float:
        """Seconds until the narrator is quiet: a timer starts when its announcement ends."""
        busy = self.player.busy_until()
        return 0.0 if busy is None else max(0.0, busy - self.player.clock.now())

    def attach(self, host: Host) -> None:
        """Speak for ``host``: the night bed follows the phases. (The host's timers wait for
        the narration through :meth:`delay`, given when the host is put together.)"""
        host.listeners.append(self.on_event)

    def say(self, line: Line, at: float) -> None:
        self.player.say(list(line.keys), urgent=line.urgent, gap=pauses(line.keys))

    def on_event(self, event: ev.Event, at: float) -> None:
        """Bed on when night falls, off when day breaks; silence when the game is over."""
        if isinstance(event, ev.PhaseStarted):
            if event.name == "night":
                self.player.set_bed(self.bed)
            elif event.name == "day":
                self.player.set_bed(None)
        elif isinstance(event, ev.GameOver):
            self.player.set_bed(None)

    def finish(self) -> float:
        """Offline: render to the end of the last line; returns its time."""
        return self.player.drain()

    def close(self) -> None:
        self.player.close()
        self.pack.close()


def next_part(path: str) -> tuple[str, str | None]:
    """Where a resumed game's narration goes: ``path`` while it holds nothing, else the next
    free ``NAME.partN.wav`` beside it (the first part is never overwritten), with a line that
    says so."""
    first = Path(path)
    if not first.exists() or first.stat().st_size == 0:
        return path, None
    n = 2
    while (part := first.with_name(f"{first.stem}.part{n}{first.suffix or '.wav'}")).exists():
        n += 1
    return str(part), f"{first} holds the narration so far; this part goes to {part}"


def wav_narration(path: str, clock: Clock, *, lang: str, voices: str | None = None,
                  night_music: str | None = None) -> Narration:
    """Narration rendered into the WAV file ``path`` (``--out-wav``); the pack and the music
    are read first, so a bad one leaves no file behind."""
    pack = pack_for(lang, voices)
    if night_music:
        load_music(night_music, DEFAULT_RATE)
    return Narration(WavFileSink(path), clock, pack, night_music)


def speaker_narration(clock: Clock, *, lang: str, voices: str | None = None,
                      night_music: str | None = None) -> Narration:
    """Narration played on the sound card; NarratorError when there is none."""
    return Narration(SoundDeviceSink(), clock, pack_for(lang, voices), night_music)



def watch_output(narration: Narration, call: Callable[[Callable[[], object]], None], host: Host,
                 log: Callable[[str], None]) -> None:
    """When the sound card goes away the game pauses, with a clear line, and goes on (the
    timer with the time it had left) when one is back. ``call`` runs a function on the game's
    loop (the driver's; the player tells from its own thread)."""

    def changed(back: bool, why: str) -> None:
        if back:
            log(f"{why}: the game goes on")
            call(host.unpause)
        else:
            log(f"{why}; the game is paused until a sound card is back")
            call(lambda: host.pause("sound", f"{why}: the game is paused until a sound card "
                                             "is back"))

    narration.player.on_output.append(changed)
