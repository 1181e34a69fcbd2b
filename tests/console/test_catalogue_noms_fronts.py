"""The discussion's catalogue groups in the front ends: a pad's withdraw refused under 7.5.3,
the colours on record (6.7) entered on the speaker's pad, by assist's keys and on the
operator's line, and kept through the journal."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot

from narrator.assist.ui import AssistApp
from narrator.clock import VirtualClock
from narrator.engine import Game, OnRecord
from narrator.engine import waits as w
from narrator.engine.entries import OperatorLineError, parse_operator_line
from narrator.engine.options import apply_options
from narrator.engine.rules import find_rules
from narrator.host.journal import Journal, load_journal
from narrator.testing import TableRig, advance
from narrator.voice.manifest import default_manifest
from tests.assist.keys import KeyDriver, make_session, play
from tests.helpers import ROLES


def _rig(options: dict[str, object]) -> TableRig:
    game = Game(apply_options(find_rules("crime-time"), options), roles=ROLES)
    rig = TableRig(game)
    rig.deal()
    return rig


def test_7_5_3_the_pad_shows_no_withdraw_and_refuses_one_with_its_reason() -> None:
    """7.5.3 «Отозвать кандидатуру невозможно»: the speaker's pad has no withdraw button
    once he nominated, and a withdraw press is refused (``no_withdrawal``)."""
    rig = _rig({"withdraw": "no"})
    assert rig.press(1, "nominate", target=5).ok
    step = rig.views[1]["step"]
    assert step["standing"] == 5 and step["withdraws"] is False
    assert rig.press(1, "withdraw", target=5).reason == "no_withdrawal"
    assert rig.game.candidates == (5,)


def test_7_5_1_the_pad_keeps_its_withdraw_button() -> None:
    """7.5.1: the withdrawal is taken: the view says nothing against it."""
    rig = _rig({"withdraw": "allowed"})
    assert rig.press(1, "nominate", target=5).ok
    assert "withdraws" not in rig.views[1]["step"]
    assert rig.press(1, "withdraw", target=5).ok


def test_6_7_5_the_speakers_pad_leaves_colours_on_record() -> None:
    """6.7.5 «Игроки в любой своей речи могут оставлять цвета под протокол»: the pad offers
    the other seats, the press is the engine's (6.8's count refuses the fourth)."""
    rig = _rig({"on_record": "all", "on_record_count": 3})
    step = rig.views[1]["step"]
    assert step["on_record"] == [2, 3, 4, 5, 6, 7, 8, 9, 10]
    assert rig.press(1, "on_record", red=[2, 4], black=[5]).ok
    assert rig.press(1, "on_record", red=[6], black=[]).reason == "too_many_colours"
    assert rig.press(2, "on_record", red=[3], black=[]).reason == "no_on_record"
    assert rig.press(1, "on_record", red=[1], black=[]).reason == "own_seat"
    assert rig.game.protocol()["on_record"] == [
        {"seat": 1, "day": 1, "speech": "day", "red": [2, 4], "black": [5]}]
    assert [i.get("do") for i in rig.inputs if i.get("do") == "on_record"] == ["on_record"]


def test_6_7_1_no_on_record_grid_without_the_option() -> None:
    """6.7.1: without the club's option the pad shows no colours to leave."""
    rig = _rig({})
    assert "on_record" not in rig.views[1]["step"]
    assert rig.press(1, "on_record", red=[2], black=[]).reason == "no_on_record"


def test_6_7_the_operators_line_names_red_then_black() -> None:
    """The operator's entry ``o 3 4 / 7``: the speaker's red seats, then his black."""
    game = Game(apply_options(find_rules("crime-time"), {"on_record": "all"}), roles=ROLES)
    game.start()
    advance(game, w.Speech, seat=1, through=w.Pause | w.Deal)
    assert parse_operator_line("o 3 4 / 7", game).actions == (OnRecord(1, (3, 4), (7,)),)
    assert parse_operator_line("o 3", game).actions == (OnRecord(1, (3,), ()),)
    assert parse_operator_line("o / 7", game).actions == (OnRecord(1, (), (7,)),)
    for bad in ("o /", "o x / 7"):
        try:
            parse_operator_line(bad, game)
        except OperatorLineError:
            continue
        raise AssertionError(bad)


def test_6_7_assist_keys_o_and_m_and_the_journal(tmp_path: Path) -> None:
    """Assist: a number then «o» leaves it red on record, then «m» black; the journal keeps
    the actions, and a resumed game has them."""
    game = Game(apply_options(find_rules("crime-time"), {"on_record": "all"}), roles=ROLES)
    path = tmp_path / "j.jsonl"
    session = make_session(game, VirtualClock(), journal=Journal.for_game(path, game, fsync=False),
                           manifest=default_manifest("ru"))
    session.host.start()

    async def scenario(app: AssistApp, pilot: Pilot[None], d: KeyDriver) -> None:
        d.run_timers()
        assert d.phase == "d1:day@1"
        await d.type("3", "o")
        await d.type("7", "m")
        assert d.game.protocol()["on_record"] == [
            {"seat": 1, "day": 1, "speech": "day", "red": [3], "black": [7]}]

    play(session, scenario)
    contents = load_journal(path)
    written = [str(a) for _, a in contents.entries]
    assert "on_record 1 red=3" in written and "on_record 1 black=7" in written
    assert contents.game().protocol()["on_record"] == [  # resumed: the same record
        {"seat": 1, "day": 1, "speech": "day", "red": [3], "black": [7]}]
