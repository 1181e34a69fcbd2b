"""MafiaRatings' formula language (include/evaluator.php, its functions in
include/scoring.php), parsed once into a tree and evaluated for each player's game.

The language: numbers (``12``, ``0.25``), ``+ - * / ^``, unary ``-`` and ``!``, the
comparisons ``> < >= <= = == !=``, ``&& ||``, ``c ? a : b``, brackets, and the functions
``round(x[, digits]) floor(x) ceil(x) log(x[, base]) min(...) max(...)``,
``counter([i[, j]])`` (``counter(i, j)`` is ``counters[i][j]``: ``i`` 0 the player's games of
the whole set, ``i`` 1 those up to this one; ``j`` the system's counter), ``bonus`` (the host's
extra points), ``role`` (0 civilian, 1 sheriff, 2 mafia, 3 don), ``difficulty``, ``matter(n)``
(1 when the game has matter ``n``) and ``mr_points``. A function without arguments may go
without brackets (``bonus`` or ``bonus()``).

What differs from MafiaRatings, on purpose: an unknown name or a wrong number of arguments is
an error when the formula is read (MafiaRatings quietly takes 0). We keep no red win rate of
an event, so ``difficulty`` is 0.5 — what MafiaRatings gives with its "no game difficulty"
option; and no MafiaRatings rating of the game, so ``mr_points`` is 0.

As in MafiaRatings: a truth is 1 or 0; ``x / 0`` is the largest value for ``x > 0``, the
smallest for ``x < 0``, 0 for 0; ``log`` of a number not above 0 is the smallest value; an
index of ``counter`` is floored and kept within the list; every result is kept within
±2,000,000,000; unary minus binds tighter than ``^`` (``-2^2`` is 4); ``round`` rounds half
away from zero.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from narrator.errors import NarratorError

#: the bounds of every value (evaluator.php, EV_MAX_VALUE / EV_MIN_VALUE)
MAX_VALUE = 2_000_000_000.0
MIN_VALUE = -2_000_000_000.0
#: ``difficulty`` without an event's red win rate (scoring.php, SCORING_OPTION_NO_GAME_DIFFICULTY)
NO_DIFFICULTY = 0.5


@dataclass(frozen=True, slots=True)
class Env:
    """What a formula reads of one player's game."""

    counters: tuple[Sequence[int], Sequence[int]] = ((), ())
    bonus: float = 0.0
    role: int = 0
    flags: int = 0
    difficulty: float = NO_DIFFICULTY
    mr_points: float = 0.0


def _round(x: float, digits: float = 0) -> float:
    # PHP's round: half away from zero (Python's round goes to the even neighbour)
    scale = 10.0 ** int(digits)
    return math.copysign(math.floor(abs(x) * scale + 0.5), x) / scale


def _log(x: float, base: float | None = None) -> float:
    if x <= 0:
        return MIN_VALUE
    if base is None:
        return math.log(x)
    if base <= 0 or base == 1:
        return MIN_VALUE
    return math.log(x) / math.log(base)


def _counter(env: Env, args: list[float]) -> float:
    value: object = env.counters
    for arg in args:
        if not isinstance(value, Sequence):
            break
        if not value:
            return 0.0
        value = value[min(max(math.floor(arg), 0), len(value) - 1)]
    while isinstance(value, Sequence):
        if not value:
            return 0.0
        value = value[0]
    return float(value) if isinstance(value, int | float) else 0.0


def _matter(env: Env, args: list[float]) -> float:
    n = _round(args[0])
    return 1.0 if 0 <= n < 63 and env.flags & (1 << int(n)) else 0.0


Fn = Callable[[Env, list[float]], float]

#: name → (least, most arguments (None: any), the function)
FUNCTIONS: dict[str, tuple[int, int | None, Fn]] = {
    "round": (1, 2, lambda env, a: _round(*a)),
    "floor": (1, 1, lambda env, a: float(math.floor(a[0]))),
    "ceil": (1, 1, lambda env, a: float(math.ceil(a[0]))),
    "log": (1, 2, lambda env, a: _log(*a)),
    "min": (1, None, lambda env, a: min(a)),
    "max": (1, None, lambda env, a: max(a)),
    "counter": (0, 2, _counter),
    "bonus": (0, 0, lambda env, a: env.bonus),
    "role": (0, 0, lambda env, a: float(env.role)),
    "difficulty": (0, 0, lambda env, a: env.difficulty),
    "matter": (1, 1, _matter),
    "mr_points": (0, 0, lambda env, a: env.mr_points),
}


