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
from typing import Any, Protocol, assert_never

from narrator.console.settings import ConsoleSettings
from narrator.console.tokens import OPERATOR, Who
from narrator.engine import Check, Foul, Game, Nominate, Remove, Role
from narrator.engine import waits as w
from narrator.errors import NarratorError
from narrator.host.desk import Desk
from narrator.host.host import Host


class ConsoleTable(Protocol):
    """What the views read of the console's table (:class:`narrator.console.table.ConsoleTable`);
    the step's presses are the desk's (:class:`narrator.host.desk.Desk`)."""

    host: Host
    game: Game
    settings: ConsoleSettings
    desk: Desk
    said: Callable[[], list[str]]

    @property
    def dealing(self) -> bool: ...

    def waiting_for_cards(self) -> list[int]: ...

    def checker_role(self, seat: int) -> str | None: ...

    def actor(self, seat: int) -> str | None: ...

    def act_done(self, role: str) -> dict[str, Any] | None: ...

    def accused_now(self) -> int | None: ...


SAID_LINES = 6


def vote_candidate(exp: w.Expect) -> int | None:
    """The candidate of the voting window open now (None: the car crash, or no vote)."""
    return exp.candidate if isinstance(exp, w.Vote) else None


def phase(table: ConsoleTable) -> dict[str, Any]:
    """The step the game is in, as everybody at the table hears it announced."""
    game = table.game
    exp = game.expect
    number = game.phase.number
    lang: w.Lang = "uk" if table.settings.lang == "uk" else "ru"
    # (serial: a new step, a new number — a pad's answer to a press belongs to its step)
    out: dict[str, Any] = {"time": game.phase.time,
                           "number": number, "label": exp.label(lang), "serial": exp.serial}
    match exp:
        case w.Over():
            out["step"] = "over"
        case w.Speech():
            out.update(step="speech", seat=exp.seat, speech=exp.speech)
        case w.Vote() | w.Crash():
            out.update(step="crash" if isinstance(exp, w.Crash) else "vote",
                       candidate=vote_candidate(exp), candidates=list(game.voting_candidates),
                       round=exp.round if isinstance(exp, w.Vote) else None)
        case w.NightAct() if exp.checks:
            out["step"] = f"{exp.role}_check"
        case w.Pause() | w.Deal() | w.Hunt() | w.NightAct() | w.Floor() | w.PutUp() | w.Extra():
            out["step"] = exp.timer.name if exp.timer is not None else exp.tag
        case _:
            assert_never(exp)
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
    held = table.dealing or (isinstance(exp, w.Vote | w.Crash) and table.settings.hand_votes)
    return {"name": t.name, "total": t.seconds, "starts": round(host.timer_started, 3),
            "ends": round(host.timer_started + t.seconds, 3), "held": held}


def _common(table: ConsoleTable) -> dict[str, Any]:
    game = table.game
    exp = game.expect
    out = game.public_out()
    return {
        "lang": table.settings.lang,
        "seats": game.seats,
        # the game stands still, and why (the journal cannot be written, the sound is gone)
        "paused": table.host.pause_reason,
        "phase": phase(table),
        "timer": timer(table),
        "living": [s for s in range(1, game.seats + 1) if s not in out],
        "out": {str(s): how for s, how in sorted(out.items())},
        "candidates": list(game.candidates) if isinstance(exp, w.Speech) else
        list(game.voting_candidates) if isinstance(exp, w.Vote | w.Crash) else [],
        "winner": game.winner.value if game.winner else None,
        # the maniac's side: announced aloud at the end of the first night
        "declared": game.declared,
        **_day_by_hands(table),
    }


def _day_by_hands(table: ConsoleTable) -> dict[str, Any]:
    """What the whole table sees of a day by raised hands: who has spoken, the one accused,
    the thumbs, the hands up for more time (empty in other days)."""
    game = table.game
    exp = game.expect
    out: dict[str, Any] = {}
    if isinstance(exp, w.Floor) or (isinstance(exp, w.Speech | w.PutUp) and game.spoken):
        out["spoken"] = sorted(game.spoken)
    accused = table.accused_now()
    if accused is not None:
        out["accused"] = accused
    if isinstance(exp, w.PutUp):
        out["thumbs"] = len(table.desk.thumbs)
    put_up = game.put_up
    if put_up:
        out["put_up"] = {str(s): n for s, n in put_up.items()}
    if isinstance(exp, w.Extra):
        out["raised"] = list(table.desk.raised)
    return out


