"""Codepiece: a 4-player, 2-team trick-taking game with bidding and trump.

Same conventions as golf: card notation (``AS``, ``TD``), plain string actions, one seed
for every random choice, ``IllegalActionError`` for refused actions (state unchanged).
"""

from .cards import CARD_ORDER, card_index, one_hot
from .game import PHASES, CodepieceGame

__all__ = ["CARD_ORDER", "CodepieceGame", "PHASES", "card_index", "one_hot"]
