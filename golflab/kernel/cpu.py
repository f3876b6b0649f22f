"""The CPU personalities' decisions in compiled code: ``golflab.ai.decisions`` line for line.

Same rules, same order of floating-point operations, same random draws (``mt19937``), so
every decision equals the reference's (``tests/kernel/test_kernel.py`` checks whole games move by
move). Kinds are indices (``KINDS``), -1 a face-down card or "no position"; a seat's view
is built from the game state but reads only what that seat may see: the face-up cards, the
discard pile and the card it holds. The rule tables come from ``golflab.model`` (see
``golflab.kernel.tables``).
"""

from __future__ import annotations

from math import erf, sqrt

import numpy as np
from numba import njit

from ..ai.decisions import (  # the reference's constants, compiled in
    BIG_GAIN,
    BLACKJACK,
    CLOSING_OFFSET,
    CLOSING_WEIGHT,
    FUTURE_GAIN,
    HIGH_HAND,
    HOPE_WEIGHT,
    KNOCK_BONUS,
    KNOCK_PENALTY,
    MIN_SWAP_GAIN,
    STAY_IN_COST,
)
from . import mt19937 as mt
from .layout import (
    B_KIND,
    B_POINTS,
    B_RANK,
    BAD,
    BONUS_PAIRED_COLUMNS,
    EXCELLENT,
    F_BLACKJACK,
    F_DECK_POINTS,
    F_DECK_TOTAL,
    F_EAGLE,
    F_FLIP_MODE,
    F_KNOCK_BONUS,
    F_KNOCK_PENALTY,
    F_PRESSURE_START,
    F_PROGRESS,
    F_STALL,
    JK,
    NONE,
    P_AGGRESSION,
    P_PAIR_HOPE,
    P_THRESHOLD,
    P_UNPREDICTABLE,
    S_DISC_N,
    S_HELD,
    S_HELD_SRC,
    S_STAGE,
    SRC_TAKE,
    STAGE_INITIAL_FLIP,
    TERRIBLE,
    TWO,
)

SQRT2 = sqrt(2)
#: the round adjustments going out weighs, as the model declares them (compiled in)
BLACKJACK_SCORE, BLACKJACK_POINTS = BLACKJACK.score, BLACKJACK.points
KNOCK_BONUS_POINTS, KNOCK_PENALTY_POINTS = KNOCK_BONUS.points, KNOCK_PENALTY.points
PARTNER = np.array([3, 4, 5, 0, 1, 2], dtype=np.int64)


# ------------------------------------------------------------------ card arithmetic
@njit(cache=True)
def column_score(a, b, value, pair, twin, unknown):
    if a < 0:
        if b < 0:
            return unknown + unknown
        return unknown + value[b]
    if b < 0:
        return value[a] + unknown
    if a == b or twin[a] == b:
        return pair[a]
    return value[a] + value[b]


@njit(cache=True)
def bonus_points(g, rank_of, bonus) -> int:
    """The hand bonuses of grid ``g``'s known paired columns (``ScoringModel.hand_bonuses``;
    ``bonus``: a row each, ``B_KIND``, ``B_RANK``, ``B_POINTS``). A ValueError for a kind it does not
    compute (``layout.BONUS_COMPUTED``)."""
    if bonus.shape[0] == 0:
        return 0
    counts = np.zeros(14, dtype=np.int64)
    for c in range(3):
        a, b = g[c], g[c + 3]
        if a >= 0 and b >= 0 and rank_of[a] == rank_of[b]:
            counts[rank_of[a]] += 1
    total = 0
    for j in range(bonus.shape[0]):
        if bonus[j, B_KIND] != BONUS_PAIRED_COLUMNS:  # tables.rule_arrays and the switch refuse it first
            raise ValueError("a hand bonus of a kind the compiled code does not compute")
        r = bonus[j, B_RANK]
        if r >= 0:
            if counts[r] >= 2:
                total += bonus[j, B_POINTS]
        else:
            for k in range(14):
                if counts[k] >= 2:
                    total += bonus[j, B_POINTS]
    return total


@njit(cache=True)
def hand_estimate(g, R, unknown):
    value, pair, twin = R[0], R[1], R[2]
    total = (column_score(g[0], g[3], value, pair, twin, unknown)
             + column_score(g[1], g[4], value, pair, twin, unknown)
             + column_score(g[2], g[5], value, pair, twin, unknown))
    if R[8].shape[0]:
        total += bonus_points(g, R[9], R[8])
    return total


