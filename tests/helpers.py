"""Helpers shared by the test packages: the usual deal, and a virtual ALSA sound device.

Fixtures built on these live in ``tests/conftest.py``; the constants are imported directly
(``from tests.helpers import ROLES``) where a module-level value is needed.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import textwrap
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from narrator.engine import Game, Role
from narrator.engine import waits as w
from narrator.replay.script import TableScript, load_table_script
from narrator.testing import Utterances, advance

#: the bundled example games
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
#: the word that ends a speech, by language
END = {"ru": "спасибо", "uk": "дякую"}


def example(name: str) -> TableScript:
    """The example game ``examples/<name>.table.jsonl``."""
    return load_table_script(EXAMPLES / f"{name}.table.jsonl")


def checker_present(replayed: Game, role: str, night: int) -> bool:
    """Whether ``role``'s seat is at the table during night ``night``'s checks (and so asked):
    a checker shot in that very night's hunt still checks (2.1.2: nobody knows the result
    until day); one out on an earlier night or on the day before (day N - 1) does not."""
    seat = replayed.seat_of(Role(role))
    if seat is None:
        return False
    out = replayed.out.get(seat)
    if out is None:
        return True
    return out.phase.number >= night


if TYPE_CHECKING:  # (tests.assist.keys imports this module)
    from tests.assist.keys import KeyDriver

#: The deal most tests use: sheriff 1, don 3, mafia 5 and 9, civilians elsewhere.
ROLES: dict[int, Role] = {1: Role.SHERIFF, 3: Role.DON, 5: Role.MAFIA, 9: Role.MAFIA}
#: The same deal as a table script's header writes it.
SCRIPT_ROLES: dict[str, int | list[int]] = {"don": 3, "mafia": [5, 9], "sheriff": 1}
#: The same deal as ``narrator assist --roles`` takes it.
ROLES_OPTION = "don=3 mafia=5,9 sheriff=1"


def day_one(roles: dict[int, Role] | None = None) -> Game:
    """A game of ``roles`` (default :data:`ROLES`) run through the first night to the first
    speech of day 1: every step of that night only waits for its timer."""
    game = Game(roles=ROLES if roles is None else roles)
    game.start()
    advance(game, w.Speech, seat=1, through=w.Pause | w.Deal)
    return game


#: ALSA's own configuration, read before the test's.
ALSA_BASE = Path("/usr/share/alsa/alsa.conf")

#: The default device on ALSA's ``file`` plugin: what is played lands in a WAV file, what is
#: captured is read from a raw 16-bit file. The plugin does not run in real time.
FILE_DEVICE = """\
pcm.!default {{
    type asym
    playback.pcm {{ type file  slave.pcm "null"  file "{played}"  format "wav" }}
    capture.pcm  {{ type file  slave.pcm "null"  file "/dev/null"  infile "{mic}"  format "raw" }}
}}
"""

#: A default device that does not exist: PortAudio finds no usable device.
NO_DEVICE = "pcm.!default { type hw card 99 }\nctl.!default { type hw card 99 }\n"


@dataclass(frozen=True)
class AlsaDevice:
    """A configuration of ALSA for child processes (PortAudio reads it once, at start-up)."""

    conf: Path
    played: Path  # what the file device played (a WAV), if it is a file device
    mic: Path  # what the file device's microphone captures (raw s16le), if it is one

    @property
    def env(self) -> dict[str, str]:
        """The environment of a process that sees this device as the default."""
        return {**os.environ, "ALSA_CONFIG_PATH": f"{ALSA_BASE}:{self.conf}"}

    def run(self, code: str, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        """Run Python ``code`` (dedented) with ``args`` in a fresh process on this device."""
        return subprocess.run([sys.executable, "-c", textwrap.dedent(code), *args],
                              env=self.env, capture_output=True, text=True, timeout=timeout)


def alsa_file_device(folder: Path, *, mic_audio: bytes = bytes(16000 * 2)) -> AlsaDevice:
    """A file device in ``folder``: plays to ``played.wav``, captures ``mic_audio``
    (default: one second of 16 kHz silence) from ``mic.raw``."""
    played, mic, conf = folder / "played.wav", folder / "mic.raw", folder / "asound.conf"
    mic.write_bytes(mic_audio)
    conf.write_text(FILE_DEVICE.format(played=played, mic=mic))
    return AlsaDevice(conf, played, mic)


def alsa_no_device(folder: Path) -> AlsaDevice:
    """A configuration whose default device does not exist."""
    conf = folder / "none.conf"
    conf.write_text(NO_DEVICE)
    return AlsaDevice(conf, folder / "played.wav", folder / "mic.raw")


def hosted_through_assist(script: TableScript, journal: Path,
                          host: Callable[[KeyDriver], Awaitable[None]]) -> Game:
    """The game of ``script``'s table (its cards, what else was dealt, its language) hosted in
    the assist app on a virtual clock, the host's keys given by ``host``; nothing logged as an
    error on the way; journaled to ``journal``."""
    from narrator.assist.cli import make_session
    from narrator.assist.ui import AssistApp
    from narrator.clock import VirtualClock
    from narrator.host.journal import Journal
    from narrator.voice.manifest import default_manifest
    from tests.assist.keys import KeyDriver

    game = Game(script.rules, seats=script.seats, roles=script.roles, dealt=script.dealt)
    session = make_session(game, VirtualClock(),
                           journal=Journal.for_game(journal, game, fsync=False),
                           manifest=default_manifest(script.lang))
    session.host.start()

    async def go() -> None:
        app = AssistApp(session)
        async with app.run_test(size=(120, 40)) as pilot:
            screen = app.game_screen
            assert screen is not None
            d = KeyDriver(session, pilot, screen)
            await host(d)
            assert not d.log("error"), d.log("error")

    asyncio.run(go())
    return game


def played_at_a_hostless_table(script: TableScript, says: dict[int, list[Utterances]],
                               lines: list[str]) -> tuple[Game, dict[str, Any]]:
    """The game of ``script``'s table played by the listening loop on a virtual clock: each
    seat's speeches said by a scripted recognizer (``says``, in order), the operator's entries
    typed from ``lines``; every entry taken. The game at its end and its protocol."""
    from narrator.clock import VirtualClock
    from narrator.host.hearing import game_hearing
    from narrator.listening import ListeningLoop
    from narrator.testing import ScriptedOperator, ScriptedRecognizer
    from narrator.voice.manifest import default_manifest
    from tests.test_listening import EndlessSilence

    game = Game(script.rules, seats=script.seats, roles=script.roles, dealt=script.dealt)

    def next_speech() -> Utterances:
        exp = game.expect
        queue = says.get(exp.seat if isinstance(exp, w.Speech) else 0, [])
        return queue.pop(0) if queue else ()

    operator = ScriptedOperator(lines)
    table = ListeningLoop(game, clock=VirtualClock(), source=EndlessSilence(200),
                          recognizer=ScriptedRecognizer(next_speech),
                          hearing=game_hearing(script.lang, script.seats), operator=operator,
                          entries=operator, manifest=default_manifest(script.lang),
                          lang=script.lang)
    table.run()
    assert operator.errors == []
    return game, table.protocol()
