"""The journal's header: its first line, the table as it was dealt.

``{"journal": 2, "rules": …, "seats": …, "lang": …, "mode": …, "settings": {…}, "roles": {…}}``,
with ``options``, ``names`` and ``dealt`` only when the game has any (docs/journal.md). It is
everything a resume needs besides the inputs: the ruleset with the club's figures and options,
the cards, the nicknames, what was dealt besides the cards, and which mode takes the game up.

Reading it trusts nothing: each field is read on its own, in the order below, and the first
that is wrong is one line naming the file, line 1 and the field (``j.jsonl:1: mode: expected
assist or play, got "poker"``). The order is part of the format: a header wrong in two fields
is refused for the same one on every narrator.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from narrator.engine import Game, Role
from narrator.engine.options import apply_options, check_names, check_options, options_of
from narrator.engine.rules import Rules, find_rules
from narrator.engine.tuning import settings_of, with_settings
from narrator.errors import NarratorError
from narrator.reading import BadJSON, Containers, TextLine, loads

#: the version written; version 1 (lines without a ``type``) is read too
VERSION = 2
#: the modes that write journals (``narrator resume`` takes each up in its own way)
MODES = ("assist", "play")
LANGS = ("ru", "uk")
#: a value shown in an error is cut to this many characters (a name may be as long as the file)
_SHOWN = 40

_T = TypeVar("_T")


@dataclass
class JournalHeader:
    """The header's fields, read and checked (or about to be written)."""

    rules: str
    seats: int
    roles: dict[int, Role]
    lang: str = "ru"
    mode: str = "assist"
    settings: dict[str, float] = field(default_factory=dict)  # changed figures (count pace, …)
    options: dict[str, Any] = field(default_factory=dict)  # club options (fouls, best_move, …)
    names: dict[int, str] = field(default_factory=dict)  # nicknames per seat
    dealt: dict[str, str] = field(default_factory=dict)  # besides the cards (the maniac's side)

    @classmethod
    def of_game(cls, game: Game, *, lang: str = "ru", mode: str = "assist") -> JournalHeader:
        """The header of ``game`` as dealt: its figures and options as they differ from its
        ruleset's, so that a header stays short and reads the same on a newer narrator."""
        return cls(game.rules.name, game.seats, dict(game.roles), lang, mode,
                   settings_of(game.rules), options_of(game.rules), dict(game.names),
                   dict(game.dealt))

    def to_json(self) -> dict[str, Any]:
        """The header line's object; the keys in this order, every journal alike."""
        head: dict[str, Any] = {
            "journal": VERSION, "rules": self.rules, "seats": self.seats, "lang": self.lang,
            "mode": self.mode, "settings": self.settings,
            "roles": {str(s): r.value for s, r in sorted(self.roles.items())}}
        # left out when empty: a game without them writes the header it always did
        if self.options:
            head["options"] = self.options
        if self.names:
            head["names"] = {str(s): n for s, n in sorted(self.names.items())}
        if self.dealt:
            head["dealt"] = dict(self.dealt)
        return head


def read_header(name: str, row: TextLine | None, held: Containers) -> JournalHeader:
    """The header on ``row``, the first line of the journal ``name`` (None: the file is
    empty); its JSON objects are counted in ``held``, the file's count. NarratorError, in one
    line naming the file, line 1 and the field, for anything that is not a header."""
    if row is None or not row.text.strip():
        raise NarratorError(f"{name}:1: expected a journal header, got an empty line")
    try:
        head = loads(row.text)
        held.take(row.text)
    except BadJSON as e:
        raise NarratorError(f"{name}:1: not a journal header ({e})") from None
    if not isinstance(head, dict) or "journal" not in head:
        raise NarratorError(f"{name}:1: not a journal header")
    return _Fields(name, head).header()


