"""The catalogue's fouls and the end of the game (MafiaRatings 9.5, 9.6, 8.19) as club options.

- ``three_fouls`` under ``fouls = "sport"`` (the 4th foul removes in every variant):
  ``lose_speech`` (9.5.1) takes the next discussion minute once — not a last word, not a tie
  speech — and leaves a short window to nominate; with three or four players at the table a
  30-s speech instead; ``short_speech`` (9.5.2) cuts it to 30 s; ``no`` (9.5.3) punishes
  nothing.
- ``tech_fouls = "yes"`` (9.6.2): technical fouls counted apart, the 2nd removes.
- ``game_end_speech = "yes"`` (8.19.1): the last one out speaks before the winner is said,
  and nothing in that speech changes the result; ``"no"`` (8.19.2) ends the game at once.

Default roles: sheriff 1, don 3, mafia 5 and 9; day 1's discussion opens at seat 1.
"""

from __future__ import annotations

from typing import Any

import pytest

from narrator.engine import (
    EndSpeech,
    Foul,
    Game,
    Hands,
    IllegalActionError,
    Nominate,
    Remove,
    Shot,
    TakeFloor,
    TechFoul,
    TimeUp,
    parse_action,
)
from narrator.engine import events as ev
from narrator.engine import waits as w
from narrator.engine.options import apply_options
from narrator.engine.rules import find_rules
from narrator.reasons import Reason
from narrator.testing import advance
from narrator.testing.games import end_speeches
from tests.helpers import ROLES

SPORT = {"fouls": "sport"}


def game(options: dict[str, Any], rules: str = "crime-time") -> Game:
    g = Game(apply_options(find_rules(rules), options), roles=dict(ROLES))
    g.start()
    advance(g, w.Speech, seat=1, speech="day")
    return g


def fouls(g: Game, seat: int, n: int) -> None:
    for _ in range(n):
        g.apply(Foul(seat))


def turn(g: Game, seat: int, speech: str = "day") -> list[ev.Event]:
    """The events up to ``seat``'s next ``speech`` wait (speeches ended, timers run out)."""
    return advance(g, w.Speech, answer=end_speeches, seat=seat, speech=speech)


def test_lose_speech_takes_the_minute_but_leaves_the_nomination() -> None:
    """9.5.1 «игрок лишается права слова в свою ближайшую минуту … У игрока получившего три
    фола остается право выставить кандидатуру на голосование»: no speech is announced, the
    narrator says why, and a window of ``nomination_only_seconds`` takes a nomination as a
    discussion speech does."""
    g = game(SPORT)
    fouls(g, 2, 3)
    events = g.apply(EndSpeech())
    assert ev.SpeechSkipped(2, True) in events
    assert not any(isinstance(e, ev.SpeechStarted) and e.seat == 2 for e in events)
    exp = g.expect
    assert isinstance(exp, w.Speech) and exp.seat == 2 and exp.nominates
    assert exp.timer is not None and exp.timer.seconds == 10.0
    assert g.refusal(Nominate(2)) is None
    assert ev.Nominated(2, 7) in g.apply(Nominate(7))
    assert g.refusal(Nominate(8)) is Reason.ALREADY_NOMINATED  # 2.3: one a speech, as ever
    g.apply(TimeUp("speech"))
    assert g.candidates == (7,)
    exp = g.expect
    assert isinstance(exp, w.Speech) and exp.seat == 3 and exp.timer is not None
    assert exp.timer.seconds == 60.0


def test_the_nomination_window_is_a_club_figure() -> None:
    """9.5.1: the window's length is the club's ``nomination_only``."""
    g = game({**SPORT, "nomination_only": 15})
    fouls(g, 2, 3)
    g.apply(EndSpeech())
    assert g.expect.timer is not None and g.expect.timer.seconds == 15.0


def test_lose_speech_once_only() -> None:
    """9.5.1 «Игрок лишается слова один раз. В последующие дни игрок получит слово»."""
    g = game(SPORT)
    fouls(g, 2, 3)
    turn(g, 2)
    g.apply(TimeUp("speech"))
    events = advance(g, "d2", answer=end_speeches)
    events += turn(g, 2)
    assert not any(isinstance(e, ev.SpeechSkipped) for e in events)
    assert g.expect.timer is not None and g.expect.timer.seconds == 60.0


