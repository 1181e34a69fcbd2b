"""What each screen may see: the operator's view and one view per seat pad, as plain JSON.

Built on the loop's thread from the game, the host's timer and the console's own state. The
rule for secrets is applied here, in one place:

- the operator view holds only what the whole table knows: names, who is out *as announced*
  (a night's victim only once the day breaks), fouls, the phase and its timer, nominations,
  votes, the phrases spoken; the maniac's side once the narrator has announced it; who has
  spoken in a day by raised hands, the one a speaker accuses and the day's thumbs, the hands up
  for more time (all of it seen or heard by the whole table). No roles, no shots, no kills, no
  saves, no check results, not even whose night step it is beyond the phase the narrator says;
- a pad holds, besides that, its own card and its own night steps (a mafioso's presses on the
  count; the don's, the sheriff's or the commissar's checks with their answers; the mafia's
  kill with the partners' points, the sheriff's shot, the maniac's kill, the doctor's stretcher
  and save, the nurse's heal) — and none of it once the seat is out of the game as the table
  knows it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from narrator.console.settings import ConsoleSettings
from narrator.console.tokens import OPERATOR, Who
from narrator.engine import Game, Role
from narrator.host.host import Host


class ConsoleTable(Protocol):
    """What the views read of the console's table (:class:`narrator.console.table.ConsoleTable`)."""

    host: Host
    game: Game
    settings: ConsoleSettings
    dealing: bool
    seen: set[int]
    skipped: set[int]
    @property
    def pressed(self) -> dict[int, tuple[int, ...]]: ...

    @property
    def hands(self) -> frozenset[int]: ...

    entries: list[tuple[int, int]]
    said: Callable[[], list[str]]

    def waiting_for_cards(self) -> list[int]: ...

    def checker_role(self, seat: int) -> str | None: ...

    points: dict[int, int]

    @property
    def thumbs(self) -> frozenset[int]: ...

    @property
    def raised(self) -> tuple[int, ...]: ...

    def actor(self, seat: int) -> str | None: ...

    def deciders(self) -> list[int]: ...

    def act_done(self, role: str) -> dict[str, Any] | None: ...

    def speech_puts_up(self) -> bool: ...

    def accused_now(self) -> int | None: ...


SAID_LINES = 6


def public_out(game: Game) -> dict[int, str]:
    """Seats out as the table knows it: a night's victim from the day that announces it."""
    days = {d.number for d in game.days}
    night_kills = set(game.rules.kill_how.values())
    out: dict[int, str] = {}
    for seat, info in game.out.items():
        night = info.get("night")
        how = str(info["how"])
        if how in night_kills:
            if not game.is_over and night not in days:
                continue  # 2.1.2: the hunt's result is not told until day
            # the morning names the victims, not who killed them (the mafia, the maniac, the
            # sheriff's shot): on screen every night's victim is "shot"
            how = "shot"
        out[seat] = how
    return out


def phase(table: ConsoleTable) -> dict[str, Any]:
    """The step the game is in, as everybody at the table hears it announced."""
    game = table.game
    exp = game.expect
    number = int(game.phase[1:])
    out: dict[str, Any] = {"time": "night" if game.phase.startswith("n") else "day",
                           "number": number}
    if exp.kind == "over":
        out["step"] = "over"
    elif exp.kind == "speech":
        out.update(step="speech", seat=exp.seat, speech=exp.speech)
    elif exp.kind == "hands":
        out.update(step="crash" if exp.candidate is None else "vote", candidate=exp.candidate,
                   candidates=list(game.voting_candidates),
                   round=len(game.days[-1].rounds) + 1 if game.days else 1)
    elif exp.kind == "check":
        out["step"] = f"{exp.role}_check"
    elif exp.timer is not None:
        out["step"] = exp.timer.name
    else:
        out["step"] = exp.kind
    return out


def timer(table: ConsoleTable) -> dict[str, Any] | None:
    """The running timer as deadlines on the game's clock: its name, length, when it starts
    (after its announcement) and ends; ``held`` when it waits for inputs. A view does not
    change while the time runs: each message carries the clock's ``now`` when it is sent, so a
    page that connects at any moment counts down the true time left itself."""
    host = table.host
    t = host.timer
    exp = table.game.expect
    if t is None or exp.timer is None or table.game.is_over:
        return None
    held = table.dealing or (exp.kind == "hands" and table.settings.hand_votes)
    return {"name": t.name, "total": t.seconds, "starts": round(host.timer_started, 3),
            "ends": round(host.timer_started + t.seconds, 3), "held": held}


def _common(table: ConsoleTable) -> dict[str, Any]:
    game = table.game
    out = public_out(game)
    return {
        "lang": table.settings.lang,
        "seats": game.seats,
        "phase": phase(table),
        "timer": timer(table),
        "living": [s for s in range(1, game.seats + 1) if s not in out],
        "out": {str(s): how for s, how in sorted(out.items())},
        "candidates": list(game.candidates) if game.expect.kind == "speech" else
        list(game.voting_candidates) if game.expect.kind == "hands" else [],
        "winner": game.winner.value if game.winner else None,
        # the maniac's side: announced aloud at the end of the first night
        "declared": {} if game.phase == "n1" else dict(game.dealt),
        **_day_by_hands(table),
    }


