"""Replaying a table script on a virtual clock (docs/table-script.md, docs/protocol.md).

The script's lines become input events (:mod:`narrator.inputs`) — a ``say`` inside a speech
is a phrase ``heard`` at its moment, a vote, a shot or a foul an ``action`` — applied through
the same intake and the same :class:`~narrator.host.driver.Driver` that run a live game. Time
moves only when the replay moves it: to the moment of each ``say``, and to the next deadline
whenever the game waits on nothing but a timer. Same script, same protocol.
"""

from __future__ import annotations

import random
import zlib
from typing import Any, assert_never

from narrator.clock import Clock, VirtualClock
from narrator.engine import (
    Act,
    Action,
    BestMove,
    EndSpeech,
    EngineError,
    Foul,
    Game,
    Hands,
    HandsUp,
    OnRecord,
    Remove,
    Shot,
    TakeFloor,
    Team,
    TechFoul,
    Thumbs,
    night_act,
)
from narrator.engine import waits as w
from narrator.errors import ScriptError
from narrator.grammar import Intent, parse
from narrator.host.assembly import Assembly
from narrator.host.intake import apply_input
from narrator.host.recorder import InputLog
from narrator.host.speaker import Narration
from narrator.inputs import Input, action, heard
from narrator.replay.script import ScriptLine, TableScript
from narrator.table.session import open_table
from narrator.voice.manifest import Manifest, default_manifest


class ReplayResult(Assembly):
    """What a replay leaves: the host, its game at the end, the transcript, the protocol."""


