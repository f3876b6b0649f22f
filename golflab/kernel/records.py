"""What studies need of simulated play, recorded in the compiled loop (no ``Game`` replayed).

``place_records`` plays the games ``engine.play_games`` plays and records, at every
placement decision (before it is applied), what the seat knows and what is hidden: its six
cards and which are face up, the card it holds and where it came from, the action chosen,
the fewest face-down cards of any seat (the game's phase), whether someone has gone out,
and the unseen counts by kind (``cpu.unseen_counts``: what the seat cannot see).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import cpu, engine
from .layout import (
    F_ROUNDS,
    S_CURRENT,
    S_FINISHER,
    S_HELD,
    S_HELD_SRC,
    S_STAGE,
    SRC_TAKE,
    STAGE_PLACE,
)

#: columns of a placement record
(P_GAME, P_SEAT, P_CARD0, P_UP0, P_HELD, P_TAKEN, P_ACTION, P_FEWEST_DOWN, P_FINAL) = (0, 1, 2, 8, 14, 15, 16, 17, 18)
P_COLUMNS = 19


@njit(cache=True)
def place_records(R, base_deck, profiles, rngs):
    """(records [m, P_COLUMNS], unseen counts [m, kinds]) of every placement in the games."""
    games = rngs.shape[0]
    n = profiles.shape[0]
    outs = engine.new_outputs(games, R[4][F_ROUNDS], n)
    recs = np.empty((max(64, games * 300), P_COLUMNS), dtype=np.int64)
    counts = np.empty((recs.shape[0], R[5].size), dtype=np.int64)
    m = 0
    for game in range(games):
        game_rngs = rngs[game]
        G = engine.new_game(R, base_deck, n, game_rngs[0])
        st = G[5]
        while engine.to_move(G, R, base_deck, game_rngs[0]):
            action = engine.decide(G, R, profiles, game_rngs)
            if st[S_STAGE] == STAGE_PLACE:
                if m == recs.shape[0]:
                    recs, counts = engine.doubled(recs, m), engine.doubled(counts, m)
                seat = st[S_CURRENT]
                r = recs[m]
                r[P_GAME], r[P_SEAT] = game, seat
                for i in range(6):
                    r[P_CARD0 + i] = G[0][seat, i]
                    r[P_UP0 + i] = G[1][seat, i]
                r[P_HELD], r[P_TAKEN] = st[S_HELD], st[S_HELD_SRC] == SRC_TAKE
                r[P_ACTION], r[P_FEWEST_DOWN], r[P_FINAL] = action, cpu.fewest_down(G), st[S_FINISHER] >= 0
                counts[m] = cpu.unseen_counts(G, R)
                m += 1
            engine.apply(G, R, action, game_rngs[0], outs, game)
    return recs[:m], counts[:m]