def test_the_last_word_is_not_taken() -> None:
    """9.5.1 «За исключением случаев, когда это его последнее слово»: a 3-fouled seat voted
    out speaks his minute."""
    g = game(SPORT)
    g.apply(Nominate(2))
    fouls(g, 2, 3)
    g.apply(EndSpeech())
    g.apply(TimeUp("speech"))  # seat 2's window: nothing nominated
    turn(g, 4)
    g.apply(Nominate(4))
    advance(g, w.Vote, answer=end_speeches, candidate=2)
    g.apply(Hands((1, 3, 5, 6, 7, 8)))
    events = advance(g, w.Speech, answer=end_speeches, seat=2, speech="last")
    assert ev.SeatOut(2, "vote") in events
    assert g.expect.timer is not None and g.expect.timer.seconds == 60.0


def test_the_tie_speech_is_not_taken_and_the_loss_moves_on() -> None:
    """9.5.1 «Если игрок с тремя фолами попал в ситуацию переголосования, то он имеет право
    слова. Он пропустит свое слово в последующие дни»: fouled after his turn, seat 2 speaks
    in the tie, and loses day 2's minute (day 2 opens at him)."""
    g = game(SPORT)
    g.apply(Nominate(2))
    turn(g, 3)
    g.apply(Nominate(4))
    fouls(g, 2, 3)
    advance(g, w.Vote, answer=end_speeches, candidate=2)
    g.apply(Hands((1, 2, 3, 5, 6)))  # 5 and 5: the abstainers count for seat 4 (2.4)
    events = turn(g, 2, "tie")
    assert ev.Tie((2, 4)) in events
    assert g.expect.timer is not None and g.expect.timer.seconds == 30.0
    advance(g, w.Vote, answer=end_speeches, candidate=2, round=2)
    g.apply(Hands(()))  # round 2: every hand to seat 4, who leaves
    events = advance(g, "d2", answer=end_speeches)
    events += advance(g, w.Speech, answer=end_speeches, seat=2, speech="day")
    assert ev.SpeechSkipped(2, True) in events


@pytest.mark.parametrize("variant", ["lose_speech", "short_speech"])
def test_three_or_four_at_the_table_speak_thirty_seconds(variant: str) -> None:
    """9.5.1 «Когда за столом остается три или четыре игрока, игроку получившему три фола
    предоставляется "укороченная" речь 30 секунд»; 9.5.2 cuts it so at any table."""
    g = game({**SPORT, "three_fouls": variant})
    for seat in (5, 6, 7, 8, 9, 10):
        g.apply(Remove(seat))
    assert g.living == [1, 2, 3, 4] and not g.is_over
    fouls(g, 2, 3)
    events = g.apply(EndSpeech())
    assert ev.SpeechCut(2) in events and ev.SpeechStarted(2, "day") in events
    exp = g.expect
    assert isinstance(exp, w.Speech) and exp.seat == 2 and exp.nominates
    assert exp.timer is not None and exp.timer.seconds == 30.0


def test_short_speech_cuts_the_next_minute_once() -> None:
    """9.5.2 «речь игрока в ближайшую минуту сокращается до 30 секунд. Речь сокращается один
    раз»: a 30-s speech that nominates; day 2's is a full minute."""
    g = game({**SPORT, "three_fouls": "short_speech"})
    fouls(g, 2, 3)
    events = g.apply(EndSpeech())
    assert ev.SpeechCut(2) in events
    assert g.expect.timer is not None and g.expect.timer.seconds == 30.0
    assert g.expect.timer.warning_at is None
    assert ev.Nominated(2, 7) in g.apply(Nominate(7))
    advance(g, "d2", answer=end_speeches)
    turn(g, 2)
    assert g.expect.timer is not None and g.expect.timer.seconds == 60.0


