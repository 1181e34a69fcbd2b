"""The sound card goes away mid-game and comes back: the game pauses with a clear line and goes
on, its timer with the time it had left.

Unit tests on the virtual clock for the host's pause; one real-time test on a virtual ALSA device
(ALSA's ``pulse`` plugin on a private PulseAudio null sink, no sound card): the server is killed
while a speech is timed — the device is gone — and started again.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from narrator.clock import VirtualClock
from narrator.engine import waits as w
from narrator.host.driver import Driver
from narrator.host.host import Host
from narrator.host.intake import apply_input
from narrator.host.scheduler import Scheduler
from narrator.host.transcript import Transcript
from narrator.voice.manifest import default_manifest
from tests.helpers import ALSA_BASE, day_one

ROOT = Path(__file__).resolve().parents[2]


def test_a_paused_game_keeps_its_time_and_says_nothing_meanwhile() -> None:
    game = day_one()
    transcript = Transcript(default_manifest("ru"))
    host = Host(game, Scheduler(VirtualClock()), transcript)
    driver = Driver(host.scheduler, lambda event: apply_input(host, event))
    host.resume()  # seat 1's speech: 60 s, «Десять секунд» at 50 s
    driver.run_until(host.now() + 45.0)
    host.pause()
    assert host.paused and host.time_left is None
    driver.run_until(host.now() + 600.0)  # ten minutes without sound: nothing happens
    assert isinstance(game.expect, w.Speech)
    assert game.expect.seat == 1 and "Десять секунд" not in transcript.said
    host.unpause()
    assert host.time_left == pytest.approx(15.0)
    driver.run_until(host.now() + 4.9)
    assert "Десять секунд" not in transcript.said
    driver.run_until(host.now() + 0.2)
    assert transcript.said[-1] == "Десять секунд"
    driver.run_until(host.now() + 10.0)
    assert isinstance(game.expect, w.Speech)
    assert game.expect.seat == 2  # the speech ended 60 s of game after it began


def test_a_held_step_is_held_again_after_a_pause() -> None:
    game = day_one()
    host = Host(game, Scheduler(VirtualClock()), Transcript(default_manifest("ru")))
    host.resume()
    host.hold()
    host.pause()
    host.unpause()
    assert host.held and host.scheduler.next_deadline() is not None
    Driver(host.scheduler, lambda event: None).run_until(host.now() + 120.0)
    assert isinstance(game.expect, w.Speech)
    assert game.expect.seat == 1  # held: the speech waits for the host


# -- a real device that goes away ----------------------------------------------------------------

PULSE_CONF = """\
load-module module-native-protocol-unix auth-anonymous=1 socket={socket}
load-module module-null-sink sink_name=vsink rate=22050 channels=1 norewinds=1
set-default-sink vsink
"""
ALSA_PULSE = "pcm.!default { type pulse }\nctl.!default { type pulse }\n"

CHILD = """
import time
from narrator.clock import MonotonicClock
from narrator.host.assembly import assemble_host
from narrator.host.driver import Driver
from narrator.host.intake import apply_input
from narrator.host.speaker import speaker_narration, watch_output
from tests.helpers import day_one

clock = MonotonicClock()
narration = speaker_narration(clock, lang="ru")
narration.player.retry = 0.2
game = day_one()
host = assemble_host(game, clock, narration=narration).host
driver = Driver(host.scheduler, lambda event: apply_input(host, event))
watch_output(narration, driver.call, host, lambda text: print("SAID", text, flush=True))
narration.player.start()
host.resume()  # seat 1's speech is timed
print("PLAYING", flush=True)
was, back_at = False, None
end = time.monotonic() + 40
while time.monotonic() < end:
    driver.step(0.05)
    if host.paused != was:
        was = host.paused
        left = host._paused[0] if was else host.time_left
        print("PAUSED" if was else "GOES ON", round(left, 2), flush=True)
        if not was:
            back_at = time.monotonic()
    if back_at is not None and time.monotonic() - back_at > 1.0:
        print("LATER", round(host.time_left, 2), flush=True)
        break
narration.close()
"""


@pytest.fixture
def pulse(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    exe = shutil.which("pulseaudio")
    if exe is None:
        pytest.skip("needs pulseaudio (scripts/setup.sh installs it)")
    socket = tmp_path / "native"
    (tmp_path / "ci.pa").write_text(PULSE_CONF.format(socket=socket))
    (tmp_path / "asound.conf").write_text(ALSA_PULSE)
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "PULSE_SERVER": f"unix:{socket}",
           "ALSA_CONFIG_PATH": f"{ALSA_BASE}:{tmp_path / 'asound.conf'}",
           "PYTHONPATH": str(ROOT)}
    return tmp_path, env


def _server(folder: Path, env: dict[str, str]) -> subprocess.Popen[bytes]:
    server = subprocess.Popen(
        ["pulseaudio", "-n", "-F", str(folder / "ci.pa"), "--daemonize=no",
         "--exit-idle-time=-1", "--use-pid-file=no", f"--log-target=file:{folder}/pa.log"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):  # the socket appears when it is ready (about a second)
        if (folder / "native").exists():
            return server
        time.sleep(0.05)
    server.kill()
    pytest.skip("the PulseAudio server did not start here")


def _wait_for(child: subprocess.Popen[str], word: str, seen: list[str], timeout: float) -> str:
    assert child.stdout is not None
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        line = child.stdout.readline()
        if not line:
            break
        seen.append(line.rstrip())
        if line.startswith(word):
            return line.rstrip()
    raise AssertionError(f"no {word!r} within {timeout} s: {seen}")


def test_the_sound_card_goes_away_mid_game_and_comes_back(
        pulse: tuple[Path, dict[str, str]]) -> None:
    folder, env = pulse
    server = _server(folder, env)
    child = subprocess.Popen([sys.executable, "-c", CHILD], env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True, cwd=ROOT)
    seen: list[str] = []
    try:
        _wait_for(child, "PLAYING", seen, 60)
        time.sleep(1.0)  # a real device: it plays for a moment (the real clock is the point)
        gone = time.monotonic()
        server.kill()  # the device goes away
        server.wait()
        said = _wait_for(child, "SAID", seen, 5)
        noticed = time.monotonic() - gone
        assert "audio output lost" in said and "the game is paused" in said
        paused = float(_wait_for(child, "PAUSED", seen, 5).split()[1])
        time.sleep(1.5)  # no sound card for a while
        server = _server(folder, env)  # one is back
        assert "the game goes on" in _wait_for(child, "SAID", seen, 10)
        going = float(_wait_for(child, "GOES ON", seen, 5).split()[2])
        later = float(_wait_for(child, "LATER", seen, 5).split()[1])
    finally:  # the processes this test started, by their ids
        child.kill()
        server.kill()
        child.wait()
        server.wait()
    assert noticed < 2.0
    assert abs(going - paused) < 0.3  # the pause kept the time: 1.5 s without sound cost none
    assert 0.7 < going - later < 1.6  # and the timer runs again
    assert 40.0 < paused < 60.0
