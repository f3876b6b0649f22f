"""``golflab.expectations`` is written once: ``golflab.ev.Pool`` calls its functions and the compiled
kernel compiles the same functions (``golflab.kernel.pool_ev``). Pinned here: the kernel's are those
functions, and give the same bits on every pool a game can hold."""

from __future__ import annotations

import random

from golflab import expectations
from golflab.ev import Pool, deck_counts
from golflab.model import ALL_KINDS, ALL_RANKS, ONE_EYED, RANK_OF
from golflab.rules import Rules
from tests.support.kernel_marks import needs_compiled


@needs_compiled
def test_the_kernel_compiles_the_same_formulas_and_gets_the_same_bits():
    import numpy as np

    from golflab.kernel import pool_ev

    assert pool_ev.both_down.py_func is expectations.both_down
    assert pool_ev.beside_down.py_func is expectations.beside_down
    assert pool_ev.paired_columns_ev.py_func is expectations.paired_columns_ev
    rank_index = np.array([ALL_RANKS.index(RANK_OF[k]) for k in ALL_KINDS], dtype=np.int64)
    rng = random.Random(7)
    for _ in range(2000):
        size = rng.randint(1, 110)
        c = rng.randint(0, min(size, 8))
        v, mean, pp = rng.randint(-5, 15), rng.uniform(-2, 10), rng.choice((0, -4, -10))
        args = (v, mean, c / size, c, c * rng.randint(-5, 15), pp)
        assert pool_ev.beside_down(*args) == expectations.beside_down(*args), args
        args = (mean, rng.randint(-2000, 20000), size)
        assert pool_ev.both_down(*args) == expectations.both_down(*args), args
        grid = [rng.choice((None, None) + ALL_KINDS) for _ in range(6)]
        ranks = ALL_RANKS if rng.random() < 0.5 else (rng.choice(ALL_RANKS),)
        counts = {r: rng.randint(0, min(size, 8)) for r in ALL_RANKS}
        out, points = rng.uniform(-30, 0), rng.choice((-5, -20, 7))
        coded = np.array([-1 if k is None else ALL_KINDS.index(k) for k in grid], dtype=np.int64)
        assert pool_ev.paired_columns_ev(out, points, coded, rank_index, -1,
                                         np.array([ALL_RANKS.index(r) for r in ranks], dtype=np.int64),
                                         np.array([counts[r] for r in ALL_RANKS], dtype=np.int64), size) == \
            expectations.paired_columns_ev(out, points, grid, RANK_OF, None, ranks, counts, size), (grid, ranks, counts)


def test_the_chance_of_paired_columns_is_the_count_over_every_deal():
    """``paired_columns_ev`` (one rank, one point) against every way the face-down cards can come
    out of a small pool."""
    from itertools import permutations

    pool = ["5", "5", "5", "7", "K", "J", ONE_EYED]
    for grid, rank in ((["5", None, None, None, None, "7"], "5"), ([None, None, "J", None, "5", None], "J"),
                       ([None] * 6, "5"), (["5", "5", None, "5", "5", None], "5"), (["5", "7", "K"] * 2, "5"),
                       ([ONE_EYED, None, "5", "J", None, None], "J")):
        down = [i for i, k in enumerate(grid) if k is None]
        deals = list(permutations(range(len(pool)), len(down)))
        paired = 0
        for deal in deals:
            hand = list(grid)
            for i, j in zip(down, deal):
                hand[i] = pool[j]
            paired += sum(RANK_OF[hand[c]] == RANK_OF[hand[c + 3]] == rank for c in range(3)) >= 2
        count = sum(RANK_OF[k] == rank for k in pool)
        chance = expectations.paired_columns_ev(0.0, 1, grid, RANK_OF, None, (rank,), {rank: count}, len(pool))
        assert abs(chance - paired / len(deals)) < 1e-12, (grid, rank)


def test_two_face_down_cards_are_the_formula_over_the_pool():
    """``Pool.column_ev(None, None)`` (``both_down``) against the average over every ordered pair of
    the pool's cards."""
    rules = Rules(jokers="eagle_eye")
    counts = deck_counts(rules, 2)
    for kind in list(counts)[::4]:
        counts[kind] -= 1
    pool = Pool(counts, rules)
    cards = [k for k, c in pool.counts.items() for _ in range(c)]
    total = sum(pool.column_points(a, b) for i, a in enumerate(cards) for j, b in enumerate(cards) if i != j)
    assert abs(pool.column_ev(None, None) - total / (len(cards) * (len(cards) - 1))) < 1e-9


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


@needs_compiled
def test_the_compiled_hand_ev_with_hand_bonuses_is_the_references():
    """The rollouts' leaf value (``kernel.rollout.pool_hand_ev``) is ``Pool.hand_ev`` to the bit
    with every hand bonus on, on hands that often can still earn them (many face-down cards, pairs
    of jacks and of one rank)."""
    import numpy as np

    from golflab.kernel.rollout import pool_hand_ev
    from golflab.kernel.tables import R_PAIR, rule_arrays

    rng = random.Random(11)
    for rules in (Rules(wolfpack=True, four_of_a_kind=True),
                  Rules(wolfpack=True, four_of_a_kind=True, one_eyed_jacks=True, jokers="eagle_eye",
                        negative_pairs_keep_value=True)):
        R, _ = rule_arrays(rules, 2)
        pair_by_rank = np.array([int(R[R_PAIR][k]) for k in range(14)], dtype=np.int64)
        full = deck_counts(rules, 2)
        kinds = list(full)
        checked = 0
        for _ in range(400):
            counts = dict(full)
            for k in rng.sample(kinds, 4):
                counts[k] = rng.randint(0, counts[k])
            pool = Pool(counts, rules)
            some = rng.sample(kinds, 2)
            grid = [rng.choice([None, None, None, *some]) for _ in range(6)]
            if sum(k is None for k in grid) > pool.size:
                continue
            coded = np.array([-1 if k is None else ALL_KINDS.index(k) for k in grid], dtype=np.int64)
            amounts = np.array([counts.get(k, 0) for k in ALL_KINDS], dtype=np.int64)
            assert pool_hand_ev(coded, amounts, R, pair_by_rank) == pool.hand_ev(grid), (rules, grid, counts)
            checked += pool.bonus_ev(grid) != 0
        assert checked > 200  # most hands could still earn a bonus
