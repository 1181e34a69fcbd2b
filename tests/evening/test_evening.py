"""The evening without a browser: the book (roster, links, seating, the file), the results
table and its points, the console's routing between the players and the game's seats, the
lobby's views (what each page may see) and the export of an evening's games."""

from __future__ import annotations

import io
import json
import random
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from narrator.clock import VirtualClock
from narrator.club.file import read_club
from narrator.club.scoring import Points
from narrator.console.table import Press
from narrator.console.tokens import OPERATOR
from narrator.engine import Foul, Game, Remove, Role, TimeUp
from narrator.engine.rules import find_rules
from narrator.errors import NarratorError
from narrator.evening.book import EveningBook, GameEntry, player_id
from narrator.evening.export import evening_games
from narrator.evening.front import EveningFront, Finished
from narrator.evening.results import tally
from narrator.host.host import Host
from narrator.host.journal import Journal
from narrator.host.scheduler import Scheduler
from narrator.host.transcript import Transcript
from narrator.replay.script import parse_table_script
from narrator.replay.table import replay_script
from narrator.voice.manifest import default_manifest
from tests.console.conftest import make_rig
from tests.engine.conftest import day_speeches
from tests.helpers import ROLES, SCRIPT_ROLES

REPO = Path(__file__).resolve().parents[2]
NAMES = ["Ника", "Бублик", "Кот", "Лис", "Ёж", "Сова", "Волк", "Заяц", "Бобр", "Уж"]


def new_book(folder: Path, players: list[str] = NAMES) -> EveningBook:
    folder.mkdir(parents=True, exist_ok=True)
    book = EveningBook.new(folder, lang="ru", rules=find_rules("crime-time"), seats=10,
                           address="127.0.0.1:0", settings={}, options={}, points=Points())
    for name in players:
        book.add_player(name)
    return book


# -- the book ------------------------------------------------------------------------------------


def test_every_player_has_a_link_of_their_own_and_the_book_is_the_owners_only(
        tmp_path: Path) -> None:
    book = new_book(tmp_path / "ev")
    book.save()
    assert stat.S_IMODE((tmp_path / "ev" / "evening.json").stat().st_mode) == 0o600
    again = EveningBook.load(tmp_path / "ev")
    assert again.to_json() == book.to_json()
    tokens = {p.token for p in again.players}
    assert len(tokens) == 10 and again.operator not in tokens
    assert again.who(book.players[3].token) == player_id(4)
    assert again.who(book.operator) == OPERATOR
    assert again.who(book.players[3].token[:-1]) is None and again.who("") is None


def test_a_nickname_is_taken_once_and_kept_short(tmp_path: Path) -> None:
    book = new_book(tmp_path / "ev", ["Ника"])
    with pytest.raises(NarratorError, match="called 'ника' already"):
        book.add_player("  ника ")
    with pytest.raises(NarratorError, match="longer than 32"):
        book.add_player("x" * 33)
    with pytest.raises(NarratorError, match="empty"):
        book.add_player("   ")
    assert book.add_player("Momento  Mori").name == "Momento Mori"


def test_seating_swaps_moves_and_empties_seats(tmp_path: Path) -> None:
    book = new_book(tmp_path / "ev")
    book.seat(1, 1)
    book.seat(2, 2)
    book.seat(1, 2)  # player 2 to seat 1: player 1 takes seat 2 (a swap)
    assert book.seating == {1: 2, 2: 1}
    book.seat(5, 1)  # to an empty seat: seat 2 is left empty
    assert book.seating == {1: 2, 5: 1}
    book.seat(5, None)
    assert book.seating == {1: 2}
    assert book.seating_problem() == "seats 2, 3, 4, 5, 6, 7, 8, 9, 10 are empty"
    with pytest.raises(NarratorError, match="no seat 11"):
        book.seat(11, 3)
    with pytest.raises(NarratorError, match="no player 42"):
        book.seat(3, 42)


