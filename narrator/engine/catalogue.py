"""The rule catalogue clubs describe their games with: MafiaRatings' thirteen groups, each with
numbered variants, and the thirteen-digit code that names one variant of every group
(``0002000010000``, the rating system's default).

A group is a club option of ours (snake case of the catalogue's own names, in
:mod:`narrator.engine.options`); its variant is a setting of the ruleset, the ruleset's own
(the one its text implies) unless a club names another. The code reads and writes the whole
set at once: digit ``i`` is the variant of group ``i`` by its number. Two of our older options
are groups in other words: ``best_move`` is 8.17's ``legacy`` (true: "first"), and
``first_day = "lift_only"`` is 7.16's "to_talk" (the single leader of day 1 speaks and
stays). Under ``fouls = "count"`` (fouls recorded, never punished) 9.5 reads "no".
This module has no I/O and knows no front end.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from narrator.errors import NarratorError

if TYPE_CHECKING:
    from narrator.engine.rules import Rules

__all__ = ["DEFAULT_CODE", "GROUPS", "CodeError", "Group", "code_of", "group", "parse_code",
           "variant_of"]

#: the rating system's default set (``include/rules.php``: ``DEFAULT_RULES``)
DEFAULT_CODE = "0002000010000"


class CodeError(NarratorError):
    """A rules code that names no set of the catalogue; the message quotes it."""


@dataclass(frozen=True, slots=True)
class Group:
    """One group of the catalogue: our option ``name``, the catalogue's ``clause`` and
    ``title``, and its ``variants`` in the catalogue's order (a variant's number is its digit
    in the code; clause ``{clause}.{number + 1}`` describes it)."""

    name: str
    clause: str
    title: str
    variants: tuple[str | int, ...]

    def clause_of(self, variant: str | int) -> str:
        """The clause describing ``variant`` (7.5.2 for withdraw "auto")."""
        return f"{self.clause}.{self.variants.index(variant) + 1}"

    def check(self, value: object) -> str | int:
        """``value`` if it is a variant of this group; CodeError (one line) if not."""
        ok = (isinstance(value, int) and not isinstance(value, bool)) if isinstance(
            self.variants[0], int) else isinstance(value, str)
        if not ok or value not in self.variants:
            shown = ", ".join(_shown(v) for v in self.variants)
            raise CodeError(f"{self.name}: expected one of {shown}, got {value!r}")
        assert isinstance(value, str | int)
        return value


def _shown(variant: str | int) -> str:
    return str(variant) if isinstance(variant, int) else f'"{variant}"'


#: the groups in the code's order (digit 0 first)
GROUPS: tuple[Group, ...] = (
    Group("rotation", "6.3", "who opens each later day", ("first", "last")),
    Group("on_record", "6.7", "colours left on record", (
        "none", "night_killed", "killed", "except_split", "all")),
    Group("on_record_count", "6.8", "how many colours on record", tuple(range(10))),
    Group("withdraw", "7.5", "withdrawing a nomination", ("allowed", "auto", "no")),
    Group("first_voting", "7.16", "the first day's vote", (
        "standard", "to_talk", "no_breaking", "breaking_to_themself")),
    Group("split_order", "7.18", "the order of a re-vote", ("same", "reverse")),
    Group("kill_all", "7.21", "the table split among all its players", ("prohibited", "draw")),
    Group("split_on_four", "7.22", "two tied twice at four", ("allowed", "prohibited")),
    Group("split_on_nine", "7.23", "three tied twice at nine", ("yes", "no", "after1")),
    Group("legacy", "8.17", "the first-night victim's best move", ("first", "no")),
    Group("game_end_speech", "8.19", "the last word when the game ends", ("yes", "no")),
    Group("three_fouls", "9.5", "the third foul", ("lose_speech", "short_speech", "no")),
    Group("tech_fouls", "9.6", "technical fouls", ("no", "yes")),
)
_BY_NAME = {g.name: g for g in GROUPS}


def group(name: str) -> Group:
    return _BY_NAME[name]


def variant_of(rules: Rules, name: str) -> str | int:
    """The variant of group ``name`` that ``rules`` plays."""
    if name == "legacy":
        return "first" if rules.best_move else "no"
    if name == "first_voting" and rules.first_day == "lift_only":
        return "to_talk"
    if name == "three_fouls" and rules.fouls != "sport":
        return "no"  # fouls only counted: a third foul costs nothing
    value: str | int = getattr(rules, name)
    return value


def code_of(rules: Rules) -> str:
    """The thirteen-digit code of the set ``rules`` plays."""
    return "".join(str(g.variants.index(variant_of(rules, g.name))) for g in GROUPS)


def parse_code(code: object) -> dict[str, str | int]:
    """Every group's variant named by ``code``; CodeError (one line quoting it) if it names
    no set: thirteen digits, each a variant of its group."""
    if not isinstance(code, str):
        raise CodeError(f"rules: expected a code of {len(GROUPS)} digits, got {code!r}")
    if len(code) != len(GROUPS) or not code.isascii() or not code.isdigit():
        raise CodeError(f"rules: expected a code of {len(GROUPS)} digits "
                        f"(e.g. \"{DEFAULT_CODE}\"), got {code!r}")
    out: dict[str, str | int] = {}
    for i, (g, digit) in enumerate(zip(GROUPS, code, strict=True)):
        number = int(digit)
        if number >= len(g.variants):
            raise CodeError(f"rules: {code!r}: digit {i + 1} ({g.name}, {g.clause}) is "
                            f"{number}; {g.name} has variants 0..{len(g.variants) - 1}")
        out[g.name] = g.variants[number]
    return out
