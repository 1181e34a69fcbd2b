"""Club options and seat names: checked values that travel with a game.

A club plays a ruleset with options of its own (the ruleset's unless named): every group of
the rule catalogue (:mod:`narrator.engine.catalogue`: ``rotation``, ``withdraw``, …, or the
whole set at once as a ``rules`` code), ``fouls = "sport"``
(the 3rd foul costs the next discussion speech, the 4th removes the player), ``best_move``
(the first-night victim names three seats before the last word), ``cards = "closed"`` (the
eliminated leave without opening their card, where the ruleset opens it), ``first_day``
(``"none"``: no vote on day 1; ``"lift_only"``: on day 1 only a question that passes removes)
and its own timer figures. They
come from a TOML file (``--rules-file``) and travel in table-script and journal headers as a
plain mapping, so a replay never needs the file. This module checks such a mapping and turns it
into a ruleset; it does no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rapidfuzz import fuzz, process

from narrator.engine.catalogue import GROUPS, CodeError, group, parse_code, variant_of
from narrator.engine.rules import RULESETS, Rules
from narrator.engine.tuning import tunable, tuned
from narrator.errors import NarratorError
from narrator.typed import typed_number

#: option → the ruleset figure it sets (seconds)
FIGURES: dict[str, str] = {
    "speech": "speech_seconds",
    "last_word": "last_word_seconds",
    "tie_speech": "tie_speech_seconds",
    "count_pace": "count_pace",
    "check": "check_seconds",
    "agreement": "agreement_seconds",
    # the figures of the other rulesets' own steps (each ruleset takes only its own)
    "intro": "intro_seconds",
    "extra": "extra_seconds",
    "extra_window": "extra_window_seconds",
    "justify": "justify_seconds",
    "decision": "decision_seconds",
    "noted": "noted_seconds",
    "mafia_meets": "mafia_meets_seconds",
    "meet": "meet_seconds",
    "floor": "floor_seconds",
    "put_up": "put_up_seconds",
    "nomination_only": "nomination_only_seconds",  # 9.5.1: the 3rd foul's nominating window
}
#: the longest figure a club may set, in seconds
_LONGEST = {"count_pace": 10.0}
_DEFAULT_LONGEST = 600.0
FOUL_MODES = ("count", "sport")
#: ``cards``: "open", the eliminated show their card and the narrator names the role; "closed",
#: they leave without it. Every ruleset but those that open the cards plays them closed already
CARD_MODES = ("open", "closed")
#: ``first_day``: "vote", as the rule texts; "none", day 1 has no vote (its nominations are
#: kept); "lift_only", on day 1 only a question that passes removes anyone (Polemica's "zero
#: round" of published records)
FIRST_DAYS = ("vote", "none", "lift_only")
#: the catalogue's groups (:mod:`narrator.engine.catalogue`), each a club option
GROUP_OPTIONS = tuple(g.name for g in GROUPS)
#: ``rules``: the catalogue's code, every group at once
#: the host's extra points after a game: the step and the bound (points, not seconds)
POINTS = ("bonus_step", "bonus_max")
OPTIONS = ("rules", "fouls", "best_move", "cards", "first_day", *GROUP_OPTIONS, *FIGURES,
           *POINTS)


class OptionError(NarratorError):
    """An option or a name that cannot be taken; the message names it, without the place."""


def check_options(raw: Any) -> dict[str, Any]:
    """The options of ``raw`` checked: known names, values of the right kind and range."""
    if not isinstance(raw, Mapping):
        raise OptionError(f"expected a table of options, got {type(raw).__name__}")
    out: dict[str, Any] = {}
    for name, value in raw.items():
        if name not in OPTIONS:
            raise OptionError(f"unknown option {name!r}{_nearest(str(name))} (every option: "
                              f"docs/rulesets.md)")
        if name == "fouls":
            if value not in FOUL_MODES:
                raise OptionError(f"fouls: expected \"count\" or \"sport\", got {value!r}")
        elif name == "cards":
            if value not in CARD_MODES:
                raise OptionError(f"cards: expected \"open\" or \"closed\", got {value!r}")
        elif name == "first_day":
            if value not in FIRST_DAYS:
                raise OptionError(f"first_day: expected \"vote\", \"none\" or \"lift_only\", "
                                  f"got {value!r}")
        elif name == "best_move":
            if not isinstance(value, bool):
                raise OptionError(f"best_move: expected true or false, got {value!r}")
        elif name in POINTS:
            if isinstance(value, bool) or not isinstance(value, int | float) \
                    or not 0 < value <= 100:
                raise OptionError(f"{name}: expected points more than 0 and at most 100, "
                                  f"got {value!r}")
            value = float(value)
        elif name == "rules" or name in GROUP_OPTIONS:
            try:
                parse_code(value) if name == "rules" else group(name).check(value)
            except CodeError as e:
                raise OptionError(str(e)) from None
        else:
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise OptionError(f"{name}: expected seconds, got {value!r}")
            longest = _LONGEST.get(name, _DEFAULT_LONGEST)
            if not 0 < value <= longest:
                raise OptionError(f"{name}: expected more than 0 and at most {longest:g} "
                                  f"seconds, got {value!r}")
            value = float(value)
        out[name] = value
    return out


def _nearest(name: str) -> str:
    """«; did you mean best_move?» for a misspelt option, or nothing."""
    found = process.extractOne(name, OPTIONS, scorer=fuzz.ratio, score_cutoff=75)
    return f"; did you mean {found[0]}?" if found else ""


def apply_options(rules: Rules, raw: Any, *, where: str = "options") -> Rules:
    """``rules`` with the club options ``raw``; an OptionError names ``where``."""
    try:
        options = check_options(raw)
    except OptionError as e:
        raise OptionError(f"{where}: {e}") from None
    if not options:
        return rules
    options = _with_code(options, where)
    settings: dict[str, Any] = {}
    for name, value in options.items():
        if name in GROUP_OPTIONS:
            settings.update(_group_settings(rules, name, value, where))
        elif name == "cards":
            settings.update(_card_settings(rules, value == "open", where))
        elif name == "first_day":
            settings.update(_first_day_settings(rules, value, where))
        elif name in FIGURES:
            if FIGURES[name] not in tunable(rules):
                raise OptionError(f"{where}: {name}: {rules.name} has no such figure")
            settings[FIGURES[name]] = value
        else:
            settings[name] = value
    if "withdraw" in options:  # 7.5.1's example: «Ведущий: отозвано» (after the cards' lines)
        lines = settings.get("lines", rules.lines)
        settings["lines"] = {**lines, "withdrawn": ("withdrawn_catalogue",)}
    if not settings:
        return rules
    return tuned(rules, settings)


def _with_code(options: dict[str, Any], where: str) -> dict[str, Any]:
    """``options`` with the groups its ``rules`` code names (none named twice differently),
    and the catalogue's older spellings agreeing: ``best_move`` is ``legacy``, ``first_day =
    "lift_only"`` is ``first_voting = "to_talk"``; a third foul punished presumes sport fouls
    (the catalogue's 9.5 comes after the 4th foul's removal; its 9.5.3, "no", is also what
    fouls only counted read as, so a code with it keeps the ruleset's fouls)."""
    out = dict(options)
    code = out.pop("rules", None)
    if code is not None:
        for name, value in parse_code(code).items():
            if name in out and out[name] != value:
                g = group(name)
                raise OptionError(f"{where}: rules = \"{code}\" sets {name} = "
                                  f"{_toml(value)} ({g.clause_of(value)}), but {name} = "
                                  f"{_toml(out[name])}")
            out[name] = value
    _agree(out, "best_move", "legacy", {True: "first", False: "no"}, where)
    if out.get("first_day", "lift_only") == "lift_only":  # "to_talk" is set as "lift_only"
        _agree(out, "first_day", "first_voting", {"lift_only": "to_talk"}, where)
    punished = out.get("three_fouls", "no") != "no"
    if out.get("fouls") == "count" and out.get("three_fouls", "no") != "no":
        raise OptionError(f"{where}: three_fouls = {_toml(out['three_fouls'])} punishes a third "
                          f"foul, but fouls = \"count\" only counts them")
    if punished and "fouls" not in out:
        out["fouls"] = "sport"
    return out


def _agree(out: dict[str, Any], old: str, new: str, same: Mapping[Any, Any],
           where: str) -> None:
    """The option ``old`` and the group ``new`` it spells otherwise name the same variant
    (one line naming both when they do not); the group is dropped, the old name kept."""
    if new not in out:
        return
    if old in out:
        if same.get(out[old]) != out[new]:
            raise OptionError(f"{where}: {old} = {_toml(out[old])} and {new} = "
                              f"{_toml(out[new])} contradict")
        del out[new]
    else:
        mine = {value: key for key, value in same.items()}
        if out[new] in mine:
            out[old] = mine[out.pop(new)]


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    return f'"{value}"' if isinstance(value, str) else str(value)


def _group_settings(rules: Rules, name: str, value: Any, where: str) -> dict[str, Any]:
    """The setting of a catalogue group; refused in one line where the ruleset plays the
    group its own way (:attr:`~narrator.engine.rules.Rules.fixed_groups`)."""
    why = rules.fixed_groups.get(name)
    if name == "first_voting" and rules.own_first_day is not None:
        why = f"plays its own first day ({rules.own_first_day})"
    if why is not None and value != variant_of(rules, name):
        raise OptionError(f"{where}: {name}: {rules.name} {why}; it plays "
                          f"{_toml(variant_of(rules, name))}, not {_toml(value)}")
    if name == "tech_fouls" and value == "yes":  # 9.6.2: a table script's tech_foul line
        return {name: value, "script_keys": rules.script_keys | {"tech_foul"}}
    if name == "withdraw":
        # a club naming 7.5 plays it with its examples: a seat nominated by another is not
        # the speaker's («номер 3 принят (это означает, что 2 уже выставлен другими
        # игроками)»), whichever variant it names, the ruleset's own too
        return {name: value, "repeat_nomination": False}
    return {name: value}


def _card_settings(rules: Rules, shown: bool, where: str) -> dict[str, Any]:
    """The settings of ``cards``: "closed" where the ruleset opens the cards drops the
    opening and the wording that goes with it; "closed" elsewhere changes nothing; "open"
    where the ruleset keeps them closed is refused (its lines have no card to name)."""
    if shown == rules.reveal_cards:
        return {}
    if shown:
        opening = sorted(name for name, cls in RULESETS.items() if cls.reveal_cards)
        raise OptionError(f"{where}: cards: {rules.name} keeps the cards closed; "
                          f"\"open\" is for {', '.join(opening)}")
    closed = rules.open_card_lines
    return {"reveal_cards": False,
            "lines": {key: said for key, said in rules.lines.items() if key not in closed}}


def _first_day_settings(rules: Rules, value: str, where: str) -> dict[str, Any]:
    """The settings of ``first_day``: "vote" is every ruleset's own first day, and changes
    nothing; "none" and "lift_only" are refused, in one line, by a ruleset that plays a first
    day of its own (vrn's introduction round, amateur's thumbs)."""
    if value == rules.first_day:
        return {}
    if rules.own_first_day is not None:
        taking = [name for name, cls in RULESETS.items() if cls.own_first_day is None]
        raise OptionError(f"{where}: first_day: {rules.name} plays its own first day "
                          f"({rules.own_first_day}); \"{value}\" is for {', '.join(taking)}")
    return {"first_day": value}


def options_of(rules: Rules) -> dict[str, Any]:
    """The club options of ``rules`` that differ from its ruleset's (for headers)."""
    base: type[Rules] = next((c for c in type(rules).__mro__
                              if c.__dict__.get("name") == rules.name), type(rules))
    out: dict[str, Any] = {}
    for name in OPTIONS:
        if name in ("rules", "legacy"):
            continue  # the code is its groups; the legacy is ``best_move``
        attr = "reveal_cards" if name == "cards" else FIGURES.get(name, name)
        value = getattr(rules, attr, None)  # (another ruleset's figure: none here)
        if value != getattr(base, attr, None) or (
                name == "withdraw" and rules.repeat_nomination != base.repeat_nomination):
            out[name] = CARD_MODES[not value] if name == "cards" else value
    return out


def check_names(raw: Any, seats: int) -> dict[int, str]:
    """Nicknames per seat: ``{"1": "Ника", …}``; every key a seat of the table, every name text."""
    if not isinstance(raw, Mapping):
        raise OptionError(f"expected {{seat: name}}, got {type(raw).__name__}")
    out: dict[int, str] = {}
    for key, name in raw.items():
        seat = None if isinstance(key, bool) else typed_number(str(key).strip())
        if seat is None:  # ASCII digits only: «²» passes isdigit() and fails int()
            raise OptionError(f"expected a seat number, got {str(key)[:20]!r}")
        if not 1 <= seat <= seats:
            raise OptionError(f"seat {seat} does not exist (seats 1..{seats})")
        if not isinstance(name, str) or not name.strip():
            raise OptionError(f"seat {seat}: expected a name, got {name!r}")
        if seat in out:
            raise OptionError(f"seat {seat} is named twice")
        out[seat] = name.strip()
    return out


def parse_names(text: str, seats: int) -> dict[int, str]:
    """``--names "1=Ника,2=Бублик,7=Momento Mori"``: pairs seat=name, separated by commas."""
    pairs: dict[str, str] = {}
    for item in text.split(","):
        if not item.strip():
            continue
        seat, sep, name = item.partition("=")
        if not sep:
            raise OptionError(f"expected SEAT=NAME, got {item.strip()!r}")
        if seat.strip() in pairs:
            raise OptionError(f"seat {seat.strip()} is named twice")
        pairs[seat.strip()] = name
    return check_names(pairs, seats)