def test_a_draw_seats_the_players_present_and_one_who_leaves_gives_up_his_seat(
        tmp_path: Path) -> None:
    book = new_book(tmp_path / "ev", [*NAMES, "Лев", "Рысь"])  # twelve for ten seats
    book.leave(11)
    book.draw(random.Random(3))
    assert sorted(book.seating) == list(range(1, 11))
    assert 11 not in book.seating.values() and len(set(book.seating.values())) == 10
    assert book.seating_problem() is None
    sitting = book.seating[4]
    book.leave(sitting)
    assert 4 not in book.seating and book.seating_problem() == "seat 4 is empty"
    with pytest.raises(NarratorError, match=f"no player {sitting} at the club tonight"):
        book.seat(4, sitting)
    book.come_back(sitting)
    book.seat(4, sitting)
    assert book.seating_problem() is None


@pytest.mark.parametrize(("text", "message"), [
    ("{", "evening.json:1: cannot read the evening's book (bad JSON"),
    ('{"evening": 2}', "evening: expected an evening's book of version 1"),
    ('{"evening": 1, "players": [{"number": 0}]}', "players[0].number: expected a number"),
    ('{"evening": 1, "games": [{"number": 1, "journal": "../x.jsonl", "rules": "vrn", '
     '"seating": {}}]}', "games[0].journal: expected a file name in the evening's folder"),
])
def test_a_damaged_book_is_one_line_naming_the_field(tmp_path: Path, text: str,
                                                     message: str) -> None:
    (tmp_path / "evening.json").write_text(text, encoding="utf-8")
    with pytest.raises(NarratorError) as e:
        EveningBook.load(tmp_path)
    assert message in str(e.value) and "\n" not in str(e.value)


# -- the results ---------------------------------------------------------------------------------


def finished_game(*actions: Any) -> Game:
    """A crime-time game of ROLES (don 3, mafia 5 and 9, sheriff 1) after ``actions``."""
    game = Game(find_rules("crime-time"), roles=ROLES)
    game.start()
    for action in actions:
        game.apply(action)
    return game


def test_the_table_counts_wins_by_card_fouls_removals_and_points() -> None:
    # game 1: a foul on seat 2, then the three black seats removed: the civilians win
    one = finished_game(TimeUp("dealing"), Foul(2), Remove(3), Remove(5), Remove(9))
    # game 2: four red seats removed: the mafia wins
    two = finished_game(TimeUp("dealing"), Remove(2), Remove(4), Remove(6), Remove(7))
    stopped = finished_game(TimeUp("dealing"), Remove(2))  # nobody's win or loss
    assert one.winner is not None and two.winner is not None and stopped.winner is None
    seating1 = {s: s for s in range(1, 11)}  # player n on seat n
    seating2 = {s: 11 - s for s in range(1, 11)}  # player n on seat 11 - n
    points = {**Points().as_dict(), "win": 3.0, "loss": -1.0, "foul": -0.5, "removal": -2.0}
    roster = [(n, NAMES[n - 1]) for n in range(1, 11)]
    table = {r.number: r for r in tally([(one, seating1), (two, seating2),
                                         (stopped, seating1)], roster, points)}
    # player 2: civilian in game 1 (won, one foul); seat 9 (mafia) in game 2 (won)
    assert (table[2].games, table[2].wins, table[2].by_card, table[2].fouls) == \
        (2, 2, {"civilian": 1, "mafia": 1}, 1)
    assert table[2].points == 3 - 0.5 + 3
    # player 3: the don removed in game 1 (lost, removed); seat 8, a civilian, in game 2
    assert (table[3].wins, table[3].removals, table[3].played) == \
        (0, 1, {"don": 1, "civilian": 1})
    assert table[3].points == -1 - 2 - 1
    # player 1: the sheriff who won game 1; seat 10, a civilian, lost game 2
    assert table[1].by_card == {"sheriff": 1} and table[1].points == 3 - 1


