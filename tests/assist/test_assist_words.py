"""What the host-assist screen says, one test per defect a host met: no raw step names, no
«Nominations» where nobody nominates, hints that fit the 100 columns the README asks for, a
resumed game whose «Said» and log panes go on from the killed one, the next WAV part named on
the screen, and no empty WAV left after leaving the cards' form.

The app runs under Textual's pilot; the loop is stepped on a VirtualClock (no wall-clock
sleeps). Where the command itself is run, its app is driven by the pilot at once.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from narrator.assist.cli import make_session, resume_session
from narrator.assist.control import HINT_WIDTH, describe, hint, standing
from narrator.assist.ui import AssistApp, GameScreen
from narrator.cli import main
from narrator.clock import VirtualClock
from narrator.engine import RULESETS, Action, Game, Role
from narrator.engine import waits as w
from narrator.host.journal import Journal, load_journal
from narrator.replay.script import parse_table_script
from narrator.replay.table import replay_script
from narrator.testing import advance, random_action, time_up
from narrator.voice.manifest import default_manifest
from tests.assist.keys import KeyDriver, new_session, play

VRN = {1: Role.SHERIFF, 3: Role.DON, 5: Role.MAFIA, 9: Role.MAFIA, 6: Role.DOCTOR,
       8: Role.MANIAC}


def at_every_step(rules: str, games: int) -> list[tuple[str, str, str | None]]:
    """What the screen would show at each step of random games of ``rules``: the phase, the
    hint and the day's candidates."""
    out: list[tuple[str, str, str | None]] = []
    for seed in range(games):
        rng = random.Random(seed)
        game = Game(rules, rng=rng)
        game.start()
        while True:
            out.append((describe(game), hint(game), standing(game)))
            if game.is_over:
                break
            game.apply(random_action(game, rng))
    return out


@pytest.mark.parametrize("rules", sorted(RULESETS))
def test_the_phase_is_in_words_never_a_steps_raw_name(rules: str) -> None:
    for phase, _, _ in at_every_step(rules, 6):
        assert "_" not in phase.split(" · ", 1)[-1], phase


def test_vrns_first_night_is_in_words() -> None:
    """vrn's first night showed `Night 1 · mafia_meets`, `doctor_noted`, `maniac_noted`."""
    game = Game("vrn", roles=VRN, dealt={"maniac_side": "city"})
    game.start()
    seen = []

    def look(game: Game) -> Action:  # each step of the night, in words, as its time runs out
        seen.append(describe(game))
        return time_up(game)

    advance(game, w.Speech, speech="intro", answer=look, through=w.Pause | w.Deal)
    assert {"Night 1 · the mafia meeting", "Night 1 · the doctor showing himself",
            "Night 1 · the maniac showing himself"} <= set(seen)


@pytest.mark.parametrize("rules", sorted(RULESETS))
def test_every_hint_fits_the_100_columns_with_a_full_entry_typed(rules: str) -> None:
    """The hunt's hint was 152 characters: cut at the screen's edge, even at 140 columns."""
    for _, text, _ in at_every_step(rules, 6):
        assert len(text) <= HINT_WIDTH, text
    assert HINT_WIDTH + len("Number: ") + 12 + 4 == 100


def test_the_hunts_hint_is_whole_on_a_screen_of_100_columns(tmp_path: Path) -> None:
    session = new_session(tmp_path / "j.jsonl")

    async def scenario(app: AssistApp, pilot: Pilot[None], d: KeyDriver) -> None:
        d.run_timers()
        await d.day_speeches({})
        assert isinstance(d.game.expect, w.Hunt)
        await d.keys(*"10,11,12,13")  # the longest entry the screen takes (12 characters)
        await pilot.pause()
        widget = d.screen.query_one("#input", Static)
        shown = str(widget.render())
        assert shown.endswith(hint(d.game)) and "Space: no shot" in shown
        assert len(shown) <= widget.size.width == 100

    async def go() -> None:
        app = AssistApp(session)
        async with app.run_test(size=(100, 40)) as pilot:
            assert app.game_screen is not None
            await scenario(app, pilot, KeyDriver(session, pilot, app.game_screen))

    asyncio.run(go())


