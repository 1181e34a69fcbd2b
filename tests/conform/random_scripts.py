"""Random complete games written down as table scripts (docs/table-script.md).

:func:`script_of` plays a random game of a ruleset and returns the text of a table script
that, replayed (:func:`narrator.replay.table.replay_script`), gives the same protocol: the
engine's random games checked against the script format, its reader and its replay.

The game is played by :func:`_random_game`, a variant of :func:`narrator.testing.play_random_game`
that draws every action from :func:`narrator.testing.random_action` but keeps only those a
script can say *where* they happen. A script line is applied whole, so the replay stands only
at the boundaries between lines; an action the game was given elsewhere has no place in the
file. The driver draws again instead of:

- a foul or a removal anywhere but at a boundary (a script's ``foul``/``remove`` line is applied
  where the replay stands after the line before it: a speech just ended, a vote's last window
  closed, a night over — not halfway through a speech, a vote or a night); it adds a few of its
  own at the boundaries, so that games with them are common;
- a second check in one check step, or a second act of a waking role (a night line holds one
  seat per role, and the second check's ``already_checked`` refusal cannot be written);
- thumbs for a seat already put up earlier in the same window with another seat in between
  (a ``put_up`` line groups the thumbs by seat, in the order the seats were first put up);
- a hand (a thumb) that makes a candidate's hands in one round (a seat's thumbs in one window)
  more than 63 — the replay applies them as one action, of 64 words at most, and a seat's second
  hand is a refusal (``already_voted``) the protocol keeps;
- a check or an accusation of a seat the ruleset's grid leaves out (amateur: the commissar
  himself or a seat known out, the speaker himself): no pad offers it, so no front end but the
  replay could give the engine's refusal;
- a removal at the raised-hands step that leaves nobody to take the floor (the replay passes
  that step only with a ``speech`` line);
- colours on record (6.7) anywhere but at the start of a speech (a script's ``on_record`` line
  is applied where the replay stands: before the speech line);
- a nomination beyond the table outside a day speech, or a withdrawal beyond it, a
  :class:`~narrator.engine.actions.Malformed` or a hand count (no phrase of the grammar gives
  the engine's refusal for them).

:func:`table_script` writes any game's history as a script, or None when one of its actions
cannot be written; for a game of :func:`_random_game` it never is, so :func:`script_of`
returns None for no seed. No protocol key is dropped: the replayed protocol equals the random
game's, key for key (``said`` is not in :meth:`~narrator.engine.game.Game.protocol`).
"""

from __future__ import annotations

import json
import random
from functools import cache
from typing import Any, assert_never

from narrator.engine import (
    Action,
    Check,
    EndSpeech,
    EngineError,
    Foul,
    Game,
    Hands,
    HandsUp,
    Kill,
    Nominate,
    OnRecord,
    Remove,
    Save,
    Shot,
    TakeFloor,
    TechFoul,
    Thumbs,
    TimeUp,
    Withdraw,
)
from narrator.engine import waits as w
from narrator.engine.options import apply_options, options_of
from narrator.engine.rules import Rules, find_rules
from narrator.engine.types import Role, Timer
from narrator.engine.waits import Expect
from narrator.grammar import parse
from narrator.grammar.numbers import number_forms
from narrator.replay.table import act_keys
from narrator.testing import random_action

__all__ = ["script_of"]

#: how often the driver adds a foul, a removal at a boundary (besides random_action's own)
_FOUL_AT_BOUNDARY = 0.02
_CLUB_FOULS = 0.08  # where the club gives technical fouls (9.6.2)
_REMOVE_AT_BOUNDARY = 0.006
#: the most seats one replayed action names: the replay applies a vote's hands for a candidate
#: (a put_up's thumbs for a seat) as one action, read back from its text form, which takes 64
#: words at most (narrator.engine.actions.parse_action: «hands» and 63 seats)
_MOST_SEATS = 63
#: draws before the driver gives up on a step and lets its time run out
_DRAWS = 20


def script_of(rules: str, seed: int, options: dict[str, Any] | None = None) -> str | None:
    """The table script of the random game of ``rules`` (with the club ``options``, written
    in its header) played from ``seed``; None when the game cannot be written (never for the
    games of this driver: see the module's doc)."""
    return table_script(_random_game(rules, seed, options=options))


# -- the phrases ---------------------------------------------------------------------------------


