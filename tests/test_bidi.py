"""A nickname holding bidirectional controls (U+202E turns the rest of its line backwards,
U+2069 closes an isolate it is put in) is isolated wherever it is shown: the review page puts
each in a ``<bdi>`` of its own, its controls taken out; the console's views and replies (the
pads, the operator, the board), the broadcast's picture, the director's JSON carry none; the
front ends' stylesheets isolate every cell and name; the results, the standings and the
terminal's score show none."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from narrator.bidi import CONTROLS, bdi, neutral

RLO = "\u202e"
#: a nickname that would reverse what follows it, and close an isolate around it
HOSTILE = f"Ник{RLO}абв\u2069\u2066x\u200f\u061c"
ROOT = Path(__file__).resolve().parents[1] / "narrator"


def _clean(text: str) -> bool:
    return not any(c in text for c in CONTROLS)


def test_every_control_is_taken_out_and_a_page_isolates_the_rest() -> None:
    every = "".join(sorted(CONTROLS))
    assert len(CONTROLS) == 5 + 4 + 2 + 1  # U+202A–E, U+2066–9, U+200E/F, U+061C
    assert neutral(f"a{every}b") == "ab"
    assert neutral("Ника") == "Ника"  # a nickname without them is itself
    assert bdi(f"<b>{RLO}x") == "<bdi>&lt;b&gt;x</bdi>"


def test_the_review_page_isolates_each_nickname(tmp_path: Path) -> None:
    from narrator.review.page import Heading, render
    from narrator.review.timeline import Entry

    head = Heading(f"game {HOSTILE}", "crime-time", 10, {1: HOSTILE, 2: "Бублик"},
                   {1: "sheriff", 2: "civilian"})
    entry = Entry(1, 12.0, "heard", f"Выставляю {HOSTILE}", (1,), f"принято {HOSTILE}")
    page = render(head, [entry], 0.0, {})
    assert _clean(page.replace("\u2068", "").replace("\u2069", ""))
    # each nickname in a cell is in a <bdi> of its own, its controls out
    assert f"<td><bdi>{neutral(HOSTILE)}</bdi></td>" in page
    assert f"<bdi>Выставляю {neutral(HOSTILE)}</bdi>" in page
    # an option holds text only: the name between an isolate's first-strong and its pop
    option = re.search(r'<option value="1">1 (.*?)</option>', page)
    assert option is not None and option.group(1) == f"\u2068{neutral(HOSTILE)}\u2069"
    assert "unicode-bidi:isolate" in page


def test_the_consoles_views_and_replies_carry_no_control() -> None:
    from narrator.console.sockets import refusal
    from narrator.console.view import dumps, extended
    from narrator.reasons import Reason

    view = dumps({"names": {"1": HOSTILE}, "seats": [{"name": HOSTILE}]})
    assert _clean(view) and json.loads(view)["names"]["1"] == neutral(HOSTILE)
    assert _clean(extended(view, {"player": {"name": HOSTILE}}))
    assert _clean(refusal(1, Reason.BAD_REQUEST, "ru"))


def test_the_broadcasts_seats_carry_no_control() -> None:
    from narrator.broadcast.snapshot import _seats
    from narrator.engine import Game
    from tests.helpers import ROLES

    game = Game("crime-time", roles=ROLES, names={1: HOSTILE})
    seats = _seats(game)
    assert seats[0].name == neutral(HOSTILE)


def test_the_directors_json_carries_no_control() -> None:
    from narrator.tournament.web import _json

    body = bytes(_json({"standings": [{"name": HOSTILE}]}).body).decode("utf-8")
    assert _clean(body) and json.loads(body)["standings"][0]["name"] == neutral(HOSTILE)


@pytest.mark.parametrize("sheet", ["console/static/console.css",
                                   "broadcast/static/broadcast.css",
                                   "tournament/static/tournament.css"])
def test_every_front_ends_cells_and_names_are_isolated(sheet: str) -> None:
    css = (ROOT / sheet).read_text(encoding="utf-8")
    rule = re.search(r"^([^{}/*]*)\{\s*unicode-bidi:\s*isolate;\s*\}", css, re.M)
    assert rule is not None, sheet
    assert {"td", "li", "option", ".nick", ".name", ".who"} <= {
        s.strip() for s in rule.group(1).split(",")}


def test_the_results_the_standings_and_the_score_show_no_control(tmp_path: Path) -> None:
    from narrator.evening.results import PlayerResult, write_results
    from narrator.scoring.system import SYSTEMS

    write_results(tmp_path, [PlayerResult(1, HOSTILE, games=1)], 1, SYSTEMS["points"])
    for name in ("results.csv", "results.json"):
        text = (tmp_path / name).read_text(encoding="utf-8")
        assert neutral(HOSTILE) in text and _clean(text), name
