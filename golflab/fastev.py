"""The hot spot of grading, compiled: ``Pool.draw_ev`` (the expected best placement of a card
drawn from the unseen pool) for hands that score column by column.

``golflab.ev`` is the reference; this module repeats ``Pool.best_change(grid, kind,
drawn=True)`` summed over the pool in the same order of floating-point operations, so its
results are bit-identical (``tests/test_ev.py`` compares them). Kinds are indices into
``model.ALL_KINDS`` and ranks indices into ``model.ALL_RANKS``; -1 is a face-down card.

numba is optional (the ``fast`` extra): ``draw_ev_function()`` is None without it, or when
``GOLFLAB_PURE_PYTHON`` is set, and ``golflab.ev`` then stays on the reference. Compiled
code is cached on disk (numba's ``cache=True``), so only the first run compiles (~1 s).
"""

from __future__ import annotations

import os
from typing import Callable

from .model import ALL_KINDS, ALL_RANKS, RANK_OF, per_rules
from .rules import Rules

#: kind -> its index in ALL_KINDS; rank -> its index in ALL_RANKS
KIND_INDEX = {k: i for i, k in enumerate(ALL_KINDS)}
RANK_INDEX = {r: i for i, r in enumerate(ALL_RANKS)}
_RANK_OF_KIND = tuple(RANK_INDEX[RANK_OF[k]] for k in ALL_KINDS)

_compiled: "Callable | None | bool" = False  # False: not tried yet


def _build():
    """Compile (or load from numba's cache) the kernel; None without numba."""
    try:
        import numpy as np
        from numba import njit
    except ImportError:
        return None

    partner = np.array([3, 4, 5, 0, 1, 2], dtype=np.int64)

    @njit(cache=True)
    def beside_down(v, mean, inv, c, s, pp):
        # Pool.column_ev of a known kind worth v beside a face-down card: v + mean - P(pair) * ...
        return v + mean - (c * inv * (v + s / c - pp) if c else 0.0)

    @njit(cache=True)
    def draw_total(grid, order, counts, value, rank_of, pair, partner):
        group_n = np.zeros(pair.size, dtype=np.int64)
        group_s = np.zeros(pair.size, dtype=np.int64)
        size = 0
        total = 0
        for j in range(order.size):
            k, c = order[j], counts[j]
            size += c
            total += c * value[k]
            group_n[rank_of[k]] += c
            group_s[rank_of[k]] += c * value[k]
        pairs = 0
        for r in range(pair.size):
            n = group_n[r]
            if n > 1:
                pairs += (n - 1) * (2 * group_s[r] - pair[r] * n)
        acc = 0.0
        for j in range(order.size):
            kind, count = order[j], counts[j]
            if count == 0:
                continue
            # Pool.best_change(grid, kind, drawn=True), columns independent, size >= 2
            rank = rank_of[kind]
            v_kind = value[kind]
            pp = pair[rank]
            g_count, g_points = group_n[rank], group_s[rank]
            p = pairs
            if g_count - 1 > 1:
                p += (g_count - 2) * (2 * (g_points - v_kind) - pp * (g_count - 1))
            if g_count > 1:
                p -= (g_count - 1) * (2 * g_points - pp * g_count)
            n = size - 1
            g_count, g_points = g_count - 1, g_points - v_kind
            mean = (total - v_kind) / n
            inv = 1 / n
            both_unknown = 2 * mean - (p / (n * (n - 1)) if n >= 2 else 0.0)
            one_kind = beside_down(v_kind, mean, inv, g_count, g_points, pp)
            best = 0.0
            for pos in range(6):
                other = grid[partner[pos]]
                old = grid[pos]
                if other < 0:
                    if old < 0:
                        change = one_kind - both_unknown
                    else:
                        r = rank_of[old]
                        c, s = (g_count, g_points) if r == rank else (group_n[r], group_s[r])
                        change = one_kind - beside_down(value[old], mean, inv, c, s, pair[r])
                else:
                    r_other = rank_of[other]
                    after = pair[rank] if rank == r_other else v_kind + value[other]
                    if old < 0:
                        c, s = (g_count, g_points) if r_other == rank else (group_n[r_other], group_s[r_other])
                        change = after - beside_down(value[other], mean, inv, c, s, pair[r_other])
                    else:
                        known = pair[r_other] if rank_of[old] == r_other else value[old] + value[other]
                        change = float(after - known)
                if change < best:
                    best = change
            acc += count * best
        return acc / size

    def run(grid, order, counts, tables):
        return draw_total(grid, order, counts, tables.value, tables.rank_of, tables.pair, partner)

    return run


class _Tables:
    """Per-rules arrays: value per kind, rank index per kind, pair points per rank."""

    def __init__(self, rules: Rules) -> None:
        import numpy as np

        from .model import scoring_model

        model = scoring_model(rules)
        self.rules = rules
        self.value = np.array([model.value[k] for k in ALL_KINDS], dtype=np.int64)
        self.rank_of = np.array(_RANK_OF_KIND, dtype=np.int64)
        self.pair = np.array([model.pair_points[r] for r in ALL_RANKS], dtype=np.int64)


tables = per_rules(_Tables)


def draw_ev_function() -> "Callable | None":
    """``f(grid, counts, rules)``: the compiled ``Pool.draw_ev`` (grid: six kinds or None;
    counts: kind -> count, summed in this order), or None without numba."""
    global _compiled
    if _compiled is False:
        _compiled = None if os.environ.get("GOLFLAB_PURE_PYTHON") else _build()
        if _compiled is not None:
            _compiled = _wrap(_compiled)
    return _compiled


def _wrap(run):
    import numpy as np

    index = KIND_INDEX.__getitem__
    int64 = np.int64

    def draw_ev(grid, counts, rules):
        cells = np.array([-1 if k is None else index(k) for k in grid], dtype=int64)
        n = len(counts)
        order = np.fromiter(map(index, counts), int64, n)
        amounts = np.fromiter(counts.values(), int64, n)
        return run(cells, order, amounts, tables(rules))

    return draw_ev