def _divide(a: float, b: float) -> float:
    if b != 0:
        return a / b
    return MAX_VALUE if a > 0 else MIN_VALUE if a < 0 else 0.0


def _power(a: float, b: float) -> float:
    try:
        result = a ** b
    except (OverflowError, ZeroDivisionError):
        return MAX_VALUE
    return result if isinstance(result, float | int) else 0.0  # a complex root: no value


BINARY: dict[str, Callable[[float, float], float]] = {
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
    "/": _divide, "^": _power,
    ">": lambda a, b: float(a > b), "<": lambda a, b: float(a < b),
    ">=": lambda a, b: float(a >= b), "<=": lambda a, b: float(a <= b),
    "=": lambda a, b: float(a == b), "!=": lambda a, b: float(a != b),
    "&&": lambda a, b: float(bool(a) and bool(b)), "||": lambda a, b: float(bool(a) or bool(b)),
}
#: binding strength of the binary operators (evaluator.php, convert_to_tree's order)
STRENGTH = {"||": 1, "&&": 2, "=": 3, "!=": 3, ">": 4, "<": 4, ">=": 4, "<=": 4,
            "+": 5, "-": 5, "*": 6, "/": 6, "^": 7}
#: how deep brackets, calls and unary signs may nest (a formula is a line of a policy; this
#: keeps a damaged file from exhausting the stack)
MAX_DEPTH = 40
#: the longest formula: the tree is evaluated by recursion, as deep as the formula is long
MAX_LENGTH = 500
SYMBOLS = ("==", "!=", ">=", "<=", "&&", "||", "+", "-", "*", "/", "^", ">", "<", "=", "!",
           "(", ")", ",", "?", ":")


@dataclass(frozen=True, slots=True)
class Token:
    kind: str  # "num", "name", a symbol, or "end"
    text: str
    at: int  # 0-based offset into the formula


def _number(text: str, i: int) -> int:
    j = i
    while j < len(text) and text[j].isdigit():
        j += 1
    if j < len(text) and text[j] == ".":
        j += 1
        while j < len(text) and text[j].isdigit():
            j += 1
    return j


def tokens(text: str, fail: Callable[[str, int], NarratorError]) -> list[Token]:
    out: list[Token] = []
    i = 0
    while i < len(text):
        c = text[i]
        if c in " \t":
            i += 1
        elif c.isascii() and c.isdigit():
            j = _number(text, i)
            out.append(Token("num", text[i:j], i))
            i = j
        elif c.isascii() and (c.isalpha() or c == "_"):
            j = i
            while j < len(text) and text[j].isascii() and (text[j].isalnum() or text[j] == "_"):
                j += 1
            out.append(Token("name", text[i:j], i))
            i = j
        else:
            sym = next((s for s in SYMBOLS if text.startswith(s, i)), None)
            if sym is None:
                raise fail(f"unexpected {c!r}", i)
            out.append(Token("=" if sym == "==" else sym, sym, i))
            i += len(sym)
    out.append(Token("end", "", len(text)))
    return out


#: characters of a formula an error quotes: the fault and what stands around it
EXCERPT = 60
#: characters of one token an error quotes
TOKEN = 20


