"""``narrator assist``: the host-assist app driven by Textual's pilot on a VirtualClock.

Keys go through the app to the live loop; the tests step the loop (its thread, here the test's)
and let the fake clock jump to each deadline. No wall-clock sleeps.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from narrator.assist import cli as assist
from narrator.assist.cli import resume_session
from narrator.assist.ui import AssistApp, Deal, Session, parse_roles
from narrator.cli import main
from narrator.clock import VirtualClock
from narrator.engine import CheckRecord, CrashRecord, Game, Shot, VoteRound
from narrator.engine import waits as w
from narrator.engine.entries import OperatorInput
from narrator.engine.options import apply_options
from narrator.engine.rules import find_rules
from narrator.errors import NarratorError
from narrator.host.journal import load_journal
from narrator.voice.manifest import default_manifest
from tests.assist.keys import INF, KeyDriver, check, hunt, new_session, play
from tests.helpers import ROLES


def test_first_night_then_day_speeches_nominations_and_vote(tmp_path: Path) -> None:
    session = new_session(tmp_path / "j.jsonl")

    async def scenario(app: AssistApp, pilot: Pilot[None], d: KeyDriver) -> None:
        d.run_timers()  # the first night runs on its timers
        assert d.phase == "d1:day@1"
        assert "Десять секунд" in d.said  # the mafia's agreement, at 50 s
        assert d.said[-2:] == ["Наступает день", "Слово игроку номер один"]
        screen = d.screen
        assert screen.snap is not None and screen.snap.phase == "Day 1 · the day speech of seat 1"
        assert screen.snap.timer == "speech" and screen.snap.timer_ends is not None
        await d.type("5")  # seat 1 nominates 5
        assert d.game.candidates == (5,) and d.said[-1] == "Принято"
        await d.type("5", "w")  # ... and withdraws
        assert d.game.candidates == () and d.said[-1] == "Снято"
        await d.type("5")
        await d.keys("space")  # next speaker
        assert d.phase == "d1:day@2"
        await d.day_speeches({2: 7, 4: 3})
        assert d.game.candidates == (5, 7, 3)
        assert d.phase == "d1:vote@5" and screen.snap is not None
        assert screen.snap.held  # the vote waits for the host's count
        d.loop.step(timeout=INF)  # no 1 s window closes it behind the host's back
        assert d.phase == "d1:vote@5"
        await d.type("2")  # 2 hands for 5
        await d.type("6")  # 6 for 7
        assert d.phase == "d1:vote@3"
        await d.keys("enter")  # the rest abstain: they count for the last candidate
        assert d.game.days[0].rounds == [VoteRound((5, 7, 3), {5: 2, 7: 6, 3: 2})]
        assert "Игрок номер семь покидает стол" in d.said
        assert "Спасибо шесть голосов" in " ".join(d.said)
        assert d.phase == "d1:last@7"
        assert not d.log("error")

    play(session, scenario)


def test_night_shot_and_checks_then_the_day_announces_it(tmp_path: Path) -> None:
    session = new_session(tmp_path / "j.jsonl")

    async def scenario(app: AssistApp, pilot: Pilot[None], d: KeyDriver) -> None:
        d.run_timers()
        await d.day_speeches({})  # no nominations: no vote, night 2
        assert d.phase == "n2:hunt"
        await d.type("2")  # the target the mafia agreed on: a shot by 3, 5 and 9
        assert d.game.history[-3:] == [Shot(3, 2), Shot(5, 2), Shot(9, 2)]
        # the screen only says that the night's input was taken
        assert d.log("ok")[-3:] == ["the hunt: a shot entered"] * 3
        d.run_timers(hunt)  # the count runs out
        assert d.phase == "n2:check-don"
        await d.type("1", "c")  # the don finds the sheriff
        assert d.game.nights[-1].checks.get("don") == CheckRecord(1, True)
        d.loop.step(timeout=INF)  # the don's 15 s run out
        assert d.phase == "n2:check-sheriff"
        await d.type("3")  # the sheriff checks the don
        assert d.game.nights[-1].checks.get("sheriff") == CheckRecord(3, True)
        d.run_timers(check)
        assert d.phase == "d2:last@2"
        assert "Этой ночью убит игрок номер два" in d.said
        assert d.game.out[2].how == "shot"

    play(session, scenario)


def test_tie_revote_car_crash_then_a_night_of_single_shots(tmp_path: Path) -> None:
    session = new_session(tmp_path / "j.jsonl")

    async def scenario(app: AssistApp, pilot: Pilot[None], d: KeyDriver) -> None:
        d.run_timers()
        await d.day_speeches({1: 2, 2: 4})
        for _ in range(2):  # 5 : 5 twice (the abstainers count for 4)
            await d.type("5")
            await d.keys("enter")
            if d.phase.startswith("d1:tie@"):
                await d.keys("space", "space")  # the tie speeches, 2 then 4
        assert d.phase == "d1:crash"
        await d.type("6")  # six hands for both leaving: a majority of ten
        assert d.game.days[0].crash == CrashRecord(6, 4, True)
        assert d.game.out[2].how == d.game.out[4].how == "crash"
        await d.keys("space", "space")  # their last words
        assert d.phase == "n2:hunt"
        for shot in ("3-6", "5-6", "9-7"):  # one mafioso misses the agreed target
            await d.type(shot, "k")
        d.run_timers(hunt)
        for _ in ("don", "sheriff"):  # a check waits for the host: Space, no check
            await d.keys("space")
            d.run_timers(check)
        assert d.phase == "d2:day@3"  # day 1 opened with 1; 2 is out
        assert any(text.startswith("Этой ночью мафия промахнулась") for text in d.said)

    play(session, scenario)


def test_foul_remove_and_undo_restores_the_previous_state(tmp_path: Path) -> None:
    session = new_session(tmp_path / "j.jsonl")

    async def scenario(app: AssistApp, pilot: Pilot[None], d: KeyDriver) -> None:
        d.run_timers()
        await d.type("4", "f")
        assert d.game.fouls == {4: 1} and d.said[-1] == "Фол игроку номер четыре"
        await d.type("5")
        before = d.game.notation()
        await d.keys("space")
        assert d.phase == "d1:day@2"
        await d.keys("u")  # the host ended the speech by mistake
        assert d.game.notation() == before and d.game.fouls == {4: 1}
        assert d.session.host.time_left == 60.0  # the speech's timer as it was then
        await d.keys("u", "u")  # the nomination, then the foul
        assert d.game.fouls == {} and d.game.candidates == ()
        await d.type("6", "x")  # removed for a violation, once the host says yes
        assert 6 not in d.game.out
        await d.keys("y")
        assert d.game.out[6].how == "removed"
        await d.keys("u")
        assert 6 not in d.game.out

    play(session, scenario)
    # the journal has the undos: reading it gives back the same game
    assert load_journal(tmp_path / "j.jsonl").game().notation() == session.host.game.notation()


def test_illegal_inputs_show_in_the_log_and_the_game_goes_on(tmp_path: Path) -> None:
    session = new_session(tmp_path / "j.jsonl")

    async def scenario(app: AssistApp, pilot: Pilot[None], d: KeyDriver) -> None:
        await d.type("5")  # nobody speaks during the first night
        await d.type("3", "c")  # nobody checks
        await d.keys("enter")  # nothing is asked for
        await d.type("42", "f")  # no such seat
        errors = d.log("error")
        assert len(errors) == 4
        assert "nothing to enter now" in errors[0] and "nobody is checking" in errors[1]
        assert "nothing to enter now" in errors[2] and "seat 42 does not exist" in errors[3]
        assert d.phase == "n1:dealing"
        d.run_timers()
        await d.type("5")
        await d.type("6")  # one nomination per speech: the engine refuses it
        assert d.log("refused") == ["seat 1: nominate 6 refused (already_nominated)"]
        await d.keys("w")  # a withdrawal of no number
        assert d.log("error")[-1] == "'w': type a number first"
        await d.keys("u", "u", "u", "u", "u", "u", "u")  # back past the first input
        assert any("nothing to undo" in e for e in d.log("error"))
        assert app.is_running

    play(session, scenario)


def test_keys_are_operator_entries_read_by_the_shared_parser(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from narrator.host import intake  # (the keys' lines are read by the intake's parse_entry)

    entries: list[str] = []
    parse = intake.parse_operator_line

    def spy(text: str, game: Game) -> OperatorInput:
        entries.append(text)
        return parse(text, game)

    monkeypatch.setattr(intake, "parse_operator_line", spy)
    session = new_session(tmp_path / "j.jsonl")

    async def scenario(app: AssistApp, pilot: Pilot[None], d: KeyDriver) -> None:
        d.run_timers()
        await d.type("5")  # a nomination
        await d.type("5", "w")  # withdrawn
        await d.type("4", "f")  # a foul
        await d.keys("space")  # «Спасибо»: the next speaker
        await d.day_speeches({2: 7})
        assert d.phase == "n2:hunt"  # day 1's single candidate is not voted on
        await d.type("3-2", "k")
        await d.keys("t")  # the count runs out
        await d.type("1", "c")
        assert d.game.nights[-1].checks.get("don") == CheckRecord(1, True)

    play(session, scenario)
    assert entries == ["5", "w 5", "f 4", "-", "7", *["-"] * 9, "k 3-2", "t", "c 1"]


def test_resume_reopens_at_the_same_phase(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    session = new_session(path)
    seen: dict[str, str] = {}

    async def first(app: AssistApp, pilot: Pilot[None], d: KeyDriver) -> None:
        d.run_timers()
        await d.day_speeches({1: 5, 2: 7})
        assert d.phase == "d1:vote@5"
        await d.type("4")
        seen["notation"] = d.game.notation()

    play(session, first)
    assert session.host.journal is not None
    session.host.journal.close()  # type: ignore[attr-defined]

    contents = load_journal(path)
    assert contents.header.mode == "assist"
    again = resume_session(contents, path, VirtualClock(), manifest=default_manifest("ru"),
                           fsync=False)

    async def second(app: AssistApp, pilot: Pilot[None], d: KeyDriver) -> None:
        assert d.game.notation() == seen["notation"]
        d.run_timers()  # still waiting for the host's count
        assert d.screen.snap is not None and d.screen.snap.phase.startswith("Day 1 · vote")
        await d.keys("enter")  # the rest for 7
        assert d.game.days[0].rounds[0].votes == {5: 4, 7: 6}
        assert "Игрок номер семь покидает стол" in d.said

    play(again, second)


def test_roles_and_names_are_entered_on_the_first_screen(tmp_path: Path) -> None:
    made: list[Deal] = []

    def setup(deal: Deal) -> Session:
        made.append(deal)
        return new_session(tmp_path / "j.jsonl", deal.roles)

    async def go() -> None:
        app = AssistApp(setup=setup, seats=10, rules=find_rules("crime-time"))
        async with app.run_test(size=(120, 40)) as pilot:
            app.screen.query_one("#names", Input).value = "1=Ника, 7=Momento Mori"
            await pilot.press("enter")  # optional: on to the don
            await pilot.press("3", "enter", "5", "space", "3", "enter", "1", "enter")
            assert "both don and mafia" in str(app.screen.query_one("#roles-error").render())
            app.screen.query_one("#mafia", Input).value = "5 9"
            await pilot.press("enter")
            await pilot.pause()
            assert app.game_screen is not None and app.screen is app.game_screen
            await pilot.press("r")  # show the cards
            assert app.game_screen.show_roles

    asyncio.run(go())
    assert made == [Deal(ROLES, {1: "Ника", 7: "Momento Mori"})]


def test_parse_roles() -> None:
    assert parse_roles("3", "5, 9", "1", seats=10) == ROLES
    for args, message in ((("", "5 9", "1"), "don: enter"), (("3", "5 11", "1"), "not a seat"),
                          (("3 4", "5 9", "1"), "one seat")):
        with pytest.raises(NarratorError, match=message):
            parse_roles(*args, seats=10)


def test_no_sound_card_is_one_line_suggesting_out_wav(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def no_device(*args: object, **kwargs: object) -> None:
        raise NarratorError("no audio output device: none found")

    monkeypatch.setattr(assist, "speaker_narration", no_device)
    monkeypatch.chdir(tmp_path)
    assert main(["assist"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no audio output device" in err and "--out-wav" in err


def test_an_existing_journal_is_not_overwritten(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "j.jsonl"
    path.write_text('{"journal": 1}\n')
    assert main(["assist", "--journal", str(path), "--out-wav", str(tmp_path / "o.wav")]) == 2
    assert "narrator resume" in capsys.readouterr().err
    assert path.read_text() == '{"journal": 1}\n'


@pytest.mark.parametrize("word", ["²", "①", "٥", "5.0", "-5", "9" * 4000])
def test_parse_roles_takes_plain_digits_only(word: str) -> None:
    with pytest.raises(NarratorError, match="is not a seat"):
        parse_roles("3", f"5 {word}", "1", seats=10)


@pytest.mark.parametrize(("argv", "message"), [
    (["--roles", "don=3 mafia=5 sheriff=1"], "expected 2 mafia for crime-time, got 1"),
    (["--roles", "don=3 mafia=5,9,2 sheriff=1"], "expected 2 mafia for crime-time, got 3"),
    (["--roles", "don=3 mafia=5,² sheriff=1"], "is not a seat"),
    (["--seats", "0"], "4..15 seats, not 0"),
    (["--seats", "5"], "crime-time needs at least 7 seats"),
])
def test_a_deal_the_rules_do_not_allow_is_one_line_before_anything_is_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        argv: list[str], message: str) -> None:
    def no_app(*args: object) -> int:
        raise AssertionError("the deal was taken and the app started")

    monkeypatch.setattr(assist, "run_app", no_app)
    wav, journal = tmp_path / "o.wav", tmp_path / "j.jsonl"
    assert main(["assist", "--journal", str(journal), "--out-wav", str(wav), *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and "Traceback" not in err
    assert not wav.exists() and not journal.exists()


async def _to_the_last_word(d: KeyDriver) -> None:
    """Day 1 with one nomination (not voted on), a hunt on seat 2, no checks: seat 2's last
    word on day 2, where the club's best move is asked (8.17)."""
    d.run_timers()
    await d.day_speeches({1: 5})
    assert d.phase == "n2:hunt"
    await d.type("2")  # the agreed target
    for _ in range(60):
        exp = d.game.expect
        if isinstance(exp, w.Speech) and exp.speech == "last":
            break
        if d.session.host.held:
            await d.keys("space")  # no check
        else:
            d.loop.step(timeout=INF)
    d.run_timers(lambda exp: False)  # (a snapshot for the screen)
    assert d.game.asks_best_move and d.game.expect.seat == 2


