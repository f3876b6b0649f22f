"""``golflab.expectations`` is written once: ``golflab.ev.Pool`` calls its functions and the compiled
kernel compiles the same functions (``golflab.kernel.pool_ev``). Pinned here: the kernel's are those
functions, and give the same bits on every pool a game can hold."""

from __future__ import annotations

import random

from golflab import expectations
from golflab.ev import Pool, deck_counts
from golflab.rules import Rules
from tests.support.kernel_marks import needs_compiled


@needs_compiled
def test_the_kernel_compiles_the_same_formulas_and_gets_the_same_bits():
    import numpy as np

    from golflab.kernel import pool_ev

    assert pool_ev.beside_down.py_func is expectations.beside_down
    assert pool_ev.paired_chance.py_func is expectations.paired_chance
    rng = random.Random(7)
    for _ in range(2000):
        size = rng.randint(1, 110)
        c = rng.randint(0, min(size, 8))
        v, mean, pp = rng.randint(-5, 15), rng.uniform(-2, 10), rng.choice((0, -4, -10))
        args = (v, mean, c / size, c, c * rng.randint(-5, 15), pp)
        assert pool_ev.beside_down(*args) == expectations.beside_down(*args), args
        m = rng.randint(0, 3)
        need = [rng.randint(0, 2) for _ in range(3)]
        count = rng.randint(0, min(size, 8))
        assert pool_ev.paired_chance(np.array(need, dtype=np.int64), m, count, size) == \
            expectations.paired_chance(need, m, count, size), (need, m, count, size)


def test_a_column_with_one_known_card_is_the_formula_over_the_pool():
    """``Pool.column_ev`` of a known card beside a face-down one, checked against the average over
    every card the face-down one could be (the formula is the exact expectation)."""
    rules = Rules()
    counts = deck_counts(rules, 2)
    for kind in list(counts)[::3]:
        counts[kind] -= 1
    pool = Pool(counts, rules)
    for known in ("5", "K", "2", "Q"):
        exact = sum(c * pool.column_points(known, k) for k, c in pool.counts.items()) / pool.size
        assert abs(pool.column_ev(known, None) - exact) < 1e-9