def test_a_best_move_scores_each_black_seat_named() -> None:
    # day 1 votes nobody out; night 2 the mafia kill seat 7, who names 3, 5 and 6 (two black)
    header = {"rules": "crime-time", "roles": SCRIPT_ROLES, "options": {"best_move": True}}
    lines = [header, *day_speeches(list(range(1, 11))),
             {"night": {"shots": {"3": 7, "5": 7, "9": 7}, "don": None, "sheriff": None}},
             {"best_move": [3, 5, 6]}]
    script = parse_table_script("\n".join(json.dumps(x) for x in lines), "t")
    game = replay_script(script).game
    for seat in (3, 5, 9):  # then the black seats are removed: the civilians win
        game.apply(Remove(seat))
    assert game.winner is not None
    points = {**Points().as_dict(), "best_move_black": 0.5}
    table = {r.number: r for r in tally([(game, {s: s for s in range(1, 11)})],
                                        [(n, NAMES[n - 1]) for n in range(1, 11)], points)}
    assert (table[7].best_moves, table[7].points) == (1, 1 + 2 * 0.5)
    assert (table[6].best_moves, table[6].points) == (0, 1)


def test_points_come_from_the_clubs_toml(tmp_path: Path) -> None:
    club = tmp_path / "club.toml"
    club.write_text('fouls = "sport"\n[points]\nwin = 2\nbest_move_black = 0.25\n',
                    encoding="utf-8")
    assert read_club(club).points == Points(win=2.0, best_move_black=0.25)
    assert read_club(club).points.as_dict() == {"win": 2.0, "loss": 0.0, "best_move_black": 0.25,
                                                "foul": 0.0, "removal": 0.0}
    club.write_text("[points]\nwinner = 2\n", encoding="utf-8")
    with pytest.raises(NarratorError, match=r"club\.toml: points\.winner: unknown"):
        read_club(club)
    club.write_text('[points]\nwin = "a lot"\n', encoding="utf-8")
    with pytest.raises(NarratorError, match=r"points\.win: expected a number"):
        read_club(club)


def test_a_games_rules_file_may_hold_the_evenings_points(tmp_path: Path) -> None:
    club = tmp_path / "club.toml"
    club.write_text('best_move = true\n[points]\nwin = 2\n[scoring]\nsystem = "fiim"\n',
                    encoding="utf-8")
    assert dict(read_club(club).options) == {"best_move": True}


# -- the console: players, seats and the lobby ------------------------------------------------------


def front_in_game(tmp_path: Path) -> tuple[EveningFront, Any, dict[int, int]]:
    """An evening with game 1 on: player n sits on seat 11 - n."""
    book = new_book(tmp_path / "ev")
    seating = {s: 11 - s for s in range(1, 11)}
    book.seating = dict(seating)
    entry = book.new_game("crime-time")
    rig = make_rig()
    front = EveningFront(book, rig.clock)
    published: dict[Any, dict[str, Any]] = {}  # every page's view as the page gets it
    front.publish = lambda views: published.update(
        {who: json.loads(v.message)["view"] for who, v in views.items()})
    front.attach(rig.table, entry)
    rig.published = published  # type: ignore[attr-defined]
    return front, rig, seating


def test_a_players_press_is_the_press_of_the_seat_he_sits_on(tmp_path: Path) -> None:
    front, rig, seating = front_in_game(tmp_path)
    for _seat, number in seating.items():
        assert front.handle(Press(player_id(number), "seen", {}, rig.clock.now())).ok
    assert rig.table.desk.saw_card(10) and not rig.table.dealing  # every card seen
    views = rig.published  # type: ignore[attr-defined]
    # player 1 sits on seat 10 (ROLES: a civilian); his view is seat 10's, with his name
    assert views[player_id(1)]["seat"] == 10
    assert views[player_id(1)]["player"] == {"number": 1, "name": "Ника", "seat": 10,
                                             "game": 1}
    assert views[player_id(8)]["card"]["role"] == ROLES[3].value  # player 8 on seat 3
    assert "card" not in json.dumps(views[OPERATOR]["evening"])
    assert views[OPERATOR]["names"]["3"] == "Заяц"