@njit(cache=True)
def gains_of(g, rank, R, unknown_all, nd):
    """``SeatView.gains``: points saved by ``rank`` at each position (``placement_gains``)."""
    value, pair, twin = R[0], R[1], R[2]
    unknown = unknown_all if nd else 0.0
    c0 = column_score(g[0], g[3], value, pair, twin, unknown)
    c1 = column_score(g[1], g[4], value, pair, twin, unknown)
    c2 = column_score(g[2], g[5], value, pair, twin, unknown)
    cols = (c0, c1, c2, c0, c1, c2)
    own = value[rank]
    pr = pair[rank]
    tw = twin[rank]
    out = np.empty(6)
    for i in range(6):
        partner = g[PARTNER[i]]
        if partner < 0:
            after = own + unknown
        elif partner == rank or (tw >= 0 and partner == tw):
            after = pr
        else:
            after = own + value[partner]
        out[i] = cols[i] - after
    return out


@njit(cache=True)
def downgrades_of(g, rank, gains, R):
    value = R[0]
    v = value[rank]
    worse = np.zeros(6, dtype=np.bool_)
    for i in range(6):
        old = g[i]
        if old >= 0 and value[old] <= 1 and v > value[old]:
            worse[i] = gains[i] <= 0
    return worse


@njit(cache=True)
def score_with(g, pos, rank, R, unknown):
    h = g.copy()
    h[pos] = rank
    has_down = False
    for i in range(6):
        if h[i] < 0:
            has_down = True
    return hand_estimate(h, R, unknown if has_down else 0.0)


@njit(cache=True)
def pair_wastes(rank, R) -> bool:
    """``model.pair_wastes``: a pair of ``rank`` scores more than its two cards apart."""
    return R[1][rank] > 2 * R[0][rank]


@njit(cache=True)
def negative_pair(rank, partner, R) -> bool:
    return partner == rank and pair_wastes(rank, R)


@njit(cache=True)
def allowed_of(g, rank, R):
    """``_allowed``: a mask of the positions where ``rank`` may go."""
    out = np.ones(6, dtype=np.bool_)
    if R[0][rank] >= 0:
        return out
    for i in range(6):
        out[i] = not negative_pair(rank, g[PARTNER[i]], R)
    return out


@njit(cache=True)
def closing(prof):
    return CLOSING_WEIGHT * prof[P_AGGRESSION] ** 2 - CLOSING_OFFSET


# ------------------------------------------------------------------ the seat's view
@njit(cache=True)
def seat_kinds(G, R, seat):
    """A seat's grid as kinds (-1 face down)."""
    grids, up, kind_of = G[0], G[1], R[7]
    g = np.empty(6, dtype=np.int64)
    for i in range(6):
        g[i] = kind_of[grids[seat, i]] if up[seat, i] else NONE
    return g


@njit(cache=True)
def unseen_mean(G, R):
    """``table_unseen_mean``: the mean value of the cards the seat to move has not seen."""
    grids, up, discard, st = G[0], G[1], G[3], G[5]
    value, flags, kind_of = R[0], R[4], R[7]
    seen = 0.0
    count = 0
    for s in range(grids.shape[0]):
        for i in range(6):
            if up[s, i]:
                seen += value[kind_of[grids[s, i]]]
                count += 1
    for j in range(st[S_DISC_N]):
        seen += value[kind_of[discard[j]]]
        count += 1
    if st[S_HELD] >= 0:
        seen += value[kind_of[st[S_HELD]]]
        count += 1
    total, points = flags[F_DECK_TOTAL], flags[F_DECK_POINTS]
    left = total - count
    if left <= 0:
        return points / total
    return (points - seen) / left


@njit(cache=True)
def unseen_counts(G, R):
    grids, up, discard, st = G[0], G[1], G[3], G[5]
    kind_of = R[7]
    counts = R[5].copy()
    for s in range(grids.shape[0]):
        for i in range(6):
            if up[s, i]:
                counts[kind_of[grids[s, i]]] -= 1
    for j in range(st[S_DISC_N]):
        counts[kind_of[discard[j]]] -= 1
    if st[S_HELD] >= 0:
        counts[kind_of[st[S_HELD]]] -= 1
    return counts