def excerpt(text: str, at: int, width: int = EXCERPT) -> str:
    """``text`` whole when it is short, else the ``width`` characters around ``at`` with an
    ellipsis where it is cut: an error names the fault, not a megabyte of formula."""
    if len(text) <= width:
        return text
    start = min(max(0, at - width // 2), len(text) - width)
    end = start + width
    return ("…" if start > 0 else "") + text[start:end] + ("…" if end < len(text) else "")


def short(token: str) -> str:
    """A token as an error quotes it: at most :data:`TOKEN` characters."""
    return repr(token if len(token) <= TOKEN else token[:TOKEN] + "…")


# a node of the tree: evaluates itself for a game
Node = Callable[[Env], float]


@dataclass
class _Parser:
    text: str
    toks: list[Token] = field(default_factory=list)
    pos: int = 0
    depth: int = 0
    names: set[str] = field(default_factory=set)

    def fail(self, what: str, at: int) -> NarratorError:
        return NarratorError(f"formula {excerpt(self.text, at)!r}: {what} at column {at + 1}")

    def peek(self) -> Token:
        return self.toks[self.pos]

    def take(self, kind: str | None = None) -> Token:
        tok = self.toks[self.pos]
        if kind is not None and tok.kind != kind:
            got = "the end" if tok.kind == "end" else short(tok.text)
            raise self.fail(f"expected {kind!r}, got {got}", tok.at)
        self.pos += 1
        return tok

    def ternary(self) -> Node:
        cond = self.binary(1)
        if self.peek().kind != "?":
            return cond
        self.take("?")
        yes = self.ternary()
        self.take(":")
        no = self.ternary()
        return lambda env: yes(env) if cond(env) else no(env)

    def binary(self, least: int) -> Node:
        left = self.unary()
        while (op := self.peek().kind) in STRENGTH and STRENGTH[op] >= least:
            self.take()
            right = self.binary(STRENGTH[op] + 1)  # left to right, as evaluator.php
            left = _apply(BINARY[op], left, right)
        return left

    def unary(self) -> Node:
        tok = self.peek()
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.fail(f"nested deeper than {MAX_DEPTH}", tok.at)
        try:
            return self._unary(tok)
        finally:
            self.depth -= 1

    def _unary(self, tok: Token) -> Node:
        if tok.kind == "-":
            self.take()
            inner = self.unary()
            return lambda env: -inner(env)
        if tok.kind == "!":
            self.take()
            inner = self.unary()
            return lambda env: 0.0 if inner(env) else 1.0
        return self.primary()

    def primary(self) -> Node:
        tok = self.take()
        if tok.kind == "num":
            value = float(tok.text)
            return lambda env: value
        if tok.kind == "(":
            inner = self.ternary()
            self.take(")")
            return inner
        if tok.kind == "name":
            return self.call(tok)
        got = "the end" if tok.kind == "end" else short(tok.text)
        raise self.fail(f"expected a number, a name or '(', got {got}", tok.at)

    def call(self, tok: Token) -> Node:
        name = tok.text.lower()  # names are case-blind, as in evaluator.php
        if name not in FUNCTIONS:
            raise self.fail(f"unknown function {short(tok.text)} (known: {', '.join(FUNCTIONS)})",
                            tok.at)
        args: list[Node] = []
        if self.peek().kind == "(":
            self.take("(")
            if self.peek().kind != ")":
                args.append(self.ternary())
                while self.peek().kind == ",":
                    self.take(",")
                    args.append(self.ternary())
            self.take(")")
        least, most, fn = FUNCTIONS[name]
        if len(args) < least or (most is not None and len(args) > most):
            want = f"{least}" if least == most else \
                f"{least} or more" if most is None else f"{least} to {most}"
            raise self.fail(f"{name} takes {want} argument(s), got {len(args)}", tok.at)
        self.names.add(name)
        return lambda env: _clamp(fn(env, [a(env) for a in args]))


def _apply(op: Callable[[float, float], float], left: Node, right: Node) -> Node:
    return lambda env: _clamp(op(left(env), right(env)))


def _clamp(value: float) -> float:
    if math.isnan(value):
        return 0.0
    return max(min(value, MAX_VALUE), MIN_VALUE)


@dataclass(frozen=True)
class Formula:
    """A formula read once; :meth:`evaluate` for each game."""

    text: str
    node: Node = field(repr=False, compare=False)
    functions: frozenset[str] = frozenset()

    def evaluate(self, env: Env) -> float:
        return _clamp(self.node(env))

    def uses(self, name: str) -> bool:
        return name in self.functions


def parse(text: str) -> Formula:
    """The formula ``text``; a syntax error, an unknown function or a wrong number of
    arguments is a one-line NarratorError quoting the formula (at most :data:`EXCERPT`
    characters of it, around the fault) and the column."""
    parser = _Parser(text)
    if len(text) > MAX_LENGTH:
        raise parser.fail(f"longer than {MAX_LENGTH} characters", MAX_LENGTH)
    parser.toks = tokens(text, parser.fail)
    if parser.peek().kind == "end":
        raise parser.fail("empty formula", 0)
    node = parser.ternary()
    end = parser.peek()
    if end.kind != "end":
        raise parser.fail(f"unexpected {short(end.text)}", end.at)
    return Formula(text, node, frozenset(parser.names))
