"""``narrator export --format mafiaratings``: MafiaRatings' game JSON, field by field.

The expected records are worked out by hand from the games' scripts and the format's own
description: rounds count from 0 (round N-1 is the narrator's night N and day N), ``death`` is
``{"round", "type"}`` with ``"time"`` for a removal, ``warnings`` are the moments of each
warning, ``don``/``sheriff`` the round of the check, ``voting`` per round the candidate (a list
when the table split, ending with the car-crash hand), ``nominating`` per round the candidate,
``shooting`` per night from round 1, trailing nulls cut.
"""

from __future__ import annotations

import json
import random
import stat
from pathlib import Path
from typing import Any

import pytest

from narrator.audio.session import INPUTS
from narrator.cli import main
from narrator.engine import Game, HandCount, Hands
from narrator.engine import waits as w
from narrator.engine.catalogue import code_of
from narrator.engine.rules import find_rules
from narrator.errors import NarratorError
from narrator.host.journal import Journal
from narrator.host.recorder import Recorder
from narrator.inputs import ACTION, TABLE, Input
from narrator.replay.export import GameSource, load_source, mafiaratings
from narrator.testing import play_random_game, random_action
from tests.replay.mafiaratings_rules import assert_votes_kept

SCRIPTS = Path(__file__).parent / "scripts"
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
GAME = SCRIPTS / "export-crash-miss-removal.table.jsonl"
START = "2024-05-17T19:30:00+03:00"


