"""Codepiece: a 4-player, 2-team trick-taking game with bidding and trump.

Same conventions as golf: card notation (``AS``, ``TD``), plain string actions, one seed
for every random choice, ``IllegalActionError`` for refused actions (state unchanged).
``CodepieceCPU`` plays a seat from its state alone; ``CodepieceMatch`` plays deals in a
row with running scores; ``golflab.codepiece.selfplay`` has programs play each other.
"""

from .cards import CARD_ORDER, card_index, one_hot
from .cpu import CodepieceCPU, CodepieceRandom, best_trump, estimate_tricks, high_card_points
from .game import PHASES, CodepieceGame, beats, team_of, trick_winner
from .match import CodepieceMatch

__all__ = ["CARD_ORDER", "CodepieceCPU", "CodepieceGame", "CodepieceMatch", "CodepieceRandom", "PHASES",
           "beats", "best_trump", "card_index", "estimate_tricks", "high_card_points", "one_hot", "team_of",
           "trick_winner"]
