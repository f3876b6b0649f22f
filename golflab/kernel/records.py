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
    PHASE_GAME_OVER,
    PHASE_ROUND_OVER,
    S_CURRENT,
    S_FINISHER,
    S_HELD,
    S_HELD_SRC,
    S_PHASE,
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
    cap = max(64, games * 300)
    recs = np.empty((cap, P_COLUMNS), dtype=np.int64)
    counts = np.empty((cap, R[5].size), dtype=np.int64)
    m = 0
    for game in range(games):
        G = engine.new_state(n, base_deck.size)
        game_rngs = rngs[game]
        engine.start_round(G, R, base_deck, game_rngs[0])
        st = G[5]
        while True:
            phase = st[S_PHASE]
            if phase == PHASE_GAME_OVER:
                break
            if phase == PHASE_ROUND_OVER:
                engine.start_round(G, R, base_deck, game_rngs[0])
                continue
            action = engine.decide(G, R, profiles, game_rngs)
            if st[S_STAGE] == STAGE_PLACE:
                if m == cap:
                    cap *= 2
                    grown = np.empty((cap, P_COLUMNS), dtype=np.int64)
                    grown[:m] = recs[:m]
                    recs = grown
                    grown_c = np.empty((cap, R[5].size), dtype=np.int64)
                    grown_c[:m] = counts[:m]
                    counts = grown_c
                seat = st[S_CURRENT]
                r = recs[m]
                r[P_GAME], r[P_SEAT] = game, seat
                fewest = 6
                for s in range(n):
                    down = 0
                    for i in range(6):
                        if not G[1][s, i]:
                            down += 1
                    fewest = min(fewest, down)
                for i in range(6):
                    r[P_CARD0 + i] = G[0][seat, i]
                    r[P_UP0 + i] = G[1][seat, i]
                r[P_HELD], r[P_TAKEN] = st[S_HELD], st[S_HELD_SRC] == SRC_TAKE
                r[P_ACTION], r[P_FEWEST_DOWN], r[P_FINAL] = action, fewest, st[S_FINISHER] >= 0
                counts[m] = cpu.unseen_counts(G, R)
                m += 1
            engine.apply(G, R, action, game_rngs[0], outs, game)
    return recs[:m], counts[:m]
