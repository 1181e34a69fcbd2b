"""The rules engine: pure, deterministic, no I/O and no clock."""

from narrator.engine import rulesets  # noqa: F401  (registers every ruleset)
from narrator.engine.actions import (
    Action,
    BestMove,
    Check,
    EndSpeech,
    Extra,
    Floor,
    Foul,
    HandCount,
    Hands,
    Kill,
    Malformed,
    Nominate,
    PutUp,
    Remove,
    Save,
    Shot,
    TimeUp,
    Withdraw,
    night_act,
    parse_action,
)
from narrator.engine.errors import EngineError, IllegalActionError, InvalidActionError
from narrator.engine.game import Expect, Game
from narrator.engine.record import NightAct
from narrator.engine.rules import RULESETS, CrimeTime, Rules, find_rules, register
from narrator.engine.types import Role, Team, Timer

__all__ = [
    "RULESETS", "Action", "BestMove", "Check", "CrimeTime", "EndSpeech", "EngineError", "Expect",
    "Extra", "Floor", "Foul", "Game", "HandCount", "Hands", "IllegalActionError",
    "InvalidActionError", "Kill", "Malformed", "NightAct", "Nominate", "PutUp", "Remove", "Role", "Rules",
    "Save", "Shot", "Team", "TimeUp", "Timer", "Withdraw", "find_rules", "night_act",
    "parse_action", "register",
]
