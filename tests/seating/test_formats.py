"""The seating formats: each round-trips, a conversion chain keeps the plan, and every bad file
is one line naming it."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from narrator.errors import NarratorError
from narrator.seating.formats import guess_format, read_seating, seating_texts
from narrator.seating.mafiaratings import group_text, hash_of, parse_hash
from narrator.seating.score import Shape
from narrator.seating.value import Seating, seating

NAMES = ["Ника", "Бублик", "Momento Mori", 'Квот "с кавычкой"', "a,b"] + [
    f"Игрок-{i}" for i in range(5, 20)]
EXT = {"ours-json": "plan.json", "ours-csv": "plan.csv", "mafiaratings": "mr.json",
       "web-schedule": "ws.json"}


def random_plan(players: int = 20, tables: int = 2, rounds: int = 10,
                seed: int = 1) -> list[list[list[int]]]:
    rng = random.Random(seed)
    plan = []
    for _ in range(rounds):
        order = list(range(players))
        rng.shuffle(order)
        plan.append([order[t * 10:(t + 1) * 10] for t in range(tables)])
    return plan


def example(apart: bool = True) -> Seating:
    ids = [1000 + i for i in range(20)]
    return seating("test", random_plan(), NAMES, ids,
                   [{0, 1, 2}, {5, 9}] if apart else [])


def write(plan: Seating, fmt: str, folder: Path) -> Path:
    out = folder / EXT[fmt]
    for path, text in seating_texts(plan, fmt, out):
        path.write_text(text, encoding="utf-8")
    return out


def roster(plan: Seating) -> list[tuple[str, int | None]]:
    return list(zip(plan.names, plan.ids, strict=True))


def test_ours_json_round_trips_whole(tmp_path: Path) -> None:
    plan = example()
    path = write(plan, "ours-json", tmp_path)
    assert read_seating(path) == (plan, "ours-json")


def test_mafiaratings_round_trips_with_the_roster_naming_the_ids(tmp_path: Path) -> None:
    plan = example()
    path = write(plan, "mafiaratings", tmp_path)
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["hash"] == "20_2_10_0-2_5:9"
    assert doc["mapping"] == list(plan.ids)
    assert read_seating(path, roster=roster(plan)) == (plan, "mafiaratings")
    # without a roster: the same plan and ids, the players by number
    alone, _ = read_seating(path)
    assert (alone.rounds, alone.ids, alone.apart) == (plan.rounds, plan.ids, plan.apart)
    assert alone.names[:2] == ("Игрок 1", "Игрок 2")


@pytest.mark.parametrize("fmt", ["ours-csv", "web-schedule"])
def test_formats_without_groups_round_trip_the_plan_names_and_ids(fmt: str,
                                                                   tmp_path: Path) -> None:
    plan = example(apart=False)
    path = write(plan, fmt, tmp_path)
    back, found = read_seating(path, roster=roster(plan))
    assert found == fmt
    assert back.named_rounds() == plan.named_rounds()
    assert dict(zip(back.names, back.ids, strict=True)) == dict(roster(plan))
    if fmt == "web-schedule":  # players by index, as written
        assert back == plan


def test_web_schedule_is_what_its_site_keeps(tmp_path: Path) -> None:
    plan = example(apart=False)
    path = write(plan, "web-schedule", tmp_path)
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["configuration"] == {"numPlayers": 20, "numTables": 2, "numRounds": 10,
                                    "numGames": 20, "numAttempts": 10, "numTeams": 0}
    assert doc["rounds"][1] == {"id": 1, "gameIds": [2, 3]}
    assert doc["games"][3]["players"] == list(plan.rounds[1][1])
    people = json.loads((tmp_path / "ws.players.json").read_text(encoding="utf-8"))
    assert people["people"][2] == {"id": 2, "name": "Momento Mori"}
    # without the players file: the same plan, by number
    (tmp_path / "ws.players.json").unlink()
    alone, _ = read_seating(path)
    assert alone.rounds == plan.rounds and alone.names[19] == "Игрок 20"


def test_a_chain_ours_mafiaratings_web_schedule_ours_keeps_the_plan(tmp_path: Path) -> None:
    plan = example()
    (tmp_path / "a").mkdir()
    first = write(plan, "ours-json", tmp_path / "a")
    mr = write(read_seating(first)[0], "mafiaratings", tmp_path)
    ws = write(read_seating(mr, roster=roster(plan))[0], "web-schedule", tmp_path)
    (tmp_path / "b").mkdir()
    last = write(read_seating(ws, roster=roster(plan))[0], "ours-json", tmp_path / "b")
    back, _ = read_seating(last)
    # web_schedule keeps no groups kept apart: all else comes back
    assert back == Seating(plan.names, plan.rounds, plan.ids)


def test_the_api_answer_and_a_bare_array_are_read(tmp_path: Path) -> None:
    plan = example(apart=False)
    rounds = [[list(t) for t in rnd] for rnd in plan.rounds]
    api = tmp_path / "api.json"
    api.write_text(json.dumps({"seating": rounds, "status": "ok",
                               "seating_version": "3.1.2"}))
    bare = tmp_path / "bare.json"
    bare.write_text(json.dumps(rounds))
    for path in (api, bare):
        back, fmt = read_seating(path)
        assert fmt == "mafiaratings" and back.rounds == plan.rounds
        assert back.ids == (None,) * 20


def test_an_events_misc_and_a_mapping_of_objects(tmp_path: Path) -> None:
    rounds = [[list(range(10))]]
    path = tmp_path / "misc.json"
    path.write_text(json.dumps({"seating": {
        "hash": "10_1_1", "version": "0.0.0", "rounds": rounds,
        "mapping": [7, {"id": 0, "name": "Гость"}, 0] + [100 + i for i in range(7)]}}))
    back, _ = read_seating(path, roster=[("Семь", 7)])
    assert back.names[:4] == ("Семь", "Гость", "Игрок 3", "Игрок 4")
    assert back.ids[:4] == (7, None, None, 100)


def test_the_hash_is_generatehashs() -> None:
    assert group_text([0, 1, 2, 5, 9, 10]) == "0-2:5:9-10"
    assert group_text([0, 2]) == "0:2"  # (MafiaRatings' note: "0" must not swallow the ':')
    assert hash_of(Shape(20, 2, 10, (frozenset({3, 1, 2}), frozenset({7, 12})))) == \
        "20_2_10_1-3_7:12"
    # below 12 players no group counts
    assert hash_of(Shape(10, 1, 10, (frozenset({0, 1}),))) == "10_1_10"
    assert parse_hash("20_2_10_0-2_2-4_1:5", "h") == (20, 2, 10, [[0, 1, 2], [2, 3, 4], [1, 5]])
    # a hash stays within 255 characters: the groups past it are left out
    many = tuple(frozenset({i, i + 2}) for i in range(0, 200, 3))
    long = hash_of(Shape(300, 30, 10, many))
    assert len(long) <= 255 and long.startswith("300_30_10_0:2_3:5_")
    assert len(long) + len("_198:200") > 255


def test_the_format_is_told_by_the_content() -> None:
    assert guess_format('{"plan": 1}') == "ours-json"
    assert guess_format("round,table,seat,player\n1,1,1,A\n") == "ours-csv"
    assert guess_format('{"configuration": {}}') == "web-schedule"
    assert guess_format('{"hash": "10_1_1", "rounds": []}') == "mafiaratings"
    assert guess_format("[[[0]]]") == "mafiaratings"
    assert guess_format('{"people": []}') is None
    assert guess_format("a plan\n") is None


def _fails(tmp_path: Path, name: str, text: str, **kw: object) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(NarratorError) as e:
        read_seating(path, **kw)  # type: ignore[arg-type]
    message = str(e.value)
    assert "\n" not in message and message.startswith(str(path))
    return message.removeprefix(str(path))


def _ours(rounds: list[list[list[str]]], players: list[str], **extra: object) -> str:
    return json.dumps({"plan": 1, "players": players, "tables": len(rounds[0]),
                       "games": 1, "rounds": rounds, **extra}, ensure_ascii=False)


P = [f"p{i}" for i in range(20)]


def test_bad_files_are_one_line_each(tmp_path: Path) -> None:
    assert _fails(tmp_path, "a.json", '{"plan": 1,\n "players": [}') == \
        ":2: bad JSON (Expecting value)"
    assert _fails(tmp_path, "b.json", _ours([[P[:9]]], P[:9])) == \
        ": round 1, table 1 has 9 players, not 10"
    twice = [*P[:9], "p0"]
    assert _fails(tmp_path, "c.json", _ours([[P[:10], twice]], P)) == \
        ": round 1: player 1 sits twice"
    # 20 players, two rounds of one table: the first ten play twice, the others not at all
    assert _fails(tmp_path, "d.json", json.dumps([[list(range(10))], [list(range(10))],
                                                  [list(range(10, 20))]])) == \
        ": players play unequal games: player 11 1, player 1 2"
    assert _fails(tmp_path, "e.json", _ours([[P[:10]]], P[:10], ids=[1] * 9)) == \
        ": ids: 9 ids for 10 players"
    assert _fails(tmp_path, "f.json", _ours([[[*P[:9], "кто"]]], P[:10])) == \
        ": rounds: round 1, table 1, seat 10: «кто» is not one of the players"
    assert _fails(tmp_path, "g.json", _ours([[P[:10]]], P[:10], games=2)) == \
        ": games: 2, but the rounds have 1"
    assert _fails(tmp_path, "h.json", '{"plan": 2}') == \
        ': plan: 2 is not 1 (a plan file has "plan": 1)'
    assert _fails(tmp_path, "i.json", '{"people": []}').startswith(
        ": not a seating plan in any format known")
    assert _fails(tmp_path, "j.json", json.dumps({"hash": "20_2_10", "rounds": [[list(
        range(10))]]})) == ": hash: 20_2_10 says 20 players, 2 tables, 10 games; the plan has " \
        "10, 1, ?"
    assert _fails(tmp_path, "j2.json", json.dumps({"hash": "10_1_2", "rounds": [[list(
        range(10))]]})) == ": hash: 10_1_2 says 10 players, 1 tables, 2 games; the plan has " \
        "10, 1, 1"
    assert _fails(tmp_path, "j3.json", json.dumps({"hash": "10-1-1", "rounds": []})) == \
        ': hash: "10-1-1" is not players_tables_games[_group…]'
    assert _fails(tmp_path, "j4.json", _ours([[P[:10]]], P[:10]), players="x.json") == \
        ": a players file is web-schedule's; this plan is ours-json"
    # a number far past the plan's seats, or a tournament past any: refused before a list
    # of its players is made
    assert _fails(tmp_path, "m.json", json.dumps([[[*range(9), 10 ** 9]]])) == \
        ": 1,000,000,001 players; a plan seats at most 2,000"
    assert _fails(tmp_path, "n.json", json.dumps([[[*range(9), 20]]])) == \
        ": 21 players but 10 seats in the plan: not everybody plays"
    assert _fails(tmp_path, "k.json", json.dumps([[[0, 1, True]]])) == \
        ": rounds: round 1, table 1, seat 3: true is not a whole number from 0"


def _csv(lines: list[str]) -> str:
    return "round,table,seat,player\n" + "\n".join(lines) + "\n"


TEN_LINES = [f"1,1,{s},p{s}" for s in range(1, 11)]


def test_bad_csv_lines_name_the_line_and_the_field(tmp_path: Path) -> None:
    assert _fails(tmp_path, "a.csv", "round,table,place,player\n") == \
        ":1: the header is not round,table,seat,player"
    assert _fails(tmp_path, "b.csv", _csv([*TEN_LINES[:3], "1,1,11,x"])) == \
        ':5: seat: "11" is not 1–10'
    assert _fails(tmp_path, "c.csv", _csv(["0,1,1,x"])) == \
        ':2: round: "0" is not a whole number from 1'
    assert _fails(tmp_path, "d.csv", _csv(["1,один,1,x"])) == \
        ':2: table: "один" is not a whole number from 1'
    assert _fails(tmp_path, "e.csv", _csv(["1,1,1"])) == \
        ":2: 3 fields, not 4 (round,table,seat,player)"
    assert _fails(tmp_path, "f.csv", _csv(["1,1,1, "])) == ":2: player: empty"
    assert _fails(tmp_path, "g.csv", _csv([*TEN_LINES[:2], "1,1,2,p9"])) == \
        ":4: seat: round 1, table 1, seat 2 is given twice (line 3 too)"
    assert _fails(tmp_path, "h.csv", _csv([*TEN_LINES[:2], "1,1,3,P1"])) == \
        ":4: player: «P1» sits twice in round 1 (line 2 too)"
    assert _fails(tmp_path, "i.csv", _csv(TEN_LINES[:6] + TEN_LINES[7:])) == \
        ": round 1, table 1: no line for seat 7"
    assert _fails(tmp_path, "j.csv", "round,table,seat,player\n") == \
        ": no seat lines (round,table,seat,player)"
    assert _fails(tmp_path, "k.csv", _csv([*TEN_LINES, '2,1,1,"open'])) == \
        ":12: not CSV (unexpected end of data)"
    assert _fails(tmp_path, "l.json", _ours([[P[:10]]], P[:10], ids=[5] * 10)) == \
        ": the MafiaRatings id 5 twice (players 1 and 2)"


def test_bad_web_schedules(tmp_path: Path) -> None:
    plan = example(apart=False)
    path = write(plan, "web-schedule", tmp_path)
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["configuration"]["numAttempts"] = 9
    assert _fails(tmp_path, "ws.json", json.dumps(doc)) == \
        ": configuration: numAttempts: 9, but the schedule has 10"
    doc["configuration"]["numAttempts"] = 10
    doc["rounds"][0]["gameIds"] = [0, 99]
    assert _fails(tmp_path, "ws.json", json.dumps(doc)) == ": rounds: 0: gameIds: no game 99"
    doc["rounds"][0]["gameIds"] = [0, 1]
    path.write_text(json.dumps(doc))
    people = tmp_path / "ws.players.json"
    people.write_text('{"people": [{"id": 20, "name": "x"}]}')
    with pytest.raises(NarratorError, match=r"ws\.players\.json: people: 0: id: 20, but the "
                                            r"schedule has 20 players \(0–19\)$"):
        read_seating(path)