def operator_view(table: ConsoleTable) -> dict[str, Any]:
    """The operator's screen: the table as everybody knows it, and the operator's controls."""
    game = table.game
    view = _common(table)
    exp = game.expect
    # the hands raised so far in a pad vote: a show of hands the whole table sees
    tally = ({"candidate": vote_candidate(exp), "hands": sorted(table.desk.hands)}
             if isinstance(exp, w.Vote | w.Crash) and not table.settings.hand_votes else None)
    view.update(
        who="operator",
        tally=tally,
        fouls={str(s): n for s, n in sorted(game.fouls.items())},
        nominations=([list(p) for p in game.nominations] if isinstance(game.expect, w.Speech)
                     else []),
        cards=({"waiting": table.waiting_for_cards(), "skipped": sorted(table.desk.skipped)}
               if table.dealing else None),
        hand_votes=table.settings.hand_votes,
        hands_max=_hands_max(table),
        aside=_aside(table, view["out"]),
        can_undo=table.desk.undoable() is not None,
        said=table.said()[-SAID_LINES:],
    )
    return view


def _hands_max(table: ConsoleTable) -> int | None:
    """The most hands the operator may count in the window open now (tables that vote by
    hand): the desk's bound, the engine's — the seats yet to vote in the round (2.4)."""
    game = table.game
    if not table.settings.hand_votes or not isinstance(game.expect, w.Vote | w.Crash):
        return None
    for count in range(len(game.living), 0, -1):
        try:
            table.desk.hand_count(count)
        except NarratorError:
            continue
        return count
    return 0


def _aside(table: ConsoleTable, out: dict[str, str]) -> dict[str, list[int]]:
    """The seats the operator's foul and removal buttons are for: those the engine takes a
    foul or a removal for now (1.4: a foul during one's own last word counts). A seat the
    table still sees at it keeps its buttons whatever the engine says (the night's victim
    before the day: a missing button would tell the kill)."""
    game = table.game
    if game.is_over:
        return {"foul": [], "remove": []}
    seen = [s for s in range(1, game.seats + 1) if str(s) not in out]
    return {"foul": sorted({*game.seats_taken(Foul), *seen}),
            "remove": sorted({*game.seats_taken(Remove), *seen})}


def pad_view(table: ConsoleTable, seat: int) -> dict[str, Any]:
    """Seat ``seat``'s pad: the public table, and its own secrets while it is in the game."""
    game = table.game
    exp = game.expect
    view = _common(table)
    gone = str(seat) in view["out"]
    view.update(who=seat, seat=seat, gone=gone, card=None, checks=[], step=None)
    if not gone:
        role = game.roles[seat]
        view["card"] = {"role": role.value, "team": game.team(seat).value}
        view["checks"] = _checks(game, role)
        view["step"] = _step(table, seat, role)
    elif isinstance(exp, w.Speech) and exp.seat == seat:
        view["step"] = _speech_step(table, seat, exp)  # a last word: «Спасибо» only
    return view


def _checks(game: Game, role: Role) -> list[dict[str, Any]]:
    if role not in game.rules.checkers:
        return []
    return [{"night": a.night, "target": a.target, "says": game.check_says(a.role, bool(a.result))}
            for a in game.night_acts if a.role == role.value and a.act == "check"]


def _speech_step(table: ConsoleTable, seat: int, exp: w.Speech) -> dict[str, Any]:
    game = table.game
    accuses = exp.accuses
    step: dict[str, Any] = {"type": "speech", "speech": exp.speech, "standing": game.standing,
                            "nominate": exp.nominates, "accuse": accuses,
                            "accused": table.accused_now() if accuses else None}
    seats = range(1, game.seats + 1)
    if exp.nominates:  # the seats the engine takes his nomination of (none once one stands)
        step["nominable"] = game.seats_taken(Nominate)
    if game.asks_best_move:  # the club's best move: three seats, the first victim's own
        step["best_move"] = [t for t in seats if t != seat]
    if accuses:  # the seats the engine lets him accuse: not himself, none that is out
        step["accusable"] = [s for s in seats if game.accusation_refusal(seat, s) is None]
    return step


