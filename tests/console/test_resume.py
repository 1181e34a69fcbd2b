"""A console game killed and resumed from its journal gives every pad back its state: the cards
seen during the deal (and the deal still waits for the others), the mafia's presses in the hunt,
the hands of a vote (a second hand is refused as before the kill); a press whose action the
kill lost is pressed again. An operator's undo during the deal keeps the cards seen."""

from __future__ import annotations

from pathlib import Path

from narrator.conform.check import KillPoint, cut
from narrator.console.serve import ConsoleOptions
from narrator.console.tokens import OPERATOR
from narrator.engine import Game, Phase
from narrator.engine import waits as w
from narrator.engine.options import apply_options
from narrator.engine.rules import find_rules
from narrator.host.journal import Journal
from narrator.testing import TableRig, advance
from tests.helpers import ROLES

PADS = ConsoleOptions("127.0.0.1:0")


#: a console game at its table (the one table rig)
Table = TableRig


def new_table(path: Path) -> Table:
    game = Game(roles=ROLES)
    return TableRig(game, journal=Journal.for_game(path, game, mode="play", fsync=False))


def resumed(path: Path) -> Table:
    """What ``narrator resume JOURNAL --listen off --console …`` puts together."""
    return TableRig.resumed(path)


def to_the_vote(t: Table) -> None:
    """Day 1: seats 1 and 2 nominate 5 and 7 (one candidate alone would not be voted on)."""
    advance(t.game, w.Speech, step=t.driver.run_next)
    assert t.press(1, "nominate", target=5).ok and t.press(1, "end").ok
    advance(t.game, w.Speech, step=t.driver.run_next)
    assert t.press(2, "nominate", target=7).ok
    for _ in range(100):
        exp = t.game.expect
        if isinstance(exp, w.Vote | w.Crash):
            return
        if isinstance(exp, w.Speech):
            assert t.press(exp.seat, "end").ok
        else:
            assert t.driver.run_next()
    raise AssertionError(f"no vote: {t.game.notation()}")


def seat_2_voted(folder: Path) -> Path:
    """The journal of a game stopped right after seat 2's hand for 5 on day 1."""
    path = folder / "j.jsonl"
    t = new_table(path)
    for seat in range(1, 11):
        assert t.press(seat, "seen").ok
    to_the_vote(t)
    assert t.press(2, "vote", candidate=5).ok
    t.journal.close()
    return path


def lines(path: Path) -> int:
    return len(path.read_text().splitlines())