@njit(cache=True)
def count_down(g) -> int:
    n = 0
    for i in range(6):
        if g[i] < 0:
            n += 1
    return n


@njit(cache=True)
def fewest_down(G) -> int:
    """The fewest face-down cards any seat has."""
    up = G[1]
    fewest = 6
    for s in range(up.shape[0]):
        down = 0
        for i in range(6):
            if not up[s, i]:
                down += 1
        fewest = min(fewest, down)
    return fewest


@njit(cache=True)
def down_allowed(g, allowed):
    """The face-down positions where a card may go, ascending: (positions, how many)."""
    down = np.empty(6, dtype=np.int64)
    n = 0
    for i in range(6):
        if g[i] < 0 and allowed[i]:
            down[n] = i
            n += 1
    return down, n


@njit(cache=True)
def last_down(g) -> int:
    for i in range(6):
        if g[i] < 0:
            return i
    return NONE


# ------------------------------------------------------------------ choosing among positions
@njit(cache=True)
def pick(scores, positions, n, prof, rng, use_rng):
    """``_pick``: the best (score, position), or with the personality's unpredictability a
    close, still clearly improving alternative."""
    order = np.empty(n, dtype=np.int64)
    for k in range(n):
        order[k] = k
    for a in range(1, n):  # insertion sort by (-score, position): stable and small
        k = order[a]
        b = a - 1
        while b >= 0 and (scores[order[b]] < scores[k] or
                          (scores[order[b]] == scores[k] and positions[order[b]] > positions[k])):
            order[b + 1] = order[b]
            b -= 1
        order[b + 1] = k
    best = order[0]
    if use_rng and n > 1 and mt.random(rng) < prof[P_UNPREDICTABLE]:
        floor = max(MIN_SWAP_GAIN, scores[best] - 3)
        near = np.empty(n, dtype=np.int64)
        m = 0
        for a in range(n):
            if scores[order[a]] >= floor:
                near[m] = positions[order[a]]
                m += 1
        if m > 1:
            return near[mt.randbelow(rng, m)]
    return positions[best]


@njit(cache=True)
def facedown_choice(g, positions, n, R, prof, rng, use_rng):
    """``_facedown_choice`` among ``positions[:n]`` (ascending)."""
    if use_rng and n > 1 and mt.random(rng) < prof[P_UNPREDICTABLE]:
        return positions[mt.randbelow(rng, n)]
    for k in range(n):
        if g[PARTNER[positions[k]]] < 0:
            return positions[k]  # the lowest fresh position
    value = R[0]
    best = positions[0]
    for k in range(1, n):
        i = positions[k]
        if value[g[PARTNER[i]]] < value[g[PARTNER[best]]]:
            best = i
    return best


# ------------------------------------------------------------------ going out
@njit(cache=True)
def wants_to_go_out(G, R, prof, seat, unknown, score, gain):
    flags = R[4]
    turns = G[4][seat]
    if turns >= flags[F_STALL]:
        return True
    pressure = max(0, turns - flags[F_PRESSURE_START])
    aggression = prof[P_AGGRESSION]
    base = score + BLACKJACK_POINTS if flags[F_BLACKJACK] and score == BLACKJACK_SCORE else score
    mine = base + KNOCK_BONUS_POINTS if flags[F_KNOCK_BONUS] else base
    if mine > 6 + 8 * aggression + pressure:
        return False
    if not flags[F_KNOCK_PENALTY] and gain >= BIG_GAIN and mine <= HIGH_HAND:
        return True
    n = G[0].shape[0]
    ests = np.empty(n - 1)
    downs = np.empty(n - 1, dtype=np.int64)
    k = 0
    for s in range(n):
        if s != seat:
            h = seat_kinds(G, R, s)
            ests[k] = hand_estimate(h, R, unknown)
            downs[k] = count_down(h)
            k += 1
    if score > HIGH_HAND and score >= ests.min() - pressure:
        return False
    if flags[F_KNOCK_PENALTY]:
        caution = 1.2 - 0.4 * aggression
        none_lower = 1.0
        for j in range(n - 1):
            sd = sqrt(2 + 12 * downs[j])
            none_lower *= 1 - 0.5 * (1 + erf((base - 0.5 - (ests[j] - 1.5)) / (sd * SQRT2)))
        priced = mine + KNOCK_PENALTY_POINTS * caution * (1 - none_lower)
        return priced <= score + gain - FUTURE_GAIN + pressure
    outlook = np.inf
    for j in range(n - 1):
        o = ests[j] - 1 - 2 * (1 - aggression) * downs[j]
        if o < outlook:
            outlook = o
    return mine <= outlook - 3 * (1 - 2 * aggression) + pressure


