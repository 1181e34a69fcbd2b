"""Host-assist defects found by trying a whole game as a new host would, one test each.

The app runs under Textual's pilot, the loop is stepped on a VirtualClock (no wall-clock sleeps).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Static

from narrator.assist.cli import make_session, resume_session
from narrator.assist.control import snapshot
from narrator.assist.ui import AssistApp, GameScreen, Session
from narrator.clock import VirtualClock
from narrator.engine import EndSpeech, Game, HandCount, Kill, Phase, Role, Shot, TimeUp
from narrator.engine import waits as w
from narrator.host.journal import Journal, load_journal
from narrator.host.speaker import next_part
from narrator.voice.manifest import default_manifest
from tests.assist.keys import INF, KeyDriver, Scenario, check, hunt
from tests.helpers import ROLES


def session_at(journal: Path, names: dict[int, str] | None = None) -> Session:
    game = Game(roles=ROLES, names=names)
    session = make_session(game, VirtualClock(), journal=Journal.for_game(journal, game, fsync=False),
                           manifest=default_manifest("ru"))
    session.host.start()
    return session


def play(session: Session, scenario: Scenario) -> AssistApp:
    # the notation line (a developer's, under --debug) shown: it too must hold no secret
    app = AssistApp(session, debug=True)

    async def go() -> None:
        async with app.run_test(size=(140, 44)) as pilot:
            screen = app.game_screen
            assert screen is not None
            await scenario(app, pilot, KeyDriver(session, pilot, screen))

    asyncio.run(go())
    return app


def screen_text(screen: GameScreen) -> str:
    parts = [str(screen.query_one(f"#{name}", Static).render())
             for name in ("phase", "timer", "table", "noms", "input", "said")]
    return "\n".join([*parts, *(text for _, text in screen.messages)])


async def to_the_hunt(d: KeyDriver) -> None:
    d.run_timers()
    await d.day_speeches({})  # nobody nominated: night 2
    assert d.phase == "n2:hunt"


def advance(d: KeyDriver, seconds: float) -> None:
    """Let ``seconds`` of the game go by (what is due meanwhile runs)."""
    d.loop.run_until(d.session.host.now() + seconds)


# -- the hunt waits for the host after the count --------------------------------------------------

def test_the_hunt_waits_for_the_host_after_the_count_and_a_late_entry_never_replays_it(
        tmp_path: Path) -> None:
    async def scenario(app: AssistApp, pilot: Pilot[None], d: KeyDriver) -> None:
        await to_the_hunt(d)
        for _ in range(30):  # the whole count
            d.loop.step(timeout=INF)
        advance(d, 60.0)  # and long after it
        assert d.said.count("десять") == 1 and d.said[-1] == "десять"
        assert d.phase == "n2:hunt"  # no «timeup hunt» behind the host's back
        assert not any(str(a) == "timeup hunt" for a in d.game.history)
        d.session.loop.submit(d.screen.controller.publish)
        d.loop.step(timeout=0)
        assert d.screen.snap is not None and d.screen.snap.held
        await pilot.pause()
        assert "the hunt: enter the target" in str(d.screen.query_one("#timer", Static).render())
        await d.type("7")  # the late entry: the shots, and the night goes on at once
        assert d.game.history[-4:] == [Shot(3, 7), Shot(5, 7), Shot(9, 7), TimeUp("hunt")]
        assert d.phase == "n2:check-don"
        assert d.said.count("один") == 1  # the count was said once
        await d.keys("u")  # undo: back to the hunt, waiting; the count is not said again
        assert d.phase == "n2:hunt" and d.said.count("один") == 1
        assert d.said[-1] == "Поправка"
        for _ in range(5):
            d.loop.step(timeout=INF)
        assert d.phase == "n2:hunt"

    play(session_at(tmp_path / "j.jsonl"), scenario)


def test_the_hunt_entered_during_the_count_ends_with_the_count(tmp_path: Path) -> None:
    async def scenario(app: AssistApp, pilot: Pilot[None], d: KeyDriver) -> None:
        await to_the_hunt(d)
        for _ in range(3):
            d.loop.step(timeout=INF)  # «один», «два», «три»
        await d.type("7")
        assert d.phase == "n2:hunt"  # the count goes on to «десять» (2.1.2)
        d.run_timers(hunt)
        assert d.said[d.said.index("десять") + 1].startswith("Мафия выбрала свою жертву")
        assert d.game.nights[0].hit == 7

    play(session_at(tmp_path / "j.jsonl"), scenario)


def test_a_check_waits_for_the_host_unless_the_checker_is_gone(tmp_path: Path) -> None:
    async def scenario(app: AssistApp, pilot: Pilot[None], d: KeyDriver) -> None:
        d.run_timers()
        await d.type("1", "x")
        await d.keys("y")  # the sheriff is removed on day 1
        await d.day_speeches({})
        await d.type("7")
        d.run_timers(hunt)
        assert d.phase == "n2:check-don"
        for _ in range(5):
            d.loop.step(timeout=INF)
        assert d.phase == "n2:check-don"  # the don is at the table: his check is awaited
        await d.type("4")
        d.loop.step(timeout=INF)  # his 15 s run out
        assert d.phase == "n2:check-sheriff"
        d.loop.step(timeout=INF)  # the sheriff is gone: his 15 s just run (2.1.3)
        assert d.phase == "d2:last@7"

    play(session_at(tmp_path / "j.jsonl"), scenario)


# -- undo: exactly one host entry, with its timers -------------------------------------------

def test_undo_in_a_vote_reverts_the_whole_entry_and_says_a_correction(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"

    async def scenario(app: AssistApp, pilot: Pilot[None], d: KeyDriver) -> None:
        d.run_timers()
        await d.day_speeches({1: 5, 2: 7})
        assert d.phase == "d1:vote@5"
        await d.type("3")  # one Enter: «count 3» and the window's end
        assert d.game.history[-2:] == [HandCount(3), TimeUp("vote")]
        assert d.said[-2:] == ["Спасибо", "три голоса"] or "три голоса" in d.said
        assert d.phase == "d1:vote@7"
        await d.keys("u")
        assert d.phase == "d1:vote@5" and HandCount(3) not in d.game.history
        assert d.said[-2:] == ["Поправка", "Кто за то, чтобы стол покинул игрок номер пять?"]
        d.loop.step(timeout=INF)
        assert d.phase == "d1:vote@5"  # waiting for the host's count again
        await d.type("4")
        await d.keys("enter")
        assert d.game.days[0].rounds[0].votes == {5: 4, 7: 6}

    session = play(session_at(path), scenario).session
    assert session is not None
    # the journal holds the undo of both actions: the same game comes back from it
    assert load_journal(path).game().notation() == session.host.game.notation()


def test_undo_of_a_foul_keeps_the_speakers_clock(tmp_path: Path) -> None:
    async def scenario(app: AssistApp, pilot: Pilot[None], d: KeyDriver) -> None:
        d.run_timers()
        assert d.phase == "d1:day@1"
        advance(d, 20.0)
        await d.type("4", "f")
        advance(d, 5.0)
        await d.keys("u")
        assert d.game.fouls == {}
        assert d.session.host.time_left == 35.0  # not a full minute again
        assert d.phase == "d1:day@1"

    play(session_at(tmp_path / "j.jsonl"), scenario)


def test_undo_of_an_ended_speech_gives_it_back_the_time_it_had_left(tmp_path: Path) -> None:
    async def scenario(app: AssistApp, pilot: Pilot[None], d: KeyDriver) -> None:
        d.run_timers()
        advance(d, 20.0)
        await d.keys("space")  # «Спасибо» by mistake
        assert d.phase == "d1:day@2"
        advance(d, 10.0)
        await d.keys("u")
        assert d.phase == "d1:day@1" and d.session.host.time_left == 40.0

    play(session_at(tmp_path / "j.jsonl"), scenario)


# -- keys ---------------------------------------------------------------------------------------

def test_space_in_a_vote_keeps_the_digits_typed(tmp_path: Path) -> None:
    async def scenario(app: AssistApp, pilot: Pilot[None], d: KeyDriver) -> None:
        d.run_timers()
        await d.day_speeches({1: 5, 2: 7})
        await d.type("3", "space")
        assert HandCount(3) in d.game.history and d.phase == "d1:vote@7"

    play(session_at(tmp_path / "j.jsonl"), scenario)


def test_q_and_x_ask_for_confirmation(tmp_path: Path) -> None:
    async def scenario(app: AssistApp, pilot: Pilot[None], d: KeyDriver) -> None:
        d.run_timers()
        await d.type("6", "x")
        assert 6 not in d.game.out and "Remove seat 6" in d.log("error")[-1]
        await d.keys("n")  # anything but y: no
        assert 6 not in d.game.out and d.log("ok")[-1] == "remove: not done"
        await d.keys("y")  # a y with nothing asked does nothing
        assert 6 not in d.game.out
        await d.keys("q")
        assert app.is_running and "Quit?" in d.log("error")[-1]
        await d.keys("5")  # no: and the digit is not typed either
        assert app.is_running and d.screen.buffer == ""
        await d.keys("q", "y")
        await pilot.pause()
        assert not app.is_running

    play(session_at(tmp_path / "j.jsonl"), scenario)


def test_q_after_the_game_closes_at_once(tmp_path: Path) -> None:
    """Over, the game has nothing left to lose: q closes the screen without a question (an
    evening's host goes back to the evening)."""
    async def scenario(app: AssistApp, pilot: Pilot[None], d: KeyDriver) -> None:
        d.run_timers()
        for seat in (3, 5, 9):  # the black seats removed: the civilians win
            await d.type(str(seat), "x")
            await d.keys("y")
        assert d.game.is_over
        await d.keys("q")
        await pilot.pause()
        assert not app.is_running

    play(session_at(tmp_path / "j.jsonl"), scenario)


# -- secrets and names --------------------------------------------------------------------------

def test_no_roles_nor_night_results_on_the_main_screen_only_behind_r(tmp_path: Path) -> None:
    async def scenario(app: AssistApp, pilot: Pilot[None], d: KeyDriver) -> None:
        d.run_timers()
        await d.type("42", "f")  # an error message quotes the state: the public form
        await d.day_speeches({})
        await d.type("2")  # the mafia shoot seat 2
        d.run_timers(hunt)
        await d.type("1")  # the don finds the sheriff
        d.loop.step(timeout=INF)
        await d.type("3")  # the sheriff finds the don
        d.session.loop.submit(d.screen.controller.publish)
        d.loop.step(timeout=0)
        assert d.phase == "n2:check-sheriff"
        text = screen_text(d.screen)
        for secret in ("SCDCMCCCMC", "SHERIFF", "MAFIA", "DON", "shot 3 2", "check don 1",
                       "check sheriff 3", "out:shot", "shot tonight", "checked"):
            assert secret not in text, secret
        assert "n2:check-sheriff ++++++++++" in text  # the public notation
        await d.keys("r")  # the host looks: now the cards and the night are shown
        text = screen_text(d.screen)
        assert "DON" in text and "SHERIFF" in text and "shot tonight" in text
        assert "don checked 1: yes" in text and "sheriff checked 3: yes" in text
        await d.keys("r")
        d.run_timers(check)
        assert d.phase == "d2:last@2"  # day: now the table knows
        d.session.loop.submit(d.screen.controller.publish)
        d.loop.step(timeout=0)
        assert "out:shot" in screen_text(d.screen)

    play(session_at(tmp_path / "j.jsonl"), scenario)


def test_names_are_shown_on_the_table(tmp_path: Path) -> None:
    async def scenario(app: AssistApp, pilot: Pilot[None], d: KeyDriver) -> None:
        d.run_timers()
        text = screen_text(d.screen)
        assert "Ника" in text and "Momento Mori" in text

    session = session_at(tmp_path / "j.jsonl", names={1: "Ника", 7: "Momento Mori"})
    play(session, scenario)
    head = load_journal(tmp_path / "j.jsonl").header
    assert head.names == {1: "Ника", 7: "Momento Mori"}
    assert session.host.game.protocol()["seats"]["1"]["name"] == "Ника"



# -- resume -------------------------------------------------------------------------------------

def test_resume_continues_the_running_timer_with_the_time_left(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    session = session_at(path)

    async def first(app: AssistApp, pilot: Pilot[None], d: KeyDriver) -> None:
        d.run_timers()
        advance(d, 15.0)
        await d.type("5")  # a nomination 15 s into seat 1's speech
        advance(d, 10.0)  # 25 s gone, then the host quits

    play(session, first)
    journal = session.host.journal
    assert isinstance(journal, Journal)
    journal.stop(session.host.now())  # what quitting the app writes
    journal.close()
    contents = load_journal(path)
    again = resume_session(contents, path, VirtualClock(1000.0), manifest=default_manifest("ru"),
                           fsync=False)
    assert isinstance(again.host.game.expect, w.Speech) and again.host.game.expect.seat == 1
    assert again.host.time_left == 35.0  # not a full minute again
    again.loop.run_until(1000.0 + 25.0)  # «Десять секунд» at 50 s of the speech
    assert again.transcript.said[-1] == "Десять секунд"


def test_resume_with_the_same_out_wav_writes_the_next_part_beside_it(tmp_path: Path) -> None:
    wav = tmp_path / "game.wav"
    assert next_part(str(wav)) == (str(wav), None)  # nothing there yet: the file itself
    wav.write_bytes(b"RIFF")
    path, note = next_part(str(wav))
    assert path == str(tmp_path / "game.part2.wav")
    assert note is not None and "game.part2.wav" in note and "game.wav" in note
    (tmp_path / "game.part2.wav").write_bytes(b"RIFF")
    assert next_part(str(wav))[0] == str(tmp_path / "game.part3.wav")
    assert wav.read_bytes() == b"RIFF"  # the first part is never overwritten


def test_the_host_is_told_at_the_3rd_and_4th_foul(tmp_path: Path) -> None:
    async def scenario(app: AssistApp, pilot: Pilot[None], d: KeyDriver) -> None:
        d.run_timers()
        for _ in range(4):
            await d.type("8", "f")
        notices = [m for m in d.log("refused") if m.startswith("seat 8:")]
        assert notices == ["seat 8: 3rd foul", "seat 8: 4th foul — if the club removes at four: 8 x"]
        assert 8 not in d.game.out  # plain crime-time: the fouls are only counted

    play(session_at(tmp_path / "j.jsonl"), scenario)



def test_the_speech_hint_offers_nominations_only_where_words_nominate() -> None:
    """vrn and amateur nominate by hands and thumbs, not words: the hint must not offer it."""
    from narrator.assist.control import hint
    from narrator.engine import TakeFloor
    from narrator.replay.script import parse_table_script
    from narrator.replay.table import replay_script

    def at_start(header: str) -> Game:
        return replay_script(parse_table_script(header + "\n", "t")).game

    crime = at_start('{"seats": 10, "roles": {"don": 3, "mafia": [5, 9], "sheriff": 1}}')
    assert isinstance(crime.expect, w.Speech) and crime.expect.speech == "day"
    assert "nominate" in hint(crime)
    amateur = at_start('{"rules": "amateur", "seats": 10, "roles": {"mafia": [4, 8, 9], '
                       '"commissar": 2, "nurse": 6}}')
    amateur.apply(TakeFloor(3))
    assert isinstance(amateur.expect, w.Speech) and amateur.expect.speech == "day"
    assert "nominate" not in hint(amateur) and "Спасибо" in hint(amateur)



def test_keys_a_ruleset_has_no_use_for_are_not_shown_nor_taken(tmp_path: Path) -> None:
    """amateur nominates by thumbs and nobody shoots: no «withdraw», no «shot» in the footer,
    and the keys do nothing; crime-time shows and takes both."""
    from narrator.engine import TakeFloor

    def in_a_day_speech(game: Game) -> tuple[set[str], list[str]]:
        session = make_session(game, VirtualClock(), manifest=default_manifest("ru"),
                               journal=Journal.for_game(tmp_path / f"{game.rules.name}.jsonl",
                                                        game, fsync=False))
        session.host.start()
        shown: set[str] = set()
        log: list[str] = []

        async def scenario(app: AssistApp, pilot: Pilot[None], d: KeyDriver) -> None:
            d.run_timers()
            if isinstance(game.expect, w.Floor):
                session.host.apply(TakeFloor(3))
            assert isinstance(game.expect, w.Speech)
            shown.update(b.binding.description for b in d.screen.active_bindings.values()
                         if b.enabled and b.binding.show)
            await d.keys("4", "w")  # a withdrawal of 4, where there is one
            log.extend(d.log())

        play(session, scenario)
        return shown, log

    shown, log = in_a_day_speech(Game(roles=ROLES))
    assert {"withdraw", "shot", "check"} <= shown
    assert any("w 4" in line or "withdraw" in line for line in log), log
    amateur = Game("amateur", roles={4: Role.MAFIA, 8: Role.MAFIA, 9: Role.MAFIA,
                                     2: Role.COMMISSAR, 6: Role.NURSE})
    shown, log = in_a_day_speech(amateur)
    assert "withdraw" not in shown and "shot" not in shown and "check" in shown
    assert not any("w 4" in line or "withdraw" in line for line in log), log


# -- vrn: the morning names the victims, not who killed them ---------------------------------

VRN = {1: Role.SHERIFF, 3: Role.DON, 5: Role.MAFIA, 9: Role.MAFIA, 6: Role.DOCTOR,
       8: Role.MANIAC}


def test_vrn_night_victims_show_as_shot_and_who_killed_only_behind_r(tmp_path: Path) -> None:
    """vrn: the maniac kills 2 and the sheriff shoots 5; by day the table reads both as shot,
    as the console's operator view does («убит ночью»); who killed them is the host's, behind
    ``r``. At night neither is shown out at all (2.1.2: the day tells the night)."""
    game = Game("vrn", roles=VRN, dealt={"maniac_side": "city"})
    session = make_session(game, VirtualClock(), journal=None, manifest=default_manifest("uk"))
    host = session.host
    host.start()
    acts = {"sheriff": Kill("sheriff", 5), "maniac": Kill("maniac", 2)}
    for _ in range(2000):
        exp = game.expect
        if game.phase == Phase.day(2) and isinstance(exp, w.Speech):
            break
        if isinstance(exp, w.NightAct) and exp.role in acts and game.phase == Phase.night(2) \
                and game.acted(exp.role) is None:
            host.apply(acts[exp.role])
        elif isinstance(exp, w.Speech) and game.phase == Phase.day(1):
            host.apply(EndSpeech())
        else:
            assert exp.timer is not None
            host.apply(TimeUp(exp.timer.name))
    assert {s: game.out[s].how for s in (2, 5)} == {2: "maniac", 5: "sheriff_shot"}

    async def scenario(app: AssistApp, pilot: Pilot[None], d: KeyDriver) -> None:
        snap = snapshot(host, session.transcript)
        assert {s.seat: s.out for s in snap.seats if s.out} == {2: "shot", 5: "shot"}
        text = str(d.screen._table(snap))
        assert "out:shot" in text and "maniac" not in text and "sheriff" not in text
        await d.keys("r")
        text = str(d.screen._table(snap))
        assert "(maniac)" in text and "(sheriff shot)" in text

    play(session, scenario)



def test_the_quit_prompt_is_whole_at_80_and_120_columns(tmp_path: Path) -> None:
    """The log wraps at its pane's width (it was cut at RichLog's 78 columns in a pane of 40)."""
    from textual.widgets import RichLog

    for width in (80, 120):
        app = AssistApp(session_at(tmp_path / f"j{width}.jsonl"))

        async def go(app: AssistApp = app, width: int = width) -> None:
            async with app.run_test(size=(width, 40)) as pilot:
                await pilot.press("q")
                await pilot.pause()
                screen = app.game_screen
                assert screen is not None
                log = screen.query_one("#log", RichLog)
                lines = [line.text.rstrip() for line in log.lines]
                assert all(len(line) <= log.size.width for line in lines), (width, lines)
                shown = " ".join(lines)
                assert "Quit?" in shown and "y: yes, any other key: no" in shown
                await pilot.press("n")

        asyncio.run(go())
