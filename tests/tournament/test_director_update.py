"""A game sent, then marked: the host's marks given between games extend the game's journal,
and the table sends it again under the same key. The director replaces the journal it holds
with one that extends it (the same finished game), and the standings move by the mark; the
first version coming late is no news; anything else under that key stays a conflict."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from narrator.tournament.director import BadGame, Director, OtherJournal
from narrator.tournament.store import Received
from narrator.tournament.web import build_app
from tests.tournament.director_helpers import (
    NAMES,
    FakeClock,
    body,
    bonus_scoring,
    make_director,
    marked,
    write_plan,
)


@pytest.fixture
def director(tmp_path: Path) -> Director:
    write_plan(tmp_path)
    return make_director(tmp_path, FakeClock(), scoring=str(bonus_scoring(tmp_path)))


def _points(director: Director) -> dict[str, float]:
    return {line["name"]: line["points"] for line in director.view()["standings"]}


def _send(director: Director, posted: dict[str, Any], table: int = 1) -> dict[str, Any]:
    return director.receive(director.store.tables()[table - 1], posted)


def test_a_journal_that_extends_the_stored_one_replaces_it_and_moves_the_standings(
        director: Director, tmp_path: Path) -> None:
    first = body(tmp_path, 1, 1)  # round 1 at table 1: players 0–9 on seats 1–10
    assert _send(director, first) == {"stored": True}
    before = _points(director)  # (the standings of one game, cached)
    assert before[NAMES[3]] == 1.0  # seat 4, red: the reds won
    version = director.store.version()
    again = marked(tmp_path, first, 4, 0.3)
    assert again["journal"].startswith(first["journal"]) and again != first
    assert _send(director, again) == {"stored": True, "updated": True}
    assert director.store.version() != version
    stored = director.store.games()
    assert len(stored) == 1 and stored[0].journal == again["journal"]
    after = _points(director)
    assert after[NAMES[3]] == pytest.approx(1.3)
    assert {n: p for n, p in after.items() if n != NAMES[3]} == \
        {n: p for n, p in before.items() if n != NAMES[3]}
    assert _send(director, again) == {"stored": False, "already": True}
    # the first version, late (a retry after the update): no news, nothing changes
    assert _send(director, first) == {"stored": False, "already": True}
    assert director.store.games()[0].journal == again["journal"]
    assert _points(director) == after
    twice = marked(tmp_path, again, 7, -0.2)  # another mark later on: updated once more
    assert _send(director, twice) == {"stored": True, "updated": True}
    assert _points(director)[NAMES[6]] == pytest.approx(before[NAMES[6]] - 0.2)


def test_an_update_is_answered_over_http_too(director: Director, tmp_path: Path) -> None:
    client = TestClient(build_app(director))
    url = f"/join/{director.store.tables()[0].token}/games"
    first = body(tmp_path, 1, 1)
    assert client.post(url, json=first).json() == {"stored": True}
    answer = client.post(url, json=marked(tmp_path, first, 4, 0.3))
    assert (answer.status_code, answer.json()) == (200, {"stored": True, "updated": True})


@pytest.mark.parametrize("change", [
    {"round": 2}, {"game": 5}, {"seating": {"1": "Гость"}},
])
def test_an_extension_for_another_place_in_the_tournament_is_409(
        director: Director, tmp_path: Path, change: dict[str, Any]) -> None:
    first = body(tmp_path, 1, 1)
    assert _send(director, first) == {"stored": True}
    other = {**marked(tmp_path, first, 4, 0.3), **change}
    with pytest.raises(OtherJournal, match="stored already with another journal"):
        _send(director, other)
    assert director.store.games()[0].journal == first["journal"]


def test_the_same_key_from_another_table_is_409(director: Director, tmp_path: Path) -> None:
    first = body(tmp_path, 1, 1)
    assert _send(director, first) == {"stored": True}
    with pytest.raises(OtherJournal):
        _send(director, marked(tmp_path, first, 4, 0.3), table=2)


def test_an_extension_that_is_no_finished_game_is_400_and_changes_nothing(
        director: Director, tmp_path: Path) -> None:
    first = body(tmp_path, 1, 1)
    assert _send(director, first) == {"stored": True}
    version = director.store.version()
    with pytest.raises(BadGame, match=r"^journal: "):
        _send(director, {**first, "journal": first["journal"] + "not a journal's line\n"})
    assert director.store.games()[0].journal == first["journal"]
    assert director.store.version() == version


def test_an_extension_with_another_game_is_409(director: Director, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A journal that starts as the stored one but whose game is another (its winner, its
    roles): the game read from it is judged, not only its text."""
    from narrator.engine import Team
    from narrator.tournament import director as module

    first = body(tmp_path, 1, 1)
    assert _send(director, first) == {"stored": True}
    again = marked(tmp_path, first, 4, 0.3)
    real = module.read_game

    def other_winner(journal: str, folder: Path) -> Any:
        game = real(journal, folder)
        if journal == again["journal"]:
            game._state.winner = Team.BLACK
        return game

    monkeypatch.setattr(module, "read_game", other_winner)
    with pytest.raises(OtherJournal, match="stored already with another game"):
        _send(director, again)
    assert director.store.games()[0].journal == first["journal"]


def test_the_store_updates_a_journal_only_from_the_one_it_holds(director: Director) -> None:
    store = director.store
    start = store.version()
    game = Received("k", 1, 1, 1, "a\n", {1: "Ника"}, 1)
    assert store.add_game(game) and store.version() == start + 1
    assert not store.add_game(game) and store.version() == start + 1  # nothing changed
    store.touch(1, 5)
    assert store.version() == start + 1  # (a table heard from: no game changed)
    assert not store.update_game("k", "another\n", "a\nb\n")  # not what it holds
    assert store.game("k") == game and store.version() == start + 1
    assert store.update_game("k", "a\n", "a\nb\n") and store.version() == start + 2
    changed = store.game("k")
    assert changed is not None and changed.journal == "a\nb\n" and changed.received == 1
    assert store.count() == 1


def test_a_request_that_lost_the_race_is_judged_against_what_the_other_stored(
        director: Director, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two requests at once (a retry crossing the first try): the one that finds the key
    taken, or the journal changed, when it writes is judged again against the store."""
    first = body(tmp_path, 1, 1)
    again = marked(tmp_path, first, 4, 0.3)
    store = director.store
    looked = store.game

    def not_yet(key: str) -> Received | None:  # the first look: not there; then it is
        monkeypatch.setattr(store, "game", looked)
        assert store.add_game(Received(key, 1, 1, 1, first["journal"],
                                       {int(s): n for s, n in first["seating"].items()}, 1))
        return None

    monkeypatch.setattr(store, "game", not_yet)
    assert _send(director, again) == {"stored": True, "updated": True}
    assert store.games()[0].journal == again["journal"]
    monkeypatch.undo()
    twice = marked(tmp_path, again, 7, -0.2)
    update = store.update_game

    def beaten(key: str, before: str, journal: str) -> bool:  # the other request's first
        monkeypatch.setattr(store, "update_game", update)
        assert update(key, before, journal)
        return False

    monkeypatch.setattr(store, "update_game", beaten)
    assert _send(director, twice) == {"stored": False, "already": True}
    assert store.games()[0].journal == twice["journal"]