@cache
def _phrases(seats: int) -> dict[tuple[str, int], str]:
    """A phrase for each nomination and withdrawal at a table of ``seats``, in Russian words,
    each checked with the grammar the replay reads it with."""
    words = number_forms("ru")
    out: dict[tuple[str, int], str] = {}
    for kind, verb in (("nominate", "выставляю"), ("withdraw", "снимаю")):
        for n in range(1, seats + 1):
            said = [f"{verb} номер {form}" for form in words.get(n, ())[:1]] + [f"{verb} {n}"]
            out[kind, n] = next(t for t in said if _means(t, seats, kind, n, None))
    return out


def _means(text: str, seats: int, kind: str, target: int, reason: str | None) -> bool:
    intents = parse(text, "ru", seats)
    return len(intents) == 1 and (intents[0].kind, intents[0].target, intents[0].reason) == (
        kind, target, reason)


_THANKS = "спасибо"


def _phrase(game: Game, expect: w.Speech, action: Action) -> str | None:
    """What the speaker says for ``action`` (None: nothing the grammar reads gives it)."""
    if isinstance(action, EndSpeech):
        return _THANKS
    if isinstance(action, Nominate | Withdraw):
        kind = "nominate" if isinstance(action, Nominate) else "withdraw"
        if 1 <= action.target <= game.seats:
            return _phrases(game.seats)[kind, action.target]
        # A number beyond the table is refused by the grammar (not_a_seat) before the engine
        # sees it: the same refusal as the engine's only for a nomination in a day discussion
        # of a ruleset with nominations. Said in digits («выставляю 12»).
        if kind == "nominate" and expect.speech == "day" and game.rules.nominations:
            text = f"выставляю {action.target}"
            if _means(text, game.seats, kind, action.target, "not_a_seat"):
                return text
    return None


# -- the scribe: a game's actions, line by line ---------------------------------------------------


