"""The timeline is the record's: its lines are the transcript's, its moments the protocol's."""

from __future__ import annotations

from pathlib import Path

from narrator.clock import VirtualClock
from narrator.engine import Foul, Game, Hands, Remove, parse_action
from narrator.engine import events as ev
from narrator.host.assembly import assemble_host
from narrator.host.journal import Journal
from narrator.replay.script import load_table_script
from narrator.replay.table import ScriptReplay
from narrator.review.record import load_record
from narrator.review.timeline import ACCEPTED, Entry, timeline
from narrator.voice.manifest import default_manifest
from tests.review.recorded import GOOD, HELLO, NO, THANKS, Recorded

SCRIPTS = Path(__file__).resolve().parents[1] / "replay" / "scripts"


def _timeline(source: Path) -> list[Entry]:
    record = load_record(source)
    return timeline(record.game, record.inputs, default_manifest(record.lang),
                    lang=record.lang, start=record.origin)


def _of(entries: list[Entry], kind: type) -> list:
    """The events or actions of ``kind`` the timeline writes (once each: not the lines said
    for them, not an undo's)."""
    return [e.source for e in entries
            if isinstance(e.source, kind) and e.kind not in ("said", "undo")]


def test_a_session_timeline_is_its_transcript_and_its_protocol(recorded: Recorded) -> None:
    entries = _timeline(recorded.folder)
    live = recorded.loop
    # every line said and every note, at its time (recorded to the microsecond), as the
    # table's transcript has it (the notes in the table's words)
    assert [(e.t, e.text if e.kind == "said" else "") for e in entries if e.transcribed] == [
        (round(t, 6), text.strip() if text.startswith("«") else "")
        for t, text in live.transcript.entries]
    protocol = live.protocol()
    day = protocol["days"][0]
    assert [e.target for e in _of(entries, ev.Nominated)] == day["nominations"] == [5, 7]
    votes = {str(v.candidate): v.votes for v in _of(entries, ev.VoteCounted)}
    assert votes == day["rounds"][0]["votes"] == {"5": 4, "7": 6}
    assert [h.seats for h in _of(entries, Hands)] == [(1, 2, 4, 6), (3, 5, 7, 8, 9, 10)]
    assert [(o.seat, o.how) for o in _of(entries, ev.SeatOut)] == [
        (int(s), v["out"]["how"]) for s, v in protocol["seats"].items() if v["out"]]
    fouls = [f.seat for f in _of(entries, Foul)]
    assert {str(s): fouls.count(s) for s in fouls} == {
        s: v["fouls"] for s, v in protocol["seats"].items() if v["fouls"]} == {"4": 1}
    refused = [e for e in entries if e.kind == "refused"]
    assert [(e.seats, e.reason) for e in refused] == [
        ((r["seat"], r["target"]), r["reason"]) for r in protocol["refused"]]


def test_each_phrase_heard_says_what_it_became(recorded: Recorded) -> None:
    entries = _timeline(recorded.folder)
    heard = [e for e in entries if e.kind == "heard"]
    assert [h.text.strip("«»") for h in heard] == [h.text for h in recorded.loop.heard
                                                  if h.actions]
    became = {h.text.strip("«»"): h.outcome for h in heard}
    assert became[HELLO] == became[GOOD] == ACCEPTED
    assert became[NO].startswith("отказ: ") and became[NO].endswith("(future_tense)")
    assert became[THANKS] == "принято: конец речи"
    # the speaker of each phrase: seats 1 to 10 said «спасибо», in order
    assert [h.seats for h in heard if h.text == f"«{THANKS}»"] == [(s,) for s in range(1, 11)]
    press = [e for e in entries if e.kind == "press"]
    assert [p.outcome for p in press] == [
        "принято: фол: 4", "принято: руки: 1 2 4 6, время вышло: голосование",
        "принято: руки: 3 5 7 8 9 10, время вышло: голосование"]