def test_no_penalty_for_the_third_and_the_fourth_still_removes() -> None:
    """9.5.3 «При получении трёх фолов игрока не получает никакого наказания»; the 4th foul
    removes as in every variant."""
    g = game({**SPORT, "three_fouls": "no"})
    fouls(g, 2, 3)
    events = g.apply(EndSpeech())
    assert ev.SpeechStarted(2, "day") in events
    assert g.expect.timer is not None and g.expect.timer.seconds == 60.0
    assert ev.SeatOut(2, "removed") in g.apply(Foul(2))


def test_the_fourth_foul_removes_under_lose_speech() -> None:
    """9.5.1 with sport fouls: the 4th foul removes (2.4.3: the vote is cancelled)."""
    g = game(SPORT)
    fouls(g, 4, 3)
    events = g.apply(Foul(4))
    assert ev.SeatOut(4, "removed") in events


def test_tech_fouls_refused_unless_the_option_is_on() -> None:
    """9.6.1 «технических фолов нет»: refused in one line, with its reason."""
    g = game({})
    assert g.refusal(TechFoul(2)) is Reason.NO_TECH_FOULS
    with pytest.raises(IllegalActionError, match="technical fouls"):
        g.apply(TechFoul(2))
    assert "tech_fouls" not in g.protocol()["seats"]["2"]


def test_two_tech_fouls_remove_counted_apart_from_fouls() -> None:
    """9.6.2 «Технические фолы считаются отдельно от основных. За два технических фола игрок
    получает удаление» — a removal as any (2.4.3: the vote not yet completed is cancelled)."""
    g = game({"tech_fouls": "yes"})
    assert parse_action("tech_foul 2") == TechFoul(2) and str(TechFoul(2)) == "tech_foul 2"
    g.apply(Nominate(4))
    g.apply(Foul(2))
    assert ev.TechFouled(2, 1) in g.apply(TechFoul(2))
    assert g.is_alive(2)
    seat = g.protocol()["seats"]["2"]
    assert (seat["fouls"], seat["tech_fouls"]) == (1, 1)
    events = g.apply(TechFoul(2))
    assert ev.TechFouled(2, 2) in events and ev.SeatOut(2, "removed") in events
    assert g.refusal(TechFoul(2)) is Reason.SEAT_OUT
    events = advance(g, "n2", answer=end_speeches)
    assert ev.VotingCancelled("monster") in events


def _three_civilians_removed(options: dict[str, Any]) -> Game:
    """Day 2 of a table of 1, 3, 5, 7, 8, 9, 10: three black, four red (day 1's vote was
    cancelled by the removals, 2.4.3; night 2 missed)."""
    g = game(options)
    for seat in (2, 4, 6):
        g.apply(Remove(seat))
    advance(g, w.Hunt, answer=end_speeches)
    return g


def test_without_a_final_speech_the_game_ends_at_once() -> None:
    """8.19.2 «Судья не предоставляет последнего слова, а просто объявляет победу»."""
    g = _three_civilians_removed({})
    g.apply(TimeUp("hunt"))
    advance(g, w.Speech, answer=end_speeches, seat=1, speech="day")
    g.apply(Nominate(7))
    advance(g, w.Vote, answer=end_speeches)
    events = g.apply(TimeUp("vote"))  # every hand to seat 7, the only candidate
    assert ev.SeatOut(7, "vote") in events and ev.GameOver("mafia") in events
    assert g.is_over


def test_the_final_speech_after_a_vote_and_nothing_in_it_changes_the_result() -> None:
    """8.19.1 «Судья предоставляет заключительную минуту последнему убитому игроку … И только
    по окончании заключительной минуты … объявляет победу … замечания и удаления полученные во
    время последней речи не могут изменить результат игры»."""
    g = _three_civilians_removed({**SPORT, "game_end_speech": "yes"})
    g.apply(TimeUp("hunt"))
    advance(g, w.Speech, answer=end_speeches, seat=1, speech="day")
    g.apply(Nominate(7))
    advance(g, w.Vote, answer=end_speeches)
    events = g.apply(TimeUp("vote"))
    assert ev.SeatOut(7, "vote") in events
    assert not any(isinstance(e, ev.GameOver) for e in events) and not g.is_over
    exp = g.expect
    assert isinstance(exp, w.Speech) and exp.seat == 7 and exp.speech == "last"
    assert g.protocol()["winner"] is None
    fouls(g, 5, 4)  # the mafia's 4th foul removes him: 2 black, 3 red, and yet
    assert not g.is_alive(5) and not g.is_over
    events = g.apply(EndSpeech())
    assert ev.GameOver("mafia") in events and g.is_over