def test_no_page_holds_another_players_link_nor_a_card_not_its_own(tmp_path: Path) -> None:
    front, rig, seating = front_in_game(tmp_path)
    front.handle(Press(OPERATOR, "add", {"name": "Лев"}, 0.0))  # sits game 1 out
    views = rig.published  # type: ignore[attr-defined]
    tokens = {p.who: p.token for p in front.book.players}
    for who, view in views.items():
        text = json.dumps(view, ensure_ascii=False)
        others = [t for w, t in tokens.items() if w != who]
        if who != OPERATOR:
            assert not any(t in text for t in others), who
            assert front.book.operator not in text
    operator = json.dumps(views[OPERATOR], ensure_ascii=False)
    # (as JSON values: a random token may hold the letters "don")
    assert all(f'"{role.value}"' not in operator for role in (Role.DON, Role.SHERIFF))
    for number, view in ((n, views[player_id(n)]) for n in range(1, 11)):
        seat = next(s for s, n in seating.items() if n == number)
        assert view["card"]["role"] == ROLES.get(seat, Role.CIVILIAN).value


def test_during_a_game_the_seating_is_the_games(tmp_path: Path) -> None:
    front, rig, _seating = front_in_game(tmp_path)
    t = rig.clock.now()
    for do, data in [("seat", {"seat": 1, "player": 2}), ("draw", {}), ("start", {}),
                     ("close", {})]:
        assert front.handle(Press(OPERATOR, do, data, t)).reason == "not_now"
    assert front.handle(Press(OPERATOR, "leave", {"player": 4}, t)).reason == "not_now"
    # a player who comes in now gets a link at once, and sits the game out
    reply = front.handle(Press(OPERATOR, "add", {"name": "Лев"}, t))
    assert reply.ok and reply.detail["link"].endswith(front.book.players[-1].token)
    lev = rig.published[player_id(11)]  # type: ignore[attr-defined]
    assert lev["lobby"]["playing"] == 1 and lev["player"]["seat"] is None
    assert "card" not in lev and "roles" not in json.dumps(lev)
    assert front.handle(Press(player_id(11), "seen", {}, t)).reason == "not_now"
    assert front.handle(Press(OPERATOR, "leave", {"player": 11}, t)).ok  # he was not seated


def test_between_games_every_page_shows_the_last_games_cards(tmp_path: Path) -> None:
    front, rig, _seating = front_in_game(tmp_path)
    for seat in range(1, 11):
        rig.press(seat, "seen")
    for seat in (3, 5, 9):
        rig.op("remove", seat=seat)
    assert rig.game.winner is not None
    entry = front.entry
    assert entry is not None
    front.detach(Finished(entry, rig.game), [])
    views = rig.published  # type: ignore[attr-defined]
    for number in range(1, 11):
        last = views[player_id(number)]["lobby"]["last"]
        assert last["winner"] == "civilians"
        assert {c["seat"]: c["role"] for c in last["cards"]} == \
            {s: ROLES.get(s, Role.CIVILIAN).value for s in range(1, 11)}
        assert {c["seat"]: c["name"] for c in last["cards"]}[3] == "Заяц"
    assert front.final_protocol is not None and front.final_protocol["winner"] == "civilians"
    # the seating of the next game (the fair one, to begin with: nobody on the seat he had)
    # each sees his own seat
    fair = dict(front.book.seating)
    assert sorted(fair) == list(range(1, 11)) and sorted(fair.values()) == list(range(1, 11))
    for seat, number in fair.items():
        assert views[player_id(number)]["player"]["seat"] == seat != 11 - number
    on_four = fair[4]
    reply = front.handle(Press(OPERATOR, "seat", {"seat": 4, "player": 2}, rig.clock.now()))
    assert reply.ok and views[player_id(2)]["player"]["seat"] == 4
    if on_four != 2:  # (a swap)
        assert views[player_id(on_four)]["player"]["seat"] == next(
            s for s, n in fair.items() if n == 2)
    assert front.handle(Press(OPERATOR, "seat", {"seat": 5, "player": None}, 0.0)).ok
    assert front.handle(Press(OPERATOR, "start", {}, 0.0)).detail["why"] == "Не заняты места: 5"


