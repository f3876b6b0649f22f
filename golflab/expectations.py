"""The unseen pool's expectation formulas, written once: plain arithmetic on numbers and
sequences, so that ``golflab.ev.Pool`` calls them as they are and the compiled kernel compiles
these very functions (``golflab.kernel.pool_ev``: ``njit`` of each; ``tests/engine/test_expectations.py``
pins the two equal).

* ``both_down``: the expected points of a column of two face-down cards;
* ``beside_down``: the expected points of a column holding a known card beside a face-down one;
* ``paired_columns_chance``: the chance that two or more of a hand's columns pair one rank (a
  ``paired_columns`` hand bonus's chance).

None calls another: the kernel compiles each on its own.
"""

from __future__ import annotations

__all__ = ["beside_down", "both_down", "paired_columns_chance"]


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


def paired_columns_chance(grid, rank_of, down, rank, count, size):
    """The chance that two or more of a hand's columns pair ``rank``, with ``count`` of the pool's
    ``size`` unseen cards of that rank. ``grid``: six cards in grid order (``down``: face down),
    ``rank_of[card]`` a card's rank (the reference: kinds, ``model.RANK_OF`` and None; the kernel:
    kind and rank indices and -1).

    A column can pair the rank when no known card of it is of another rank; it still needs one
    unseen card of the rank for each face-down card. The chance is inclusion-exclusion over those
    columns, each term hypergeometric (a falling product)."""
    need = [0, 0, 0]  # unseen cards of the rank each column that can pair it still needs
    m = 0
    for c in range(3):
        a, b = grid[c], grid[c + 3]
        if (a != down and rank_of[a] != rank) or (b != down and rank_of[b] != rank):
            continue
        need[m] = (1 if a == down else 0) + (1 if b == down else 0)
        m += 1
    if m < 2:
        return 0.0
    p = 0.0
    for x in range(m):
        for y in range(x + 1, m):
            f = 1.0
            for i in range(need[x] + need[y]):
                f *= (count - i) / (size - i) if size - i > 0 else 0.0
            p += f
    if m == 3:
        f = 1.0
        for i in range(need[0] + need[1] + need[2]):
            f *= (count - i) / (size - i) if size - i > 0 else 0.0
        p -= 2 * f
    return p