def test_the_day_shows_nominations_put_ups_or_nothing_as_the_ruleset_makes_candidates() -> None:
    """«Nominations: none» was shown all game in vrn (every seat is voted against) and amateur
    (seats are put up by thumbs)."""
    for rules in ("vrn", "amateur"):
        for _, _, line in at_every_step(rules, 4):
            assert line is None or not line.startswith("Nominations"), (rules, line)
    assert {line for _, _, line in at_every_step("vrn", 2)} == {None}
    put_ups = {line for _, _, line in at_every_step("amateur", 4)}
    assert "Put up: none" in put_ups and any(
        line is not None and "×" in line for line in put_ups), put_ups
    crime = {line for _, _, line in at_every_step("crime-time", 2)}
    assert "Nominations: none" in crime and any(
        line is not None and "→" in line for line in crime)


def test_vrns_screen_shows_no_nominations_line(tmp_path: Path) -> None:
    game = Game("vrn", roles=VRN, dealt={"maniac_side": "city"})
    session = make_session(game, VirtualClock(), manifest=default_manifest("uk"),
                           journal=Journal.for_game(tmp_path / "j.jsonl", game, fsync=False))
    session.host.start()

    async def scenario(app: AssistApp, pilot: Pilot[None], d: KeyDriver) -> None:
        d.run_timers()
        assert isinstance(d.game.expect, w.Speech)  # the introduction round
        await pilot.pause()
        noms = str(d.screen.query_one("#noms", Static).render())
        assert "Nominations" not in noms and "Put up" not in noms

    play(session, scenario)


# -- a resumed game ------------------------------------------------------------------------------

def killed_in_the_vote(path: Path) -> list[str]:
    """A game played through day 1's discussion into the vote, its process then gone; returns
    the lines its screen had shown."""
    session = new_session(path)
    shown: list[str] = []

    async def first(app: AssistApp, pilot: Pilot[None], d: KeyDriver) -> None:
        d.run_timers()
        await d.day_speeches({1: 5, 2: 7})
        assert d.phase == "d1:vote@5"
        shown.extend(session.transcript.spoken)

    play(session, first)
    assert session.host.journal is not None
    session.host.journal.close()  # type: ignore[attr-defined]
    return shown