def test_the_next_game_starts_with_the_seating_and_a_ruleset(tmp_path: Path) -> None:
    book = new_book(tmp_path / "ev")
    started: list[str] = []
    front = EveningFront(book, VirtualClock(), rng=random.Random(1), on_start=started.append)
    assert front.handle(Press(OPERATOR, "draw", {}, 0.0)).ok
    assert front.handle(Press(OPERATOR, "start", {"rules": "chess"}, 0.0)).reason == \
        "bad_request"
    assert front.handle(Press(OPERATOR, "start", {"rules": "vrn"}, 0.0)).ok
    assert started == ["vrn"]
    assert EveningBook.load(book.folder).seating == book.seating  # saved as it changed


# -- the export -------------------------------------------------------------------------------------


def journal_game(path: Path, rules: str, roles: dict[int, Role] | None, names: dict[int, str],
                 *actions: Any, dealt: dict[str, str] | None = None) -> None:
    game = Game(find_rules(rules), roles=roles, names=names, dealt=dealt,
                rng=random.Random(2))
    journal = Journal.for_game(path, game, fsync=False, mode="play")
    host = Host(game, Scheduler(VirtualClock()), Transcript(default_manifest("ru")), journal)
    host.start()
    for action in actions:
        host.apply(action)
    journal.close()


def test_the_export_writes_a_file_per_game_the_format_can_express(tmp_path: Path) -> None:
    """MafiaRatings takes one game a request: a file per game, each with the evening's ids,
    its game number and its host; a seat without an id is a guest, named in one line; a
    missing event refuses the whole export."""
    book = new_book(tmp_path / "ev")
    book.seating = {s: s for s in range(1, 11)}
    one, two, three = (book.new_game(r) for r in ("crime-time", "vrn", "crime-time"))
    names = book.names_of(book.seating)
    journal_game(book.journal(one), "crime-time", ROLES, names, TimeUp("dealing"),
                 Remove(3), Remove(5), Remove(9))
    journal_game(book.journal(two), "vrn", None, names, dealt={"maniac_side": "city"})
    book.games.append(GameEntry(4, "game-04.jsonl", "crime-time", dict(book.seating)))
    for player in book.players[:9]:
        book.set_id(player.number, 500 + player.number)
    book.moderator = 77
    book.save()
    games, lines = evening_games(book.folder)
    assert [entry.number for entry, _ in games] == [1]
    assert [p["name"] for p in games[0][1].record["players"]] == NAMES
    assert any(line.startswith("game 2: not exported: ") and "not over" in line
               for line in lines), lines
    assert "game 3: not exported: it never started" in lines
    out = tmp_path / "out"
    command = [sys.executable, "-m", "narrator", "export", "--format", "mafiaratings",
               str(book.folder), "--club-id", "1", "--event-id", "2", "-o", str(out)]
    no_event = [x for x in command if x not in ("--event-id", "2")]
    refused = subprocess.run(no_event, capture_output=True, text=True, cwd=REPO)
    assert refused.returncode == 2 and not out.exists()  # no event: nothing written
    assert refused.stderr.endswith("narrator: export: --event-id is missing (MafiaRatings "
                                   "stores no game without its club, event and host); --demo "
                                   "writes the record anyway\n")
    # seat 10 has no id: a guest, exported all the same and named in one line
    done = subprocess.run(command, capture_output=True, text=True, cwd=REPO)
    assert done.returncode == 0, done.stderr
    assert "narrator: note: guests, without a MafiaRatings id: game 1: seat 10 (" in done.stderr
    assert sorted(f.name for f in out.iterdir()) == ["game-01.json"]
    assert stat.S_IMODE((out / "game-01.json").stat().st_mode) == 0o600
    record = json.loads((out / "game-01.json").read_text(encoding="utf-8"))
    assert "id" not in record["players"][9] and record["players"][9]["name"] == NAMES[9]
    record = json.loads((out / "game-01.json").read_text(encoding="utf-8"))
    assert record["gameNum"] == 1 and record["moderator"] == {"id": 77}
    assert record["clubId"] == 1 and record["eventId"] == 2
    assert [p.get("id") for p in record["players"]] == [*range(501, 510), None]
    assert "narrator: game 3: not exported: it never started" in done.stderr
    alone = subprocess.run(command[:-2], capture_output=True, text=True, cwd=REPO)
    assert alone.returncode == 2 and "-o DIR" in alone.stderr  # no list on stdout
    del three


