"""Scoring systems as data: MafiaRatings' JSON read and checked, FIIM's points by hand, the
Sample Scoring's formulas, and where a club names its system."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from narrator.club.file import scoring_option
from narrator.errors import NarratorError
from narrator.scoring.fiim import LATEST
from narrator.scoring.matters import Matter, PlayerGame, ScoringRole
from narrator.scoring.system import (
    SYSTEMS,
    Counter,
    PointsTableSystem,
    ScoringSystem,
    from_json,
    ignored_line,
    points_table_system,
    sort_terms,
)

# MafiaRatings' sample database, scoring_versions: scoring 19 "ФИИМ" (its default) as stored,
# under the group's older name, and scoring 1 "Sample Scoring"
FIIM_RECORD = ('{"main":[{"matter":2,"points":1}],"prima_nocta":[{"matter":1024,"roles":3,'
               '"points":0.4},{"matter":2048,"roles":3,"points":0.25}],"penalty":[{"matter":'
               '4096,"points":-0.5},{"matter":8192,"points":-0.5}]}')
SAMPLE_RECORD = (
    '{"night1":[{"matter":260,"roles":3,"points":"max(min(counter(0,1)*1.2\\/counter(0,0)'
    '-0.18,0.3),0)"}],"counters":[{"matter":1},{"matter":256,"roles":3}],"main":[{"matter":1,'
    '"points":1}],"extra":[{"matter":4194304,"points":"bonus","mvp":true},{"matter":1,"points"'
    ':"mr_points","mvp":true,"name":"MR"}],"penalty":[{"matter":1,"points":"matter(12) || '
    'matter(13) || matter(14) ? -0.8 : (matter(25) ? -1 : 0)","mvp":true}]}')
NO_COUNTERS: tuple[list[int], list[int]] = ([], [])


def load_system(spec: str | Path) -> ScoringSystem:
    """The system ``--scoring SPEC`` names, as every command reads it."""
    found, points, _ = scoring_option(str(spec))
    return found.system(points)


def game(role: ScoringRole, *matters: Matter, extra: float = 0.0) -> PlayerGame:
    flags = Matter.PLAY.flag
    for m in matters:
        flags |= m.flag
    return PlayerGame(1, role, flags, extra)


def test_prima_nocta_scores_nothing_today_and_fiim_at_1_is_the_old_record_renamed() -> None:
    # the site's code reads no ``prima_nocta`` since db/alter114.sql renamed it ``legacy``:
    # the old record read as it is has no legacy points, and the one line says so
    old = from_json(json.loads(FIIM_RECORD), "scoring 19")
    assert set(old.groups) == {"main", "penalty"} and old.ignored == ("prima_nocta",)
    assert ignored_line(old, "scoring 19") == \
        "scoring 19: MafiaRatings' scoring reads no prima_nocta: it scores nothing"
    renamed = from_json(json.loads(FIIM_RECORD.replace("prima_nocta", "legacy")), "19")
    assert renamed.groups == SYSTEMS["fiim@1"].groups and renamed.ignored == ()
    assert set(renamed.groups) == {"main", "legacy", "penalty"}
    assert SYSTEMS["fiim@1"].sorting == "(epg)wsk" and load_system("fiim@1") is SYSTEMS["fiim@1"]
    # ``fiim`` is the latest version; every version is addressable
    assert load_system("fiim") is SYSTEMS[f"fiim@{LATEST}"] and LATEST == 7
    assert all(f"fiim@{v}" in SYSTEMS for v in range(1, 8)) and "fiim@8" not in SYSTEMS


@pytest.mark.parametrize("played, groups", [
    # FIIM version 1: a win 1; a red first-night victim guessing 3 blacks 0.4, 2 blacks 0.25;
    # killed by warnings -0.5, kicked out -0.5
    (game(ScoringRole.CIVILIAN, Matter.WIN), {"main": 1}),
    (game(ScoringRole.CIVILIAN, Matter.LOSE), {}),
    (game(ScoringRole.SHERIFF, Matter.WIN, Matter.KILLED_FIRST_NIGHT, Matter.FIRST_LEGACY_3),
     {"main": 1, "legacy": 0.4}),
    (game(ScoringRole.CIVILIAN, Matter.LOSE, Matter.FIRST_LEGACY_2), {"legacy": 0.25}),
    (game(ScoringRole.MAFIA, Matter.WIN, Matter.FIRST_LEGACY_3), {"main": 1}),  # reds only
    (game(ScoringRole.DON, Matter.LOSE, Matter.KICK_OUT), {"penalty": -0.5}),
    (game(ScoringRole.CIVILIAN, Matter.WIN, Matter.WARNINGS_4, Matter.KICK_OUT),
     {"main": 1, "penalty": -1}),
    (game(ScoringRole.CIVILIAN, Matter.WIN, Matter.FIRST_LEGACY_1, Matter.BEST_MOVE), {"main": 1}),
])
def test_fiim_1s_points_by_its_definition(played: PlayerGame, groups: dict[str, float]) -> None:
    got = SYSTEMS["fiim@1"].game_score(played, NO_COUNTERS)
    want = {"main": 0, "extra": 0, "legacy": 0, "penalty": 0, "night1": 0, **groups}
    assert got.groups == pytest.approx(want)
    assert got.total == pytest.approx(sum(groups.values())) and got.mvp == 0


def test_the_sample_scorings_formulas_bonus_penalty_and_mvp() -> None:
    sample = from_json(json.loads(SAMPLE_RECORD), "scoring 1", "sample")
    assert sample.counters == (Counter(1), Counter(256, 3))
    assert [p.name for p in sample.groups["extra"]] == [None, "MR"]
    bonus = game(ScoringRole.MAFIA, Matter.WIN, Matter.EXTRA_POINTS, extra=0.7)
    got = sample.game_score(bonus, NO_COUNTERS)
    # main: matter 1 (played) gives 1; extra: bonus 0.7 and mr_points 0; mvp: extra and penalty
    assert (got.groups["main"], got.groups["extra"], got.groups["penalty"]) == \
        pytest.approx((1, 0.7, 0))
    assert got.mvp == pytest.approx(0.7)
    kicked = sample.game_score(game(ScoringRole.DON, Matter.LOSE, Matter.KICK_OUT), NO_COUNTERS)
    assert (kicked.groups["penalty"], kicked.mvp) == pytest.approx((-0.8, -0.8))
    team = sample.game_score(game(ScoringRole.DON, Matter.TEAM_KICK_OUT), NO_COUNTERS)
    assert team.groups["penalty"] == pytest.approx(-1)
    # without the bonus matter the bonus policy does not apply, whatever the extra
    plain = sample.game_score(game(ScoringRole.MAFIA, extra=0.7), NO_COUNTERS)
    assert plain.groups["extra"] == 0


def test_mvp_as_a_number_or_a_formula() -> None:
    system = from_json({"extra": [{"matter": 32, "points": 1, "mvp": 0.3},
                                  {"matter": 64, "points": 0.5, "mvp": "bonus * 2"},
                                  {"matter": 1, "points": 0.1, "mvp": False}]}, "x")
    played = game(ScoringRole.CIVILIAN, Matter.BEST_PLAYER, Matter.BEST_MOVE, extra=0.25)
    got = system.game_score(played, NO_COUNTERS)
    assert (got.groups["extra"], got.mvp) == pytest.approx((1.6, 0.8))


@pytest.mark.parametrize("data, message", [
    ([], "club.json: expected an object of groups"),
    ({"main": {}}, "club.json: main: expected a list of policies"),
    ({"main": [3]}, "club.json: main[0]: expected an object"),
    ({"main": [{"matter": 1 << 27}]}, "main[0].matter: 134217728 is not a mask of matters 0-26"),
    ({"main": [{"matter": -1}]}, "main[0].matter: -1 is not a mask"),
    ({"main": [{"matter": "2"}]}, "main[0].matter: '2' is not a mask"),
    ({"penalty": [{"matter": 1, "roles": 16}]}, "penalty[0].roles: 16 is not a role mask 1-15"),
    ({"penalty": [{"matter": 1, "roles": 0}]}, "penalty[0].roles: 0 is not a role mask 1-15"),
    ({"main": [{"matter": 2, "points": True}]}, "main[0].points: expected a number or a formula"),
    ({"main": [{"matter": 2, "points": 1}, {"matter": 4, "points": "1 +* 2"}]},
     "club.json: main[1].points: formula '1 +* 2': expected a number, a name or '(', got '*'"),
    ({"extra": [{"matter": 2, "mvp": "best"}]}, "extra[0].mvp: formula 'best': unknown function"),
    ({"main": [{"matter": 2, "name": 5}]}, "main[0].name: expected text"),
    ({"counters": {}}, "club.json: counters: expected a list"),
    ({"counters": [3]}, "counters[0]: expected an object {matter, roles}"),
    ({"sorting": "(ep)x"}, "club.json: sorting: '(ep)x': unexpected 'x' at column 5"),
    ({"sorting": "(ep"}, "sorting: '(ep': unfinished at its end"),
    ({"sorting": 3}, "sorting: expected text"),
])
def test_a_bad_system_is_one_line_naming_the_file_and_key(data: object, message: str) -> None:
    with pytest.raises(NarratorError) as e:
        from_json(data, "club.json")
    assert message in str(e.value) and "\n" not in str(e.value)


def test_keys_the_sites_code_never_reads_score_nothing_and_are_named() -> None:
    # include/scoring.php reads the five groups, ``counters`` and ``sorting``; a policy's
    # matter, roles, points, mvp, name; a counter's matter and roles — nothing else
    system = from_json({"bonus": [{"matter": 2, "points": 5}],
                        "main": [{"points": 1}, {"matter": 2, "point": 9, "name_ru": "П"}],
                        "counters": [{"matter": 1, "role": 3}]}, "club.json")
    assert system.ignored == ("bonus", "main[1].point", "main[1].name_ru", "counters[0].role")
    line = ignored_line(system, "club.json")
    assert line is not None and "\n" not in line and line.startswith(
        "club.json: MafiaRatings' scoring reads no bonus, main[1].point, ")
    # a policy without ``matter`` counts for every game (PHP: «null & flags» is 0, equal to
    # null), without ``points`` it gives 0; the ignored keys change nothing
    lost = system.game_score(game(ScoringRole.CIVILIAN, Matter.LOSE), NO_COUNTERS)
    won = system.game_score(game(ScoringRole.CIVILIAN, Matter.WIN), NO_COUNTERS)
    assert (lost.total, won.total) == (1, 1)
    assert system.counters == (Counter(1),)
    assert ignored_line(from_json({"main": []}, "x"), "x") is None


def test_the_sorting_string() -> None:
    assert sort_terms("(epg)wsk") == (
        ((1, "extra"), (1, "penalty"), (1, "legacy")), ((1, "wins"),),
        ((1, "special_role_wins"),), ((1, "killed_first_night"),))
    assert sort_terms("-k(m-n)") == (((-1, "killed_first_night"),),
                                     ((1, "main"), (-1, "night1")))
    assert sort_terms("") == ()


def test_the_clubs_flat_points_table_is_a_system_of_its_own() -> None:
    system = points_table_system({"win": 3, "foul": -0.5})
    assert isinstance(system, PointsTableSystem) and system.name == "points"
    assert system.points == {"win": 3.0, "loss": 0.0, "best_move_black": 0.0, "foul": -0.5,
                             "removal": 0.0}
    with pytest.raises(NarratorError, match=r"^points\.winner: unknown \(known: win, loss"):
        points_table_system({"winner": 1})
    with pytest.raises(NarratorError, match=r"^points\.win: expected a number, got 'x'"):
        points_table_system({"win": "x"})  # type: ignore[dict-item]


def test_a_club_names_its_system_in_its_toml_or_gives_a_file(tmp_path: Path) -> None:
    club = tmp_path / "club.toml"
    club.write_text('fouls = "sport"\n[scoring]\nsystem = "fiim"\n', encoding="utf-8")
    assert load_system(club) is SYSTEMS["fiim"]
    club.write_text('[scoring]\nsystem = "fiim@1"\n', encoding="utf-8")
    assert load_system(club) is SYSTEMS["fiim@1"]
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "ours.json").write_text(SAMPLE_RECORD, encoding="utf-8")
    club.write_text('[scoring]\nfile = "rules/ours.json"\n', encoding="utf-8")
    ours = load_system(club)
    assert ours.name == "ours" and ours.counters == (Counter(1), Counter(256, 3))
    assert load_system(tmp_path / "rules" / "ours.json").groups.keys() == ours.groups.keys()
    club.write_text('[points]\nwin = 2\n', encoding="utf-8")  # no [scoring]: the flat table
    flat = load_system(club)  # its [points] table, read with it
    assert isinstance(flat, PointsTableSystem) and flat.points["win"] == 2
    assert isinstance(load_system("points"), PointsTableSystem)


@pytest.mark.parametrize("toml, message", [
    ('[scoring]\nsystem = "fifa"\n', "club.toml: scoring.system: 'fifa' is unknown (known: fiim"),
    ('[scoring]\nsystems = "fiim"\n', "club.toml: scoring.systems: unknown (known: system, file, name)"),
    ('[scoring]\nsystem = "fiim"\nfile = "a.json"\n', "scoring: give system or file, not both"),
    ('[scoring]\nfile = 3\n', "club.toml: scoring.file: expected a file name"),
    ('scoring = 1\n', "club.toml: scoring: expected a table"),
    ('[scoring]\nfile = "gone.json"\n', "gone.json: cannot read the scoring system"),
    ('[scoring]\nfile = "bad.json"\n', "bad.json: not a scoring system (bad JSON ("),
    ('[scoring]\nfile = "wrong.json"\n', "wrong.json: main[0]: expected an object"),
    ('[scoring\n', "club.toml: not a TOML file ("),
])
def test_a_bad_scoring_table_is_one_line(tmp_path: Path, toml: str, message: str) -> None:
    (tmp_path / "bad.json").write_text("{oops", encoding="utf-8")
    (tmp_path / "wrong.json").write_text('{"main": [3]}', encoding="utf-8")
    club = tmp_path / "club.toml"
    club.write_text(toml, encoding="utf-8")
    with pytest.raises(NarratorError) as e:
        load_system(club)
    assert message in str(e.value) and "\n" not in str(e.value)


def test_what_is_no_system_is_one_line(tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    with pytest.raises(NarratorError, match=r"deep\.json: not a scoring system"):
        load_system(deep)
    with pytest.raises(NarratorError, match=r"^fifa: not a scoring system \(a name: fiim \(version 7\), fiim@1 … fiim@7, points; "):
        load_system("fifa")
