"""How the narrator speaks: rule 2.4's announcement of the candidates, and a human host's pause
between two sentences («Наступает ночь. Город спит», not «Наступает ночь Город спит»)."""

from __future__ import annotations

from pathlib import Path

from narrator.clock import VirtualClock
from narrator.host.narration import Line
from narrator.host.speaker import SENTENCE_PAUSE, WORD_PAUSE, pauses, wav_narration
from narrator.replay.script import parse_table_script
from narrator.replay.table import replay_script

HEADER = '{"rules": "crime-time", "roles": {"don": 7, "mafia": [4, 9], "sheriff": 3}}'


def test_2_4_the_host_says_candidates_are_then_their_count_and_numbers() -> None:
    lines = [HEADER,
             '{"speech": 1, "say": [[3, "выставляю номер четыре"], [9, "спасибо"]]}',
             '{"speech": 2, "say": [[3, "выставляю номер пять"], [9, "спасибо"]]}',
             *(f'{{"speech": {s}}}' for s in range(3, 11)),
             '{"vote": {"4": [1, 2, 3, 5, 6, 7]}}']
    said = replay_script(parse_table_script("\n".join(lines), "g")).protocol()["said"]
    i = said.index("Выставлены кандидатуры")
    assert said[i:i + 4] == ["Выставлены кандидатуры", "две кандидатуры", "номер четыре",
                             "номер пять"]


def test_pauses_a_sentence_apart_except_inside_a_list_of_numbers() -> None:
    assert pauses(("night_falls", "city_sleeps")) == [SENTENCE_PAUSE]
    assert pauses(("candidates_are", "candidates.2", "number.4", "number.5")) == [
        SENTENCE_PAUSE, WORD_PAUSE, WORD_PAUSE]
    assert SENTENCE_PAUSE >= 0.3 > WORD_PAUSE


def test_consecutive_sentences_are_rendered_with_a_pause(tmp_path: Path) -> None:
    clock = VirtualClock()
    narration = wav_narration(str(tmp_path / "n.wav"), clock, lang="ru")
    try:
        narration.say(Line(("night_falls", "city_sleeps")), clock.now())
        line = narration.player.lines[-1]
        first = narration.pack.get("night_falls").resampled(line.rate)
        silence = (line.starts[1] - len(first.samples)) / line.rate
        assert abs(silence - SENTENCE_PAUSE) < 1e-3
        narration.say(Line(("speech.4",)), clock.now())
        narration.finish()
        after = narration.player.lines[-1]
        assert after.started is not None and line.ended is not None
        assert after.started - line.ended >= SENTENCE_PAUSE - 1e-3  # between lines too
    finally:
        narration.close()
