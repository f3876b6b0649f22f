"""CPU players for 6-Card Golf: eight personalities (spec section 10) and their decision rules.

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
from .player import CPUPlayer
from .profiles import CPU_NAMES, EXPERT, PROFILES, Profile, get_profile, personality_names

__all__ = [
    "CPUPlayer", "CPU_NAMES", "EXPERT", "PROFILES", "Profile", "choose_flip", "choose_placement",
    "forced_swap_position", "forms_negative_pair", "get_profile", "personality_names", "should_skip_flip",
    "should_take_discard", "turn_action", "unseen_mean", "wants_to_go_out",
]