def test_a_resumed_game_shows_the_lines_said_and_the_entries_before_the_kill(
        tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    before = killed_in_the_vote(path)
    again = resume_session(load_journal(path), path, VirtualClock(),
                           manifest=default_manifest("ru"), fsync=False)
    assert again.transcript.said == []  # the protocol's: the journal has none of them

    async def second(app: AssistApp, pilot: Pilot[None], d: KeyDriver) -> None:
        d.run_timers()  # the screen's first snapshot
        await pilot.pause()
        said = str(d.screen.query_one("#said", Static).render())
        assert "«На голосование выставлены две кандидатуры номер пять и номер семь»" in said
        assert "«Кто за то, чтобы стол покинул игрок номер пять?»" in said
        assert said.count("«") == 8  # the pane's last eight lines, as before the kill
        assert before[-1] == "«Кто за то, чтобы стол покинул игрок номер пять?»"
        log = d.log()
        assert any(line.startswith(f"resumed {path}: ") and "Day 1 · vote" in line
                   for line in log), log
        entered = next(line for line in log if line.startswith("entered before: "))
        assert "nominate 5" in entered and "nominate 7" in entered

    play(again, second)


def test_the_next_wav_part_is_named_in_the_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """The line naming ``NAME.part2.wav`` was printed before the screen opened, so the host saw
    it only once the screen had closed."""
    path = tmp_path / "j.jsonl"
    killed_in_the_vote(path)
    wav = tmp_path / "game.wav"
    wav.write_bytes(b"RIFF")  # the first part, written by the killed process
    logged: list[tuple[str, str]] = []

    def run(self: AssistApp) -> None:
        async def go() -> None:
            async with self.run_test(size=(120, 40)) as pilot:
                await pilot.pause()
                assert isinstance(self.game_screen, GameScreen)
                logged.extend(self.game_screen.messages)
                self.exit()

        asyncio.run(go())

    monkeypatch.setattr(AssistApp, "run", run)
    assert main(["resume", str(path), "--out-wav", str(wav)]) == 0
    part = tmp_path / "game.part2.wav"
    assert ("refused", f"{wav} holds the narration so far; this part goes to {part}") in logged
    assert part.exists() and wav.read_bytes() == b"RIFF"
    capsys.readouterr()


def test_leaving_the_cards_form_leaves_no_wav_behind(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    def run(self: AssistApp) -> None:
        async def go() -> None:
            async with self.run_test(size=(120, 40)) as pilot:
                await pilot.pause()
                await pilot.press("escape")  # the host leaves the form: no game
                await pilot.pause()

        asyncio.run(go())

    monkeypatch.setattr(AssistApp, "run", run)
    wav, journal = tmp_path / "o.wav", tmp_path / "j.jsonl"
    assert main(["assist", "--journal", str(journal), "--out-wav", str(wav)]) == 0
    assert capsys.readouterr().out == "narrator: no game was started\n"
    assert not wav.exists() and not journal.exists()
    assert list(tmp_path.iterdir()) == []


def test_the_hint_of_a_vote_says_where_abstainers_go_only_where_they_go_somewhere() -> None:
    """vrn's re-vote of one, after the justification, counts a hand not raised for nobody: the
    engine says so (``abstainers_to_last``), and the hint follows it."""
    header = ('{"rules": "vrn", "roles": {"don": 4, "mafia": [7, 10], "sheriff": 2, '
              '"doctor": 9, "maniac": 1}, "maniac_side": "city"}')
    lines = [header, *(f'{{"speech": {s}}}' for s in range(1, 11)),
             '{"night": {"mafia": 3, "don": 2, "sheriff": 4, "maniac": null, "doctor": 3}}',
             *(f'{{"speech": {s}}}' for s in range(1, 11)),
             '{"vote": {"4": [1, 2, 3, 5, 6, 7]}}', '{"speech": 4}']
    game = replay_script(parse_table_script("\n".join(lines), "g")).game
    assert isinstance(game.expect, w.Vote) and game.voting_candidates == (4,)
    assert hint(game) == "number Enter: hands for 4 · Enter: none"
    first = replay_script(parse_table_script("\n".join([*lines[:-2], '{"extra": []}']),
                                             "g")).game
    assert isinstance(first.expect, w.Vote) and len(first.voting_candidates) == 10
    assert hint(first).endswith(" · abstainers count for the last")


def test_a_first_days_leader_who_stays_has_a_speech_of_his_own_on_the_screen() -> None:
    """first_day = "lift_only": the re-vote's single leader speaks and stays — not a tie
    speech (no re-vote follows it)."""
    examples = Path(__file__).resolve().parents[2] / "examples"
    text = (examples / "vrn-closed-first-day-lift.table.jsonl").read_text(encoding="utf-8")
    cut = text[:text.index('{"speech": 4, "say": [[25.0, "дякую"]]}')]
    game = replay_script(parse_table_script(cut, "lift")).game
    assert isinstance(game.expect, w.Speech) and game.expect.speech == "leader"
    assert describe(game) == "Day 1 · the leader speech of seat 4"
    assert hint(game) == "Space: end the speech"
    assert game.expect.label("uk") == "Слово лідеру голосування: гравець 4"