# ------------------------------------------------------------------ placement
@njit(cache=True)
def facedown_limit(g, v, unknown, prof):
    limit = unknown - 0.5 + closing(prof)
    if 3 <= v <= 7:
        for i in range(6):
            if g[i] < 0 and g[PARTNER[i]] < 0:
                limit += 1.5 * prof[P_PAIR_HOPE]
                break
    return limit


@njit(cache=True)
def ordered(G, R, prof, seat, g, unknown, rank, allowed_in, rng, use_rng):
    """``_ordered``: the decision order of spec section 10 (a position, or -1 to discard)."""
    value, twin, tier, flags = R[0], R[2], R[3], R[4]
    nd = count_down(g)
    v = value[rank]
    gain = gains_of(g, rank, R, unknown, nd)
    worse = downgrades_of(g, rank, gain, R)
    turns = G[4][seat]
    allowed = allowed_in.copy()
    if turns >= flags[F_STALL]:
        any_down = False
        for i in range(6):
            if allowed[i] and g[i] < 0:
                any_down = True
        if any_down:
            for i in range(6):
                if g[i] >= 0:
                    allowed[i] = False
    # 1. eagle_eye joker pairs
    if flags[F_EAGLE] and rank == JK:
        best_i = NONE
        for i in range(6):
            if allowed[i] and g[PARTNER[i]] == JK and g[i] != JK and not worse[i]:
                if best_i == NONE or gain[i] > gain[best_i]:
                    best_i = i
        if best_i != NONE:
            return best_i
    rank_tier = tier[rank]
    good = rank_tier <= 2  # Excellent, Good, Decent
    threshold = prof[P_THRESHOLD]
    unit = prof[P_PAIR_HOPE] * HOPE_WEIGHT
    fade = min(1.0, nd / 3)
    tw = twin[rank] if twin[rank] >= 0 else rank
    wastes = pair_wastes(rank, R)
    pair = NONE
    best = 0.0
    have_best = False
    bad_s = np.empty(6)
    bad_p = np.empty(6, dtype=np.int64)
    nb = 0
    ups_s = np.empty(6)
    ups_p = np.empty(6, dtype=np.int64)
    nu = 0
    for i in range(6):
        if not allowed[i] or worse[i]:
            continue
        gi = gain[i]
        if not have_best or gi > best:
            best = gi
            have_best = True
        old = g[i]
        partner = g[PARTNER[i]]
        if not wastes and partner >= 0 and (partner == rank or partner == tw) and old != rank and old != tw \
                and gi > 0 and (pair == NONE or gi > gain[pair] or (gi == gain[pair] and i < pair)):
            pair = i
        if old < 0:
            continue
        old_value = value[old]
        hope = 0.0
        if partner < 0 and old_value >= 3:
            hope = unit * old_value * fade
        if old_value > v and tier[old] >= BAD:
            score = gi - hope
            if score >= MIN_SWAP_GAIN:
                bad_s[nb] = score
                bad_p[nb] = i
                nb += 1
        if good or old_value >= threshold:
            score = gi - hope
            if score >= MIN_SWAP_GAIN:
                ups_s[nu] = score
                ups_p[nu] = i
                nu += 1
    # 2. column pairs
    if pair != NONE and gain[pair] >= best - MIN_SWAP_GAIN:
        return pair
    # 3. the best swap among bad face-up cards
    down, ndown = down_allowed(g, allowed)
    close = closing(prof)
    limit = facedown_limit(g, v, unknown, prof) if ndown else 0.0
    if nb:
        if ndown and close > 0 and v <= limit and unknown - v + close >= bad_s[:nb].max():
            return facedown_choice(g, down, ndown, R, prof, rng, use_rng)
        return pick(bad_s, bad_p, nb, prof, rng, use_rng)
    # 4. blackjack pursuit
    if flags[F_BLACKJACK] and nd <= 1:
        for i in range(6):
            if allowed[i] and (nd == 0 or last_down(g) == i) and score_with(g, i, rank, R, unknown) == 21:
                if hand_estimate(g, R, unknown) > MIN_SWAP_GAIN:
                    return i
    # 5. excellent cards into face-down positions
    if rank_tier == EXCELLENT and ndown:
        return facedown_choice(g, down, ndown, R, prof, rng, use_rng)
    # 6. the personality's thresholds
    if ndown and v <= limit and (nu == 0 or unknown - v + close >= ups_s[:nu].max()):
        return facedown_choice(g, down, ndown, R, prof, rng, use_rng)
    if nu:
        return pick(ups_s, ups_p, nu, prof, rng, use_rng)
    # 7. progress
    if ndown:
        if turns >= flags[F_STALL] or (turns >= flags[F_PROGRESS] and rank_tier != TERRIBLE):
            return facedown_choice(g, down, ndown, R, prof, rng, False)
    return NONE