class ScriptReplay:
    """Feeds one table script to a host, on a virtual clock unless given another."""

    def __init__(self, script: TableScript, *, manifest: Manifest | None = None,
                 narration: Narration | None = None, journal: InputLog | None = None,
                 clock: Clock | None = None) -> None:
        self.script = script
        # A replay is the same every time: without a seed, what is still to draw (vrn's
        # maniac_side next to given cards) is drawn from the cards themselves.
        rng = random.Random(script.seed if script.seed is not None else _cards_seed(script))
        self.game = Game(script.rules, seats=script.seats, roles=script.roles, rng=rng,
                         names=script.names, dealt=script.dealt)
        self.clock = clock or VirtualClock()
        self.session = open_table(self.game, self.clock,
                                  manifest=manifest or default_manifest(script.lang),
                                  narration=narration, journal=journal,
                                  intake=lambda host, event: self._intake(event))
        self.host, self.transcript = self.session.host, self.session.transcript
        self.driver = self.session.driver

    def run(self) -> ReplayResult:
        self.host.start()
        for line in self.script.inputs:
            self.feed(line)
        self._settle()
        # the script ends: the game stands at this moment, after what was due at it (a count
        # begun now has said «один»), however the last line got there
        if not self.game.is_over:
            self.driver.run_until(self.driver.now())
        return ReplayResult(self.host, self.transcript)

    # -- helpers -----------------------------------------------------------------------------

    def _settle(self) -> None:
        """Let every step that waits only on its timer run out."""
        while isinstance(self.game.expect, w.Pause | w.Deal):
            self.driver.run_next()

    def _close_window(self) -> None:
        """Run the clock to the end of the current timer."""
        timer = self.game.expect.timer
        while timer is not None and self.game.expect.timer is timer:
            if not self.driver.run_next():
                break

    def _fail(self, line: ScriptLine, got: str) -> ScriptError:
        return self.script.error(line.line, f"expected {self.game.expect}, got {got}")

    def _parse(self, text: str) -> list[Intent]:
        return parse(text, self.script.lang, self.script.seats)

    def _intake(self, event: Input) -> None:
        apply_input(self.host, event, self._parse)

    def _feed(self, line: ScriptLine, event: Input) -> None:
        """Apply one input event of ``line`` at its time; a refusal names the line."""
        try:
            self.driver.feed(event)
        except EngineError as e:
            raise self.script.error(line.line, str(e)) from None

    def _apply(self, line: ScriptLine, taken: Action) -> None:
        self._feed(line, action(self.driver.now(), str(taken)))

    # -- feeding one line ------------------------------------------------------------------

    def _result(self) -> str:
        winner = self.game.winner
        return "a draw" if winner is Team.DRAW else (
            f"{winner.value if winner else 'nobody'} won")

    def feed(self, line: ScriptLine) -> None:
        """Apply one script line, or raise ScriptError naming it."""
        if line.key == "mark":  # the host's, once the game is over
            self._apply(line, line.value)
            return
        if self.game.is_over:
            raise self.script.error(
                line.line, f"expected nothing (the game is over: {self._result()}), got "
                           f"{line.key}")
        if line.key == "foul":
            self._apply(line, Foul(line.value))
            return
        if line.key == "tech_foul":  # 9.6.2 (refused unless the club's tech_fouls = "yes")
            self._apply(line, TechFoul(line.value))
            return
        if line.key == "remove":
            self._apply(line, Remove(line.value))
            return
        self._settle()
        if line.key == "best_move":  # before the first-night victim's last word
            self._apply(line, BestMove(tuple(line.value)))
            return
        if line.key == "on_record":  # before the speech that leaves them (6.7)
            v = line.value
            self._apply(line, OnRecord(v["seat"], tuple(v["red"]), tuple(v["black"])))
            return
        # a window the line does not answer passes with nothing in it (no thumbs, no hands)
        while _optional(self.game.expect) not in (None, line.key):
            self._close_window()
            self._settle()
        handler = {"speech": self._speech, "vote": self._vote, "crash": self._crash,
                   "night": self._night, "extra": self._extra, "put_up": self._put_up}[line.key]
        handler(line)

    def _speech(self, line: ScriptLine) -> None:
        exp = self.game.expect
        seat = line.value
        if isinstance(exp, w.Floor):  # speeches by raised hands: this seat's hand was first
            self._apply(line, TakeFloor(seat))
            exp = self.game.expect
        if not isinstance(exp, w.Speech) or exp.seat != seat:
            raise self._fail(line, f"a speech of seat {seat}")
        assert exp.timer is not None
        start = self.host.timer_started  # after the announcement, when the narrator is heard
        limit = exp.timer.seconds
        timer = exp.timer
        if line.say is None:  # a speech that ends at once
            self._apply(line, EndSpeech())
            return
        for t, text in line.say:
            if t >= limit:
                break  # the speech is over by then: not heard
            self.driver.run_until(start + t)
            if self.game.expect.timer is not timer:
                break
            self._feed(line, heard(start + t, text))
            if self.game.expect.timer is not timer:
                return  # «Спасибо» (or the game ended)
        self._close_window()

    def _vote(self, line: ScriptLine) -> None:
        exp = self.game.expect
        if not isinstance(exp, w.Vote):
            raise self._fail(line, "a vote")
        candidates = self.game.voting_candidates
        votes: dict[int, list[int]] = line.value
        strangers = [c for c in votes if c not in candidates]
        if strangers:
            raise self.script.error(
                line.line, f"expected votes for candidates {', '.join(map(str, candidates))}, "
                           f"got votes for {', '.join(map(str, strangers))}")
        for cand in candidates:
            exp = self.game.expect
            if not isinstance(exp, w.Vote) or exp.candidate != cand:
                break  # the vote was cancelled (2.4.3) or the game ended
            seats = tuple(votes.get(cand, ()))
            if seats:
                self._apply(line, Hands(seats))
            self._close_window()

    def _crash(self, line: ScriptLine) -> None:
        exp = self.game.expect
        if not isinstance(exp, w.Crash):
            raise self._fail(line, "the car-crash vote")
        if line.value:
            self._apply(line, Hands(tuple(line.value)))
        self._close_window()

    def _extra(self, line: ScriptLine) -> None:
        if not isinstance(self.game.expect, w.Extra):
            raise self._fail(line, "the hands held up for 30 s more")
        if line.value:
            self._apply(line, HandsUp(tuple(line.value)))
        self._close_window()

    def _put_up(self, line: ScriptLine) -> None:
        if not isinstance(self.game.expect, w.PutUp):
            raise self._fail(line, "thumbs to put up the one just accused")
        for target, seats in line.value.items():
            self._apply(line, Thumbs(target, tuple(seats)))
        self._close_window()

    def _night(self, line: ScriptLine) -> None:
        """Each step of the night the ruleset wakes, in its order, under its own key: the hunt
        (``shots``, 2.1.2), a check (2.1.3), a kill, a save."""
        if not isinstance(self.game.expect, w.Hunt | w.NightAct):
            raise self._fail(line, "a night")
        night: dict[str, Any] = line.value
        asked: list[str] = []
        phase = self.game.phase
        while not self.game.is_over:
            self._settle()
            exp = self.game.expect
            if self.game.phase != phase:
                break
            match exp:
                case w.Hunt():
                    asked.append("shots")
                    # in the order of the count: a mafioso fires when he hears the number
                    # (2.1.2)
                    shots = sorted((t, s) for s, targets in night["shots"].items()
                                   for t in targets)
                    for target, shooter in shots:
                        self._apply(line, Shot(shooter, target))
                case w.NightAct():
                    asked += self._night_act(line, exp, night)
                case (w.Deal() | w.Pause() | w.Speech() | w.Vote() | w.Crash() | w.Floor()
                      | w.PutUp() | w.Extra() | w.Over()):
                    break  # the night is over
                case _:
                    assert_never(exp)
            self._close_window()
        unasked = sorted(k for k, v in night.items() if v not in (None, {}) and k not in asked)
        if unasked and not self.game.is_over:  # (a night that ends the game asks no more)
            raise self.script.error(
                line.line, f"night: {', '.join(unasked)}: not asked this night (it asked for "
                           f"{', '.join(asked) or 'nothing'})")

    def _night_act(self, line: ScriptLine, exp: w.NightAct, night: dict[str, Any]) -> list[str]:
        """The act of the role awake, from its key in the night's line; the keys asked."""
        keys = act_keys(exp)
        given = [k for k in keys if night.get(k) is not None]
        if len(given) > 1:
            raise self.script.error(
                line.line, f"night: {' and '.join(given)}: the {exp.role} does one or the other")
        if given:
            self._apply(line, _act(exp, keys[given[0]], night[given[0]]))
        return list(keys)


