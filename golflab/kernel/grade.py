"""Grading compiled with numba: ``golflab.analysis.grade``'s numbers for one decision.

Imported only through ``golflab.fastev`` (when numba is installed). The functions repeat the
reference (``golflab.ev.Pool`` and ``golflab.analysis``) in the same order of floating-point
operations, for hands that score column by column (no hand bonus on), so the results are
bit-identical; ``tests/kernel/test_grading.py`` compares them decision for decision.

Encoding (kernel-friendly: plain integer arrays): kinds are indices into ``model.ALL_KINDS``,
ranks into ``model.ALL_RANKS``, -1 a face-down card or nothing; actions are ``ACTION_CODES``
of ``golflab.fastev``, the compiled simulation kernel's (``golflab.kernel.layout``: 0-5 ``flip N``,
6-11 ``swap N``, 12 ``draw``, 13 ``take``, 14 ``discard``, 15 ``skip``, 16 ``knock``); cases
are indices into ``analysis.CASES``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..actions import ActionCode
from ..analysis import CASES, GOING_OUT_LIMIT, QUESTIONABLE_MARGIN  # noqa: F401  (compiled in)
from ..model import ALL_RANKS
from .pool_ev import beside_down, both_down, column_ev, hand_ev, pair_sum, pool_sums

PARTNER = np.array([3, 4, 5, 0, 1, 2], dtype=np.int64)
#: action codes (``golflab.actions.ActionCode``, as plain ints)
SWAP0, DRAW, TAKE, DISCARD, SKIP, KNOCK = (int(ActionCode.SWAP), int(ActionCode.DRAW), int(ActionCode.TAKE),
                                           int(ActionCode.DISCARD), int(ActionCode.SKIP), int(ActionCode.KNOCK))
AWAIT_OTHER, AWAIT_DRAW, AWAIT_PLACE = 0, 1, 2
#: rank indices (model.ALL_RANKS)
R_TWO, R_KING, R_JOKER = ALL_RANKS.index("2"), ALL_RANKS.index("K"), ALL_RANKS.index("JK")
#: case indices (analysis.CASES)
C_JOKERS, C_TWOS, C_BAD_TAKE, C_NEG_PAIR, C_KINGS, C_GOOD_FOR_BAD, C_QUESTIONABLE = (
    CASES.index(c) for c in ("discarded_jokers", "discarded_twos", "took_bad_card_without_pair",
                             "paired_negative_cards", "discarded_kings", "swapped_good_for_bad", "questionable_moves"))
#: status codes besides a case index: no case, and "use the reference" (it raises or bonuses apply)
NO_CASE, FALLBACK = -1, -2


@njit(cache=True)
def best_change(grid, kind, drawn, size, total, pairs, group_n, group_s, value, rank_of, pair):
    """``Pool.best_change(grid, kind, drawn)`` for independent columns (needs size - drawn >= 1)."""
    rank = rank_of[kind]
    v_kind = value[kind]
    pp = pair[rank]
    g_count, g_points = group_n[rank], group_s[rank]
    n, p, t = size, pairs, total
    if drawn:
        if g_count - 1 > 1:
            p += (g_count - 2) * (2 * (g_points - v_kind) - pp * (g_count - 1))
        if g_count > 1:
            p -= (g_count - 1) * (2 * g_points - pp * g_count)
        n, t, g_count, g_points = n - 1, t - v_kind, g_count - 1, g_points - v_kind
    mean = t / n
    inv = 1 / n
    both_unknown = both_down(mean, p, n)
    one_kind = beside_down(v_kind, mean, g_count * inv, g_count, g_points, pp)
    best = 0.0
    for pos in range(6):
        other = grid[PARTNER[pos]]
        old = grid[pos]
        if other < 0:
            if old < 0:
                change = one_kind - both_unknown
            else:
                r = rank_of[old]
                c, s = (g_count, g_points) if r == rank else (group_n[r], group_s[r])
                change = one_kind - beside_down(value[old], mean, c * inv, c, s, pair[r])
        else:
            r_other = rank_of[other]
            after = pair[rank] if rank == r_other else v_kind + value[other]
            if old < 0:
                c, s = (g_count, g_points) if r_other == rank else (group_n[r_other], group_s[r_other])
                change = after - beside_down(value[other], mean, c * inv, c, s, pair[r_other])
            else:
                known = pair[r_other] if rank_of[old] == r_other else value[old] + value[other]
                change = float(after - known)
        if change < best:
            best = change
    return best


@njit(cache=True)
def draw_total(grid, order, counts, value, rank_of, pair):
    """``Pool.draw_ev``: sum over the pool (in ``order``) of count * best change when drawn, / size."""
    size, total, group_n, group_s = pool_sums(order, counts, value, rank_of, pair.size)
    pairs = pair_sum(group_n, group_s, pair)
    acc = 0.0
    for j in range(order.size):
        if counts[j]:
            acc += counts[j] * best_change(grid, order[j], True, size, total, pairs, group_n, group_s,
                                           value, rank_of, pair)
    return acc / size


@njit(cache=True)
def grade_numbers(grids, seat, deck_order, deck, pile, held, awaiting, legal, act, playing, flip_always,
                  draw_pile_size, value, rank_of, pair):
    """One decision's numbers: ``(ev, best_ev, best action code, case)``; case is an index of
    ``analysis.CASES``, ``NO_CASE``, or ``FALLBACK`` (the reference must grade it).

    ``grids``: (seats, 6) kinds as the seat sees them; ``deck``: count per kind of the full
    deck and ``deck_order`` its kinds in deck order (the order the pool is summed in); ``pile``:
    the discard pile's kinds, bottom first; ``held``: the card the seat sees in hand (drawn by
    it, or taken by the current player) or -1; ``legal``: the legal action codes in order.
    """
    g = grids[seat]
    # the unseen pool: the deck minus every visible card
    counts = deck.copy()
    for s in range(grids.shape[0]):
        for i in range(6):
            if grids[s, i] >= 0:
                counts[grids[s, i]] -= 1
    for j in range(pile.size):
        counts[pile[j]] -= 1
    if held >= 0:
        counts[held] -= 1
    order = deck_order
    amounts = np.empty(order.size, dtype=np.int64)
    for j in range(order.size):
        amounts[j] = counts[order[j]]
    for k in range(counts.size):
        if counts[k] < 0:
            return 0.0, 0.0, -1, FALLBACK  # more cards shown than the deck holds: the reference raises
    size, total, group_n, group_s = pool_sums(order, amounts, value, rank_of, pair.size)
    pairs = pair_sum(group_n, group_s, pair)
    mean = total / size if size else 0.0
    both = both_down(mean, pairs, size)
    down = 0
    for i in range(6):
        if g[i] < 0:
            down += 1

    # every legal action's value, in the reference's dict order, and the first best
    codes = np.empty(legal.size + 2, dtype=np.int64)
    vals = np.zeros(legal.size + 2, dtype=np.float64)
    n_vals = 0
    has_take = False
    for j in range(legal.size):
        if legal[j] == TAKE:
            has_take = True
    if awaiting == AWAIT_DRAW:
        if draw_pile_size:
            if size < 2:
                return 0.0, 0.0, -1, FALLBACK
            draw = draw_total(g, order, amounts, value, rank_of, pair)
        else:  # the discard pile under its top is reshuffled: the card comes from there
            n_src = pile.size - 1
            draw = 0.0
            if n_src > 0:
                if size < 1:
                    return 0.0, 0.0, -1, FALLBACK
                acc = 0.0
                seen = np.zeros(counts.size, dtype=np.bool_)
                for j in range(n_src):  # kinds in order of first appearance, each with its count
                    k = pile[j]
                    if seen[k]:
                        continue
                    seen[k] = True
                    c = 0
                    for i in range(j, n_src):
                        if pile[i] == k:
                            c += 1
                    acc += c * best_change(g, k, False, size, total, pairs, group_n, group_s, value, rank_of, pair)
                draw = acc / n_src
        codes[0], vals[0] = DRAW, draw
        n_vals = 1
        take = 0.0
        if has_take:
            top = pile[pile.size - 1]
            if down > size:
                return 0.0, 0.0, -1, FALLBACK
            for pos in range(6):
                other = g[PARTNER[pos]]
                change = (column_ev(top, other, value, rank_of, pair, group_n, group_s, size, mean, both)
                          - column_ev(g[pos], other, value, rank_of, pair, group_n, group_s, size, mean, both))
                if pos == 0 or change < take:
                    take = change
            codes[1], vals[1] = TAKE, take
            n_vals = 2
        for j in range(legal.size):
            if legal[j] != DRAW and legal[j] != TAKE:
                codes[n_vals], vals[n_vals] = legal[j], 0.0
                n_vals += 1
    elif awaiting == AWAIT_PLACE:
        if down > size:
            return 0.0, 0.0, -1, FALLBACK
        for j in range(legal.size):
            a = legal[j]
            codes[n_vals] = a
            if SWAP0 <= a < SWAP0 + 6:
                pos = a - SWAP0
                other = g[PARTNER[pos]]
                vals[n_vals] = (
                    column_ev(held, other, value, rank_of, pair, group_n, group_s, size, mean, both)
                    - column_ev(g[pos], other, value, rank_of, pair, group_n, group_s, size, mean, both))
            elif a != DISCARD:
                return 0.0, 0.0, -1, FALLBACK
            n_vals += 1
    else:
        for j in range(legal.size):
            codes[n_vals] = legal[j]
            n_vals += 1
    best_j = 0
    for j in range(1, n_vals):
        if vals[j] < vals[best_j]:
            best_j = j
    ev = 0.0
    found = False
    for j in range(n_vals):
        if codes[j] == act:
            ev = vals[j]
            found = True
    if not found:
        return 0.0, 0.0, -1, FALLBACK
    best_ev, best = vals[best_j], codes[best_j]

    # the named cases (analysis._named_case), then going out high
    case = NO_CASE
    if act == DISCARD:
        r = rank_of[held]
        if r == R_JOKER:
            case = C_JOKERS
        elif r == R_TWO:
            case = C_TWOS
        elif r == R_KING:
            case = C_KINGS
        elif 4 <= value[held] <= 6:
            best_swap = np.inf
            for j in range(n_vals):
                if codes[j] != DISCARD and vals[j] < best_swap:
                    best_swap = vals[j]
            if best_swap <= -QUESTIONABLE_MARGIN:
                case = C_QUESTIONABLE
    elif act == TAKE:
        top = pile[pile.size - 1]
        if value[top] >= 10:
            rank = rank_of[top]
            pairable = False
            for i in range(6):
                mate = g[PARTNER[i]]
                if g[i] >= 0 and rank_of[g[i]] == rank and (mate < 0 or rank_of[mate] != rank):
                    pairable = True
            if not pairable:
                case = C_BAD_TAKE
    elif act == DRAW and has_take:
        top = pile[pile.size - 1]
        if 3 <= value[top] <= 5 and vals[0] - vals[1] >= QUESTIONABLE_MARGIN:
            case = C_QUESTIONABLE
    elif SWAP0 <= act < SWAP0 + 6:
        pos = act - SWAP0
        mate, old = g[PARTNER[pos]], g[pos]
        v_held = value[held]
        if mate >= 0 and rank_of[mate] == rank_of[held] and v_held < 0 and pair[rank_of[held]] > v_held + value[mate]:
            case = C_NEG_PAIR
        elif old >= 0 and value[old] <= 1 and v_held > value[old] and ev > 0:
            case = C_GOOD_FOR_BAD
    if case == NO_CASE and playing:
        if act == KNOCK:
            goes_out = down > 0
        elif down != 1:
            goes_out = False
        elif SWAP0 <= act < SWAP0 + 6:
            goes_out = g[act - SWAP0] < 0
        elif act < SWAP0:
            goes_out = g[act] < 0
        else:
            goes_out = act == DISCARD and flip_always
        if goes_out:
            if down > size:
                return 0.0, 0.0, -1, FALLBACK
            mine = hand_ev(g, value, rank_of, pair, group_n, group_s, size, mean, both) + ev
            if mine > GOING_OUT_LIMIT:
                low = np.inf
                for s in range(grids.shape[0]):
                    if s != seat:
                        other = grids[s]
                        n_down = 0
                        for i in range(6):
                            if other[i] < 0:
                                n_down += 1
                        if n_down > size:
                            return 0.0, 0.0, -1, FALLBACK
                        h = hand_ev(other, value, rank_of, pair, group_n, group_s, size, mean, both)
                        if h < low:
                            low = h
                if low <= mine:
                    case = C_QUESTIONABLE
    return ev, best_ev, best, case


# -- one packed call (fewer arguments: each costs time on every call from Python) -----------
#: state header: seat, awaiting, action, playing, flip_always, draw pile size, held kind,
#: finisher (1 if some seat went out), seats, pile length, legal count; then the grids
#: (seats x 6), the pile's kinds and the legal action codes
HEADER = 11
#: table rows: value per kind, rank index per kind, pair points per rank, deck kinds in deck
#: order (-1 padded), deck count per kind
T_VALUE, T_RANK, T_PAIR, T_ORDER, T_DECK = range(5)


@njit(cache=True)
def grade_state(state, table):
    """``grade_numbers`` from one packed state array and one table (rows ``T_*``), plus the
    game phase (0 early, 1 mid, 2 late: ``analysis.game_phase``)."""
    seat, awaiting, act, playing, flip_always = state[0], state[1], state[2], state[3] != 0, state[4] != 0
    draw_pile_size, held, finisher, seats, n_pile, n_legal = state[5], state[6], state[7], state[8], state[9], state[10]
    at = HEADER + 6 * seats
    grids = state[HEADER:at].reshape(seats, 6)
    pile = state[at:at + n_pile]
    legal = state[at + n_pile:at + n_pile + n_legal]
    n_order = 0
    while n_order < table.shape[1] and table[T_ORDER, n_order] >= 0:
        n_order += 1
    ev, best_ev, best, case = grade_numbers(grids, seat, table[T_ORDER, :n_order], table[T_DECK], pile, held,
                                            awaiting, legal, act, playing, flip_always, draw_pile_size,
                                            table[T_VALUE], table[T_RANK], table[T_PAIR, :table.shape[1] - 1])
    fewest = 6
    for s in range(seats):
        down = 0
        for i in range(6):
            if grids[s, i] < 0:
                down += 1
        fewest = min(fewest, down)
    phase = 2 if finisher or fewest < 2 else 0 if fewest >= 4 else 1
    return ev, best_ev, best, case, phase


def grade_list(state: list, table) -> tuple:
    """``grade_state`` of a state given as a list of ints."""
    return grade_state(np.array(state, dtype=np.int64), table)