class _Scribe:
    """Applies actions to a started game and writes them down as script lines.

    ``boundary``: the replay, having been fed every line written so far, stands exactly where
    the game stands now — the only place a ``foul`` or ``remove`` line can be applied.
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        self.lines: list[dict[str, Any]] = []
        self.boundary = True  # the replay's first line is applied right after the start
        self._speech: dict[str, Any] | None = None  # {"seat": n, "say": [...]}
        self._vote: dict[int, list[int]] | None = None
        self._crash: list[int] | None = None
        self._night: dict[str, Any] | None = None
        self._night_phase = ""
        self._window: dict[int, list[int]] | None = None  # the open put_up window's thumbs
        self._last_put_up: int | None = None
        self._extra: list[int] | None = None

    # -- what can be written -------------------------------------------------------------------

    def writable(self, action: Action) -> bool:
        """Whether a script can say ``action`` now (see the module's doc)."""
        game, exp = self.game, self.game.expect
        if isinstance(action, Foul | TechFoul | Remove):
            if not self.boundary:
                return False
            removes = isinstance(action, Remove) or (  # 9.6.2: the 2nd technical foul removes
                isinstance(action, TechFoul) and game.tech_fouls.get(action.seat) == 1)
            if removes and isinstance(exp, w.Floor):
                return bool(self._waiting() - {action.seat})
            return True
        if isinstance(exp, w.Speech):
            if isinstance(action, TimeUp):
                return True
            if isinstance(action, OnRecord):  # an on_record line, before the speech's line
                return self.boundary and (self._speech is None
                                          or self._speech["speech"] != exp.seat)
            return _phrase(game, exp, action) is not None
        if isinstance(action, TimeUp):
            return not isinstance(exp, w.Floor) or bool(self._waiting())
        if isinstance(action, Check | Thumbs) and game.refusal(action) in _NOT_ON_A_PAD:
            return False
        match exp:
            case w.Crash():  # the car crash: each seat written once
                return isinstance(action, Hands)
            case w.Vote(candidate=cand):
                if not isinstance(action, Hands):
                    return False
                given = (self._vote or {}).get(cand, [])
                return len(given) + len(action.seats) <= _MOST_SEATS
            case w.Hunt():
                return isinstance(action, Shot)
            case w.NightAct():
                if not isinstance(action, Check | Kill | Save):
                    return False
                night = self._night if self._night_phase == game.phase else None
                return not (night and any(k in night for k in act_keys(exp)))
            case w.Floor():
                return isinstance(action, TakeFloor)
            case w.PutUp():
                if not isinstance(action, Thumbs):
                    return False
                seen = self._window or {}
                return (action.target not in seen or action.target == self._last_put_up) and (
                    len(seen.get(action.target, [])) + len(action.seats) < _MOST_SEATS)
            case w.Extra():
                return isinstance(action, HandsUp)
            case w.Pause() | w.Deal() | w.Over():
                return False
            case _:
                assert_never(exp)

    def _waiting(self) -> set[int]:
        return {s for s in self.game.living if s not in self.game.spoken}

    # -- writing -------------------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Apply ``action`` (``writable`` must have said yes) and write it down."""
        game = self.game
        exp = game.expect
        candidates = game.voting_candidates  # (of the round being voted on)
        first = candidates[0] if candidates else None
        last = candidates[-1] if candidates else None
        game.apply(action)
        if isinstance(action, Foul | TechFoul | Remove):
            key = "foul" if isinstance(action, Foul) else "tech_foul" if isinstance(
                action, TechFoul) else "remove"
            self.lines.append({key: action.seat})
            return
        if isinstance(action, OnRecord):  # (the replay stands where it stood: a boundary)
            self.lines.append({"on_record": {"seat": action.seat, "red": list(action.red),
                                             "black": list(action.black)}})
            return
        self.boundary = self._take(exp, action, first, last)
        if self._night is not None:
            after = game.expect
            if game.is_over or (not isinstance(after, w.Pause | w.Deal) and (
                    not isinstance(after, w.Hunt | w.NightAct)
                    or game.phase != self._night_phase)):
                # the replay's night ends once its steps are over and the timers after them
                # have run: here
                self.lines.append({"night": self._night})
                self._night = None
                self.boundary = True

    def _take(self, exp: Expect, action: Action, first: int | None, last: int | None) -> bool:
        """Write down one action taken at ``exp``; True when it ends a line."""
        match exp:
            case w.Speech():
                return self._spoken(exp, action)
            case w.Floor():  # the speech line of the seat taking the floor says it
                after = self.game.expect
                assert isinstance(after, w.Speech)
                self._speech = {"speech": after.seat, "say": []}
                return False
            case w.Vote(candidate=cand):
                if self._vote is None:
                    assert cand == first
                    self._vote = {}
                if isinstance(action, Hands):
                    self._vote.setdefault(cand, []).extend(action.seats)
                    return False
                if cand != last:
                    return False
                self.lines.append({"vote": {str(c): s for c, s in self._vote.items() if s}})
                self._vote = None
                return True
            case w.Crash():
                crash = self._crash = self._crash if self._crash is not None else []
                if isinstance(action, Hands):
                    crash.extend(s for s in action.seats if s not in crash)
                    return False
                self.lines.append({"crash": crash})
                self._crash = None
                return True
            case w.Hunt() | w.NightAct():
                self._at_night(exp, action)
                return False
            case w.PutUp():
                if isinstance(action, Thumbs):
                    self._window = self._window if self._window is not None else {}
                    self._window.setdefault(action.target, []).extend(action.seats)
                    self._last_put_up = action.target
                    return False
                window, self._window, self._last_put_up = self._window, None, None
                if window is None:
                    return False  # the window passes with nothing: the replay closes it itself
                self.lines.append({"put_up": {str(t): s for t, s in window.items()}})
                return True
            case w.Extra():
                if isinstance(action, HandsUp):
                    self._extra = self._extra if self._extra is not None else []
                    self._extra.extend(s for s in action.seats if s not in self._extra)
                    return False
                extra, self._extra = self._extra, None
                if extra is None:
                    return False
                self.lines.append({"extra": extra})
                return True
            case w.Pause() | w.Deal() | w.Over():
                return False  # a step that only waits for its timer: the replay runs it
            case _:
                assert_never(exp)

    def _spoken(self, exp: w.Speech, action: Action) -> bool:
        speech = self._speech
        if speech is None or speech["speech"] != exp.seat:
            speech = self._speech = {"speech": exp.seat, "say": []}
        if not isinstance(action, TimeUp):
            phrase = _phrase(self.game, exp, action)
            assert phrase is not None
            speech["say"].append(phrase)
        if not isinstance(action, TimeUp | EndSpeech):
            return False
        said: list[str] = speech["say"]
        line: dict[str, Any] = {"speech": speech["speech"]}
        if said != [_THANKS]:  # {"speech": N}: a speech ended at once
            assert exp.timer is not None
            line["say"] = _timed(said, exp.timer)
        self.lines.append(line)
        self._speech = None
        return True

    def _at_night(self, exp: w.Hunt | w.NightAct, action: Action) -> None:
        if self._night is None:
            self._night, self._night_phase = {}, self.game.phase
        night = self._night
        if isinstance(action, Shot):
            shots: dict[str, list[int]] = night.setdefault("shots", {})
            targets = shots.setdefault(str(action.shooter), [])
            if action.target not in targets:
                targets.append(action.target)
        elif isinstance(action, Check | Kill | Save):
            assert isinstance(exp, w.NightAct)
            verb = {Check: "check", Kill: "kill", Save: "save"}[type(action)]
            key = next(k for k, act in act_keys(exp).items() if act == verb)
            night[key] = action.target

    def text(self, game: Game) -> str:
        """The script: its header, then the lines."""
        cards: dict[str, list[int]] = {}
        for seat, role in sorted(game.roles.items()):
            if role is not Role.CIVILIAN:
                cards.setdefault(role.value, []).append(seat)
        header: dict[str, Any] = {
            "rules": game.rules.name, "seats": game.seats,
            "roles": {r: s[0] if len(s) == 1 else s for r, s in cards.items()},
            **game.dealt,
        }
        options = options_of(game.rules)
        if options:  # the club's options travel in the header (first_day, …)
            header["options"] = options
        rows = [header, *(_shots_as_written(line) for line in self.lines)]
        return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)