def _day_by_hands(table: ConsoleTable) -> dict[str, Any]:
    """What the whole table sees of a day by raised hands: who has spoken, the one accused,
    the thumbs, the hands up for more time (empty in other days)."""
    game = table.game
    exp = game.expect
    out: dict[str, Any] = {}
    if exp.kind == "floor" or (exp.kind in ("speech", "put_up") and game.spoken):
        out["spoken"] = sorted(game.spoken)
    accused = table.accused_now()
    if accused is not None:
        out["accused"] = accused
    if exp.kind == "put_up":
        out["thumbs"] = len(table.thumbs)
    put_up = game.days[-1].extra.get("put_up") if game.days and exp.kind != "over" else None
    if put_up and game.phase.startswith("d"):
        out["put_up"] = dict(put_up)
    if exp.kind == "extra":
        out["raised"] = list(table.raised)
    return out


def operator_view(table: ConsoleTable) -> dict[str, Any]:
    """The operator's screen: the table as everybody knows it, and the operator's controls."""
    game = table.game
    view = _common(table)
    view.update(
        who="operator",
        fouls={str(s): n for s, n in sorted(game.fouls.items())},
        nominations=[list(p) for p in game.nominations] if game.expect.kind == "speech" else [],
        cards=({"waiting": table.waiting_for_cards(), "skipped": sorted(table.skipped)}
               if table.dealing else None),
        hand_votes=table.settings.hand_votes,
        can_undo=bool(table.entries) and table.entries[-1][1] == len(game.history),
        said=table.said()[-SAID_LINES:],
    )
    return view


def pad_view(table: ConsoleTable, seat: int) -> dict[str, Any]:
    """Seat ``seat``'s pad: the public table, and its own secrets while it is in the game."""
    game = table.game
    view = _common(table)
    gone = str(seat) in view["out"]
    view.update(who=seat, seat=seat, gone=gone, card=None, checks=[], step=None)
    if not gone:
        role = game.roles[seat]
        view["card"] = {"role": role.value, "team": role.team.value}
        view["checks"] = _checks(game, role)
        view["step"] = _step(table, seat, role)
    elif game.expect.kind == "speech" and game.expect.seat == seat:
        view["step"] = _speech_step(table, seat)  # a last word: «Спасибо» only
    return view


def _checks(game: Game, role: Role) -> list[dict[str, Any]]:
    if role not in game.rules.checkers:
        return []
    key = f"{role.value}_check"
    return [{"night": n["night"], **n[key]} for n in game.nights if n.get(key)]


def _speech_step(table: ConsoleTable, seat: int) -> dict[str, Any]:
    game = table.game
    standing = next((t for s, t in game.nominations if s == seat), None)
    accuses = table.speech_puts_up()
    return {"type": "speech", "speech": game.expect.speech, "standing": standing,
            "nominate": game.expect.speech == "day" and game.rules.nominations,
            "accuse": accuses, "accused": table.accused_now() if accuses else None}


def _act_step(table: ConsoleTable, seat: int, role: str) -> dict[str, Any]:
    """A role's night act on its own pad: the mafia's points (to the mafia alone), the
    stretcher (to the doctor alone), what was done with its answer."""
    game = table.game
    exp = game.expect
    step: dict[str, Any] = {"type": "act", "role": role, "acts": list(exp.acts),
                            "done": table.act_done(role)}
    if role == "mafia":
        step["decides"] = seat in table.deciders()
        step["points"] = {str(s): t for s, t in sorted(table.points.items())}
    if "save" in exp.acts and game.rules.shows_victims:
        step["victims"] = list(game.victims)
    return step


def _step(table: ConsoleTable, seat: int, role: Role) -> dict[str, Any] | None:
    """What this seat can do now (None: nothing)."""
    game = table.game
    exp = game.expect
    host = table.host
    if table.dealing:
        return {"type": "card", "seen": seat in table.seen or seat in table.skipped}
    if exp.kind == "hunt" and seat in game.black and seat not in game.out:
        assert exp.timer is not None and exp.timer.tick
        return {"type": "hunt", "pace": exp.timer.tick,
                "count": round(exp.timer.seconds / exp.timer.tick),
                "started": round(host.timer_started, 3),  # the count's «один»
                "pressed": list(table.pressed.get(seat, []))}
    if exp.kind == "check":
        role_name = table.checker_role(seat)
        if role_name is None:
            return None
        done = game.acted(role_name)
        return {"type": "check", "role": role_name,
                "done": None if done is None else {"target": done.target, "result": done.result}}
    if exp.kind == "act":
        acting = table.actor(seat)
        return None if acting is None else _act_step(table, seat, acting)
    if exp.kind == "hands" and not table.settings.hand_votes:
        return {"type": "vote", "candidate": exp.candidate, "voted": seat in table.hands}
    if exp.kind == "speech" and exp.seat == seat:
        return _speech_step(table, seat)
    if exp.kind == "floor":
        return {"type": "floor", "spoken": seat in game.spoken}
    if exp.kind == "put_up":
        accused = table.accused_now()
        return None if accused is None else {"type": "put_up", "accused": accused,
                                             "given": seat in table.thumbs}
    if exp.kind == "extra":
        return {"type": "extra", "raised": seat in table.raised}
    return None


def all_views(table: ConsoleTable) -> dict[Who, dict[str, Any]]:
    """Every identity's view: the operator and each seat."""
    views: dict[Who, dict[str, Any]] = {OPERATOR: operator_view(table)}
    for seat in range(1, table.game.seats + 1):
        views[seat] = pad_view(table, seat)
    return views