def test_the_roster_file_joins_the_evening_with_ids_and_its_host(tmp_path: Path) -> None:
    from narrator.evening.cli import ROSTER, _copy_roster, _take_roster

    book = new_book(tmp_path / "ev", ["Ника", "Кот"])
    roster = tmp_path / "club.csv"
    roster.write_text("nickname,mafiaratings_id,role\nника,11\nЛис,12\nИван,3,moderator\n",
                      encoding="utf-8")
    _take_roster(book, str(roster))
    book.save()
    again = EveningBook.load(book.folder)
    assert [(p.name, p.mafiaratings) for p in again.players] == \
        [("Ника", 11), ("Кот", None), ("Лис", 12)]
    assert again.moderator == 3
    with pytest.raises(NarratorError, match="12 is Лис's already"):
        again.set_id(2, 12)
    _copy_roster(book.folder, str(roster))  # kept in the folder, as given
    assert (book.folder / ROSTER).read_text(encoding="utf-8") == \
        roster.read_text(encoding="utf-8")


# -- an evening on a virtual clock ---------------------------------------------------------------


def test_an_evening_of_two_games_runs_on_one_driver_and_a_virtual_clock(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Two hostless games of one evening, on a virtual clock and on the test's own thread: the
    evening's one driver runs the console between games and each game on it. The operator's
    presses are the console's (start, each black seat removed, close), made when the pages
    show a game or the lobby; nothing sleeps, and the times in the journals are the clock's."""
    from narrator.console.serve import ConsoleOptions
    from narrator.evening.cli import Evening
    from narrator.play.cli import TableOptions

    book = new_book(tmp_path / "ev")
    book.draw(random.Random(4))
    book.save()
    opts = TableOptions(lang="ru", listen=False,
                        console=ConsoleOptions("127.0.0.1:0", None, False, True))
    clock = VirtualClock(1000.0)
    evening = Evening(book, opts, None, wav=True, rng=random.Random(5), clock=clock,
                      terminal=io.StringIO(""))
    front, press = evening.front, evening.driver.call
    attach, detach = front.attach, front.detach
    played: list[int] = []

    def operator(do: str, **data: Any) -> None:
        press(lambda: front.handle(Press(OPERATOR, do, data, clock.now())))

    def game_on(table: Any, entry: GameEntry) -> None:  # the operator sees the game's view
        attach(table, entry)
        played.append(entry.number)
        for seat in sorted(table.host.game.black):  # 7.3: removed, each in turn
            operator("remove", seat=seat)

    def lobby(finished: Finished | None, results: Any) -> None:
        detach(finished, results)
        operator("start" if len(played) < 2 else "close")

    front.attach, front.detach = game_on, lobby  # type: ignore[method-assign]
    operator("start")
    assert evening.run() == 0
    assert played == [1, 2]
    for number in (1, 2):
        journal = book.folder / f"game-{number:02d}.jsonl"
        lines = [json.loads(line) for line in journal.read_text().splitlines()]
        assert lines[0]["mode"] == "play"
        assert all(line["t"] >= 1000.0 for line in lines[1:] if "t" in line)
        assert (book.folder / f"game-{number:02d}.wav").stat().st_size > 44
    results = json.loads((book.folder / "results.json").read_text())
    assert results["games"] == 2
    assert sum(p["wins"] for p in results["players"]) == 14  # the red seats won twice
    out = capsys.readouterr().out
    assert "вечер: сыграно игр — 2" in out


# -- a human host's evening ---------------------------------------------------------------------


def test_with_a_human_host_each_game_runs_in_his_screen_and_the_evening_goes_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``narrator evening DIR --assist``: the host's screen (here a stand-in that removes the
    three black seats, as the host's keys would) runs the game the console mounted, its loop
    on the evening's driver (on a thread, as the screen holds the main one); q there goes
    back to the evening, whose results count it. On a virtual clock: nothing sleeps."""
    import threading

    from narrator.assist.ui import AssistApp
    from narrator.console.serve import ConsoleOptions
    from narrator.engine import events as ev
    from narrator.evening.cli import Evening
    from narrator.play.cli import TableOptions

    played: list[str] = []

    def host_screen(app: AssistApp) -> None:
        session = app.session
        assert session is not None
        game = session.host.game
        played.append(session.host.journal.path.name)  # type: ignore[union-attr]
        over = threading.Event()
        session.loop.call(lambda: session.host.listeners.append(
            lambda event, at: over.set() if isinstance(event, ev.GameOver) else None))
        session.loop.call(lambda: [session.host.apply(Remove(s)) for s in sorted(game.black)])
        assert over.wait(timeout=30)  # the host's keys are done: q

    monkeypatch.setattr(AssistApp, "run", host_screen)
    book = new_book(tmp_path / "ev")
    book.draw(random.Random(4))
    book.save()
    opts = TableOptions(lang="ru", listen=False,
                        console=ConsoleOptions("127.0.0.1:0", None, True, True))
    clock = VirtualClock(50.0)
    evening = Evening(book, opts, None, wav=True, rng=random.Random(5), assist=True,
                      clock=clock)
    front, detach = evening.front, evening.front.detach

    def lobby(finished: Finished | None, results: Any) -> None:
        detach(finished, results)
        evening.driver.call(lambda: front.handle(Press(OPERATOR, "close", {}, clock.now())))

    front.detach = lobby  # type: ignore[method-assign]
    evening.driver.call(lambda: front.handle(Press(OPERATOR, "start", {}, clock.now())))
    assert evening.run() == 0
    assert played == ["game-01.jsonl"]
    header = json.loads((book.folder / "game-01.jsonl").read_text().splitlines()[0])
    assert header["mode"] == "assist"
    assert header["names"] == {str(s): NAMES[n - 1] for s, n in book.games[0].seating.items()}
    results = json.loads((book.folder / "results.json").read_text())
    assert results["games"] == 1
    assert sum(p["wins"] for p in results["players"]) == 7  # the red seats won
    assert (book.folder / "game-01.wav").stat().st_size > 44


def test_a_book_beyond_its_size_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "evening.json").write_text(" " * (2 << 20), encoding="utf-8")
    with pytest.raises(NarratorError) as e:
        EveningBook.load(tmp_path)
    assert "evening.json" in str(e.value) and "\n" not in str(e.value)


def test_a_new_evening_without_a_speaker_is_one_line_and_leaves_no_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from narrator.audio.devices import NoDevice
    from narrator.cli import main
    from narrator.play import cli as play_cli

    def no_speaker() -> None:
        raise NoDevice("no audio output device: Error querying device -1", "output")

    monkeypatch.setattr(play_cli, "output_device", no_speaker)
    folder = tmp_path / "evening"
    assert main(["evening", str(folder), "--console", "127.0.0.1:0", "--listen", "off",
                 "--players", "Я,Ты"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--wav writes each game's narration" in err[0]
    assert not folder.exists()


def test_the_operator_sets_a_players_mafiaratings_id(tmp_path: Path) -> None:
    book = new_book(tmp_path / "ev")
    front = EveningFront(book, VirtualClock(), rng=random.Random(1))
    assert front.handle(Press(OPERATOR, "rating_id", {"player": 10, "user": 910}, 0.0)).ok
    assert EveningBook.load(book.folder).players[9].mafiaratings == 910  # saved
    assert front._evening()["players"][9]["mafiaratings"] == 910
    taken = front.handle(Press(OPERATOR, "rating_id", {"player": 2, "user": 910}, 0.0))
    assert not taken.ok and "910 is Уж's already" in taken.detail["why"]
    for bad in ({"player": 2, "user": 0}, {"player": 2, "user": "7"}, {"user": 7}):
        assert front.handle(Press(OPERATOR, "rating_id", bad, 0.0)).reason == "bad_request"
    assert front.handle(Press(OPERATOR, "rating_id", {"player": 10, "user": None}, 0.0)).ok
    assert book.players[9].mafiaratings is None
    seat = front.handle(Press(player_id(3), "rating_id", {"player": 3, "user": 5}, 0.0))
    assert not seat.ok and book.players[2].mafiaratings is None  # the operator's only
