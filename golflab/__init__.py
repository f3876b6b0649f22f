"""golflab: a small, deterministic engine for 6-Card Golf (and Codepiece).

The engine is pure Python and imports nothing from Jupyter; ``golflab.display``
renders HTML strings that notebooks show.
"""

from .actions import Action, IllegalActionError
from .cards import JOKER, RANKS, SUITS, Card, build_deck, parse_cards
from .game import Game, Observation, Phase
from .position import Position
from .rules import (
    BOOL_RULES,
    FLIP_MODES,
    JOKER_MODES,
    OPTIONS,
    RULE_HELP,
    TIERS,
    Rules,
    card_tier,
    card_value,
    rank_value,
    value_tier,
)
from .scoring import (
    Adjustment,
    HandBreakdown,
    RoundBreakdown,
    hand_breakdown,
    pair_gain,
    round_breakdown,
    score_hand,
    score_round,
    unpaired_total,
    wasted_pairs,
)

__version__ = "0.1.0"

__all__ = [
    "Action", "Adjustment", "BOOL_RULES", "Card", "FLIP_MODES", "Game", "HandBreakdown", "IllegalActionError",
    "JOKER", "JOKER_MODES", "OPTIONS", "Observation", "Phase", "Position", "RANKS", "RULE_HELP", "RoundBreakdown",
    "Rules", "SUITS", "TIERS", "build_deck", "card_tier", "card_value", "hand_breakdown", "parse_cards",
    "pair_gain", "rank_value", "round_breakdown", "score_hand", "score_round", "simulate", "unpaired_total",
    "value_tier", "wasted_pairs",
]


def __getattr__(name):
    # simulate needs pandas; load it only when asked for.
    if name == "simulate":
        from .simulation import simulate

        return simulate
    raise AttributeError(f"module 'golflab' has no attribute {name!r}")
