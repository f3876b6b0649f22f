"""CPU players for 6-Card Golf: eight personalities (spec section 10) and their decision rules,
the Expert and the Classic Expert (the coach's best move: ``golflab.coach.expert``) and levels
1 to 8 (``golflab.ai.levels``).

>>> from golflab.ai import PROFILES, CPUPlayer
>>> PROFILES["Sofia"].swap_threshold
4
"""

from .decisions import (
    choose_flip,
    choose_placement,
    forced_swap_position,
    forms_negative_pair,
    should_skip_flip,
    should_take_discard,
    turn_action,
    wants_to_go_out,
)
from .evaluate import unseen_mean
from .levels import LEVEL_NAMES, LEVELS, Level, Suggestion, get_level, suggest_level
from .player import CPUPlayer
from .profiles import (
    CLASSIC_EXPERT,
    CPU_NAMES,
    CPU_NAMES_TEXT,
    EXPERT,
    LEVEL_PROFILES,
    PROFILES,
    Profile,
    get_profile,
    level_of,
    personality_names,
)

__all__ = [
    "CLASSIC_EXPERT", "CPUPlayer", "CPU_NAMES", "CPU_NAMES_TEXT", "EXPERT", "LEVELS", "LEVEL_NAMES",
    "LEVEL_PROFILES", "Level",
    "PROFILES", "Profile", "Suggestion", "choose_flip", "choose_placement", "forced_swap_position",
    "forms_negative_pair",
    "get_level", "get_profile", "level_of", "personality_names", "should_skip_flip",
    "should_take_discard", "suggest_level", "turn_action", "unseen_mean", "wants_to_go_out",
]
