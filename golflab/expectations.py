"""The unseen pool's expectation formulas, written once: plain arithmetic on numbers and
sequences, so that ``golflab.ev.Pool`` calls them as they are and the compiled kernel compiles
these very functions (``golflab.kernel.pool_ev``: ``njit`` of each; ``tests/engine/test_expectations.py``
pins the two equal).

* ``both_down``: the expected points of a column of two face-down cards;
* ``beside_down``: the expected points of a column holding a known card beside a face-down one;
* ``paired_columns_ev``: a ``paired_columns`` hand bonus's expectation (for each of its ranks, the
  chance that two or more of a hand's columns pair it).

None calls another: the kernel compiles each on its own.
"""

from __future__ import annotations

__all__ = ["beside_down", "both_down", "paired_columns_ev"]


def both_down(mean, pairs, size):
    """Expected points of a column of two face-down cards drawn from a pool of ``size`` cards of
    mean value ``mean`` and pair sum ``pairs`` (``ev.Pool``'s: over ordered pairs of its cards of
    one rank, their values less their pair's points): ``2 * mean - pairs / (size * (size - 1))``."""
    return 2 * mean - (pairs / (size * (size - 1)) if size >= 2 else 0.0)


def beside_down(v, mean, chance, c, s, pp):
    """Expected points of a column of a known card worth ``v`` beside a face-down card drawn from
    a pool of mean value ``mean``, of which ``c`` cards (worth ``s`` in all) would pair it for
    ``pp`` points, ``chance`` being the chance that it pairs (``c`` over the pool's size):
    ``v + mean - chance * (v + the partner's mean - pp)``.

    The caller computes ``chance``, each as its figures were first pinned: ``Pool.column_ev``
    as ``c / size``, ``Pool.best_change`` (one ``1 / size`` for its whole loop) as ``c * inv``;
    the two round differently in the last bit, and the studies' digests pin those bits
    (``tests/engine/test_study_pins.py``)."""
    return v + mean - (chance * (v + s / c - pp) if c else 0.0)


def paired_columns_ev(out, points, grid, rank_of, down, ranks, counts, size):
    """``out`` plus a ``paired_columns`` hand bonus's expectation: for each rank of ``ranks`` in
    order, ``points`` times the chance that two or more of the hand's columns pair it (added one by
    one, so that the sum over several bonuses rounds as it always has). ``counts[rank]``: the pool's
    unseen cards of the rank, of ``size`` in all. ``grid``: six cards in grid order (``down``:
    face down), ``rank_of[card]`` a card's rank (the reference: kinds, ``model.RANK_OF`` and None;
    the kernel: kind and rank indices and -1).

    A column can pair a rank when no known card of it is of another rank; it still needs one
    unseen card of the rank for each face-down card. The chance is inclusion-exclusion over those
    columns, each term hypergeometric (a falling product)."""
    # each column: the rank it can pair (``down``: any, both cards face down) and the unseen cards
    # it needs for it (-1: its known cards differ, it pairs no rank)
    r0 = r1 = r2 = down
    n0 = n1 = n2 = -1
    for c in range(3):
        a, b = grid[c], grid[c + 3]
        if a == down:
            r, n = (down, 2) if b == down else (rank_of[b], 1)
        else:
            r = rank_of[a]
            n = 1 if b == down else 0 if rank_of[b] == r else -1
        if c == 0:
            r0, n0 = r, n
        elif c == 1:
            r1, n1 = r, n
        else:
            r2, n2 = r, n
    free = (1 if n0 == 2 else 0) + (1 if n1 == 2 else 0) + (1 if n2 == 2 else 0)
    for rank in ranks:
        if free < 2 and rank != r0 and rank != r1 and rank != r2:
            continue  # no two columns can pair it
        need = (n0 if n0 == 2 or r0 == rank else -1, n1 if n1 == 2 or r1 == rank else -1,
                n2 if n2 == 2 or r2 == rank else -1)
        m = (1 if need[0] >= 0 else 0) + (1 if need[1] >= 0 else 0) + (1 if need[2] >= 0 else 0)
        if m < 2:
            continue
        count = counts[rank]
        p = 0.0
        for x in range(3):
            for y in range(x + 1, 3):
                if need[x] >= 0 and need[y] >= 0:
                    f = 1.0
                    for i in range(need[x] + need[y]):
                        f *= (count - i) / (size - i) if size - i > 0 else 0.0
                    p += f
        if m == 3:
            f = 1.0
            for i in range(need[0] + need[1] + need[2]):
                f *= (count - i) / (size - i) if size - i > 0 else 0.0
            p -= 2 * f
        out += points * p
    return out