@njit(cache=True)
def best_face_up(g, R, unknown, rank, allowed, min_gain):
    nd = count_down(g)
    gain = gains_of(g, rank, R, unknown, nd)
    worse = downgrades_of(g, rank, gain, R)
    best = NONE
    for i in range(6):
        if allowed[i] and g[i] >= 0 and not worse[i] and gain[i] >= min_gain:
            if best == NONE or gain[i] > gain[best]:
                best = i
    return best


@njit(cache=True)
def respect_going_out(G, R, prof, seat, g, unknown, rank, allowed, pos, rng, use_rng):
    nd = count_down(g)
    if nd != 1:
        return pos
    last = last_down(g)
    value, flags = R[0], R[4]
    gain = gains_of(g, rank, R, unknown, nd)
    if pos == last:
        if wants_to_go_out(G, R, prof, seat, unknown, score_with(g, last, rank, R, unknown), gain[last]):
            return pos
        rest = allowed.copy()
        rest[last] = False
        return ordered(G, R, prof, seat, g, unknown, rank, rest, rng, use_rng)
    if allowed[last] and value[rank] <= 7:
        slack = 3 * prof[P_AGGRESSION]
        if (pos == NONE or gain[last] >= gain[pos] - slack) and \
                wants_to_go_out(G, R, prof, seat, unknown, score_with(g, last, rank, R, unknown), gain[last]):
            return last
    if pos == NONE and flags[F_FLIP_MODE] == 1:
        risk = 2 * (1 - prof[P_AGGRESSION])
        expected = hand_estimate(g, R, unknown)
        if not wants_to_go_out(G, R, prof, seat, unknown, expected + risk, 0.0):
            alt = best_face_up(g, R, unknown, rank, allowed, -max(STAY_IN_COST, (expected - HIGH_HAND) / 2))
            if alt != NONE:
                return alt
    return pos


@njit(cache=True)
def final_gains(g, R, unknown, rank, allowed):
    """``_final_gains``: per position, the gain (NaN where not allowed or a downgrade)."""
    nd = count_down(g)
    gain = gains_of(g, rank, R, unknown, nd)
    worse = downgrades_of(g, rank, gain, R)
    out = np.full(6, np.nan)
    for i in range(6):
        if allowed[i] and not worse[i]:
            out[i] = gain[i]
    if R[4][F_BLACKJACK]:
        for i in range(6):
            if not np.isnan(out[i]) and (nd == 0 or (nd == 1 and last_down(g) == i)) \
                    and score_with(g, i, rank, R, unknown) == 21:
                out[i] = hand_estimate(g, R, unknown)
    return out


@njit(cache=True)
def final_turn(g, R, unknown, rank, allowed):
    out = final_gains(g, R, unknown, rank, allowed)
    best = NONE
    best_gain = 0.0
    for i in range(6):
        if not np.isnan(out[i]) and out[i] > best_gain:
            best = i
            best_gain = out[i]
    return best


@njit(cache=True)
def out_ok(G, R, prof, seat, g, unknown, rank):
    if count_down(g) != 1:
        return True
    last = last_down(g)
    gain = gains_of(g, rank, R, unknown, 1)
    return wants_to_go_out(G, R, prof, seat, unknown, score_with(g, last, rank, R, unknown), gain[last])


