"""One host assembly for every mode: the same parts, the same transcript."""

from __future__ import annotations

from pathlib import Path

import pytest

from narrator.assist.cli import make_session
from narrator.clock import VirtualClock
from narrator.engine import EndSpeech, Game, Nominate
from narrator.engine import waits as w
from narrator.host.assembly import assemble_host
from narrator.host.speaker import wav_narration
from narrator.replay.script import load_table_script
from narrator.replay.table import ScriptReplay
from narrator.testing import advance
from narrator.voice.manifest import default_manifest
from tests.helpers import ROLES

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_assist_transcripts_note_what_is_not_spoken_like_the_other_modes() -> None:
    session = make_session(Game(roles=ROLES), VirtualClock(), journal=None,
                           manifest=default_manifest("ru"))
    session.host.start()
    advance(session.host.game, w.Speech, step=lambda: session.loop.step(timeout=float("inf")),
            through=w.Pause | w.Deal)
    session.host.apply(Nominate(5))
    session.host.apply(EndSpeech())
    texts = [text for _, text in session.transcript.entries]
    assert texts[-3:] == ["«Принято»", "    seat 1 nominates 5", "«Слово игроку номер два»"]
    assert session.transcript.spoken[-2:] == ["«Принято»", "«Слово игроку номер два»"]


def test_with_a_narration_the_timers_wait_for_it_and_the_manifest_is_its_packs(
        tmp_path: Path) -> None:
    clock = VirtualClock()
    narration = wav_narration(str(tmp_path / "out.wav"), clock, lang="ru")
    try:
        parts = assemble_host(Game(roles=ROLES), clock, narration=narration)
        parts.host.start()
        # the dealing timer starts when «Наступает ночь… Игроки по очереди…» has been said
        assert parts.host.timer_started == pytest.approx(narration.delay()) and narration.delay() > 1
        assert parts.transcript.manifest is narration.pack.manifest
        assert parts.protocol()["said"][:2] == ["Наступает ночь", "Город спит"]
    finally:
        narration.close()


def test_a_replay_is_assembled_the_same_way() -> None:
    result = ScriptReplay(load_table_script(EXAMPLES / "civilians-win.table.jsonl")).run()
    assert result.protocol() == {**result.game.protocol(), "said": result.transcript.said}
    assert any(text.startswith("    seat") for _, text in result.transcript.entries)


def test_a_host_needs_a_manifest_or_a_narration() -> None:
    with pytest.raises(ValueError, match="manifest or a narration"):
        assemble_host(Game(roles=ROLES), VirtualClock())