def test_killed_during_the_deal_the_cards_seen_stay_seen_and_the_deal_waits(
        tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    t = new_table(path)
    for seat in (1, 2, 3):
        assert t.press(seat, "seen").ok
    t.journal.close()
    back = resumed(path)
    assert back.table.dealing and back.table.desk.seen == {1, 2, 3}
    assert back.table.waiting_for_cards() == list(range(4, 11))
    assert back.driver.scheduler.next_deadline() is None or back.game.expect.timer is not None
    for _ in range(20):  # however long nobody looks, the night waits for the cards (2.1.1)
        if not back.driver.run_next():
            break
    assert back.table.dealing and back.game.phase == Phase.night(1)
    assert back.table.publish is not None
    for seat in range(4, 11):
        assert back.press(seat, "seen").ok
    assert not back.table.dealing


def test_killed_in_the_hunt_the_mafias_presses_are_on_their_pads(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    t = new_table(path)
    for seat in range(1, 11):
        assert t.press(seat, "seen").ok
    advance(t.game, w.Hunt, step=t.driver.run_next)
    timer = t.game.expect.timer
    assert timer is not None and timer.tick
    t.driver.run_until(t.host.timer_started + timer.tick * 6 + 0.6)
    assert t.press(5, "shoot").detail["number"] == 7
    t.journal.close()
    back = resumed(path)
    assert isinstance(back.game.expect, w.Hunt) and back.table.desk.hunt_shots == {5: (7,)}


def test_killed_in_a_vote_a_seat_that_voted_cannot_vote_again(tmp_path: Path) -> None:
    path = seat_2_voted(tmp_path)
    back = resumed(path)
    assert back.table.desk.hands == {2}
    assert back.press(2, "vote", candidate=5).reason == "already_voted"
    assert back.press(3, "vote", candidate=5).ok
    assert [str(a) for a in back.game.history[-2:]] == ["hands 2", "hands 3"]


def test_a_hand_whose_action_the_kill_lost_is_counted_on_resume(tmp_path: Path) -> None:
    path = seat_2_voted(tmp_path)
    text = path.read_text().splitlines()
    assert '"do":"vote"' in text[-2] and text[-1].endswith('"action":"hands 2"}')
    cut(path, KillPoint(len(text) - 1, torn=True))  # the press written, its action torn
    back = resumed(path)
    assert str(back.game.history[-1]) == "hands 2" and back.table.desk.hands == {2}


def test_an_operators_undo_during_the_deal_keeps_the_cards_seen(tmp_path: Path) -> None:
    t = new_table(tmp_path / "j.jsonl")
    for seat in (1, 2):
        assert t.press(seat, "seen").ok
    assert t.press(OPERATOR, "foul", seat=4).ok
    assert t.press(OPERATOR, "undo").ok
    assert t.table.dealing and t.table.desk.seen == {1, 2}
    assert lines(tmp_path / "j.jsonl") > 3


# -- journals written before the names were one ------------------------------------------------

#: the press names older journals wrote, as the pages' names now read in them
_OLD_NAMES = {'"do":"seen"': '"do":"card_seen"', '"do":"skip"': '"do":"card_skipped"',
              '"do":"vote"': '"do":"hand"', '"do":"shoot"': '"do":"shot"',
              '"do":"hands"': '"do":"hand_count"'}


def in_old_names(path: Path) -> None:
    """Rewrite the journal's press lines in the names an older version wrote."""
    text = path.read_text()
    for new, old in _OLD_NAMES.items():
        text = text.replace(new, old)
    path.write_text(text)


def test_an_older_journals_cards_seen_and_skipped_are_read_back(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    t = new_table(path)
    for seat in (1, 2):
        assert t.press(seat, "seen").ok
    assert t.press(OPERATOR, "skip", seat=3).ok
    t.journal.close()
    in_old_names(path)
    assert '"do":"card_seen"' in path.read_text() and '"do":"card_skipped"' in path.read_text()
    back = resumed(path)
    assert back.table.dealing and back.table.desk.seen == {1, 2}
    assert back.table.desk.skipped == {3}
    assert back.table.waiting_for_cards() == list(range(4, 11))


def test_an_older_journals_hand_is_read_back_and_one_the_kill_lost_pressed_again(
        tmp_path: Path) -> None:
    path = seat_2_voted(tmp_path)
    in_old_names(path)
    text = path.read_text().splitlines()
    assert '"do":"hand"' in text[-2]  # {"type":"pad",…,"seat":2,"do":"hand","candidate":5}
    back = resumed(path)
    assert back.table.desk.hands == {2}
    assert back.press(2, "vote", candidate=5).reason == "already_voted"
    back.journal.close()
    cut(path, KillPoint(len(text) - 1, torn=True))  # the old press written, its action torn
    again = resumed(path)
    assert str(again.game.history[-1]) == "hands 2" and again.table.desk.hands == {2}


def to_the_victims_last_word(path: Path) -> Table:
    """A club with the best move (8.17): day 1 with one nomination (not voted on), the mafia
    (3, 5, 9) shoot seat 2 on night 2; the table stands at seat 2's last word."""
    game = Game(apply_options(find_rules("crime-time"), {"best_move": True}), roles=ROLES)
    t = TableRig(game, journal=Journal.for_game(path, game, mode="play", fsync=False))
    for seat in range(1, 11):
        assert t.press(seat, "seen").ok
    advance(t.game, w.Speech, step=t.driver.run_next)
    assert t.press(1, "nominate", target=5).ok
    advance(t.game, w.Hunt, step=t.driver.run_next)
    timer = t.game.expect.timer
    assert timer is not None and timer.tick
    t.driver.run_until(t.host.timer_started + timer.tick + 0.6)  # the count at «два»
    for seat in (3, 5, 9):
        assert t.press(seat, "shoot").detail["number"] == 2
    advance(t.game, lambda exp: isinstance(exp, w.Speech) and exp.speech == "last",
            step=t.driver.run_next)
    assert t.game.asks_best_move and t.game.expect.seat == 2
    return t


def test_the_victims_best_move_is_on_the_record_after_a_kill(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    t = to_the_victims_last_word(path)
    assert t.press(2, "best_move", seats=[3, 3, 5]).reason == "three_seats"
    assert t.press(4, "best_move", seats=[3, 5, 9]).reason == "not_now"  # the victim's alone
    assert t.press(2, "best_move", seats=[3, 5, 9]).ok
    assert t.op("undo").reason == "too_late"  # a pad's press, as a nomination: not the operator's
    t.journal.close()
    back = resumed(path)
    assert back.game.best_move is not None and back.game.best_move.named == (3, 5, 9)
    assert back.game.best_move.black_named == 3 and not back.game.asks_best_move
    assert back.press(2, "best_move", seats=[1, 4, 6]).reason == "already_named"
