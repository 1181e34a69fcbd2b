"""The journal (nothing lost, resume at the same phase), the driver run live, host undo."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from narrator.cli import main
from narrator.clock import VirtualClock
from narrator.engine import (
    Departure,
    EndSpeech,
    Game,
    HandCount,
    IllegalActionError,
    Nominate,
    Phase,
    TimeUp,
)
from narrator.engine import waits as w
from narrator.errors import NarratorError
from narrator.host.assembly import assemble_host
from narrator.host.driver import Driver
from narrator.host.host import Host
from narrator.host.intake import apply_input
from narrator.host.journal import Journal, load_journal
from narrator.host.transcript import Transcript
from narrator.inputs import action
from narrator.reasons import words as reason_words
from narrator.voice.manifest import default_manifest
from tests.helpers import ROLES, ROLES_OPTION


def make_host(journal_path: Path | None = None) -> tuple[Host, Driver, Transcript, list[str]]:
    clock = VirtualClock()
    game = Game(roles=ROLES)
    journal = Journal.for_game(journal_path, game, fsync=False) if journal_path else None
    parts = assemble_host(game, clock, manifest=default_manifest("ru"), journal=journal)
    host, transcript = parts.host, parts.transcript
    errors: list[NarratorError] = []
    loop = Driver(host.scheduler, lambda event: apply_input(host, event),
                  on_error=errors.append)
    host.start()
    return host, loop, transcript, errors


def run_to_day(host: Host, loop: Driver) -> None:
    while isinstance(host.game.expect, w.Pause | w.Deal):
        loop.step(timeout=float("inf"))


def test_live_loop_runs_timers_and_inputs_in_order() -> None:
    host, loop, transcript, _errors = make_host()
    run_to_day(host, loop)
    assert host.game.notation().startswith("crime-time d1:day@1")
    loop.submit(action(0.0, "nominate 5"))
    loop.submit(action(0.0, "nominate 6"))  # refused: one standing nomination per speech
    loop.step(timeout=0)
    assert host.game.candidates == (5,) and transcript.said[-1] == "Принято"
    loop.step(timeout=float("inf"))  # the 50 s warning
    assert transcript.said[-1] == "Десять секунд" and host.clock.now() == pytest.approx(
        host.timer_started + 50.0)
    loop.step(timeout=float("inf"))  # the end of the speech
    exp = host.game.expect
    assert isinstance(exp, w.Speech) and exp.seat == 2
    assert transcript.said[-2:] == ["Спасибо", "Слово игроку номер два"]


def test_live_loop_reports_illegal_inputs_instead_of_raising() -> None:
    _host, loop, _, errors = make_host()
    loop.submit(action(0.0, "nominate 5"))  # nobody speaks during the first night
    loop.step(timeout=0)
    assert len(errors) == 1 and "nobody is speaking" in str(errors[0])
    # the error itself reaches the screen, which words it in the table's language
    error = errors[0]
    assert isinstance(error, IllegalActionError) and "nobody is speaking" not in error.words("ru")
    assert error.words("ru") == reason_words(error.reason, "ru") != str(error)


def test_journal_is_written_before_acting_and_resume_gives_the_same_phase(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "journal.jsonl"
    host, loop, _, _ = make_host(path)
    run_to_day(host, loop)
    host.apply(Nominate(5))
    host.apply(EndSpeech())
    host.apply(Nominate(7))
    with pytest.raises(IllegalActionError):
        host.apply(TimeUp("vote"))  # refused outright: not journaled
    lines = path.read_text().splitlines()
    roles = json.loads(lines[0])["roles"]
    assert {s: r for s, r in roles.items() if r != "civilian"} == {
        "1": "sheriff", "3": "don", "5": "mafia", "9": "mafia"}
    actions = [json.loads(x)["action"] for x in lines if "action" in json.loads(x)]
    assert actions[-3:] == ["nominate 5", "end", "nominate 7"]
    marks = [json.loads(x) for x in lines if json.loads(x).get("type") == "timer"]
    assert marks[-1]["name"] == "speech"  # the timer mark a resume continues from
    resumed = load_journal(path).game()
    assert resumed.notation() == host.game.notation()
    assert main(["resume", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == host.game.protocol()


def test_undo_is_journaled_and_resume_honours_it(tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    host, loop, _, _ = make_host(path)
    run_to_day(host, loop)
    host.apply(Nominate(5))
    before = host.game.notation()
    host.apply(EndSpeech())
    assert host.undo() == EndSpeech()
    assert host.game.notation() == before
    assert host.timer is not None and host.timer.name == "speech"  # the speech timer runs again
    assert load_journal(path).game().notation() == before


def test_a_torn_last_line_is_ignored_but_a_broken_middle_line_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    host, loop, _, _ = make_host(path)
    run_to_day(host, loop)
    host.apply(Nominate(5))
    with path.open("a") as f:
        f.write('{"t": 12.0, "act')
    assert load_journal(path).game().candidates == (5,)
    text = path.read_text().splitlines()
    text.insert(2, "garbage")
    path.write_text("\n".join(text) + "\n")
    from narrator.errors import NarratorError
    with pytest.raises(NarratorError, match=r"journal.jsonl:3: not a journal entry"):
        load_journal(path)


def test_hand_counts_from_a_human_host_count_abstainers_for_the_last() -> None:
    host, loop, _, _ = make_host()
    run_to_day(host, loop)
    host.apply(Nominate(5))
    host.apply(EndSpeech())
    host.apply(Nominate(7))
    for _ in range(9):
        host.apply(EndSpeech())
    exp = host.game.expect
    assert isinstance(exp, w.Vote) and exp.candidate == 5
    host.apply(HandCount(6))
    with pytest.raises(IllegalActionError, match="only 4 seat"):
        host.apply(HandCount(5))
    loop.step(timeout=float("inf"))
    host.apply(HandCount(1))
    loop.step(timeout=float("inf"))
    assert host.game.days[0].rounds[0].votes == {5: 6, 7: 4}
    assert host.game.out[5] == Departure("vote", Phase.day(1))


def test_assist_roles_option_and_missing_sound_card(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    from narrator.assist.cli import cards_option, roles_option
    from narrator.engine import Role, find_rules
    from narrator.errors import NarratorError

    assert roles_option(ROLES_OPTION, 10) == ROLES
    with pytest.raises(NarratorError, match="--roles"):
        roles_option("doctor=4", 10)
    with pytest.raises(NarratorError, match="seat 5 is both"):
        roles_option("don=5 mafia=5,9 sheriff=1", 10)
    # another ruleset's cards, and what else it deals
    vrn = find_rules("vrn")
    cards = "don=3 mafia=5,9 sheriff=1 doctor=6 maniac=8 maniac_side=mafia"
    assert cards_option(cards, 10, vrn) == ({**ROLES, 6: Role.DOCTOR, 8: Role.MANIAC},
                                            {"maniac_side": "mafia"})
    with pytest.raises(NarratorError, match="--roles: maniac side: city or mafia"):
        cards_option(cards.replace("mafia\b", "town").replace("side=mafia", "side=town"), 10,
                     vrn)
    # without a sound card: one line that says what to do instead
    from narrator.audio.devices import output_device
    try:
        output_device()
    except NarratorError:
        pass
    else:
        pytest.skip("this machine has a sound card: the no-device message cannot be shown")
    code = main(["assist", "--roles", ROLES_OPTION,
                 "--journal", str(tmp_path / "j.jsonl")])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "--out-wav" in err


def test_a_clubs_count_pace_is_used_and_survives_resume(tmp_path: Path) -> None:
    from narrator.engine.rules import find_rules
    from narrator.engine.tuning import with_settings
    from narrator.errors import NarratorError

    rules = with_settings(find_rules("crime-time"), count_pace=2.0)
    clock = VirtualClock()
    game = Game(rules, roles=ROLES)
    path = tmp_path / "journal.jsonl"
    parts = assemble_host(game, clock, manifest=default_manifest("ru"),
                          journal=Journal.for_game(path, game, fsync=False))
    host, transcript = parts.host, parts.transcript
    loop = Driver(host.scheduler, lambda event: apply_input(host, event))
    host.start()
    run_to_day(host, loop)
    for _ in range(10):
        host.apply(EndSpeech())
    assert isinstance(game.expect, w.Hunt) and game.expect.timer is not None
    assert game.expect.timer.seconds == 20.0  # ten numbers, two seconds apart
    start = clock.now()
    loop.step(timeout=float("inf"))  # «один» at once
    loop.step(timeout=float("inf"))
    assert transcript.said[-1] == "два" and clock.now() == start + 2.0
    assert load_journal(path).game().rules.count_pace == 2.0
    with pytest.raises(NarratorError, match="count_pace must be between"):
        with_settings(find_rules("crime-time"), count_pace=0)


def test_journal_lines_are_input_events_and_version_1_journals_still_resume(
        tmp_path: Path) -> None:
    from narrator.errors import NarratorError
    from narrator.inputs import Input

    path = tmp_path / "journal.jsonl"
    host, loop, _, _ = make_host(path)
    run_to_day(host, loop)
    host.apply(Nominate(5))
    host.undo()
    lines = path.read_text().splitlines()
    assert json.loads(lines[0])["journal"] == 2
    events = [Input.loads(x) for x in lines[1:]]
    # the undo restarts the speech's timer: its mark follows
    assert [e.type for e in events][-3:] == ["action", "undo", "timer"]
    assert events[-3].get("action") == "nominate 5"
    # version 1 wrote {"t", "action"} and {"t", "undo": true} lines
    old = tmp_path / "old.jsonl"
    head = {**json.loads(lines[0]), "journal": 1}
    body = [{"t": e.t, "action": e.get("action")} for e in events if e.type == "action"]
    old.write_text("\n".join(json.dumps(x) for x in [head, *body, {"t": 9.0, "undo": True},
                                                    body[-1]]) + "\n")
    assert load_journal(old).game().candidates == (5,)
    old.write_text(json.dumps({**head, "journal": 3}) + "\n")
    with pytest.raises(NarratorError, match=r"old.jsonl:1: a journal of version 3"):
        load_journal(old)
