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


def test_2_4_the_host_says_how_many_candidates_stand_then_their_numbers() -> None:
    lines = [HEADER,
             '{"speech": 1, "say": [[3, "выставляю номер четыре"], [9, "спасибо"]]}',
             '{"speech": 2, "say": [[3, "выставляю номер пять"], [9, "спасибо"]]}',
             *(f'{{"speech": {s}}}' for s in range(3, 11)),
             '{"vote": {"4": [1, 2, 3, 5, 6, 7]}}']
    said = replay_script(parse_table_script("\n".join(lines), "g")).protocol()["said"]
    i = said.index("На голосование выставлены две кандидатуры")
    assert said[i:i + 3] == ["На голосование выставлены две кандидатуры", "номер четыре",
                             "и номер пять"]
    assert "Выставлены кандидатуры" not in said


def test_2_4_a_single_candidate_is_one_candidacy_said_once() -> None:
    """«Выставлены кандидатуры одна кандидатура номер три» is not what a host says: day 2's lone
    candidate is «На голосование выставлена одна кандидатура: номер …»."""
    lines = [HEADER,
             *(f'{{"speech": {s}}}' for s in range(1, 11)),
             '{"night": {"shots": {"4": 1, "7": 1, "9": 1}}}',
             '{"speech": 1}',
             '{"speech": 2, "say": [[3, "выставляю номер пять"], [9, "спасибо"]]}',
             *(f'{{"speech": {s}}}' for s in range(3, 11)),
             '{"vote": {"5": [2, 3]}}']
    said = replay_script(parse_table_script("\n".join(lines), "g")).protocol()["said"]
    i = said.index("На голосование выставлена одна кандидатура")
    assert said[i + 1] == "номер пять"
    assert not any("кандидатуры одна" in text or text == "одна кандидатура" for text in said)


def test_pauses_a_sentence_apart_except_inside_a_list_of_numbers() -> None:
    assert pauses(("night_falls", "city_sleeps")) == [SENTENCE_PAUSE]
    assert pauses(("revote", "candidates.2", "number.4", "number.and.5")) == [
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


# -- the rulesets where nobody nominates -------------------------------------------------------

VRN = ('{"rules": "vrn", "roles": {"don": 4, "mafia": [7, 10], "sheriff": 2, "doctor": 9, '
       '"maniac": 1}, "maniac_side": "city"}')


def test_vrn_announces_its_vote_against_every_seat_without_candidates() -> None:
    """vrn votes against every seat, each called in turn («Хто голосує проти номера …?»):
    nobody was nominated, so no «Выставлены кандидатуры» and no list of numbers."""
    lines = [VRN, *(f'{{"speech": {s}}}' for s in range(1, 11)),
             '{"night": {"mafia": 3, "don": 2, "sheriff": 4, "maniac": null, "doctor": 3}}',
             *(f'{{"speech": {s}}}' for s in range(1, 11)), '{"vote": {"4": [1, 2, 3]}}']
    said = replay_script(parse_table_script("\n".join(lines), "g")).protocol()["said"]
    i = said.index("Прошу убрать руки со стола, начинаем голосовать")
    assert said[i - 1] != "Выставлены кандидатуры"
    assert said[i + 1] == "Кто голосует против номера один?"
    assert not any("кандидатур" in text.lower() for text in said)


def test_amateur_names_the_seats_put_up_without_calling_them_nominated() -> None:
    lines = ['{"rules": "amateur", "seats": 8, "roles": {"mafia": [2, 5], "commissar": 3, '
             '"nurse": 4}}',
             '{"speech": 1}', '{"put_up": {"2": [1, 3, 4]}}', '{"speech": 2}',
             '{"put_up": {"5": [1, 6]}}', *(f'{{"speech": {s}}}' for s in range(3, 9)),
             '{"speech": 2}', '{"speech": 5}', '{"vote": {"2": [1, 3, 4, 6]}}']
    said = replay_script(parse_table_script("\n".join(lines), "g")).protocol()["said"]
    i = said.index("На голосовании игроки")
    assert said[i + 1:i + 3] == ["номер два", "и номер пять"]
    assert not any(text.startswith("Выставлены") or "кандидатур" in text for text in said)