def test_the_final_speech_after_the_night_kill() -> None:
    """8.19.1: the night's kill decides the game; the day breaks, the victim speaks his last
    minute, then the winner is said (no check follows the kill)."""
    g = _three_civilians_removed({"game_end_speech": "yes"})
    for shooter in (3, 5, 9):
        g.apply(Shot(shooter, 7))
    events = g.apply(TimeUp("hunt"))
    assert ev.NightResult(2, 7) in events
    assert not any(isinstance(e, ev.GameOver) for e in events)
    exp = g.expect
    assert isinstance(exp, w.Speech) and exp.seat == 7 and exp.speech == "last"
    events = g.apply(TimeUp("speech"))
    assert ev.GameOver("mafia") in events and g.is_over


def test_no_final_speech_after_a_removal() -> None:
    """8.19.1 «кроме случаев когда последний убитый игрок был … удален с игрового стола»."""
    g = game({"game_end_speech": "yes"})
    for seat in (2, 4, 6):
        g.apply(Remove(seat))
    events = g.apply(Remove(7))
    assert ev.GameOver("mafia") in events and g.is_over


def test_the_final_speeches_after_the_car_crash() -> None:
    """8.19.1 after 2.4.2: the car crash decides the game; each of its candidates speaks his
    last minute, in their order, and the winner is said after the last of them."""
    g = game({"game_end_speech": "yes"})
    for seat in (2, 4):  # 3 black, 5 red; day 1's vote is cancelled (2.4.3)
        g.apply(Remove(seat))
    advance(g, w.Hunt, answer=end_speeches)
    g.apply(TimeUp("hunt"))
    turn(g, 3)
    g.apply(Nominate(7))
    turn(g, 5)
    g.apply(Nominate(8))
    for rnd in (1, 2):  # 4 and 4 twice: the car crash
        advance(g, w.Vote, answer=end_speeches, candidate=7, round=rnd)
        g.apply(Hands((1, 3, 5, 6)))
    advance(g, w.Crash, answer=end_speeches)
    g.apply(Hands((1, 3, 5, 6, 9)))
    events = g.apply(TimeUp("vote"))
    assert ev.CrashResult(5, 3, True) in events and not g.is_over
    assert isinstance(g.expect, w.Speech) and g.expect.seat == 7 and g.expect.speech == "last"
    assert not any(isinstance(e, ev.GameOver) for e in g.apply(EndSpeech()))
    assert isinstance(g.expect, w.Speech) and g.expect.seat == 8 and g.expect.speech == "last"
    assert ev.GameOver("mafia") in g.apply(EndSpeech())


def test_a_rules_code_sets_the_three_groups() -> None:
    """The catalogue's code names them all at once: 8.19.1 (digit 11: 0), 9.5.2 (digit 12:
    1), 9.6.2 (digit 13: 1); a punished third foul presumes sport fouls."""
    rules = apply_options(find_rules("crime-time"), {"rules": "0002000010011"})
    assert (rules.game_end_speech, rules.three_fouls, rules.tech_fouls, rules.fouls) == (
        "yes", "short_speech", "yes", "sport")


def test_the_lost_minute_by_raised_hands() -> None:
    """9.5.1 where speeches go by raised hands (amateur, which nominates by thumbs: no window
    to nominate): the 3rd foul's seat, given the floor, loses that speech, once."""
    g = Game(apply_options(find_rules("amateur"), SPORT), seats=10)
    g.start()
    advance(g, w.Floor)
    fouls(g, 2, 3)
    events = g.apply(TakeFloor(2))
    assert ev.SpeechSkipped(2, False) in events
    assert isinstance(g.expect, w.Floor) and 2 not in g.expect.seats  # he has had his turn