@njit(cache=True)
def never_discard(g, R, unknown, rank, allowed):
    if rank == JK or rank == TWO:
        return True
    if R[0][rank] > 0:
        return False
    nd = count_down(g)
    gain = gains_of(g, rank, R, unknown, nd)
    worse = downgrades_of(g, rank, gain, R)
    for i in range(6):
        if allowed[i] and gain[i] >= 0 and not worse[i]:
            return True
    return False


@njit(cache=True)
def forced(g, R, prof, unknown, rank, avoid_out):
    allowed = allowed_of(g, rank, R)
    if not allowed.any():
        allowed[:] = True
    nd = count_down(g)
    down, n = down_allowed(g, allowed)
    if n and not (avoid_out and nd == 1):
        return facedown_choice(g, down, n, R, prof, down, False)
    up_any = False
    for i in range(6):
        if allowed[i] and g[i] >= 0:
            up_any = True
    gain = gains_of(g, rank, R, unknown, nd)
    worse = downgrades_of(g, rank, gain, R)
    best = NONE
    for i in range(6):
        if not allowed[i] or (up_any and g[i] < 0):
            continue
        if best == NONE or (not worse[i] and worse[best]) or \
                (worse[i] == worse[best] and gain[i] > gain[best]):
            best = i
    return best


@njit(cache=True)
def placement(G, R, prof, seat, g, unknown, playing, rank, must_swap, rng, use_rng):
    """``_placement``: (position or -1 to discard, whether it was the forced swap)."""
    allowed = allowed_of(g, rank, R)
    if playing:
        pos = ordered(G, R, prof, seat, g, unknown, rank, allowed, rng, use_rng)
        pos = respect_going_out(G, R, prof, seat, g, unknown, rank, allowed, pos, rng, use_rng)
    else:
        pos = final_turn(g, R, unknown, rank, allowed)
    if pos == NONE and (must_swap or never_discard(g, R, unknown, rank, allowed)):
        avoid = playing and not out_ok(G, R, prof, seat, g, unknown, rank)
        return forced(g, R, prof, unknown, rank, avoid), True
    return pos, False


# ------------------------------------------------------------------ take or draw
@njit(cache=True)
def take_need(prof, v, fresh, pressure):
    if v <= 5:
        need = 1.0 - 0.8 * prof[P_AGGRESSION]
    else:
        need = 3.0 - prof[P_PAIR_HOPE]
    if fresh:
        need -= 1.5 * prof[P_PAIR_HOPE]
    if pressure:
        need -= 0.5
    return need


@njit(cache=True)
def expected_draw_gain(G, R, g, unknown):
    counts = unseen_counts(G, R)
    total = counts.sum()
    if not total:
        return 0.0
    order = R[6]
    blackjack = R[4][F_BLACKJACK]
    nd = count_down(g)
    acc = 0.0
    for k in range(order.size):
        rank = order[k]
        n = counts[rank]
        if n:
            allowed = allowed_of(g, rank, R)
            best = 0.0
            if blackjack:
                fg = final_gains(g, R, unknown, rank, allowed)
                for i in range(6):
                    if not np.isnan(fg[i]) and fg[i] > best:
                        best = fg[i]
            else:
                gain = gains_of(g, rank, R, unknown, nd)
                for i in range(6):
                    if allowed[i] and gain[i] > best:
                        best = gain[i]
            acc += n * best
    return acc / total


@njit(cache=True)
def takes(G, R, prof, seat, g, unknown, playing):
    """``takes_from_view``: take the top of the discard pile?"""
    discard, st = G[3], G[5]
    if st[S_DISC_N] == 0:
        return False
    value, twin, tier = R[0], R[2], R[3]
    rank = R[7][discard[st[S_DISC_N] - 1]]
    if rank == JK:
        return True
    tw = twin[rank] if twin[rank] >= 0 else rank
    in_grid = False
    for i in range(6):
        if g[i] >= 0 and (g[i] == rank or g[i] == tw):
            in_grid = True
    nd = count_down(g)
    if not in_grid:
        if tier[rank] == TERRIBLE:
            return False
        v = value[rank]
        if playing and v >= 2 and gains_of(g, rank, R, unknown, nd).max() < take_need(prof, v, True, True):
            return False
    pos, was_forced = placement(G, R, prof, seat, g, unknown, playing, rank, True, g, False)
    if was_forced:
        return False
    partner, old = g[PARTNER[pos]], g[pos]
    if partner >= 0 and (partner == rank or twin[partner] == rank) and \
            not (old >= 0 and (old == rank or twin[old] == rank)):
        return True
    gain = gains_of(g, rank, R, unknown, nd)[pos]
    v = value[rank]
    if tier[rank] == TERRIBLE or gain <= 0:
        return False
    if not playing:
        return gain >= expected_draw_gain(G, R, g, unknown)
    if v <= 1:
        return True
    fresh = g[pos] < 0 and g[PARTNER[pos]] < 0
    pressure = False
    for s in range(G[0].shape[0]):
        if s != seat:
            n_down = 0
            for i in range(6):
                if not G[1][s, i]:
                    n_down += 1
            if n_down <= 1:
                pressure = True
    return gain >= take_need(prof, v, fresh, pressure)