def journal_of_a_whole_game(path: Path) -> tuple[Game, list[tuple[float, str]]]:
    """A whole game (a car crash, a missed night, a removal, fouls, nicknames) journaled by a
    host on a virtual clock, with a foul given by mistake and taken back and the host's marks
    after it; returns the game and the host's transcript."""
    script = load_table_script(SCRIPTS / "export-crash-miss-removal.table.jsonl")
    actions = ScriptReplay(script).run().game.history
    game = Game(script.rules, seats=script.seats, roles=script.roles, names=script.names)
    journal = Journal.for_game(path, game, fsync=False)
    assembly = assemble_host(game, VirtualClock(100.0), manifest=default_manifest("ru"),
                             journal=journal)
    host = assembly.host
    host.start()
    for n, action in enumerate(actions):
        host.scheduler.move_to(host.now() + 1.5)
        if n == 7:  # the host's slip, undone
            host.apply(Foul(2))
            host.scheduler.move_to(host.now() + 0.5)
            host.undo()
        host.apply(action)
    for mark in ("mark 3 +0.3 best_player -- нашёл дона", "mark 7 worst_move -- отдал ход"):
        host.scheduler.move_to(host.now() + 2.0)
        host.apply(parse_action(mark))
    journal.close()
    return game, assembly.transcript.entries


def test_a_journal_timeline_is_its_transcript_and_its_protocol(tmp_path: Path) -> None:
    game, transcript = journal_of_a_whole_game(tmp_path / "game.journal.jsonl")
    entries = _timeline(tmp_path / "game.journal.jsonl")
    assert [(e.t, e.text if e.kind == "said" else "") for e in entries if e.transcribed] == [
        (t, text.strip() if text.startswith("«") else "") for t, text in transcript]
    assert entries[-1].t == 100.0 + 1.5 * (len(game.history) - 2) + 0.5 + 4.0
    protocol = game.protocol()
    assert [e.source for e in entries if e.kind == "undo"] == [Foul(2)]
    fouls = [f.seat for f in _of(entries, Foul)]  # the undone one too: it was given
    kept = {s: v["fouls"] for s, v in protocol["seats"].items() if v["fouls"]}
    assert {str(s): fouls.count(s) for s in fouls} == {**kept, "2": kept.get("2", 0) + 1}
    assert [r.seat for r in _of(entries, Remove)] == [
        int(s) for s, v in protocol["seats"].items() if (v["out"] or {}).get("how") == "removed"]
    out = {int(s): v["out"]["how"] for s, v in protocol["seats"].items() if v["out"]}
    assert len(out) >= 3 and "removed" in out.values()
    assert sorted((o.seat, o.how) for o in _of(entries, ev.SeatOut)) == sorted(out.items())
    rounds = [r["votes"] for day in protocol["days"] for r in day["rounds"]]
    counted = [(str(v.candidate), v.votes) for v in _of(entries, ev.VoteCounted)]
    assert counted == [kv for r in rounds for kv in r.items()]
    crash = [(c.votes_for, c.votes_against, c.passed) for c in _of(entries, ev.CrashResult)]
    assert crash and crash == [(d["crash"]["for"], d["crash"]["against"], d["crash"]["passed"])
                               for d in protocol["days"] if d["crash"]]
    marks = [(m.seat, m.points, m.titles, m.comment) for m in _of(entries, ev.Marked)]
    assert marks == [(3, 0.3, ("best_player",), "нашёл дона"), (7, 0.0, ("worst_move",), "отдал ход")]
    assert [e.source for e in entries if e.kind == "mark"] == _of(entries, ev.Marked)


def test_a_press_says_what_it_became_an_undo_too() -> None:
    from narrator.inputs import Input
    from tests.helpers import day_one

    game = day_one()
    inputs = [Input("operator", 10.0, {"do": "foul", "seat": 6}),
              Input("action", 10.0, {"action": "foul 6"}),
              Input("operator", 12.0, {"do": "undo"}), Input("undo", 12.0),
              Input("pad", 15.0, {"seat": 1, "do": "nominate", "target": 3}),
              Input("action", 15.0, {"action": "nominate 3"})]
    entries = timeline(game, inputs, default_manifest("ru"))
    presses = [(e.text, e.seats, e.outcome) for e in entries if e.kind == "press"]
    assert presses == [("оператор: фол игрок=6", (6,), "принято: фол: 6"),
                       ("оператор: отмена", (), "принято: отмена: «фол: 6» взято назад"),
                       ("игрок 1: выставление кого=3", (1,), "«Принято»")]
    assert [e.source for e in entries if e.kind == "undo"] == [Foul(6)]
    assert game.history[-1] == parse_action("nominate 3") and Foul(6) not in game.history
