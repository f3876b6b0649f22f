"""Games played again from their seeds, for whatever steps through them (the replay viewer,
the coach panel's boards):

* ``state_at(game, step)``: the game as it stood before move ``step`` (0: the deal);
* ``simulated_game(result, index)``: game ``index`` of a ``golflab.simulate`` run, move for move.
"""

from __future__ import annotations

from typing import Any

from .ai import CPU_NAMES
from .game import Game, Phase
from .seeding import game_seed
from .simulation import play_games

__all__ = ["simulated_game", "state_at"]


def state_at(game: Game, step: int) -> Game:
    """``game`` as it stood before move ``step`` (0: the deal), played again from its seed."""
    if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step <= len(game.history):
        raise ValueError(f"step must be a whole number from 0 to {len(game.history)}, got {step!r}")
    g = Game.replay(list(game.players), game.rules, game.seed, game.history[:step])
    if g.phase is Phase.ROUND_OVER and step < len(game.history):
        g.next_round()  # the next move opens the next hole
    return g


def simulated_game(result: Any, index: int) -> Game:
    """Game ``index`` of a ``golflab.simulate`` result, played again from the run's seed (the
    same game, move for move). A seat played by a custom ``Profile`` cannot be rebuilt: the
    result keeps only its name."""
    games = getattr(result, "games", None)
    if not isinstance(games, int) or not hasattr(result, "rounds"):
        raise ValueError(f"expected the result of golflab.simulate(), got {type(result).__name__}")
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < games:
        raise ValueError(f"index must be a game number from 0 to {games - 1}, got {index!r}")
    rows = result.rounds[(result.rounds["game"] == index) & (result.rounds["round"] == 1)].sort_values("seat")
    personalities = list(rows["personality"])
    unknown = [p for p in personalities if p not in CPU_NAMES]
    if unknown:
        raise ValueError(f"game {index} has custom personalities ({', '.join(unknown)}); simulate() keeps only "
                         "their names, not their settings, so the game cannot be played again")
    game = None
    for _kind, _i, played, _obs, _action in play_games(personalities, result.rules, result.seed, index, index + 1):
        game = played  # the game after its last decision
    if game is None or game.seed != game_seed(result.seed, index):
        raise ValueError(f"game {index} could not be played again")
    return game
