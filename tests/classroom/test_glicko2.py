"""Glicko-2 (``golflab.classroom.glicko2``): Glickman's worked example, and when a new solver's rating
stops "settling" (what the puzzle pages say about a rating's first big moves)."""

from __future__ import annotations

import pytest

from golflab.classroom.glicko2 import DEFAULT_RATING, SETTLED_RD, Rating, rate, settling


def test_the_papers_worked_example():
    """Mark Glickman, "Example of the Glicko-2 system" (2013): 1500/200/0.06 beats a 1400/30 and
    loses to a 1550/100 and a 1700/300 in one period, with tau 0.5."""
    after = rate(Rating(1500, 200, 0.06), [(Rating(1400, 30), 1), (Rating(1550, 100), 0), (Rating(1700, 300), 0)],
                 tau=0.5, bounded=False)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)


def test_a_new_solvers_rating_settles_after_about_ten_puzzles():
    new = Rating()
    first_miss = rate(new, [(Rating(DEFAULT_RATING, 100), 0)])
    assert DEFAULT_RATING - first_miss.rating > 100 and settling(first_miss.rd)  # a big move, said to be settling
    r, results = first_miss, 1
    while settling(r.rd):
        r = rate(r, [(Rating(DEFAULT_RATING, 100), results % 2)])
        results += 1
    assert 8 <= results <= 15 and r.rd <= SETTLED_RD
    assert not settling(SETTLED_RD) and settling(SETTLED_RD + 0.1)