# ------------------------------------------------------------------ flips and whole turns
@njit(cache=True)
def flip_key(g, i, value):
    partner = g[PARTNER[i]]
    if partner < 0:
        return 1, 0.0, i
    v = value[partner]
    if v >= 3:
        return 0, -v, i
    return (2 if v >= 0 else 3), v, i


@njit(cache=True)
def choose_flip(G, R, prof, g, rng, use_rng):
    down = np.empty(6, dtype=np.int64)
    n = 0
    for i in range(6):
        if g[i] < 0:
            down[n] = i
            n += 1
    if G[5][S_STAGE] == STAGE_INITIAL_FLIP:
        used = np.zeros(3, dtype=np.bool_)
        for i in range(6):
            if g[i] >= 0:
                used[i % 3] = True
        options = np.empty(6, dtype=np.int64)
        m = 0
        for k in range(n):
            if not used[down[k] % 3]:
                options[m] = down[k]
                m += 1
        if m == 0:
            options[:n] = down[:n]
            m = n
        return options[mt.randbelow(rng, m)] if use_rng else options[0]
    value = R[0]
    if use_rng and n > 1 and mt.random(rng) < prof[P_UNPREDICTABLE]:
        safe = np.empty(6, dtype=np.int64)
        m = 0
        for k in range(n):
            if flip_key(g, down[k], value)[0] < 3:
                safe[m] = down[k]
                m += 1
        if m == 0:
            safe[:n] = down[:n]
            m = n
        return safe[mt.randbelow(rng, m)]
    best = down[0]
    for k in range(1, n):
        if flip_key(g, down[k], value) < flip_key(g, best, value):
            best = down[k]
    return best


@njit(cache=True)
def skips_flip(G, R, prof, seat, g, unknown, playing):
    if not playing:
        return True
    if count_down(g) != 1:
        return False
    risk = 2 * (1 - prof[P_AGGRESSION])
    return not wants_to_go_out(G, R, prof, seat, unknown, hand_estimate(g, R, unknown) + risk, 0.0)


@njit(cache=True)
def turn_action(G, R, prof, seat, g, unknown, knock_legal, flip_legal, rng):
    """``turn_action`` in the playing phase: -2 for knock, a position to flip, or -1 (draw or take)."""
    nd = count_down(g)
    if nd == 0:
        return NONE
    risk = 2 * (1 - prof[P_AGGRESSION])
    if knock_legal and nd == 2:
        if wants_to_go_out(G, R, prof, seat, unknown, hand_estimate(g, R, unknown) + risk * nd, 0.0):
            return -2
    close = closing(prof)
    if close <= 0 or not flip_legal:
        return NONE
    gain = expected_draw_gain(G, R, g, unknown)
    st = G[5]
    if st[S_DISC_N] and takes(G, R, prof, seat, g, unknown, True):
        rank = R[7][G[3][st[S_DISC_N] - 1]]
        pos, _ = placement(G, R, prof, seat, g, unknown, True, rank, True, g, False)
        gp = gains_of(g, rank, R, unknown, nd)[pos]
        gain = max(gain, gp)
    if gain >= close:
        return NONE
    if nd == 1 and not wants_to_go_out(G, R, prof, seat, unknown, hand_estimate(g, R, unknown) + risk, 0.0):
        return NONE
    return choose_flip(G, R, prof, g, rng, True)


@njit(cache=True)
def held_kind(G, R):
    return R[7][G[5][S_HELD]]


@njit(cache=True)
def must_swap(G):
    return G[5][S_HELD_SRC] == SRC_TAKE
