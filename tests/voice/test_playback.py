"""The playback queue on a VirtualClock: placement, priority, pauses, bed and ducking, live thread."""

from __future__ import annotations

import numpy as np
import pytest

from narrator.audio.clip import AudioClip
from narrator.audio.noise import soft_noise
from narrator.audio.playback import AudioPlayer, PlayedLine
from narrator.clock import VirtualClock
from narrator.testing import MemorySink
from narrator.voice.pack import VoicePack

RATE = 16000


def tone(seconds: float, value: int = 1000) -> AudioClip:
    return AudioClip(np.full(round(seconds * RATE), value, dtype=np.int16), RATE)


def setup(**kw: float) -> tuple[VirtualClock, MemorySink, AudioPlayer]:
    clock = VirtualClock(100.0)
    sink = MemorySink(RATE)
    return clock, sink, AudioPlayer(sink, clock, **kw)  # type: ignore[arg-type]


def test_line_starts_at_the_clock_time_it_was_said() -> None:
    clock, sink, player = setup()
    clock.advance(1.005)  # not on a chunk boundary: placement is still sample-exact
    line = player.say(tone(0.5))
    end = player.drain()
    audio = sink.samples()
    start = round(1.005 * RATE)
    assert not audio[:start].any()
    assert (audio[start : start + 8000] == 1000).all()
    assert not audio[start + 8000 :].any()
    assert line.started == pytest.approx(101.005)
    assert line.ended == pytest.approx(101.505)
    assert line.ended is not None and end >= line.ended
    assert sink.chunks[0].timestamp == 100.0
    assert all(len(c.audio) == 2 * 320 for c in sink.chunks)  # 20 ms chunks


def test_urgent_line_cuts_into_a_long_announcement() -> None:
    clock, sink, player = setup(gap=0.1)
    events: list[tuple[str, float | None]] = []
    player.on_start.append(lambda ln: events.append(("start", ln.started)))
    long = player.say([tone(2.0, 1000), tone(1.0, 2000)])  # a two-part sentence, 3.1 s
    queued = player.say(tone(0.5, 3000))
    clock.advance(0.5)
    urgent = player.say(tone(0.3, 4000), urgent=True)
    player.drain()
    audio = sink.samples()
    cut = round(0.5 * RATE)
    assert (audio[cut - 10 : cut] == 1000).all()
    assert (audio[cut : cut + round(0.3 * RATE)] == 4000).all()  # no wait behind the long one
    assert urgent.started == pytest.approx(100.5)
    assert long.interrupted == 1
    # The long line resumes from the start of the part it was in, after a pause.
    resume = cut + round(0.3 * RATE) + round(0.1 * RATE)
    assert (audio[resume : resume + round(2.0 * RATE)] == 1000).all()
    # The queued announcement still comes after the long one, not before.
    assert queued.started is not None and long.ended is not None
    assert queued.started > long.ended
    assert [e[0] for e in events] == ["start", "start", "start"]


def test_urgent_lines_go_ahead_of_queued_ones() -> None:
    _clock, _sink, player = setup(gap=0.0)
    a = player.say(tone(1.0, 1))
    b = player.say(tone(1.0, 2))
    c = player.say(tone(0.2, 3), urgent=True)
    d = player.say(tone(0.2, 4), urgent=True)
    player.drain()
    order = sorted([a, b, c, d], key=lambda ln: ln.started or 0)
    assert order == [c, d, a, b]  # said at the same instant: urgent first, in order


def test_sentence_parts_get_a_natural_pause() -> None:
    _clock, sink, player = setup(gap=0.12)
    line = player.say([tone(0.2, 7), tone(0.2, 9)])
    assert line.duration == pytest.approx(0.52)
    player.drain()
    audio = sink.samples()
    assert not audio[round(0.2 * RATE) + 1 : round(0.32 * RATE) - 1].any()
    gap2 = player.say([tone(0.2, 7), tone(0.2, 9)], gap=0.3)
    assert gap2.duration == pytest.approx(0.7)


def test_rendering_is_deterministic() -> None:
    def run() -> bytes:
        clock, sink, player = setup()
        player.set_bed(soft_noise(2.0, RATE, seed=3))
        for t, urgent in [(0.3, False), (0.9, True), (1.7, False), (1.71, True)]:
            clock.set(100.0 + t)
            player.say(tone(0.4, 5000), urgent=urgent)
        clock.advance(2.0)
        player.sync()
        player.drain()
        return b"".join(c.audio for c in sink.chunks)

    assert run() == run()


def test_bed_is_ducked_while_speaking() -> None:
    clock, sink, player = setup(duck_db=-12.0, fade=0.02)
    player.set_bed(soft_noise(1.0, RATE, level_dbfs=-30.0))
    clock.advance(1.0)
    player.sync()
    player.say(AudioClip.silence(1.0, RATE))  # silent "voice": what is left is the bed
    clock.advance(1.0)
    player.sync()
    audio = sink.samples().astype(np.float64)
    idle = np.sqrt(np.mean(audio[round(0.5 * RATE) : RATE] ** 2))
    ducked = np.sqrt(np.mean(audio[round(1.3 * RATE) : round(1.9 * RATE)] ** 2))
    assert idle > 0
    assert 20 * np.log10(ducked / idle) == pytest.approx(-12.0, abs=1.0)
    player.set_bed(None)
    clock.advance(1.0)
    player.sync()
    assert not sink.samples()[-RATE // 2 :].any()  # faded out and gone


def test_speaking_and_busy_until() -> None:
    clock, _sink, player = setup(echo_tail=0.1, gap=0.0)
    ends: list[PlayedLine] = []
    player.on_end.append(ends.append)
    assert not player.speaking and player.busy_until() is None
    player.say(tone(1.0))
    player.say(tone(0.5))
    assert player.speaking
    assert player.busy_until() == pytest.approx(101.5)
    clock.advance(1.2)
    assert player.speaking and len(ends) == 1
    clock.advance(0.35)
    assert player.speaking  # echo tail
    clock.advance(0.1)
    assert not player.speaking and len(ends) == 2


def test_keys_come_from_the_pack_with_their_text(ru_pack: VoicePack) -> None:
    clock = VirtualClock()
    sink = MemorySink(RATE)
    player = AudioPlayer(sink, clock, ru_pack)
    line = player.say(["who_for.5"])
    assert line.text == "Кто за то, чтобы стол покинул игрок номер пять?"
    assert line.parts == ("who_for.5",)
    player.drain()
    assert sink.samples().any()  # resampled from 22050 to the sink's 16000
    assert [ln.text for ln in player.lines] == [line.text]


def test_stop_drops_everything() -> None:
    clock, _sink, player = setup()
    a = player.say(tone(1.0))
    b = player.say(tone(1.0))
    clock.advance(0.5)
    player.stop()
    assert a.dropped and b.dropped
    assert player.busy_until() is None
    assert a.ended == pytest.approx(100.5) and b.ended == pytest.approx(100.5)


def test_live_thread_feeds_the_sink() -> None:
    clock, sink, player = setup()
    player.start()
    try:
        player.say(tone(0.3, 1234))
        clock.advance(5.0)  # the thread catches up with the clock at once
        assert player.wait_idle(timeout=10)
    finally:
        player.close()
    audio = sink.samples()
    assert (audio == 1234).sum() == round(0.3 * RATE)
    assert sink.closed