def _timed(said: list[str], timer: Timer) -> list[list[Any]]:
    """The phrases of a speech spread over it, each heard before its end."""
    step = timer.seconds / (len(said) + 1)
    return [[round(step * (i + 1), 2), text] for i, text in enumerate(said)]


def _shots_as_written(line: dict[str, Any]) -> dict[str, Any]:
    """A night's shots as the docs write them: a seat, or a list when one shot at several."""
    night = line.get("night")
    if not night or "shots" not in night:
        return line
    shots = {s: t[0] if len(t) == 1 else t for s, t in night["shots"].items()}
    return {"night": {**night, "shots": shots}}


def table_script(game: Game) -> str | None:
    """``game``'s history as a table script; None when an action of it cannot be written."""
    fresh = Game(game.rules, seats=game.seats, roles=game.roles, dealt=game.dealt)
    fresh.start()
    scribe = _Scribe(fresh)
    for action in game.history:
        if not scribe.writable(action):
            return None
        scribe.apply(action)
    return scribe.text(fresh)


# -- the driver ----------------------------------------------------------------------------------


def _table_sizes(rules: Rules) -> list[int]:
    sizes = []
    for seats in range(rules.min_seats, rules.max_seats + 1):
        try:
            sizes.append(rules.check_seats(seats))
        except EngineError:  # a table whose deal is decided already (1.3)
            continue
    return sizes


def _random_game(rules: str, seed: int, *, max_actions: int = 20_000,
                 options: dict[str, Any] | None = None) -> Game:
    """A random complete game of ``rules`` (with the club ``options``) at a random table size,
    every action one a table script can say where it happens (see the module's doc)."""
    rng = random.Random(seed)
    ruleset = apply_options(find_rules(rules), options or {})
    game = Game(ruleset, seats=rng.choice(_table_sizes(ruleset)), rng=rng)
    game.start()
    scribe = _Scribe(game)
    for _ in range(max_actions):
        if game.is_over:
            break
        scribe.apply(_next_action(scribe, rng))
    return game


def _next_action(scribe: _Scribe, rng: random.Random) -> Action:
    game = scribe.game
    if scribe.boundary:  # a foul, a removal where a script can say them
        roll = rng.random()
        if game.rules.tech_fouls == "yes" and roll < _CLUB_FOULS:
            # the club's fouls (9.5, 9.6.2): on the first seats at the table, often enough that
            # one meets his 3rd foul's turn or his 2nd technical foul (no other game draws so)
            seat = rng.choice(game.living[:3])
            return TechFoul(seat) if roll < _CLUB_FOULS / 4 else Foul(seat)
        if roll < _FOUL_AT_BOUNDARY:
            return Foul(rng.choice(game.living))
        if roll < _FOUL_AT_BOUNDARY + _REMOVE_AT_BOUNDARY and len(game.living) > 4:
            removal = Remove(rng.choice(game.living))
            if scribe.writable(removal):
                return removal
    for _ in range(_DRAWS):
        action = random_action(game, rng)
        if isinstance(action, Thumbs) and not _the_accused(game, action):
            continue
        if scribe.writable(action):
            return action
    assert game.expect.timer is not None
    return TimeUp(game.expect.timer.name)


#: refusals of a seat no pad's grid offers (the engine's, for whoever sends one anyway)
_NOT_ON_A_PAD = ("own_seat", "target_out")


def _the_accused(game: Game, action: Thumbs) -> bool:
    """Thumbs after a speech are for the one seat the speaker accused (amateur: «the
    just-accused»): a window's thumbs all go to the seat its first thumbs went to."""
    for taken in reversed(game.history):
        if not isinstance(taken, Thumbs):
            return True
        if taken.target != action.target:
            return False
    return True
