"""``narrator club fetch``: the club's setup from the rating site once (against a loopback
stand-in answering as its PHP does), and every evening and tournament started from the folder
with nothing typed."""

from __future__ import annotations

import csv
import io
import json
import socket
import stat
from pathlib import Path

import pytest

from narrator.cli import main
from narrator.club.file import read_club
from narrator.club.scoring import ScoringSpec
from narrator.engine.catalogue import code_of, parse_code
from narrator.evening.book import EveningBook
from tests.club.standin_site import Club, standin_site


def fetch(capsys: pytest.CaptureFixture[str], site: str, out: Path,
          club_id: int = 42) -> tuple[int, list[str]]:
    code = main(["club", "fetch", "--site", site, "--club-id", str(club_id), "-o", str(out)])
    return code, capsys.readouterr().err.splitlines()


def test_the_folder_holds_the_clubs_rules_scoring_and_players(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    club = Club()
    out = tmp_path / "club"
    with standin_site(club) as site:
        code, err = fetch(capsys, site, out)
    assert code == 0 and len(err) == 1, err
    assert err[0] == (f"narrator: the club «Клуб «Ночь»»: rules 0002000010000, 4 players with "
                      f"their ids, scored by «ФИИМ» version 7 — in {out}")
    assert sorted(club.asked) == ["club_rules.php", "clubs.php", "players.php", "scorings.php"]
    read = read_club(out / "club.toml")
    # the club's own rules (the first of club_rules.php's list), every group of its code
    assert dict(read.options) == {"rules": "0002000010000"}
    assert parse_code(read.options["rules"])["first_voting"] == "standard"
    # FIIM at the version the site scores by, which narrator has built in: by name
    assert read.scoring == ScoringSpec("fiim@7") and read.ignored is None
    assert 'system = "fiim@7"' in (out / "club.toml").read_text(encoding="utf-8")
    # every system the club may use, every version, as the site holds it
    files = sorted(p.name for p in (out / "scoring").iterdir())
    assert files == [*(f"19@{v}.json" for v in range(1, 8)), "77@1.json"]
    site_v7 = json.loads((out / "scoring" / "19@7.json").read_text(encoding="utf-8"))
    assert site_v7["legacy"][0]["name_ru"] == "ЛХ"  # kept whole
    rows = list(csv.reader(io.StringIO((out / "roster.csv").read_text(encoding="utf-8"))))
    assert rows == [["nickname", "mafiaratings_id"], ["Mafia", "1102"], ["Кот", "1104"],
                    ["Момент", "1101"], ["Ника, младшая", "1103"]]
    # the owner's only: the roster is the club's
    assert stat.S_IMODE(out.stat().st_mode) == 0o700
    assert all(stat.S_IMODE(p.stat().st_mode) == 0o600
               for p in [out / "club.toml", out / "roster.csv", *(out / "scoring").iterdir()])


def test_a_clubs_own_system_is_its_file_named_with_its_version(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    club = Club(scoring_id=77)
    with standin_site(club) as site:
        assert fetch(capsys, site, tmp_path / "c")[0] == 0
    text = (tmp_path / "c" / "club.toml").read_text(encoding="utf-8")
    assert 'file = "scoring/77@1.json"\nname = "Наша@1"' in text
    spec = read_club(tmp_path / "c" / "club.toml").scoring
    assert spec == ScoringSpec("Наша@1", {"main": [{"matter": 2, "points": 3}]})


def test_an_evening_starts_from_the_folder_with_nothing_typed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    from narrator.evening import cli as evening_cli

    with standin_site(Club(rules="1002000010001")) as site:
        assert fetch(capsys, site, tmp_path / "club")[0] == 0
    monkeypatch.setattr(evening_cli.Evening, "run", lambda self: 0)
    folder = tmp_path / "evening"
    assert main(["evening", str(folder), "--console", "127.0.0.1:0", "--listen", "off",
                 "--wav", "--club", str(tmp_path / "club")]) == 0
    book = EveningBook.load(folder)
    # the club's rules code is what every game of the evening plays (crime-time's own code
    # is another: 0000000101120)
    assert code_of(book.game_rules()) == "1002000010001"
    assert book.scoring == ScoringSpec("fiim@7")
    assert {p.name: p.mafiaratings for p in book.players} == {
        "Момент": 1101, "Mafia": 1102, "Ника, младшая": 1103, "Кот": 1104}


def test_a_tournament_takes_its_scoring_and_roster_from_the_folder(tmp_path: Path) -> None:
    from narrator.arguments import TournamentRunArgs
    from narrator.cli.commands import build_parser

    (tmp_path / "club").mkdir()
    (tmp_path / "club" / "club.toml").write_text('[scoring]\nsystem = "fiim@7"\n', "utf-8")
    (tmp_path / "club" / "roster.csv").write_text("nickname,mafiaratings_id\nКот,5\n", "utf-8")
    ns = build_parser().parse_args(["tournament", "run", str(tmp_path / "t"), "--plan", "p.json",
                                    "--console", "127.0.0.1:0", "--club",
                                    str(tmp_path / "club")])
    args = TournamentRunArgs.from_args(ns)
    assert (args.scoring, args.roster) == (str(tmp_path / "club" / "club.toml"),
                                           str(tmp_path / "club" / "roster.csv"))
    given = build_parser().parse_args(["tournament", "run", "t", "--plan", "p.json",
                                       "--console", "x:1", "--club", str(tmp_path / "club"),
                                       "--scoring", "fiim@1"])
    assert TournamentRunArgs.from_args(given).scoring == "fiim@1"  # what is given wins


def test_run_again_it_updates_the_folder_and_says_what_changed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    club = Club()
    out = tmp_path / "club"
    with standin_site(club) as site:
        assert fetch(capsys, site, out)[0] == 0
        toml = out / "club.toml"
        toml.write_text(toml.read_text(encoding="utf-8").replace(
            "kept by the next fetch --\n", 'kept by the next fetch --\nfouls = "sport"\n'), "utf-8")
        code, err = fetch(capsys, site, out)
        assert code == 0 and err[1:] == ["narrator: nothing changed since the last fetch"]
        club.rules = "0002000010001"
        club.players = [(1101, "Момент"), (1102, "Мафия"), (1105, "Сова")]
        club.scorings[77][2][2] = {"main": [{"matter": 2, "points": 2}]}
        code, err = fetch(capsys, site, out)
    assert code == 0
    assert err[1:] == [
        'narrator: rules: rules = "0002000010000" → rules = "0002000010001"',
        "narrator: new players: Сова",
        "narrator: players no longer listed: Кот, Ника, младшая",
        "narrator: renamed: Mafia → Мафия",
        "narrator: new scoring versions: scoring/77@2.json"]
    read = read_club(toml)
    assert dict(read.options) == {"rules": "0002000010001", "fouls": "sport"}  # its own kept


@pytest.mark.parametrize(("fault", "said"), [
    ({"clubs.php": (200, b'{"error":"Unknown club 42"}')}, "clubs.php: the site says: Unknown "
                                                           "club 42"),
    ({"scorings.php": (500, b"<html>oops</html>")}, "scorings.php: HTTP 500 ("),
    ({"players.php": (200, b"<html>not json</html>")}, "players.php: the answer is not the "
                                                       "site's JSON (bad JSON ("),
    ({"clubs.php": (200, b'{"clubs":[{"name":"X","scoring_id":"19"}]}')},
     "clubs.php: clubs[0].scoring_id: expected int, got '19'"),
    ({"club_rules.php": (200, b'{"rules":[{"name":"X","rules":"99"}]}')},
     "club_rules.php: rules: expected a code of 13 digits"),
    ({"scorings.php": (200, b'{"scorings":[{"id":1,"name":"S","versions":[{"version":1,'
                            b'"rules":{"main":[{"matter":2,"points":"nope("}]}}]}]}')},
     "scorings.php: scorings[0].versions[0].rules: main[0].points: formula 'nope('"),
    ({"players.php": (200, b'{"players":[{"id":' + b"9" * 5000 + b',"name":"A"}]}')},
     "players.php: the answer is not the site's JSON (a number of 5000 digits)"),
])
def test_a_bad_answer_from_the_site_is_one_line_and_writes_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        fault: dict[str, tuple[int, bytes]], said: str) -> None:
    with standin_site(Club(faults=fault)) as site:
        code, err = fetch(capsys, site, tmp_path / "club")
    assert code == 2 and len(err) == 1, err
    assert err[0].startswith(f"narrator: {site}: ") and said in err[0], err[0]
    assert not (tmp_path / "club").exists()


def test_an_unreachable_site_and_a_bad_option_are_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    code, err = fetch(capsys, f"http://127.0.0.1:{port}", tmp_path / "c")
    assert code == 2 and len(err) == 1 and "the site cannot be reached" in err[0]
    code, err = fetch(capsys, "mafiaratings.com", tmp_path / "c")
    assert code == 2 and err == ["narrator: --site: expected the site's address, e.g. "
                                 "https://mafiaratings.com, got 'mafiaratings.com'"]
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("mine", "utf-8")
    code, err = fetch(capsys, "http://127.0.0.1:1", tmp_path / "full")
    assert code == 2 and "is not empty and holds no club.toml" in err[0]
    assert not (tmp_path / "c").exists()
