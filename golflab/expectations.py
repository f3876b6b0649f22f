"""The unseen pool's two expectation formulas, written once: plain arithmetic on numbers, so
that ``golflab.ev.Pool`` calls them as they are and the compiled kernel compiles these very
functions (``golflab.kernel.pool_ev``: ``njit`` of each; ``tests/engine/test_expectations.py`` pins the two
equal).

* ``beside_down``: the expected points of a column holding a known card beside a face-down one;
* ``paired_chance``: the chance that two or more columns pair one rank (a hand bonus's chance).
"""

from __future__ import annotations

__all__ = ["beside_down", "paired_chance"]


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


def paired_chance(need, m, count, size):
    """The chance that two or more of ``m`` columns pair one rank, column i still needing
    ``need[i]`` (0-2) unseen cards of it, with ``count`` of the pool's ``size`` cards of that
    rank: inclusion-exclusion over the columns, each term hypergeometric (a falling product)."""
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
