"""The engine's behaviour, held to a fingerprint: seeded random games of every ruleset (and of
the club options that change a game's course) give the same events, waits, notation and
protocol, byte for byte, as when the constants below were recorded.

The constants were recorded before the engine was split into rooms (issue 23) and must not
change with a refactoring or a speed-up. A change of the rules' behaviour changes them on
purpose: then record the new ones (``python -m tests.engine.test_digest`` prints them) and say
why in the commit.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys

import pytest

from narrator.engine import Game, find_rules
from narrator.engine.options import apply_options
from narrator.testing import random_action
from tests.engine.observe import views

#: games per variant: enough that every step of every ruleset is played, cheap enough for
#: every run of the suite (about a second in all)
GAMES = 30

#: (ruleset, club options): every ruleset as its text plays it, and the options that change
#: a game's course (sport fouls, the best move, the first day, closed cards); ``seats`` is the
#: table's size, not an option
VARIANTS: tuple[tuple[str, dict[str, object]], ...] = (
    ("crime-time", {}),
    ("professional", {}),
    ("vrn-closed", {}),
    ("vrn", {}),
    ("amateur", {}),
    ("crime-time", {"fouls": "sport", "best_move": True}),
    ("crime-time", {"first_day": "none", "seats": 7}),
    ("professional", {"first_day": "lift_only"}),
    ("vrn-closed", {"first_day": "lift_only", "fouls": "sport"}),
    ("amateur", {"cards": "closed", "seats": 13}),
)

#: sha256 of every game of each variant, recorded before the split (see the module's doc)
DIGESTS: dict[str, str] = {
    "crime-time":
        "3428d1a6f01d66b83847b592c0163b3baca87de7c59603776550b0ca1fc54439",
    "professional":
        "c613ac995aa747535d38d932219e7ef9a15f5603bcc69ca73493c3516e25d1da",
    "vrn-closed":
        "46897127f66387b4aeab4a8d404353f652bdf8a369edfbfa13fa083f08ef513b",
    "vrn":
        "7ff4357bb5fbdc18a47309a811b7712ecc158d3aeb57a0224ca88b5b28faec0a",
    "amateur":
        "734ebe289db2bbee1f37d74e48a8ca503179e3107723416568ae5caf7c25b21d",
    "crime-time fouls=sport best_move=True":
        "9a113695f8d76b891442218061f4c56a1ece2a6892c50a5e60e23c18fcc64779",
    "crime-time first_day=none seats=7":
        "eb80e7840360bded3f1dea5d4ea874c59c5ca6b8156c52eddf2aebb4327120b9",
    "professional first_day=lift_only":
        "c2d5dad9e09ed87b4ba286ccf54f581eda1723203f316c7236fa29c77f67d922",
    "vrn-closed first_day=lift_only fouls=sport":
        "adf7a32155d64aa2ea0a3f42e037632b5764d6136519394a8a5c99ee8f784e88",
    "amateur cards=closed seats=13":
        "9b6c12f189a403884c52063d7ba461b55e93c042d3315aae66f01aab4a19e75d",
}


#: the actions renamed since the constants were recorded (issue: no two classes share a
#: name), by their names then: a rename changes no game, so the fingerprint reads the old ones
_RECORDED_NAMES = (("TakeFloor(seat=", "Floor(seat="), ("HandsUp(seats=", "Extra(seats="),
                   ("Thumbs(target=", "PutUp(target="))


def _recorded(text: str) -> bytes:
    """``text`` as it read when the constants were recorded."""
    for new, old in _RECORDED_NAMES:
        text = text.replace(new, old)
    return text.encode()


def variant_digest(rules: str, options: dict[str, object], games: int = GAMES) -> str:
    """One sha256 over ``games`` seeded random games of ``rules`` with ``options``: each
    action, its refusal, its events, the waits and views after it, both notations, an undo now
    and then; each game's protocol."""
    digest = hashlib.sha256()
    for seed in range(games):
        rng = random.Random(f"{rules}/{sorted(options.items())}/{seed}")
        club = {k: v for k, v in options.items() if k != "seats"}
        seats = options.get("seats")
        game = Game(apply_options(find_rules(rules), club),
                    seats=seats if isinstance(seats, int) else None, rng=rng)
        digest.update(repr((game.roles, game.dealt, game.start(), views(game))).encode())
        while not game.is_over and len(game.history) < 5_000:
            action = random_action(game, rng)
            refusal = game.refusal(action)
            events = game.apply(action)
            digest.update(_recorded(repr((action, refusal, events, views(game)))))
            digest.update(game.notation().encode())
            digest.update(game.notation(secret=False).encode())
            if len(game.history) % 97 == 0:  # an undo now and then, and the action again
                digest.update(_recorded(repr((game.pop(), views(game), game.apply(action)))))
        digest.update(json.dumps(game.protocol(), ensure_ascii=False).encode())
    return digest.hexdigest()


def _key(rules: str, options: dict[str, object]) -> str:
    return rules + "".join(f" {k}={v}" for k, v in options.items())


@pytest.mark.parametrize(("rules", "options"), VARIANTS, ids=[_key(*v) for v in VARIANTS])
def test_seeded_random_games_are_byte_for_byte_the_recorded_ones(
        rules: str, options: dict[str, object]) -> None:
    assert variant_digest(rules, options) == DIGESTS[_key(rules, options)]


def test_the_digest_sees_a_change_of_one_game() -> None:
    # the fingerprint is of the games, not of their number alone
    assert variant_digest("crime-time", {}, games=2) != variant_digest("crime-time", {}, games=3)


if __name__ == "__main__":  # print the constants, to record them
    for variant in VARIANTS:
        sys.stdout.write(f'    "{_key(*variant)}":\n        "{variant_digest(*variant)}",\n')
