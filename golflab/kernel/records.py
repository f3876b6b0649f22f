"""What studies need of simulated play, recorded in the compiled loop (no ``Game`` replayed).

``place_records`` plays the games ``engine.play_games`` plays (``engine.run``, recording
``RECORD_PLACEMENTS``) and records, at every placement decision (before it is applied), what
the seat knows and what is hidden: its six cards and which are face up, the card it holds
and where it came from, the action chosen, the fewest face-down cards of any seat (the
game's phase), whether someone has gone out, and the unseen counts by kind
(``cpu.unseen_counts``: what the seat cannot see).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import engine
from .engine import (  # noqa: F401  (the columns of a placement record, public here)
    P_ACTION,
    P_CARD0,
    P_COLUMNS,
    P_FEWEST_DOWN,
    P_FINAL,
    P_GAME,
    P_HELD,
    P_SEAT,
    P_TAKEN,
    P_UP0,
    RECORD_PLACEMENTS,
)


@njit(cache=True)
def place_records(R, base_deck, profiles, rngs):
    """(records [m, P_COLUMNS], unseen counts [m, kinds]) of every placement in the games."""
    _, rows, _, m, _ = engine.run(R, base_deck, profiles, rngs, np.int64(RECORD_PLACEMENTS), np.int64(0),
                                  engine.no_grader())
    return rows[:m, :P_COLUMNS].copy(), rows[:m, P_COLUMNS:].copy()
