"""Index constants shared by the compiled kernel's modules: kinds, tiers, the rule flags,
the profile fields, the game-state scalars, stages, phases and action codes."""

from __future__ import annotations

from ..actions import ACTIONS, ActionCode
from ..model import ALL_KINDS
from ..rules import FLIP_MODES, TIERS  # noqa: F401  (the kernel's orders are the rules')

#: kinds are indices into ``golflab.model.ALL_KINDS`` (ranks A..K, then JK, then the one-eyed jack)
KINDS = ALL_KINDS
TWO, JACK, JK, ONE_EYED_KIND = KINDS.index("2"), KINDS.index("J"), KINDS.index("JK"), len(KINDS) - 1
NONE = -1  # a face-down card, no card, no position
JOKER_CARD = 52  # cards are indices into cards.ALL_CARDS, the joker last

#: value tiers (``rules.value_tier``) in order
EXCELLENT, GOOD, DECENT, NEUTRAL, BAD, TERRIBLE = (TIERS.index(t) for t in ("Excellent", "Good", "Decent", "Neutral",
                                                                          "Bad", "Terrible"))

#: the rule flags (an int64 array, ``tables.rule_arrays``)
(F_EAGLE, F_BLACKJACK, F_KNOCK_BONUS, F_KNOCK_PENALTY, F_FLIP_MODE, F_KNOCK_EARLY,
 F_FLIP_ACTION, F_MAX_TURNS, F_INITIAL_FLIPS, F_ROUNDS, F_PRESSURE_START, F_PROGRESS, F_STALL, F_DECK_TOTAL,
 F_DECK_POINTS, F_DECK_SIZE) = range(16)
N_FLAGS = 16

#: the round adjustments follow the flags in their array (``tables.rule_arrays``), a row of
#: ``ADJ_WIDTH`` each: who gets it (a ``WHO_COMPUTED`` index), its points, the score ``score_is`` needs
ADJ_WHO, ADJ_POINTS, ADJ_SCORE = range(3)
ADJ_WIDTH = 3
#: a hand bonus row (the rule tuple's bonus array): its kind (a ``BONUS_COMPUTED`` index), the rank
#: it needs (-1: any), its points
B_KIND, B_RANK, B_POINTS = range(3)

#: The kinds of round adjustment (their *who*, ``golflab.model.WHO_SEATS``) the compiled code
#: computes (``engine.apply_adjustments``), coded by their index here; the one switch refuses
#: rules with any other (``golflab.kernel.KINDS``), and the compiled code raises on one.
WHO_COMPUTED = ("score_is", "finisher", "finisher_beaten", "lowest", "tied")
WHO_SCORE_IS, WHO_FINISHER, WHO_FINISHER_BEATEN, WHO_LOWEST, WHO_TIED = range(len(WHO_COMPUTED))
#: The kinds of hand bonus (``golflab.model.BONUS_KINDS``) the compiled code computes
#: (``cpu.bonus_points``, ``rollout.pool_hand_ev``), coded likewise.
BONUS_COMPUTED = ("paired_columns",)
(BONUS_PAIRED_COLUMNS,) = range(len(BONUS_COMPUTED))

#: a personality as a float array
P_THRESHOLD, P_PAIR_HOPE, P_AGGRESSION, P_UNPREDICTABLE = range(4)

#: the game's scalars (an int64 array)
(S_DRAW_N, S_DISC_N, S_CURRENT, S_STAGE, S_PHASE, S_HELD, S_HELD_SRC, S_FINISHER, S_FIRST, S_ROUND,
 S_OPTIONAL, S_FLIPS_DONE, S_SEATS_FLIPPED, S_PEND_START, S_PEND_N) = range(15)
N_SCALARS = 15
SRC_NONE, SRC_DRAW, SRC_TAKE = 0, 1, 2
STAGE_NONE, STAGE_INITIAL_FLIP, STAGE_DRAW, STAGE_PLACE, STAGE_FLIP = range(5)
PHASE_INITIAL_FLIP, PHASE_PLAYING, PHASE_FINAL_TURN, PHASE_ROUND_OVER, PHASE_GAME_OVER = range(5)

#: action codes: ``golflab.actions.ActionCode`` (as plain ints, compiled in), ``ACTION_NAMES`` by code
A_FLIP, A_SWAP, A_DRAW, A_TAKE, A_DISCARD, A_SKIP, A_KNOCK = (
    int(ActionCode.FLIP), int(ActionCode.SWAP), int(ActionCode.DRAW), int(ActionCode.TAKE), int(ActionCode.DISCARD),
    int(ActionCode.SKIP), int(ActionCode.KNOCK))
ACTION_NAMES = tuple(a.notation for a in ACTIONS)
