"""The evening's results by the club's scoring system (FIIM computed by hand from its
definition, a MafiaRatings scoring JSON kept in the book), split as MafiaRatings splits the
points, in the system's order with its tie-breaks; ``narrator standings`` across evenings."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from narrator.cli import main
from narrator.club.file import NO_CLUB, read_club
from narrator.club.scoring import Points, ScoringSpec
from narrator.engine import Foul, Mark, Remove, TimeUp
from narrator.errors import NarratorError
from narrator.evening.book import EveningBook
from narrator.evening.results import csv_text, tally, write_results
from narrator.scoring.system import SYSTEMS
from tests.evening.test_evening import NAMES, ROLES, finished_game, journal_game, new_book

ROSTER = [(n, NAMES[n - 1]) for n in range(1, 11)]
SAME = {s: s for s in range(1, 11)}  # player n on seat n
TURNED = {s: 11 - s for s in range(1, 11)}  # player n on seat 11 - n


def two_games() -> list:
    # 1: a foul on 2, the black seats (3 don, 5 and 9 mafia) removed: the civilians win
    one = finished_game(TimeUp("dealing"), Foul(2), Remove(3), Remove(5), Remove(9))
    # 2: four red seats removed: the mafia wins
    two = finished_game(TimeUp("dealing"), Remove(2), Remove(4), Remove(6), Remove(7))
    return [(one, SAME), (two, TURNED)]


def test_fiim_points_of_an_evening_are_its_definition_by_hand() -> None:
    """FIIM at version 1 (MafiaRatings' scoring 19 before its versions): a win 1; «Kicked out» −0.5. By hand, player by player:
    game 1 the reds (1 2 4 6 7 8 10) win, the removed blacks (3 5 9) −0.5; game 2 (seat s is
    player 11 − s) the blacks' players 8 6 2 win, the removed reds' 9 7 5 4 −0.5."""
    table = tally(two_games(), ROSTER, SYSTEMS["fiim@1"])
    points = {r.number: r.points for r in table}
    assert points == {1: 1, 2: 2, 3: -0.5, 4: 0.5, 5: -1, 6: 2, 7: 0.5, 8: 2, 9: -1, 10: 1}
    by = {r.number: r for r in table}
    assert by[4].groups == {"main": 1, "extra": 0, "legacy": 0, "penalty": -0.5, "night1": 0}
    # the tie-breaks, "(epg)wsk": at 2 the don's win (8) first; at 1 the sheriff's (1);
    # at 0.5 and −1 all the same: by number
    assert [r.number for r in table] == [8, 2, 6, 1, 10, 4, 7, 3, 5, 9]
    assert [r.place for r in table] == list(range(1, 11))
    assert (by[8].special_role_wins, by[1].special_role_wins, by[2].special_role_wins) == \
        (1, 1, 0)
    assert [g["game"] for g in by[2].per_game] == [1, 2]
    assert by[9].per_game[1] == {"game": 2, "points": -0.5, "main": 0, "extra": 0,
                                 "best_move": 0, "penalty": -0.5, "compensation": 0}


def test_fiim_gives_the_first_victims_best_move_its_points() -> None:
    """FIIM version 1's legacy: 0.4 for three blacks named, 0.25 for two, reds only."""
    from tests.evening.test_evening import day_speeches, parse_table_script, replay_script
    from tests.helpers import SCRIPT_ROLES

    header = {"rules": "crime-time", "roles": SCRIPT_ROLES, "options": {"best_move": True}}
    lines = [header, *day_speeches(list(range(1, 11))),
             {"night": {"shots": {"3": 7, "5": 7, "9": 7}, "don": None, "sheriff": None}},
             {"best_move": [3, 5, 6]}]
    game = replay_script(parse_table_script("\n".join(json.dumps(x) for x in lines), "t")).game
    for seat in (3, 5, 9):
        game.apply(Remove(seat))
    game.apply(Mark(7, 0.3, ("best_player",), "два чёрных из трёх"))
    by = {r.number: r for r in tally([(game, SAME)], ROSTER, SYSTEMS["fiim@1"])}
    assert by[7].groups["legacy"] == 0.25 and by[7].points == pytest.approx(1.25)
    assert by[6].points == 1  # FIIM has no extra points: the mark changes nothing there
    sample = ScoringSpec("sample", {
        "main": [{"matter": 2, "points": 1}],
        "extra": [{"matter": 4194304, "points": "bonus"}]}).system()
    by = {r.number: r for r in tally([(game, SAME)], ROSTER, sample)}
    assert by[7].groups["extra"] == pytest.approx(0.3) and by[7].points == pytest.approx(1.3)


def test_the_files_hold_the_split_and_the_order(tmp_path: Path) -> None:
    system = SYSTEMS["fiim@1"]
    table = tally(two_games(), ROSTER, system)
    write_results(tmp_path, table, 2, system)
    body = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    assert (body["system"], body["sorting"], body["games"]) == ("fiim@1", "(epg)wsk", 2)
    first = body["players"][0]
    assert (first["place"], first["name"], first["points"], first["main"]) == (1, NAMES[7], 2, 2)
    rows = list(csv.DictReader(io.StringIO(csv_text(table))))
    assert [r["player"] for r in rows] == ["8", "2", "6", "1", "10", "4", "7", "3", "5", "9"]
    assert {k: rows[5][k] for k in ("main", "best_move", "extra", "penalty", "compensation",
                                    "points", "special_role_wins")} == {
        "main": "1", "best_move": "0", "extra": "0", "penalty": "-0.5", "compensation": "0",
        "points": "0.5", "special_role_wins": "0"}


def test_the_clubs_toml_names_the_system_and_the_book_keeps_it(tmp_path: Path) -> None:
    club = tmp_path / "club.toml"
    club.write_text('[scoring]\nsystem = "fiim"\n', encoding="utf-8")
    assert read_club(club).scoring == ScoringSpec("fiim")
    assert read_club(club).scoring.shown() == "fiim@7"
    (tmp_path / "ours.json").write_text(json.dumps({"main": [{"matter": 2, "points": 3}]}),
                                        encoding="utf-8")
    club.write_text('[scoring]\nfile = "ours.json"\n', encoding="utf-8")
    kept = read_club(club).scoring
    assert kept == ScoringSpec("ours", {"main": [{"matter": 2, "points": 3}]})
    book = new_book(tmp_path / "ev")
    book.scoring = kept
    book.save()
    assert json.loads(book.path.read_text(encoding="utf-8"))["scoring"] == {
        "name": "ours", "json": {"main": [{"matter": 2, "points": 3}]}}
    again = EveningBook.load(book.folder)
    (tmp_path / "ours.json").unlink()  # the evening keeps the system, not the file's name
    assert again.scoring == kept
    by = {r.number: r for r in tally(two_games(), ROSTER, again.scoring.system(Points()))}
    assert by[2].points == 6 and by[3].points == 0
    club.write_text('[scoring]\nsystem = "elo"\n', encoding="utf-8")
    with pytest.raises(NarratorError, match=r"club.toml: scoring.system: 'elo' is unknown"):
        read_club(club)
    assert read_club(None) is NO_CLUB and NO_CLUB.scoring.is_points


def evening(folder: Path, players: list[str], ids: dict[str, int]) -> EveningBook:
    book = new_book(folder, players)
    book.seating = SAME
    for player in book.players:
        if player.name in ids:
            book.set_id(player.number, ids[player.name])
    entry = book.new_game("crime-time")
    journal_game(book.journal(entry), "crime-time", ROLES, book.names_of(SAME),
                 TimeUp("dealing"), Remove(3), Remove(5), Remove(9))
    book.scoring = ScoringSpec("fiim")
    book.save()
    return book


def test_standings_across_evenings_match_players_by_id_then_nickname(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Evening 2 seats the players in another order, «ника» typed in lower case and Бублик
    with his MafiaRatings id, which evening 1 did not have: the same two players."""
    evening(tmp_path / "e1", NAMES, {})
    second = [NAMES[2], "ника", *NAMES[3:], NAMES[1]]  # seats: Кот, ника, Лис … Уж, Бублик
    evening(tmp_path / "e2", second, {"Бублик": 1102})
    first = EveningBook.load(tmp_path / "e1")
    first.set_id(2, 1102)  # Бублик's id known in one evening is his in both
    first.save()
    assert main(["standings", str(tmp_path / "e1"), str(tmp_path / "e2"), "--json"]) == 0
    body = json.loads(capsys.readouterr().out)
    rows = {p["name"]: p for p in body["players"]}
    # ``fiim`` is FIIM at its latest version, and the results say which
    assert body["system"] == "fiim@7" and body["games"] == 2 and len(rows) == 10
    # version 7: a win 1 and 0.3 to each player not given the worst move, each game
    # Ника: seat 1 (sheriff, won) then seat 2 (won); Бублик: seat 2 then seat 10 (won)
    assert (rows["ника"]["games"], rows["ника"]["points"]) == (2, pytest.approx(2.6))
    assert (rows["Бублик"]["games"], rows["Бублик"]["points"]) == (2, pytest.approx(2.6))
    # Кот: the don removed on evening 1 (−0.5), the sheriff winning on evening 2
    assert (rows["Кот"]["points"], rows["Кот"]["penalty"]) == (pytest.approx(1.1), -0.5)
    assert [g["game"] for g in rows["Кот"]["per_game"]] == ["e1/1", "e2/1"]
    assert main(["standings", str(tmp_path / "e1"), str(tmp_path / "e2"),
                 "--scoring", "points", "-o", str(tmp_path / "season.csv")]) == 0
    rows2 = list(csv.DictReader(io.StringIO((tmp_path / "season.csv").read_text("utf-8"))))
    assert {r["name"]: r["points"] for r in rows2}["Кот"] == "1"  # a win 1, a loss 0


def test_standings_of_a_folder_that_is_no_evening_is_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["standings", str(tmp_path)]) == 2
    assert capsys.readouterr().err == f"narrator: {tmp_path}: not an evening's folder " \
                                      f"(no evening.json)\n"


def _fiim_by_hand(game: object, seat: int) -> float:
    """FIIM version 1 from its definition, read off the game itself (not its matters): a win 1; the
    first night's victim, a red, 0.4 / 0.25 for three / two blacks named; −0.5 for a removal
    by four fouls (or two technical ones), −0.5 for any other removal by the host."""
    from narrator.engine import Game, Team

    assert isinstance(game, Game)
    team = game.rules.team(game.roles[seat], game.dealt)
    points = 1.0 if team is game.winner and game.winner is not Team.DRAW else 0.0
    best = game.best_move
    if best is not None and best.seat == seat and team is Team.RED:
        points += {3: 0.4, 2: 0.25}.get(best.black_named, 0.0)
    if game.how_out(seat) == "removed":
        points -= 0.5  # by warnings or by the host: −0.5 either way
    return points


def test_fiim_1_points_of_every_ten_seat_example_are_its_definition_by_hand() -> None:
    from narrator.replay.source import load_source
    from tests.replay.test_export_filing import TEN_SEATS

    for path in TEN_SEATS:
        game = load_source(path).game
        seats = {s: s for s in range(1, 11)}
        by = {r.number: r for r in tally([(game, seats)], ROSTER, SYSTEMS["fiim@1"])}
        assert {s: by[s].points for s in seats} == \
            pytest.approx({s: _fiim_by_hand(game, s) for s in seats}), path.name
