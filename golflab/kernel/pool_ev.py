"""``golflab.ev.Pool``'s expectations in compiled code, for the grader (``golflab.kernel.grade``)
and the coach's rollouts (``rollout``) alike: a pool's sums by rank, its pair sum, a column's and
a hand's expected points over the cards not seen, with ``Pool``'s operations in its order.

``both_down``, ``beside_down`` and ``paired_columns_ev`` are ``golflab.expectations``' own
functions, compiled: the formulas are written once, for ``Pool`` and the kernel alike."""

from __future__ import annotations

import numpy as np
from numba import njit

from .. import expectations

#: two face-down cards; a known card beside a face-down one; a paired_columns hand bonus
#: (``golflab.expectations``)
both_down = njit(cache=True)(expectations.both_down)
beside_down = njit(cache=True)(expectations.beside_down)
paired_columns_ev = njit(cache=True)(expectations.paired_columns_ev)


@njit(cache=True)
def pool_sums(order, counts, value, rank_of, n_ranks):
    """Size, total points, the pair sum and per-rank count and points of a pool (``Pool._fill``)."""
    group_n = np.zeros(n_ranks, dtype=np.int64)
    group_s = np.zeros(n_ranks, dtype=np.int64)
    size = 0
    total = 0
    for j in range(order.size):
        k, c = order[j], counts[j]
        size += c
        total += c * value[k]
        group_n[rank_of[k]] += c
        group_s[rank_of[k]] += c * value[k]
    return size, total, group_n, group_s


@njit(cache=True)
def pair_sum(group_n, group_s, pair):
    pairs = 0
    for r in range(pair.size):
        n = group_n[r]
        if n > 1:
            pairs += (n - 1) * (2 * group_s[r] - pair[r] * n)
    return pairs


@njit(cache=True)
def column_ev(a, b, value, rank_of, pair, group_n, group_s, size, mean, both):
    """``Pool.column_ev`` (-1: a face-down card; ``both``: two face-down cards', ``both_down``)."""
    if a >= 0 and b >= 0:
        return float(pair[rank_of[a]] if rank_of[a] == rank_of[b] else value[a] + value[b])
    if a < 0 and b < 0:
        return both
    k = a if a >= 0 else b
    r = rank_of[k]
    n = group_n[r]
    return beside_down(value[k], mean, n / size if n else 0.0, n, group_s[r], pair[r])


@njit(cache=True)
def hand_ev(g, value, rank_of, pair, group_n, group_s, size, mean, both):
    """``Pool.hand_ev`` without bonuses (the caller checks there are enough unseen cards)."""
    return (column_ev(g[0], g[3], value, rank_of, pair, group_n, group_s, size, mean, both)
            + column_ev(g[1], g[4], value, rank_of, pair, group_n, group_s, size, mean, both)
            + column_ev(g[2], g[5], value, rank_of, pair, group_n, group_s, size, mean, both))
