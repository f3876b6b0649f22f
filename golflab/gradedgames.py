"""Graded CPU games at compiled speed: the simulation kernel (``golflab.kernel``) plays, and
every decision is graded in the same compiled loop by ``golflab.gradekernel``, with no
``Game`` or ``Observation`` built.

``play(personalities, rules, seed, start, stop)`` gives the games' ``KernelGames`` and one
record per decision (``D_*``, ``E_*`` columns); ``golflab.sim.graded`` turns them into a run's
rows, equal to the reference's (``analysis.grade`` of every decision; ``tests/test_grading.py``
and the simulation fingerprints compare them). A decision the kernel leaves to the reference
(``gradekernel.FALLBACK``, e.g. more face-down cards than unseen ones) is recorded with that case.
``supported(rules)``: hand bonuses (``wolfpack``, ``four_of_a_kind``) are graded by the
reference only. ``legal_codes`` is the compiled ``Game.legal_actions`` (``tests/test_legal_parity.py``
pins the two equal).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import gradekernel as gk
from .ai import get_profile
from .analysis import CASE_SEVERITY, CASES, EV_LOSS_LIMITS, GRADES
from .fastev import tables
from .kernel import GRADE, KernelGames, cpu, engine, game_seeds, refusal
from .kernel.layout import (
    A_DISCARD,
    A_DRAW,
    A_FLIP,
    A_KNOCK,
    A_SKIP,
    A_SWAP,
    A_TAKE,
    F_FLIP_ACTION,
    F_FLIP_MODE,
    F_KNOCK_EARLY,
    F_ROUNDS,
    FLIP_MODES,
    PHASE_PLAYING,
    S_CURRENT,
    S_DISC_N,
    S_DRAW_N,
    S_FINISHER,
    S_HELD,
    S_HELD_SRC,
    S_OPTIONAL,
    S_PHASE,
    S_ROUND,
    S_STAGE,
    SRC_DRAW,
    STAGE_DRAW,
    STAGE_FLIP,
    STAGE_PLACE,
)
from .kernel.mt19937 import seed_rows
from .kernel.tables import profile_rows, rule_arrays

#: integer columns of a decision record
D_GAME, D_ROUND, D_SEAT, D_TURN, D_ACTION, D_AT_DRAW, D_BEST, D_CASE, D_PHASE, D_QUALITY = range(10)
#: float columns: the move's ev, the best ev and the ev loss
E_EV, E_BEST, E_LOSS = range(3)
FLIP_ALWAYS = FLIP_MODES.index("always")


def supported(rules) -> bool:
    """True when the compiled grader implements ``rules`` (no hand bonus on: the one switch's
    declaration, ``golflab.kernel.IMPLEMENTED``)."""
    return refusal(rules, (), GRADE) is None


@njit(cache=True)
def legal_codes(G, R, out):
    """``Game.legal_actions`` of the seat to move in the compiled game ``G`` (``kernel.engine``)
    under rules ``R``, as action codes (``ActionCode``, in the same order) into ``out`` (room
    for 16); the count."""
    up, st = G[1], G[5]
    flags = R[4]
    seat, stage = st[S_CURRENT], st[S_STAGE]
    n = 0
    if stage == STAGE_DRAW:
        out[0] = A_DRAW
        n = 1
        if st[S_DISC_N] > 0:
            out[1] = A_TAKE
            n = 2
        if flags[F_FLIP_ACTION] or flags[F_KNOCK_EARLY]:
            down = 0
            for i in range(6):
                if not up[seat, i]:
                    down += 1
                    if flags[F_FLIP_ACTION]:
                        out[n] = A_FLIP + i
                        n += 1
            if flags[F_KNOCK_EARLY] and 1 <= down <= 2:
                out[n] = A_KNOCK
                n += 1
    elif stage == STAGE_PLACE:
        for i in range(6):
            out[i] = A_SWAP + i
        n = 6
        if st[S_HELD_SRC] == SRC_DRAW:
            out[6] = A_DISCARD
            n = 7
    else:  # the initial flips or a flip after discarding
        for i in range(6):
            if not up[seat, i]:
                out[n] = A_FLIP + i
                n += 1
        if stage == STAGE_FLIP and st[S_OPTIONAL]:
            out[n] = A_SKIP
            n += 1
    return n


@njit(cache=True)
def _grade_now(G, R, table, action, view, pile, legal):
    """Grade ``action`` of the seat to move from what it sees (``gradekernel.grade_state``'s numbers)."""
    grids, up, discard, st = G[0], G[1], G[3], G[5]
    kind_of = R[7]
    seat = st[S_CURRENT]
    for s in range(grids.shape[0]):
        for i in range(6):
            view[s, i] = kind_of[grids[s, i]] if up[s, i] else -1
    n_pile = st[S_DISC_N]
    for j in range(n_pile):
        pile[j] = kind_of[discard[j]]
    n_legal = legal_codes(G, R, legal)
    stage = st[S_STAGE]
    awaiting = gk.AWAIT_DRAW if stage == STAGE_DRAW else gk.AWAIT_PLACE if stage == STAGE_PLACE else gk.AWAIT_OTHER
    held = kind_of[st[S_HELD]] if st[S_HELD] >= 0 else -1
    n_order = 0
    while n_order < table.shape[1] and table[gk.T_ORDER, n_order] >= 0:
        n_order += 1
    ev, best_ev, best, case = gk.grade_numbers(
        view, seat, table[gk.T_ORDER, :n_order], table[gk.T_DECK], pile[:n_pile], held, awaiting, legal[:n_legal],
        action, st[S_PHASE] == PHASE_PLAYING, R[4][F_FLIP_MODE] == FLIP_ALWAYS, st[S_DRAW_N],
        table[gk.T_VALUE], table[gk.T_RANK], table[gk.T_PAIR, :table.shape[1] - 1])
    fewest = cpu.fewest_down(G)
    phase = 2 if st[S_FINISHER] >= 0 or fewest < 2 else 0 if fewest >= 4 else 1  # analysis.phase_of
    return ev, best_ev, best, case, phase


@njit(cache=True)
def play_graded(R, base_deck, profiles, rngs, table, limits, severity):
    """``engine.play_games`` with every decision graded: the hole outputs as there, and the
    decision records (int columns ``D_*``, float columns ``E_*``) in order of play.
    ``limits``: ``analysis.EV_LOSS_LIMITS``' losses; ``severity``: each case's grade index."""
    games = rngs.shape[0]
    n = profiles.shape[0]
    rounds = R[4][F_ROUNDS]
    outs = engine.new_outputs(games, rounds, n)
    recs = np.empty((max(64, games * 600), 10), dtype=np.int64)
    evs = np.empty((recs.shape[0], 3), dtype=np.float64)
    m = 0
    size = base_deck.size
    view = np.empty((n, 6), dtype=np.int64)
    pile = np.empty(size, dtype=np.int64)
    legal = np.empty(16, dtype=np.int64)
    for game in range(games):
        game_rngs = rngs[game]
        G = engine.new_game(R, base_deck, n, game_rngs[0])
        st = G[5]
        while engine.to_move(G, R, base_deck, game_rngs[0]):
            action = engine.decide(G, R, profiles, game_rngs)
            if m == recs.shape[0]:  # grow the records
                recs, evs = engine.doubled(recs, m), engine.doubled(evs, m)
            ev, best_ev, best, case, ph = _grade_now(G, R, table, action, view, pile, legal)
            seat = st[S_CURRENT]
            r = recs[m]
            r[D_GAME], r[D_ROUND], r[D_SEAT], r[D_TURN] = game, st[S_ROUND], seat, G[4][seat] + 1
            r[D_ACTION], r[D_AT_DRAW], r[D_BEST], r[D_CASE], r[D_PHASE] = action, st[S_STAGE] == STAGE_DRAW, best, \
                case, ph
            # analysis.verdict: the grade by ev loss (max(0.0, loss) as Python computes it), then the case's
            loss = ev - best_ev
            if not loss > 0.0:
                loss = 0.0
            quality = limits.size
            for q in range(limits.size):
                if loss <= limits[q]:
                    quality = q
                    break
            if case >= 0 and severity[case] >= quality:
                quality = severity[case]
            r[D_QUALITY] = quality
            evs[m, E_EV], evs[m, E_BEST], evs[m, E_LOSS] = ev, best_ev, loss
            m += 1
            engine.apply(G, R, action, game_rngs[0], outs, game)
    return outs[0], outs[1], outs[2], outs[3], recs[:m], evs[:m]


def play(personalities, rules, seed: int, start: int, stop: int) -> tuple:
    """Games ``start..stop-1`` (seeded as ``golflab.kernel.play`` seeds them): their
    ``KernelGames`` and the decision records (``D_*`` and ``E_*`` columns)."""
    n = len(personalities)
    R, deck = rule_arrays(rules, n)
    profiles = profile_rows([get_profile(p) for p in personalities])
    limits = np.array([limit for _, limit in EV_LOSS_LIMITS], dtype=np.float64)
    severity = np.array([GRADES.index(CASE_SEVERITY[c]) for c in CASES], dtype=np.int64)
    out = play_graded(R, deck, profiles, seed_rows(game_seeds(seed, start, stop, n)), tables(rules).table(n), limits,
                      severity)
    return KernelGames(start, *out[:4], None), out[4], out[5]