def _optional(expect: w.Expect) -> str | None:
    """The script key of a window that passes with nothing when the next line is not its own
    (no thumbs, no hands held up); None for any other step."""
    match expect:
        case w.PutUp():
            return "put_up"
        case w.Extra():
            return "extra"
        case (w.Deal() | w.Pause() | w.Speech() | w.Vote() | w.Crash() | w.Hunt() | w.NightAct()
              | w.Floor() | w.Over()):
            return None
        case _:
            assert_never(expect)


def act_keys(expect: w.NightAct) -> dict[str, Act]:
    """The keys of a script's night line for a waking role, and the act each stands for: the
    role's name for its usual act (``don``, ``maniac``, ``doctor``, ``mafia`` — the don's
    decision; a checker's ``check``), ``<role>_shot`` for a kill it may do instead
    (``sheriff_shot``)."""
    role = expect.role
    keys: dict[str, Act] = {role: expect.acts[0]}
    for act in expect.acts[1:]:
        keys[f"{role}_shot" if act is Act.KILL else f"{role}_{act}"] = act
    return keys


def _act(expect: w.NightAct, act: Act, target: int) -> Action:
    return night_act(act, expect.role, target)


def replay_script(script: TableScript, **kwargs: Any) -> ReplayResult:
    """Replay ``script`` to its end (or to the end of the game)."""
    return ScriptReplay(script, **kwargs).run()


def _cards_seed(script: TableScript) -> int:
    """A seed that is the script's cards: the same script draws the same."""
    cards = sorted((seat, role.value) for seat, role in (script.roles or {}).items())
    return zlib.crc32(repr((script.rules.name, script.seats, cards)).encode())