def test_the_best_move_is_typed_then_b_undone_and_kept_over_a_resume(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    session = new_session(path, rules=apply_options(find_rules("crime-time"), {"best_move": True}))
    seen: dict[str, str] = {}

    async def first(app: AssistApp, pilot: Pilot[None], d: KeyDriver) -> None:
        await _to_the_last_word(d)
        assert d.screen.snap is not None and "3,5,7 b: the best move" in d.screen.snap.hint
        await d.keys("3", "comma", "5", "b")  # two seats: the engine refuses, nothing taken
        assert d.game.best_move is None and "three different seats" in d.log("error")[-1]
        await d.keys("3", "comma", "5", "comma", "7", "b")
        assert d.game.best_move is not None and d.game.best_move.named == (3, 5, 7)
        assert d.said[-1] == "Принято"
        await d.keys("u")  # a wrong seat heard: taken back
        assert d.game.best_move is None and d.game.asks_best_move
        await d.keys("4", "comma", "6", "comma", "8", "b")
        assert d.game.best_move is not None and d.game.best_move.named == (4, 6, 8)
        seen["notation"] = d.game.notation()

    play(session, first)
    assert session.host.journal is not None
    session.host.journal.close()  # type: ignore[attr-defined]
    again = resume_session(load_journal(path), path, VirtualClock(),
                           manifest=default_manifest("ru"), fsync=False)

    async def second(app: AssistApp, pilot: Pilot[None], d: KeyDriver) -> None:
        assert d.game.notation() == seen["notation"]
        assert d.game.best_move is not None and d.game.best_move.named == (4, 6, 8)
        assert not d.game.asks_best_move  # named once (8.17)
        assert d.game.protocol()["best_move"] == {"seat": 2, "named": [4, 6, 8],
                                                  "black_named": 0}

    play(again, second)