class _Fields:
    """The header's fields read one by one from ``head``, each error naming its field."""

    def __init__(self, name: str, head: dict[str, Any]) -> None:
        self.name = name
        self.head = head

    def header(self) -> JournalHeader:
        self.version()
        rules_name, rules = self.rules()
        mode = self.choice("mode", MODES, "assist")
        lang = self.choice("lang", LANGS, "ru")
        seats = self.checked("seats", lambda: rules.check_seats(self.head.get("seats")))
        roles = self.roles(rules, seats)
        settings = self.settings(rules)
        options = self.options(rules, settings)
        names = self.checked("names", lambda: check_names(self.head.get("names", {}), seats))
        dealt = self.dealt(rules)
        return JournalHeader(rules_name, seats, roles, lang, mode, settings, options, names,
                             dealt)

    # -- what an error says ------------------------------------------------------------------

    def wrong(self, key: str, expected: str, got: Any) -> NarratorError:
        """``key`` is not of the kind it must be: what it must be, and (the start of) what
        it is, as JSON."""
        shown = json.dumps(got, ensure_ascii=False)
        shown = shown if len(shown) <= _SHOWN else shown[:_SHOWN - 3] + "…"
        return NarratorError(f"{self.name}:1: {key}: expected {expected}, got {shown}")

    def checked(self, key: str, check: Callable[[], _T]) -> _T:
        """What ``check`` makes of ``key``; its refusal (the engine's words) named by ``key``."""
        try:
            return check()
        except (ValueError, TypeError, NarratorError) as e:  # (an OptionError is one)
            raise NarratorError(f"{self.name}:1: {key}: {e}") from None

    # -- the fields, in the order they are read ----------------------------------------------

    def version(self) -> None:
        version = self.head["journal"]
        if version not in (1, VERSION) or isinstance(version, bool):
            raise NarratorError(f"{self.name}:1: a journal of version {version!r}; this "
                                f"narrator reads versions 1 and {VERSION}")

    def rules(self) -> tuple[str, Rules]:
        rules_name = self.head.get("rules")
        if not isinstance(rules_name, str):
            raise self.wrong("rules", "a name", rules_name)
        return rules_name, self.checked("rules", lambda: find_rules(rules_name))

    def choice(self, key: str, choices: tuple[str, ...], default: str) -> str:
        value = self.head.get(key, default)  # (journals of version 1 were assist's, in ru)
        if value not in choices:
            raise self.wrong(key, " or ".join(choices), value)
        return str(value)

    def roles(self, rules: Rules, seats: int) -> dict[int, Role]:
        raw = self.head.get("roles")
        if not isinstance(raw, dict):
            raise self.wrong("roles", "{seat: role}", raw)

        def cards() -> dict[int, Role]:
            # ASCII digits only («²» passes isdigit() and fails int()); a key that is no seat
            # stays text, for the deal's check to name
            roles = {int(s) if s.isascii() and s.isdigit() and len(s) < 3 else s: Role(r)
                     for s, r in raw.items()}
            rules.check_deal(seats, roles)
            return roles

        return self.checked("roles", cards)

    def settings(self, rules: Rules) -> dict[str, float]:
        raw = self.head.get("settings", {})
        if not isinstance(raw, dict) or not all(
                isinstance(v, int | float) and not isinstance(v, bool) for v in raw.values()):
            raise self.wrong("settings", "{figure: seconds}", raw)
        settings = {str(k): float(v) for k, v in raw.items()}
        self.checked("settings", lambda: with_settings(rules, **settings))  # known, in range
        return settings

    def options(self, rules: Rules, settings: dict[str, float]) -> dict[str, Any]:
        options = self.checked("options", lambda: check_options(self.head.get("options", {})))
        # Whether the ruleset takes them (vrn plays its own first day) is asked here as well,
        # as the game rebuilt will ask it: a header it refuses is refused naming its line and
        # its field, not later, in words that name neither.
        apply_options(with_settings(rules, **settings), options, where=f"{self.name}:1: options")
        return options

    def dealt(self, rules: Rules) -> dict[str, str]:
        raw = self.head.get("dealt", {})
        choices: Mapping[str, tuple[str, ...]] = rules.dealt_choices
        if not isinstance(raw, dict) or any(k not in choices or v not in choices[k]
                                            for k, v in raw.items()):
            raise self.wrong("dealt", f"what {rules.name} deals besides the cards", raw)
        return dict(raw)