def _checkable(game: Game, role: str) -> list[int]:
    """The seats ``role`` may check now (the engine's refusals left out: amateur's commissar
    neither himself nor a seat known out; crime-time's checkers any seat, 2.1.3)."""
    return [s for s in range(1, game.seats + 1)
            if game.check_refusal(Check(role, s)) is None]


def _act_step(table: ConsoleTable, seat: int, role: str, exp: w.NightAct) -> dict[str, Any]:
    """A role's night act on its own pad: the mafia's points (to the mafia alone), the
    stretcher (to the doctor alone), what was done with its answer."""
    game = table.game
    step: dict[str, Any] = {"type": "act", "role": role, "acts": list(exp.acts),
                            "done": table.act_done(role)}
    if "check" in exp.acts:
        step["checkable"] = _checkable(game, role)
    if role == "mafia":
        step["decides"] = seat in exp.deciders
        # without a don the kill is the mafia's together: every one of them on one seat
        step["together"] = len(exp.deciders) > 1
        step["points"] = {str(s): t for s, t in sorted(table.desk.points.items())}
    if "save" in exp.acts and game.rules.shows_victims:
        step["victims"] = list(game.victims)
    return step


def _step(table: ConsoleTable, seat: int, role: Role) -> dict[str, Any] | None:
    """What this seat can do now (None: nothing)."""
    game = table.game
    exp = game.expect
    host = table.host
    if table.dealing:
        return {"type": "card", "seen": seat in table.desk.seen or seat in table.desk.skipped}
    match exp:
        case w.Hunt():
            if seat not in exp.seats:  # the mafia at the table shoot (2.1.2)
                return None
            # when each number begins to count for a press: a press counts for the number
            # spoken ``hunt_grace`` before it arrives, so what the pad shows is what it takes
            begins = host.timer_started + table.settings.hunt_grace
            return {"type": "hunt",
                    "numbers": [round(begins + i * exp.pace, 3) for i in range(exp.count)],
                    "ends": round(host.timer_started + exp.count * exp.pace
                                  + table.settings.hunt_grace, 3),
                    "pressed": list(table.desk.hunt_shots.get(seat, []))}
        case w.NightAct() if exp.checks:
            role_name = table.checker_role(seat)
            if role_name is None:
                return None
            done = game.acted(role_name)
            return {"type": "check", "role": role_name, "checkable": _checkable(game, role_name),
                    "done": None if done is None else {
                        "target": done.target, "says": game.check_says(role_name,
                                                                       bool(done.result))}}
        case w.NightAct():
            acting = table.actor(seat)
            return None if acting is None else _act_step(table, seat, acting, exp)
        case w.Vote() | w.Crash():
            if table.settings.hand_votes:
                return None
            return {"type": "vote", "candidate": vote_candidate(exp),
                    "voted": seat in table.desk.hands}
        case w.Speech():
            return _speech_step(table, seat, exp) if exp.seat == seat else None
        case w.Floor():  # the seats yet to speak today raise a hand
            return {"type": "floor", "spoken": seat not in exp.seats}
        case w.PutUp():
            accused = table.accused_now()
            return None if accused is None else {"type": "put_up", "accused": accused,
                                                 "given": seat in table.desk.thumbs}
        case w.Extra():
            return {"type": "extra", "raised": seat in table.desk.raised}
        case w.Pause() | w.Deal() | w.Over():
            return None
        case _:
            assert_never(exp)


def all_views(table: ConsoleTable) -> dict[Who, dict[str, Any]]:
    """Every identity's view: the operator and each seat."""
    views: dict[Who, dict[str, Any]] = {OPERATOR: operator_view(table)}
    for seat in range(1, table.game.seats + 1):
        views[seat] = pad_view(table, seat)
    return views
