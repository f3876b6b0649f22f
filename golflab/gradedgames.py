"""Graded CPU games at compiled speed: the simulation kernel (``golflab.kernel``) plays, and
every decision is graded in the same compiled loop by ``golflab.kernel.grade``, with no
``Game`` or ``Observation`` built.

``play(personalities, rules, seed, start, stop)`` gives the games' ``KernelGames`` and one
record per decision (``D_*``, ``E_*`` columns); ``golflab.sim.graded`` turns them into a run's
rows, equal to the reference's (``analysis.grade`` of every decision; ``tests/kernel/test_grading.py``
and the simulation fingerprints compare them). A decision the kernel leaves to the reference
(``kernel.grade.FALLBACK``, e.g. more face-down cards than unseen ones) is recorded with that case.
``supported(rules)``: hand bonuses (``wolfpack``, ``four_of_a_kind``) are graded by the
reference only; ``play`` asks the one switch (part ``GRADE``) and refuses what it does not
grade. ``legal_codes`` is the compiled ``Game.legal_actions`` (``kernel.engine.legal_codes``;
``tests/kernel/test_legal_parity.py`` pins the two equal).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .ai import get_profile
from .analysis import CASE_SEVERITY, CASES, EV_LOSS_LIMITS, GRADES
from .fastev import tables
from .kernel import GRADE, KernelGames, check, engine, game_seeds, refusal
from .kernel import grade as gk  # noqa: F401  (gk.FALLBACK: a case left to the reference)
from .kernel.engine import (  # noqa: F401  (the record's columns and the compiled legal actions, public here)
    D_ACTION,
    D_AT_DRAW,
    D_BEST,
    D_CASE,
    D_GAME,
    D_PHASE,
    D_QUALITY,
    D_ROUND,
    D_SEAT,
    D_TURN,
    E_BEST,
    E_EV,
    E_LOSS,
    FLIP_ALWAYS,
    RECORD_GRADES,
    legal_codes,
)
from .kernel.mt19937 import seed_rows
from .kernel.tables import profile_rows, rule_arrays


def supported(rules) -> bool:
    """True when the compiled grader implements ``rules`` (no hand bonus on: the one switch's
    declarations, ``golflab.kernel.IMPLEMENTED`` and ``KINDS``)."""
    return refusal(rules, (), GRADE) is None


@njit(cache=True)
def play_graded(R, base_deck, profiles, rngs, table, limits, severity):
    """``engine.play_games`` with every decision graded (``engine.run``, recording
    ``RECORD_GRADES``): the hole outputs as there, and the decision records (int columns
    ``D_*``, float columns ``E_*``) in order of play. ``limits``: ``analysis.EV_LOSS_LIMITS``'
    losses; ``severity``: each case's grade index."""
    outs, recs, evs, m, _ = engine.run(R, base_deck, profiles, rngs, np.int64(RECORD_GRADES), np.int64(0),
                                           (table, limits, severity))
    return outs[0], outs[1], outs[2], outs[3], recs[:m], evs[:m]


def play(personalities, rules, seed: int, start: int, stop: int) -> tuple:
    """Games ``start..stop-1`` (seeded as ``golflab.kernel.play`` seeds them): their
    ``KernelGames`` and the decision records (``D_*`` and ``E_*`` columns). A ValueError for
    rules or seats the compiled grader does not implement (``kernel.check``, part ``GRADE``)."""
    check(rules, personalities, GRADE)
    n = len(personalities)
    R, deck = rule_arrays(rules, n)
    profiles = profile_rows([get_profile(p) for p in personalities])
    limits = np.array([limit for _, limit in EV_LOSS_LIMITS], dtype=np.float64)
    severity = np.array([GRADES.index(CASE_SEVERITY[c]) for c in CASES], dtype=np.int64)
    out = play_graded(R, deck, profiles, seed_rows(game_seeds(seed, start, stop, n)), tables(rules).table(n), limits,
                      severity)
    return KernelGames(start, *out[:4], None), out[4], out[5]
