"""The coach's rollouts in compiled code (``golflab.coach.rollouts``' ``rollout`` and ``leaf``).

A world is one determinization: every seat's six cards and the draw pile dealt from the
unseen cards, the rest of the position as the observation shows it. ``rollout_values``
applies one option in each world and plays the hole on with the CPU personalities (the
kernel's ``engine``) until it ends, or until ``stop`` turns have been played: then each
hand is valued at its exact expectation over the cards the seat has not seen
(``pool_hand_ev``: ``ev.Pool.hand_ev`` with the same operations in the same order).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import cpu, engine
from . import mt19937 as mt
from .layout import (
    B_KIND,
    B_POINTS,
    B_RANK,
    BONUS_PAIRED_COLUMNS,
    NONE,
    PHASE_GAME_OVER,
    PHASE_ROUND_OVER,
    S_PHASE,
    S_ROUND,
    S_STAGE,
    STAGE_DRAW,
)
from .pool_ev import both_down, hand_ev, pair_sum, paired_columns_ev

#: every rank's index, in order (a hand bonus of any rank tries them all)
RANKS = np.arange(14, dtype=np.int64)


@njit(cache=True)
def pool_hand_ev(g, counts, R, pair_by_rank):
    """``Pool(counts, rules).hand_ev(g)``: a grid of kinds (-1 face down) valued over the pool."""
    value, rank_of, bonus = R[0], R[9], R[8]
    size = 0
    total = 0
    group_n = np.zeros(14, dtype=np.int64)
    group_s = np.zeros(14, dtype=np.int64)
    for k in range(counts.size):
        c = counts[k]
        if c:
            points = c * int(value[k])
            size += c
            total += points
            group_n[rank_of[k]] += c
            group_s[rank_of[k]] += points
    pairs = pair_sum(group_n, group_s, pair_by_rank)
    mean = total / size if size else 0.0
    ev = hand_ev(g, value, rank_of, pair_by_rank, group_n, group_s, size, mean, both_down(mean, pairs, size))
    if bonus.shape[0]:  # Pool.bonus_ev
        out = 0.0
        for j in range(bonus.shape[0]):
            if bonus[j, B_KIND] != BONUS_PAIRED_COLUMNS:  # tables.rule_arrays and the switch refuse it first
                raise ValueError("a hand bonus of a kind the compiled code does not compute")
            r = bonus[j, B_RANK]
            out = paired_columns_ev(out, bonus[j, B_POINTS], g, rank_of, NONE, RANKS if r < 0 else RANKS[r:r + 1],
                                    group_n, size)
        ev += out
    return ev


@njit(cache=True)
def leaf(G, R, pair_by_rank, seat, corr):
    """``coach.rollouts.leaf``: the seat's expected hand minus the others' mean, over what it has not
    seen; with a correction (``corr``: ``tables.leaf_array``, more than one row) each hand's
    columns corrected as ``LeafCorrection.hand`` does."""
    counts = cpu.unseen_counts(G, R)
    n = G[0].shape[0]
    up = G[1]
    corrected = corr.shape[0] > 1
    fewest = corr.shape[3] - 1
    if corrected:
        for s in range(n):
            down = 6 - up[s].sum()
            if down < fewest:
                fewest = down
    mine = 0.0
    others = 0.0
    for s in range(n):
        g = cpu.seat_kinds(G, R, s)
        est = pool_hand_ev(g, counts, R, pair_by_rank)
        if corrected:
            down = 6 - up[s].sum()
            est += ((corr[g[0] + 1, g[3] + 1, down, fewest] + corr[g[1] + 1, g[4] + 1, down, fewest])
                    + corr[g[2] + 1, g[5] + 1, down, fewest])
        if s == seat:
            mine = est
        else:
            others += est
    return mine - others / (n - 1)


@njit(cache=True)
def generator_rows(world_seeds, bot_seeds, n):
    """The generators of each world, seeded once and copied for every option: ``[w, 0]`` is
    world w's own (``random.Random(world_seeds[w])``: its reshuffles), ``[w, s + 1]`` seat s's
    CPU (``random.Random(bot_seeds[w] + s)``)."""
    worlds = world_seeds.size
    seeds = np.empty((worlds, n + 1), dtype=np.int64)
    for w in range(worlds):
        seeds[w, 0] = world_seeds[w]
        for s in range(n):
            seeds[w, s + 1] = bot_seeds[w] + s
    return mt.seed_rows(seeds)


@njit(cache=True)
def rollout_values(R, pair_by_rank, profiles, grids, draws, draw_n, up, discard, disc_n, scalars, turns, pending,
                   generators, action, seat, stop, corr):
    """The seat's relative hole result after ``action`` in each world (``coach.rollouts.rollout``;
    the leaf corrected by ``corr`` when it has more than one row: ``leaf``).

    ``grids[w]``/``draws[w]`` (``draw_n`` cards, drawn from the end): world w's deal;
    ``up``, ``discard``, ``scalars``, ``turns``, ``pending``: the position; ``generators[w]``:
    world w's generators as ``generator_rows`` seeds them (left unchanged: each rollout plays
    on a copy)."""
    worlds = grids.shape[0]
    n = profiles.shape[0]
    rounds = scalars[S_ROUND]
    out = np.empty(worlds)
    size = discard.size
    for w in range(worlds):
        G = (grids[w].copy(), up.copy(), np.empty(size, dtype=np.int64), np.empty(size, dtype=np.int64),
             turns.copy(), scalars.copy(), pending.copy())
        G[2][:draw_n] = draws[w, :draw_n]
        G[3][:disc_n] = discard[:disc_n]
        rngs = generators[w].copy()
        outs = engine.new_outputs(1, rounds, n)
        st = G[5]
        # np.int64(0), not 0: a constant argument would compile apply (and what it calls) again
        engine.apply(G, R, action, rngs[0], outs, np.int64(0))
        value = np.nan
        while True:
            if st[S_PHASE] == PHASE_ROUND_OVER or st[S_PHASE] == PHASE_GAME_OVER:
                break
            if st[S_STAGE] == STAGE_DRAW and G[4].sum() >= stop:
                value = leaf(G, R, pair_by_rank, seat, corr)
                break
            engine.apply(G, R, engine.decide(G, R, profiles, rngs), rngs[0], outs, np.int64(0))
        if np.isnan(value):
            scores = outs[1][0, rounds - 1]
            others = 0
            for s in range(n):
                if s != seat:
                    others += scores[s]
            value = scores[seat] - others / (n - 1)
        out[w] = value
    return out