def export(path: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> dict[str, Any]:
    assert main(["export", "--format", "mafiaratings", str(path), "--start", START, "--demo",
                 *extra]) == 0
    record: dict[str, Any] = json.loads(capsys.readouterr().out)
    return record


def speaking(rnd: int, speaker: int) -> dict[str, Any]:
    return {"round": rnd, "time": "speaking", "speaker": speaker, "order": 1}


#: the game of GAME, worked out by hand
EXPECTED_PLAYERS: list[dict[str, Any]] = [
    # 1: voted 4 twice and «за» in the crash; shot in night 3 (round 2)
    {"name": "Ника", "role": "civ", "death": {"round": 2, "type": "night"},
     "voting": [[4, 4, True]], "nominating": [4]},
    # 2: the don checked 2 in night 3; shot in night 4; no vote on day 2 (2.4.3)
    {"role": "civ", "death": {"round": 3, "type": "night"}, "don": 2,
     "voting": [[4, 4, True], None, 7], "nominating": [5]},
    # 3: the sheriff, found by the don in night 2 (round 1)
    # (its nomination of 9 on day 2 is left out: that day's vote was cancelled, 2.4.3, and
    # MafiaRatings drops every vote of a game whose round has nominations and no votes)
    {"role": "sheriff", "don": 1, "voting": [[4, 4, True], None, 7, 9],
     "nominating": [None, None, 7]},
    # 4 and 5 leave in the car crash of day 1 (type "day", round 0); abstained: vote for 5
    {"role": "maf", "death": {"round": 0, "type": "day"}, "voting": [[5, 5, False]]},
    {"role": "civ", "death": {"round": 0, "type": "day"}, "voting": [[5, 5, False]]},
    # 6: a warning as given the floor on day 1, another during the hunt of night 3
    {"role": "civ", "warnings": [speaking(0, 6), {"round": 2, "time": "shooting", "order": 1}],
     "voting": [[4, 4, True], None, 7, 9], "nominating": [None, None, 9, 9]},
    # 7: the don; shot 3 in night 2 (the miss) and 1 in night 3; voted out on day 3
    {"name": "Momento Mori", "role": "don", "death": {"round": 2, "type": "day"}, "sheriff": 2,
     "voting": [[5, 5, False], None, 9], "shooting": [3, 1]},
    # 8: a warning during the car-crash question, after the second voting round
    {"role": "civ", "warnings": [{"round": 0, "time": "voting kill all", "votingRound": 2,
                                  "order": 1}],
     "voting": [[4, 4, True], None, 7, 9]},
    # 9: checked by the sheriff in night 2 (and again in night 4: the first check counts)
    {"role": "maf", "death": {"round": 3, "type": "day"}, "sheriff": 1,
     "voting": [[5, 5, False], None, 9, 9], "shooting": [2, 1, 2]},
    # 10: removed as seat 8 was given the floor on day 2
    {"role": "civ", "death": {"round": 1, "type": "kickOut", "time": speaking(1, 8)},
     "voting": [[5, 5, True]]},
]
for _seat, _player in enumerate(EXPECTED_PLAYERS, 1):  # a seat without a nickname: its number
    _player.setdefault("name", f"Игрок {_seat}")


def test_export_mafiaratings_field_by_field_crash_miss_removal_fouls(
        capsys: pytest.CaptureFixture[str]) -> None:
    record = export(GAME, capsys)
    assert set(record) == {"features", "rules", "startTime", "endTime", "language", "winner",
                           "players"}
    assert sorted(record["features"]) == sorted("gsdutchvknwr")
    assert record["rules"] == code_of(find_rules("crime-time"))
    # Unix seconds, as MafiaRatings' create path reads them; the game's length on the
    # replay's virtual clock: 5 min 18 s
    assert record["startTime"] == int(_fixed_start().timestamp()) == 1715963400
    assert record["endTime"] == record["startTime"] + 5 * 60 + 18
    assert record["language"] == "ru"
    assert record["winner"] == "civ"
    assert len(record["players"]) == 10
    for seat, (got, want) in enumerate(zip(record["players"], EXPECTED_PLAYERS, strict=True), 1):
        assert got == want, f"seat {seat}"


def test_export_ids_and_a_file_readable_by_its_owner_only(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "game.json"
    assert main(["export", "--format", "mafiaratings", str(GAME), "--start", START,
                 "--club-id", "42", "--event-id", "7", "--moderator-id", "5", "--demo",
                 "-o", str(out)]) == 0
    record = json.loads(out.read_text(encoding="utf-8"))
    assert record["clubId"] == 42 and record["eventId"] == 7
    assert record["moderator"] == {"id": 5}
    assert stat.S_IMODE(out.stat().st_mode) == 0o600  # it holds every role


def _counted_journal(tmp_path: Path) -> Path:
    """GAME as a human host would have journaled it: hands counted, not named."""
    played = load_source(GAME).game
    game = Game(played.rules, seats=played.seats, roles=dict(played.roles), names=played.names)
    path = tmp_path / "journal.jsonl"
    journal = Journal.for_game(path, game, fsync=False)
    game.start()
    for i, action in enumerate(played.history):
        if isinstance(action, Hands) and isinstance(game.expect, w.Vote):
            action = HandCount(len(action.seats))
        game.apply(action)
        journal.write(Input(ACTION, 100.0 + i, {"action": str(action)}))
    journal.close()
    assert game.winner is not None
    return path


def test_export_of_counted_hands_has_no_votes_and_says_so(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    path = _counted_journal(tmp_path)
    assert main(["export", "--format", "mafiaratings", str(path), "--start", START,
                 "--demo"]) == 0
    captured = capsys.readouterr()
    record = json.loads(captured.out)
    assert "v" not in record["features"] and "k" not in record["features"]
    assert "n" in record["features"]
    assert all("voting" not in p for p in record["players"])
    assert "counted, not named" in captured.err
    # everything else is the record of the named hands
    for got, want in zip(record["players"], EXPECTED_PLAYERS, strict=True):
        assert got == {k: v for k, v in want.items() if k != "voting"}


def test_export_from_a_recorded_session_needs_no_audio(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    played = load_source(GAME).game
    folder = tmp_path / "session"
    folder.mkdir()
    rec = Recorder(folder / INPUTS)
    rec.write(Input(TABLE, 10.0, {
        "rules": "crime-time", "seats": 10, "lang": "ru", "chunk_ms": 40,
        "roles": {str(s): r.value for s, r in played.roles.items()},
        "names": {"1": "Ника", "7": "Momento Mori"}, "history": []}))
    for i, action in enumerate(played.history):
        rec.write(Input(ACTION, 11.0 + i, {"action": str(action)}))
    rec.close()
    record = export(folder, capsys)
    assert record["players"] == EXPECTED_PLAYERS


def test_export_refuses_an_unfinished_game_in_one_line(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.table.jsonl"
    path.write_text('{"rules": "crime-time"}\n{"speech": 1}\n', encoding="utf-8")
    assert main(["export", "--format", "mafiaratings", str(path)]) == 2
    err = capsys.readouterr().err
    assert "the game is not over" in err and len(err.strip().splitlines()) == 1


def test_export_refuses_a_table_the_format_does_not_know(tmp_path: Path) -> None:
    rng = random.Random(3)
    game = Game(seats=8, rng=rng)
    game.start()
    while not game.is_over:
        game.apply(random_action(game, rng))
    with pytest.raises(NarratorError, match="ten seats"):
        mafiaratings(GameSource(game, "ru", 60.0, tmp_path / "g"), start=_fixed_start())


def test_export_of_a_vrn_game_names_its_cards_not_its_seats(
        capsys: pytest.CaptureFixture[str]) -> None:
    """A vrn game has the ten seats MafiaRatings takes: what it cannot take is the doctor and
    the maniac, and the one line says so."""
    path = EXAMPLES / "vrn-mafia-wins.table.jsonl"
    assert main(["export", "--format", "mafiaratings", str(path)]) == 2
    err = capsys.readouterr().err
    assert err == (f"narrator: {path}: MafiaRatings takes ten seats with 6 civilians, a "
                   "sheriff, 2 mafia and a don; this game's cards are 4 civilians, a sheriff, "
                   "2 mafia, a don, a doctor and a maniac (vrn)\n")
    assert "10 seats" not in err
    amateur = EXAMPLES / "amateur-twelve.table.jsonl"
    assert main(["export", "--format", "mafiaratings", str(amateur)]) == 2
    assert capsys.readouterr().err.endswith("; this game has 12 seats (amateur)\n")


def test_export_of_a_first_day_without_a_vote_has_no_nominations_that_day(
        capsys: pytest.CaptureFixture[str]) -> None:
    """first_day = "none": day 1 has nominations and no vote. MafiaRatings
    (include/game.php's check) drops every vote of the game when a round has nominees and a
    living player without a vote — «Player 1 did not vote in round 0 … All votings are
    removed» — so round 0 keeps no nominations; day 2 nominates and votes as usual."""
    record = export(EXAMPLES / "professional-first-day-none.table.jsonl", capsys)
    players = record["players"]
    for player in players:  # nobody nominated or voted in round 0, and nobody died in it
        assert player.get("nominating", [None])[0] is None, player
        voting = player.get("voting", [])
        assert not voting or voting[0] is None, player
        assert player.get("death", {}).get("round") != 0
    assert players[1]["nominating"] == [None, 4]  # seat 2 put up 4 on day 2
    assert players[3]["death"] == {"round": 1, "type": "day"}  # 4, voted out on day 2
    assert_votes_kept(record)


def test_export_of_a_lift_only_first_day_has_its_rounds_and_nobody_out(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """first_day = "lift_only": round 0's two voting rounds are there, and nobody died in it
    (its leader spoke, stayed, and left on day 2); a warning in the leader's speech is a moment
    of round 0's second voting round, the one he led."""
    lines = (EXAMPLES / "vrn-closed-first-day-lift.table.jsonl").read_text(encoding="utf-8")
    leader = '{"speech": 4, "say": [[25.0, "дякую"]]}'
    assert lines.count(leader) == 1
    path = tmp_path / "lift.table.jsonl"
    path.write_text(lines.replace(leader, '{"foul": 6}\n' + leader), encoding="utf-8")
    players = export(path, capsys)["players"]
    assert players[0]["voting"][0] == [4, 4]  # seat 1: 4 in both rounds of day 1
    assert players[4]["voting"][0] == [5, 5]  # seat 5 counted for the last candidate, twice
    assert all(p.get("death", {}).get("round") != 0 for p in players)
    assert players[3]["death"] == {"round": 1, "type": "day"}
    assert players[5]["warnings"] == [{"round": 0, "time": "voting", "votingRound": 1,
                                       "speaker": 4, "order": 1}]


def test_export_bad_start_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export", "--format", "mafiaratings", str(GAME), "--start", "yesterday"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("narrator: --start:") and len(err.strip().splitlines()) == 1


def _death_round(player: dict[str, Any]) -> int | None:
    death = player.get("death")
    return None if death is None else int(death["round"])


@pytest.mark.parametrize("seed", range(40))
def test_exported_random_games_keep_the_formats_own_consistency_rules(seed: int) -> None:
    """The checks MafiaRatings runs on an imported game (nobody nominates, votes or shoots after
    their death round; votes go to that round's nominees; every seat at the table votes in a
    vote that was held; only the mafia shoot; at most four warnings), over random games."""
    game = play_random_game(random.Random(seed))
    assert game.is_over
    record = mafiaratings(GameSource(game, "ru", 3600.0, Path("random")),
                          start=_fixed_start()).record
    players = record["players"]
    for seat, p in enumerate(players, 1):
        dead = _death_round(p)
        for key in ("voting", "nominating"):
            if key in p and dead is not None:
                assert len(p[key]) <= dead + 1, (seed, seat, key)
        if "shooting" in p:
            assert p["role"] in ("maf", "don")
            if dead is not None:
                assert len(p["shooting"]) <= dead + (0 if p["death"]["type"] == "night" else 1)
        assert len(p.get("warnings", [])) <= 4
        assert p.get("death", {}).get("type", "day") in ("day", "night", "kickOut", "warnings")
    assert_votes_kept(record)  # MafiaRatings' own check keeps every vote
    if "v" not in record["features"]:
        return
    rounds = max((len(p.get("voting", [])) for p in players), default=0)
    for rnd in range(rounds):
        voted = [p for p in players if rnd < len(p.get("voting", []))
                 and p["voting"][rnd] is not None]
        if voted:  # a vote was held: everyone still at the table that day voted (2.4)
            for seat, p in enumerate(players, 1):
                dead = _death_round(p)
                if dead is None or dead > rnd:
                    assert p in voted, (seed, rnd, seat)
        nominees = {p["nominating"][rnd] for p in players
                    if rnd < len(p.get("nominating", [])) and p["nominating"][rnd] is not None}
        votes = [p["voting"][rnd] for p in players
                 if rnd < len(p.get("voting", [])) and p["voting"][rnd] is not None]
        for vote in votes:
            picks = vote if isinstance(vote, list) else [vote]
            for pick in picks:
                if not isinstance(pick, bool):
                    assert pick in nominees, (seed, rnd, pick, nominees)


def _fixed_start() -> Any:
    from datetime import datetime

    return datetime.fromisoformat(START)


SPORT_GAME = "\n".join([
    '{"rules": "crime-time", "roles": {"don": 3, "mafia": [5, 9], "sheriff": 1}, '
    '"options": {"fouls": "sport", "best_move": true}}',
    *(f'{{"speech": {s}}}' for s in range(1, 11)),
    '{"night": {"shots": {"3": 7, "5": 7, "9": 7}, "don": 1, "sheriff": 3}}',
    '{"best_move": [3, 5, 6]}',
    '{"speech": 7}',
    '{"speech": 2}',
    *['{"foul": 8}'] * 4,  # as seat 3 is given the floor: the 4th removes seat 8
    *(f'{{"speech": {s}}}' for s in (3, 4, 5, 6, 9, 10, 1)),
    '{"night": {"shots": {"3": 2, "5": 2, "9": 2}}}',
    '{"speech": 2}',
    '{"speech": 3, "say": [[5, "выставляю номер один"], [9, "спасибо"]]}',
    *(f'{{"speech": {s}}}' for s in (4, 5, 6, 9, 10, 1)),
    '{"vote": {"1": [3, 4, 5, 6, 9, 10]}}',
]) + "\n"


def test_export_sport_fourth_foul_is_a_death_by_warnings_and_the_best_move_a_legacy(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "sport.table.jsonl"
    path.write_text(SPORT_GAME, encoding="utf-8")
    record = export(path, capsys)
    assert record["winner"] == "maf"
    assert "l" in record["features"]
    players = record["players"]
    assert players[6]["death"] == {"round": 1, "type": "night"}
    assert players[6]["legacy"] == [3, 5, 6]
    assert all("legacy" not in p for i, p in enumerate(players) if i != 6)
    assert players[7]["warnings"] == [
        {"round": 1, "time": "speaking", "speaker": 3, "order": k} for k in (1, 2, 3, 4)]
    assert players[7]["death"] == {"round": 1, "type": "warnings"}  # its moment: the 4th warning
    assert players[0]["death"] == {"round": 2, "type": "day"}
    assert players[0]["don"] == 1 and players[2]["sheriff"] == 1
    assert "voting" not in players[7]  # no vote on day 2 (2.4.3), and out before day 3's
    assert players[0]["voting"] == [None, None, 1]


def test_export_of_a_transcribed_public_game_gives_back_its_published_record(
        capsys: pytest.CaptureFixture[str]) -> None:
    """MafiaRatings game 1128, as published (its older layout: rounds counted from the first
    shooting night, seats from 0), turned into today's layout by hand: the transcription
    replays and exports to the same roles, deaths, checks, nominations, votes and shots."""
    record = export(EXAMPLES / "sheriff-shot-checks.table.jsonl", capsys)
    assert record["winner"] == "civ"
    n = None
    published: list[dict[str, Any]] = [
        {"name": "Momento Mori", "role": "civ", "death": {"round": 1, "type": "night"}},
        {"name": "Mafia", "role": "civ", "don": 1, "voting": [n, 3, 10, 7]},
        {"name": "Watson", "role": "maf", "death": {"round": 1, "type": "day"},
         "voting": [n, 9], "nominating": [n, 2], "shooting": [1]},
        {"name": "babadysia", "role": "civ", "death": {"round": 3, "type": "night"},
         "sheriff": 1, "voting": [n, 3, 10], "nominating": [n, 3, 9]},
        # the sheriff: found by the don and shot in night round 2, checking seat 8 that night
        {"name": "yukonsam", "role": "sheriff", "death": {"round": 2, "type": "night"},
         "don": 2, "voting": [n, 3]},
        {"name": "Len4a", "role": "civ", "voting": [n, 3, 10, 7], "nominating": [n, n, 10]},
        {"name": "Igorbek", "role": "maf", "death": {"round": 3, "type": "day"},
         "voting": [n, 3, 10, 9], "nominating": [n, n, n, 9], "shooting": [1, 5, 4]},
        {"name": "pravda", "role": "civ", "sheriff": 2, "voting": [n, 3, 10, 7]},
        {"name": "Maha88", "role": "civ", "voting": [n, 3, 2, 7], "nominating": [n, n, 7, 7]},
        {"name": "Shapoklyak", "role": "don", "death": {"round": 2, "type": "day"},
         "voting": [n, 3, 9], "nominating": [n, 9, 2], "shooting": [1, 5]},
    ]
    for seat, (got, want) in enumerate(zip(record["players"], published, strict=True), 1):
        assert got == want, f"seat {seat}"
