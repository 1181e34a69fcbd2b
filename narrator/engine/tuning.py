"""A club's own figures: which figures of a ruleset a club may change (``--timer``, club
options), and the ruleset tuned to them — the «Десять секунд» kept ten seconds before a changed
speech's end, the lines that name a length fitted to the new figures."""

from __future__ import annotations

from collections.abc import Mapping

from narrator.engine.rules import RULESETS, Rules
from narrator.errors import NarratorError

#: figures a club may change without a ruleset of its own (``--count-pace``, ``--timer``), in
#: seconds; a changed speech or agreement keeps its «Десять секунд» ten seconds before its end
TUNABLE = ("count_pace", "deal_seconds_per_seat", "don_noted_seconds", "speech_seconds",
           "last_word_seconds", "tie_speech_seconds", "vote_window", "check_seconds",
           "agreement_seconds", "sheriff_first_night_seconds",
           "nomination_only_seconds")  # 9.5.1: the 3rd foul's nominating window
_WARNED = {"speech_seconds": "speech_warning", "agreement_seconds": "agreement_warning"}
MAX_FIGURE = 600.0


def tunable(rules: Rules) -> tuple[str, ...]:
    """The figures of ``rules`` a club may change: every ruleset's, then its own steps'."""
    return TUNABLE + type(rules).own_figures


def all_figures() -> tuple[str, ...]:
    """Every figure some ruleset lets a club change (what ``--timer`` may name)."""
    own = {name: None for cls in RULESETS.values() for name in cls.own_figures}
    return TUNABLE + tuple(name for name in own if name not in TUNABLE)


def fitted_lines(rules: Rules | type[Rules]) -> dict[str, tuple[str, ...]]:
    """The wording (:attr:`Rules.lines`) of ``rules`` fitted to its figures: each line of
    :attr:`Rules.named_lengths` whose figure is not the one its words say is said without the
    length; one whose figure is (again) the text's says it. The ruleset's own figures are the
    texts' (a test holds them to it), so an untuned ruleset's wording comes back unchanged."""
    named = rules.named_lengths
    back = {length.instead: key for key, length in named.items()}
    swap = {key: length.instead for key, length in named.items()
            if getattr(rules, length.figure) != length.seconds}
    out: dict[str, tuple[str, ...]] = {}
    for key, said in rules.lines.items():
        # a wording fitted before (a ruleset tuned twice) goes back to the text's words first
        fitted = tuple(swap.get(k, k) for k in (back.get(k, k) for k in said))
        if fitted != (key,):
            out[key] = fitted
    for key, instead in swap.items():
        if key in Rules.named_lengths and key not in out:  # crime-time's line, said as it is
            out[key] = (instead,)
    return out


def tuned(rules: Rules, settings: Mapping[str, object]) -> Rules:
    """``rules`` with some of its class settings changed (figures, club options, wording): a
    changed speech or agreement keeps its «Десять секунд» ten seconds before its end (2.3,
    2.1.1), and the lines that name a length are fitted to the figures (:func:`fitted_lines`).
    The one way a tuned ruleset is made, from ``--timer`` and from club options alike."""
    attrs = dict(settings)
    for name, warning in _WARNED.items():
        value = settings.get(name)
        if isinstance(value, float | int):
            attrs[warning] = value - 10.0 if value > 10.0 else None
    cls = type(rules)
    made: type[Rules] = type(cls.__name__, (cls,), attrs)
    made.lines = fitted_lines(made)
    return made()


def with_settings(rules: Rules, **settings: float) -> Rules:
    """``rules`` with some of its figures changed, e.g. ``with_settings(r, count_pace=2.0)``."""
    figures_of = tunable(rules)
    unknown = sorted(set(settings) - set(figures_of))
    if unknown:
        names = ", ".join(n.removesuffix("_seconds") for n in unknown)
        raise NarratorError(f"{rules.name} has no figure {names} (its figures: "
                            f"{', '.join(n.removesuffix('_seconds') for n in figures_of)})")
    for name, value in settings.items():
        if not 0 < value <= MAX_FIGURE:
            raise NarratorError(f"{name} must be between 0 and {MAX_FIGURE:g} seconds, "
                                f"not {value}")
    if not settings:
        return rules
    return tuned(rules, settings)


def settings_of(rules: Rules) -> dict[str, float]:
    """The tunable figures of ``rules`` that differ from its ruleset's (for the journal)."""
    base = RULESETS.get(rules.name, type(rules))
    return {k: getattr(rules, k) for k in tunable(rules) if getattr(rules, k) != getattr(base, k)}


def parse_figures(items: list[str]) -> dict[str, float]:
    """``--timer speech=20 --timer check_seconds=5`` → ``{"speech_seconds": 20.0, …}``: a
    figure's name with or without ``_seconds``."""
    out: dict[str, float] = {}
    for item in items:
        name, sep, value = item.partition("=")
        name = name.strip().replace("-", "_")
        known = all_figures()
        full = name if name in known else f"{name}_seconds"
        if full not in known:
            names = ", ".join(n.removesuffix("_seconds") for n in known)
            raise NarratorError(f"--timer {item!r}: unknown figure (known: {names})")
        try:
            out[full] = float(value) if sep else float("nan")
        except ValueError:
            out[full] = float("nan")
        if out[full] != out[full]:
            raise NarratorError(f"--timer {item!r}: expected NAME=SECONDS")
    return out
