"""While the deal (2.1.1) waits for cards, the narrator says whose: 20 s into the deal, then every
20 s, naming the seats whose card is neither seen nor skipped; nothing once the deal is over.
The prompt is heard (the voice, the WAV) and written in the transcript, but it is not the game's
record: the protocol's ``said`` never holds it, so a game's protocol does not depend on how long
the table took over its cards."""

from __future__ import annotations

from pathlib import Path

from narrator.clock import VirtualClock
from narrator.console.serve import protocol_of
from narrator.console.table import ConsoleTable, Press
from narrator.engine import Game
from narrator.engine import waits as w
from narrator.host.assembly import assemble_host
from narrator.host.driver import Driver
from narrator.host.speaker import wav_narration
from tests.console.conftest import Rig, make_rig
from tests.helpers import ROLES

RU_WAIT = "«Ждём"


def prompts(rig: Rig, head: str = RU_WAIT) -> list[tuple[float, str]]:
    """The prompts in the transcript, timed."""
    return [(t, text) for t, text in rig.transcript.entries if text.startswith(head)]


def see(rig: Rig, *seats: int) -> None:
    for seat in seats:
        assert rig.press(seat, "seen").ok


def all_but(*missing: int) -> list[int]:
    return [s for s in range(1, 11) if s not in missing]


def test_nothing_is_said_before_20_s_and_at_20_s_the_missing_seats_are_named(rig: Rig) -> None:
    see(rig, *all_but(3, 7))
    rig.driver.run_until(19.9)
    assert prompts(rig) == []
    assert rig.table.dealing
    rig.driver.run_until(20.0)
    assert prompts(rig) == [(20.0, "«Ждём карты игроков номер три и номер семь»")]
    assert rig.table.dealing  # a prompt, not the deal's end


def test_the_prompt_comes_again_every_20_s_with_the_seats_missing_then(rig: Rig) -> None:
    see(rig, *all_but(2, 3, 7))
    rig.driver.run_until(30.0)
    see(rig, 3)
    rig.driver.run_until(59.0)
    see(rig, 2)
    rig.driver.run_until(80.0)
    assert prompts(rig) == [
        (20.0, "«Ждём карты игроков номер два номер три и номер семь»"),
        (40.0, "«Ждём карты игроков номер два и номер семь»"),
        (60.0, "«Ждём карту игрока номер семь»"),
        (80.0, "«Ждём карту игрока номер семь»"),
    ]


def test_once_every_card_is_seen_nothing_more_is_said_of_the_cards(rig: Rig) -> None:
    see(rig, *all_but(5))
    rig.driver.run_until(25.0)
    assert prompts(rig) == [(20.0, "«Ждём карту игрока номер пять»")]
    see(rig, 5)
    assert not rig.table.dealing
    assert rig.host.scheduler.cancel("console-card-prompt") == 0  # nothing left to say
    rig.until(w.Speech)  # the first night runs through, and the first speech's time too
    rig.after(120.0)
    assert prompts(rig) == [(20.0, "«Ждём карту игрока номер пять»")]


def test_a_skipped_seat_is_not_named(rig: Rig) -> None:
    see(rig, *all_but(4, 8))
    rig.driver.run_until(10.0)
    assert rig.op("skip", seat=4).ok
    rig.driver.run_until(40.0)
    assert prompts(rig) == [(20.0, "«Ждём карту игрока номер восемь»"),
                            (40.0, "«Ждём карту игрока номер восемь»")]
    assert rig.op("skip", seat=8).ok  # the last card skipped ends the deal: no more prompts
    assert not rig.table.dealing
    rig.after(60.0)
    assert len(prompts(rig)) == 2


def test_the_prompt_is_spoken_but_not_in_the_protocols_said(rig: Rig) -> None:
    protocol = protocol_of(rig.game, rig.transcript)
    said_before = list(rig.transcript.said)
    see(rig, *all_but(1, 9))
    rig.driver.run_until(45.0)
    line = "«Ждём карты игроков номер один и номер девять»"
    assert [text for text in rig.transcript.spoken if text.startswith(RU_WAIT)] == [line, line]
    assert line in rig.transcript.render()
    assert rig.transcript.said == said_before  # nothing of the game was said meanwhile
    said = protocol()["said"]
    assert not any(text.startswith(("Ждём", "и номер")) for text in said)
    see(rig, 1, 9)
    rig.until(w.Speech)
    said = protocol()["said"]
    assert not any(text.startswith(("Ждём", "и номер")) for text in said)
    # the same game with every card seen at once says the same, phrase for phrase
    quick = make_rig()
    quick.deal()
    assert protocol_of(quick.game, quick.transcript)()["said"] == said


def test_the_ukrainian_narrator_names_the_seats_in_ukrainian() -> None:
    rig = make_rig(lang="uk")
    see(rig, *all_but(7))
    rig.driver.run_until(20.0)
    assert prompts(rig, "«Чекаємо") == [(20.0, "«Чекаємо на карту гравця номер сім»")]
    assert rig.op("skip", seat=7).ok
    assert not rig.table.dealing

    rig = make_rig(lang="uk")
    see(rig, *all_but(3, 7))
    rig.driver.run_until(20.0)
    assert prompts(rig, "«Чекаємо") == [(20.0, "«Чекаємо на карти гравців номер три і номер сім»")]


def test_a_paused_game_says_nothing_and_prompts_again_20_s_after_it_goes_on(rig: Rig) -> None:
    see(rig, *all_but(6))
    rig.driver.run_until(10.0)
    rig.host.pause()
    rig.driver.run_until(100.0)
    assert prompts(rig) == []  # nobody would hear it (the sound is gone)
    rig.host.unpause()
    rig.driver.run_until(120.0)
    assert prompts(rig) == [(120.0, "«Ждём карту игрока номер шесть»")]


def test_the_narrator_says_the_prompt_into_the_wav(tmp_path: Path) -> None:
    """With the voice: the prompt is played (the deal is not 45 s of silence), 20 s after the
    deal's announcement ended, and the protocol's ``said`` still lacks it."""
    clock = VirtualClock()
    narration = wav_narration(str(tmp_path / "deal.wav"), clock, lang="ru")
    game = Game("crime-time", roles=ROLES)
    parts = assemble_host(game, clock, narration=narration)
    host = parts.host
    table = ConsoleTable(host, said=lambda: list(parts.transcript.said))
    driver = Driver(host.scheduler, lambda event: None)
    host.start()
    started = host.timer_started
    assert started > 0.0  # the deal's time runs from the end of its announcement
    for seat in all_but(2):
        assert table.handle(Press(seat, "seen", {}, driver.now())).ok
    driver.run_until(started + 45.0)
    narration.finish()
    narration.close()
    played = [(line.started, line.text) for line in narration.player.lines]
    prompt = [(t, text) for t, text in played if text.startswith("Ждём")]
    assert [text for _, text in prompt] == ["Ждём карту игрока номер два"] * 2
    assert prompt[0][0] is not None and abs(prompt[0][0] - (started + 20.0)) < 0.05
    assert "Ждём карту игрока номер два" not in parts.protocol()["said"]
