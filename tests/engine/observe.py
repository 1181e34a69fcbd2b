"""What the front ends read off a game, for tests that hold the engine to it: the views at
the step it waits at, and a snapshot of all that can change (the views, the notation, the
protocol's changing parts)."""

from __future__ import annotations

from narrator.engine import Game


def views(game: Game) -> tuple[object, ...]:
    """What the front ends read off ``game`` at every step, besides its notation."""
    # the phase and the seats out in their protocol form, as the digest recorded them
    return (game.expect, game.step, game.step_start, str(game.phase),
            sorted((seat, left.to_json()) for seat, left in game.out.items()),
            game.candidates, game.voting_candidates, sorted(game.step_hands),
            sorted(game.hunt_shots.items()), sorted(game.step_thumbs), game.raised_hands,
            sorted(game.spoken), game.victims, sorted(game.public_out().items()),
            game.is_over)


def snapshot(game: Game) -> tuple[object, ...]:
    """Everything a front end or the protocol can see of ``game``, refusals apart: the views,
    the history's length, the public notation (the secret one is the views' seats out and the
    cards), and what of the protocol can change — the fouls, the days, the nights, the best
    move, the winner (as text: the protocol shares lists with the game, which later actions
    extend; the cards, the names and the deal never change)."""
    return (views(game), len(game.history), game.notation(secret=False),
            repr((game.fouls, game.tech_fouls, [d.to_json() for d in game.days],
                  [n.to_json() for n in game.nights],
                  game.best_move.to_json() if game.best_move is not None else None,
                  game.winner)))
