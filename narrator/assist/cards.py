"""Host-assist's form for the deal: the host deals the cards by hand, and tells the narrator
where they went — the seats of each card but the civilians', what the ruleset deals besides
the cards (the maniac's side), and, if the club likes, what the players are called."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, Input, Static

from narrator.engine import Role, Rules, Team, find_rules
from narrator.engine.options import OptionError, parse_names
from narrator.errors import NarratorError
from narrator.host.texts import card, tx
from narrator.typed import typed_number


@dataclass(frozen=True)
class Deal:
    """What the host enters before the first night: the cards, the players' nicknames, and what
    the ruleset deals besides the cards (the maniac's side)."""

    roles: dict[int, Role]
    names: dict[int, str] = field(default_factory=dict)
    dealt: dict[str, str] = field(default_factory=dict)


def _cards(rules: Rules, seats: int) -> list[tuple[Role, int]]:
    """The cards dealt besides the civilians', the mafia's first (the order a host enters
    them in)."""
    return sorted(rules.composition(seats).items(),
                  key=lambda card: (card[0].team is not Team.BLACK, card[0] is not Role.DON))


def card_fields(rules: Rules, seats: int, lang: str = "en") -> list[tuple[str, str]]:
    """The fields the host fills in for ``rules`` at ``seats``: (name, placeholder) for each
    card but the civilians', then for each thing dealt besides the cards."""
    fields = [(role.value, tx("d_seats", lang, card=card(role.value, lang), n=n) if n > 1
               else tx("d_seat", lang, card=card(role.value, lang)))
              for role, n in _cards(rules, seats)]
    fields += [(name, f"{name.replace('_', ' ')}: {' or '.join(values)}")
               for name, values in rules.dealt_choices.items()]
    return fields


def parse_cards(rules: Rules, seats: int,
                fields: dict[str, str]) -> tuple[dict[int, Role], dict[str, str]]:
    """The cards the host dealt (seat numbers by spaces or commas, as many as the ruleset
    deals) and what else was dealt, from the fields of :func:`card_fields`."""
    roles: dict[int, Role] = {}
    for role, count in _cards(rules, seats):
        words = fields.get(role.value, "").replace(",", " ").split()
        if not words:
            raise NarratorError(f"{role.value}: enter a seat number")
        if count == 1 and len(words) > 1:  # (a count of several: the deal's check says it)
            raise NarratorError(f"{role.value}: one seat, not {len(words)}")
        for word in words:
            seat = typed_number(word)
            if seat is None or not 1 <= seat <= seats:
                shown = word if len(word) <= 12 else word[:12] + "…"
                raise NarratorError(f"{role.value}: {shown!r} is not a seat (1..{seats})")
            if seat in roles:
                raise NarratorError(f"seat {seat} is both {roles[seat].value} and {role.value}")
            roles[seat] = role
    dealt: dict[str, str] = {}
    for name, values in rules.dealt_choices.items():
        value = fields.get(name, "").strip().lower()
        if value not in values:
            raise NarratorError(f"{name.replace('_', ' ')}: {' or '.join(values)}, "
                                f"not {value!r}")
        dealt[name] = value
    rules.check_deal(seats, roles)
    return roles, dealt


def parse_roles(don: str, mafia: str, sheriff: str, seats: int,
                rules: Rules | None = None) -> dict[int, Role]:
    """The cards the host dealt (crime-time's unless ``rules`` is given): seat numbers (mafia:
    several, by spaces or commas), checked to be the ruleset's deal."""
    fields = {str(Role.DON): don, str(Role.MAFIA): mafia, str(Role.SHERIFF): sheriff}
    return parse_cards(rules or find_rules("crime-time"), seats, fields)[0]


class RolesScreen(Screen[Deal]):
    """The host deals the cards; the narrator needs to know where they went (and, if the club
    likes, what the players are called)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "app.quit", "Quit")]

    @classmethod
    def in_lang(cls, seats: int, rules: Rules, names: dict[int, str] | None = None,
                lang: str = "en") -> RolesScreen:
        """The form in ``lang`` (its key bar too: Textual reads it from the class)."""
        kind: type[RolesScreen] = type(
            f"RolesScreen_{lang}", (cls,),
            {"BINDINGS": [Binding("escape", "app.quit", tx("d_quit", lang))]})
        return kind(seats, rules, names, lang)

    def __init__(self, seats: int, rules: Rules, names: dict[int, str] | None = None,
                 lang: str = "en") -> None:
        super().__init__()
        self.lang = lang
        self.seats = seats
        self.rules = rules
        self.names = names or {}

    def compose(self) -> ComposeResult:
        with Vertical(id="roles"):
            yield Static(tx("d_title", self.lang, seats=self.seats), id="roles-title")
            yield Input(",".join(f"{s}={n}" for s, n in sorted(self.names.items())),
                        placeholder=tx("d_names", self.lang), id="names")
            for name, placeholder in card_fields(self.rules, self.seats, self.lang):
                yield Input(placeholder=placeholder, id=name)
            yield Static(tx("d_next", self.lang), id="roles-error")
        yield Footer()

    def on_input_submitted(self, message: Input.Submitted) -> None:
        keys = [name for name, _ in card_fields(self.rules, self.seats)]
        fields = [self.query_one(f"#{name}", Input) for name in keys]
        empty = next((f for f in fields if not f.value.strip()), None)
        if empty is not None:
            empty.focus()
            return
        try:
            roles, dealt = parse_cards(self.rules, self.seats,
                                       {k: f.value for k, f in zip(keys, fields, strict=True)})
            names = parse_names(self.query_one("#names", Input).value, self.seats)
        except OptionError as e:
            self.query_one("#roles-error", Static).update(Text(f"names: {e}", style="bold red"))
            return
        except NarratorError as e:
            self.query_one("#roles-error", Static).update(Text(str(e), style="bold red"))
            return
        self.dismiss(Deal(roles, names, dealt))
