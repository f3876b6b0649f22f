"""The golf state machine in compiled code: ``golflab.game.Game`` with CPU players, as
``golflab.simulation.play_games`` plays it, many games per call.

Every transition is ``Game``'s (deal, turns, the endgame, reshuffles, the stall guard) and
every shuffle draws from the game's own generator as ``Game`` does; scoring is
``scoring.round_breakdown`` over the model's tables.

``run`` is the one compiled game loop (deal, decide, record, apply): its recording mode
(``RECORD_*``) says what it keeps of each decision besides the hole outputs: the actions
played (``play_games``), a record per placement (``records.place_records``) or a graded
record per decision (``gradedgames.play_graded``). The mode is an integer, not a recorder
function passed in: numba 0.68 keys the cache of a function taking a dispatcher on the
dispatcher's address, so such a loop would recompile in every process.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import cpu
from . import grade as gk  # the grader's numbers
from . import mt19937 as mt
from .layout import (
    A_DISCARD,
    A_DRAW,
    A_FLIP,
    A_KNOCK,
    A_SKIP,
    A_SWAP,
    A_TAKE,
    ADJ_POINTS,
    ADJ_SCORE,
    ADJ_WHO,
    ADJ_WIDTH,
    F_FLIP_ACTION,
    F_FLIP_MODE,
    F_INITIAL_FLIPS,
    F_KNOCK_EARLY,
    F_MAX_TURNS,
    F_ROUNDS,
    FLIP_MODES,
    N_FLAGS,
    N_SCALARS,
    NONE,
    PHASE_FINAL_TURN,
    PHASE_GAME_OVER,
    PHASE_INITIAL_FLIP,
    PHASE_PLAYING,
    PHASE_ROUND_OVER,
    S_CURRENT,
    S_DISC_N,
    S_DRAW_N,
    S_FINISHER,
    S_FIRST,
    S_FLIPS_DONE,
    S_HELD,
    S_HELD_SRC,
    S_OPTIONAL,
    S_PEND_N,
    S_PEND_START,
    S_PHASE,
    S_ROUND,
    S_SEATS_FLIPPED,
    S_STAGE,
    SRC_DRAW,
    SRC_NONE,
    SRC_TAKE,
    STAGE_DRAW,
    STAGE_FLIP,
    STAGE_INITIAL_FLIP,
    STAGE_NONE,
    STAGE_PLACE,
    WHO_FINISHER,
    WHO_FINISHER_BEATEN,
    WHO_LOWEST,
    WHO_SCORE_IS,
    WHO_TIED,
)


@njit(cache=True)
def new_state(n, size):
    """A game's state for ``n`` seats and a deck of ``size`` cards: (grids, face-up flags, draw
    pile, discard pile, turns, scalars, pending seats), filled by ``start_round``."""
    return (np.empty((n, 6), dtype=np.int64), np.zeros((n, 6), dtype=np.bool_), np.empty(size, dtype=np.int64),
            np.empty(size, dtype=np.int64), np.zeros(n, dtype=np.int64), np.zeros(N_SCALARS, dtype=np.int64),
            np.zeros(n, dtype=np.int64))


@njit(cache=True)
def new_outputs(games, rounds, n):
    """The hole outputs of ``games`` games: (hand scores, round scores, turns) by [game, hole,
    seat] and finishers by [game, hole] (-1: none), written by ``end_round``."""
    return (np.zeros((games, rounds, n), dtype=np.int64), np.zeros((games, rounds, n), dtype=np.int64),
            np.zeros((games, rounds, n), dtype=np.int64), np.full((games, rounds), NONE, dtype=np.int64))


@njit(cache=True)
def new_game(R, base_deck, n, game_rng):
    """A game's state with its first hole dealt (``new_state``, then ``start_round``)."""
    G = new_state(n, base_deck.size)
    start_round(G, R, base_deck, game_rng)
    return G


@njit(cache=True)
def to_move(G, R, base_deck, game_rng) -> bool:
    """True while the game goes on (a seat is to move), dealing the next hole when one is over;
    False once the game is over. The loop of every compiled player: ``while to_move(...)``."""
    st = G[5]
    while st[S_PHASE] == PHASE_ROUND_OVER:
        start_round(G, R, base_deck, game_rng)
    return st[S_PHASE] != PHASE_GAME_OVER


@njit(cache=True)
def doubled(rows, m):
    """``rows`` with twice the room, its first ``m`` rows kept (a growing record table)."""
    out = np.empty((2 * rows.shape[0], rows.shape[1]), dtype=rows.dtype)
    out[:m] = rows[:m]
    return out


@njit(cache=True)
def start_round(G, R, base_deck, game_rng):
    grids, up, draw, discard, turns, st = G[0], G[1], G[2], G[3], G[4], G[5]
    flags = R[4]
    n = grids.shape[0]
    st[S_ROUND] += 1
    first = (st[S_ROUND] - 1) % n
    st[S_FIRST] = first
    size = base_deck.size
    draw[:size] = base_deck
    mt.shuffle(game_rng, draw, size)
    for s in range(n):
        for i in range(6):
            size -= 1
            grids[s, i] = draw[size]
            up[s, i] = False
    size -= 1
    discard[0] = draw[size]
    st[S_DISC_N] = 1
    st[S_DRAW_N] = size
    st[S_HELD] = NONE
    st[S_HELD_SRC] = SRC_NONE
    turns[:] = 0
    st[S_FINISHER] = NONE
    st[S_PEND_START] = 0
    st[S_PEND_N] = 0
    st[S_CURRENT] = first
    st[S_OPTIONAL] = 0
    if flags[F_INITIAL_FLIPS]:
        st[S_PHASE] = PHASE_INITIAL_FLIP
        st[S_STAGE] = STAGE_INITIAL_FLIP
        st[S_FLIPS_DONE] = 0
        st[S_SEATS_FLIPPED] = 0
    else:
        st[S_PHASE] = PHASE_PLAYING
        st[S_STAGE] = STAGE_DRAW


@njit(cache=True)
def hand_score(G, R, seat):
    """``ScoringModel.hand_score`` of a seat's six cards."""
    g = np.empty(6, dtype=np.int64)
    for i in range(6):
        g[i] = R[7][G[0][seat, i]]
    value, pair, rank_of = R[0], R[1], R[9]
    total = 0
    for c in range(3):
        a, b = g[c], g[c + 3]
        if rank_of[a] == rank_of[b]:
            total += int(pair[a])
        else:
            total += int(value[a]) + int(value[b])
    return total + cpu.bonus_points(g, rank_of, R[8])


@njit(cache=True)
def apply_adjustments(scores, finisher, flags):
    """``scoring.round_breakdown``'s round adjustments as the model declares them
    (``model.ROUND_ADJUSTMENTS``: after the rule flags, a row of ``ADJ_WIDTH`` each: who gets
    it, its points, the score ``score_is`` needs), in order, each to the scores the earlier ones
    left; ``finisher`` -1: none. A ValueError for a kind it does not compute (``layout.WHO_COMPUTED``)."""
    n = scores.size
    gets = np.zeros(n, dtype=np.bool_)
    for at in range(N_FLAGS, flags.size, ADJ_WIDTH):
        kind, target = flags[at + ADJ_WHO], flags[at + ADJ_SCORE]
        gets[:] = False
        if kind == WHO_SCORE_IS:
            for s in range(n):
                gets[s] = scores[s] == target
        elif kind == WHO_FINISHER:
            if finisher >= 0:
                gets[finisher] = True
        elif kind == WHO_FINISHER_BEATEN:
            if finisher >= 0:
                for s in range(n):
                    if s != finisher and scores[s] < scores[finisher]:
                        gets[finisher] = True
        elif kind == WHO_LOWEST:
            low = scores.min()
            for s in range(n):
                gets[s] = scores[s] == low
        elif kind == WHO_TIED:
            for s in range(n):
                for t in range(n):
                    if t != s and scores[t] == scores[s]:
                        gets[s] = True
        else:  # a kind not computed here: tables.rule_arrays and the switch refuse it first
            raise ValueError("a round adjustment of a kind the compiled code does not compute")
        for s in range(n):
            if gets[s]:
                scores[s] += flags[at + ADJ_POINTS]


@njit(cache=True)
def end_round(G, R, out_hand, out_score, out_turns, out_finisher, game):
    """Score the hole (``scoring.round_breakdown``) into the outputs and end it."""
    grids, up, turns, st = G[0], G[1], G[4], G[5]
    flags = R[4]
    n = grids.shape[0]
    up[:, :] = True
    r = st[S_ROUND] - 1
    scores = np.empty(n, dtype=np.int64)
    for s in range(n):
        h = hand_score(G, R, s)
        out_hand[game, r, s] = h
        scores[s] = h
        out_turns[game, r, s] = turns[s]
    finisher = st[S_FINISHER]
    out_finisher[game, r] = finisher
    apply_adjustments(scores, finisher, flags)
    out_score[game, r, :] = scores
    st[S_STAGE] = STAGE_NONE
    st[S_PHASE] = PHASE_GAME_OVER if st[S_ROUND] >= flags[F_ROUNDS] else PHASE_ROUND_OVER


@njit(cache=True)
def end_turn(G, R, seat, outs, game):
    grids, up, turns, st, pending = G[0], G[1], G[4], G[5], G[6]
    n = grids.shape[0]
    turns[seat] += 1
    st[S_OPTIONAL] = 0
    if st[S_PHASE] == PHASE_PLAYING:
        if up[seat].all():
            st[S_FINISHER] = seat
            for k in range(1, n):
                pending[k - 1] = (seat + k) % n
            st[S_PEND_START] = 0
            st[S_PEND_N] = n - 1
            st[S_PHASE] = PHASE_FINAL_TURN
            st[S_CURRENT] = pending[0]
            st[S_STAGE] = STAGE_DRAW
        elif turns.min() >= R[4][F_MAX_TURNS]:
            end_round(G, R, outs[0], outs[1], outs[2], outs[3], game)
        else:
            st[S_CURRENT] = (seat + 1) % n
            st[S_STAGE] = STAGE_DRAW
        return
    up[seat, :] = True
    st[S_PEND_START] += 1
    st[S_PEND_N] -= 1
    if st[S_PEND_N]:
        st[S_CURRENT] = pending[st[S_PEND_START]]
        st[S_STAGE] = STAGE_DRAW
    else:
        end_round(G, R, outs[0], outs[1], outs[2], outs[3], game)


@njit(cache=True)
def apply(G, R, action, game_rng, outs, game):
    """``Game.apply`` of a legal action code."""
    grids, up, draw, discard, st = G[0], G[1], G[2], G[3], G[5]
    flags = R[4]
    n = grids.shape[0]
    seat = st[S_CURRENT]
    if action < A_SWAP:  # a flip
        up[seat, action] = True
        if st[S_STAGE] == STAGE_INITIAL_FLIP:
            st[S_FLIPS_DONE] += 1
            if st[S_FLIPS_DONE] < flags[F_INITIAL_FLIPS]:
                return
            st[S_FLIPS_DONE] = 0
            st[S_SEATS_FLIPPED] += 1
            if st[S_SEATS_FLIPPED] < n:
                st[S_CURRENT] = (st[S_CURRENT] + 1) % n
                return
            st[S_PHASE] = PHASE_PLAYING
            st[S_STAGE] = STAGE_DRAW
            st[S_CURRENT] = st[S_FIRST]
        else:
            end_turn(G, R, seat, outs, game)
    elif action == A_KNOCK:
        up[seat, :] = True
        end_turn(G, R, seat, outs, game)
    elif action < A_DRAW:  # a swap
        pos = action - A_SWAP
        discard[st[S_DISC_N]] = grids[seat, pos]
        st[S_DISC_N] += 1
        grids[seat, pos] = st[S_HELD]
        up[seat, pos] = True
        st[S_HELD] = NONE
        st[S_HELD_SRC] = SRC_NONE
        end_turn(G, R, seat, outs, game)
    elif action == A_DRAW:
        if st[S_DRAW_N] == 0:  # reshuffle all but the top of the discard pile
            m = st[S_DISC_N] - 1
            top = discard[m]
            draw[:m] = discard[:m]
            discard[0] = top
            st[S_DISC_N] = 1
            st[S_DRAW_N] = m
            mt.shuffle(game_rng, draw, m)
            if m == 0:
                end_round(G, R, outs[0], outs[1], outs[2], outs[3], game)
                return
        st[S_DRAW_N] -= 1
        st[S_HELD] = draw[st[S_DRAW_N]]
        st[S_HELD_SRC] = SRC_DRAW
        st[S_STAGE] = STAGE_PLACE
    elif action == A_TAKE:
        st[S_DISC_N] -= 1
        st[S_HELD] = discard[st[S_DISC_N]]
        st[S_HELD_SRC] = SRC_TAKE
        st[S_STAGE] = STAGE_PLACE
    elif action == A_DISCARD:
        discard[st[S_DISC_N]] = st[S_HELD]
        st[S_DISC_N] += 1
        st[S_HELD] = NONE
        st[S_HELD_SRC] = SRC_NONE
        mode = flags[F_FLIP_MODE]
        if mode != 0 and not up[seat].all():
            if mode == 1:
                st[S_STAGE] = STAGE_FLIP
                st[S_OPTIONAL] = 0
                return
            if cpu.fewest_down(G) <= 1:
                st[S_STAGE] = STAGE_FLIP
                st[S_OPTIONAL] = 1
                return
        end_turn(G, R, seat, outs, game)
    else:  # skip
        end_turn(G, R, seat, outs, game)


@njit(cache=True)
def decide(G, R, profiles, rngs):
    """``CPUPlayer.choose`` for the seat to move: an action code."""
    st = G[5]
    seat = st[S_CURRENT]
    prof = profiles[seat]
    rng = rngs[seat + 1]
    stage = st[S_STAGE]
    g = cpu.seat_kinds(G, R, seat)
    unknown = cpu.unseen_mean(G, R)
    playing = st[S_PHASE] == PHASE_PLAYING
    flags = R[4]
    if stage == STAGE_DRAW:
        if (flags[F_KNOCK_EARLY] or flags[F_FLIP_ACTION]) and playing:
            nd = cpu.count_down(g)
            whole = cpu.turn_action(G, R, prof, seat, g, unknown, flags[F_KNOCK_EARLY] and 1 <= nd <= 2,
                                    flags[F_FLIP_ACTION] and nd > 0, rng)
            if whole == -2:
                return A_KNOCK
            if whole >= 0:
                return A_FLIP + whole
        return A_TAKE if cpu.takes(G, R, prof, seat, g, unknown, playing) else A_DRAW
    if stage == STAGE_PLACE:
        pos, _ = cpu.placement(G, R, prof, seat, g, unknown, playing, cpu.held_kind(G, R), cpu.must_swap(G), rng,
                               True)
        return A_DISCARD if pos < 0 else A_SWAP + pos
    if stage == STAGE_FLIP and st[S_OPTIONAL] and cpu.skips_flip(G, R, prof, seat, g, unknown, playing):
        return A_SKIP
    return A_FLIP + cpu.choose_flip(G, R, prof, g, rng, True)


@njit(cache=True)
def legal_codes(G, R, out):
    """``Game.legal_actions`` of the seat to move in the compiled game ``G`` under rules ``R``,
    as action codes (``ActionCode``, in the same order) into ``out`` (room for 16); the count."""
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


#: what ``run`` records of each decision: nothing, the actions, each placement, each decision graded
RECORD_NONE, RECORD_ACTIONS, RECORD_PLACEMENTS, RECORD_GRADES = range(4)
#: columns of a placement record (then the unseen counts by kind)
(P_GAME, P_SEAT, P_CARD0, P_UP0, P_HELD, P_TAKEN, P_ACTION, P_FEWEST_DOWN, P_FINAL) = (0, 1, 2, 8, 14, 15, 16, 17, 18)
P_COLUMNS = 19
#: integer columns of a graded decision record
D_GAME, D_ROUND, D_SEAT, D_TURN, D_ACTION, D_AT_DRAW, D_BEST, D_CASE, D_PHASE, D_QUALITY = range(10)
D_COLUMNS = 10
#: float columns of a graded decision record: the move's ev, the best ev and the ev loss
E_EV, E_BEST, E_LOSS = range(3)
FLIP_ALWAYS = FLIP_MODES.index("always")


@njit(cache=True)
def no_grader():
    """The ``grader`` argument of ``run`` when it grades nothing."""
    return np.zeros((5, 1), dtype=np.int64), np.zeros(1, dtype=np.float64), np.zeros(1, dtype=np.int64)


@njit(cache=True)
def record_placement(G, R, game, action, row):
    """What the seat to move knows and what is hidden at a placement, into ``row`` (``P_*``
    columns, then ``cpu.unseen_counts``)."""
    st = G[5]
    seat = st[S_CURRENT]
    row[P_GAME], row[P_SEAT] = game, seat
    for i in range(6):
        row[P_CARD0 + i] = G[0][seat, i]
        row[P_UP0 + i] = G[1][seat, i]
    row[P_HELD], row[P_TAKEN] = st[S_HELD], st[S_HELD_SRC] == SRC_TAKE
    row[P_ACTION], row[P_FEWEST_DOWN], row[P_FINAL] = action, cpu.fewest_down(G), st[S_FINISHER] >= 0
    row[P_COLUMNS:] = cpu.unseen_counts(G, R)


@njit(cache=True)
def grade_now(G, R, table, action, view, pile, legal):
    """Grade ``action`` of the seat to move from what it sees (``grade.grade_numbers``):
    (ev, best ev, best action, case, phase)."""
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
def record_grade(G, R, game, action, row, evs, grader, view, pile, legal):
    """The seat to move's decision graded into ``row`` (``D_*``) and ``evs`` (``E_*``).
    ``grader``: (``fastev.Tables.table``, ``analysis.EV_LOSS_LIMITS``' losses, each case's grade index)."""
    table, limits, severity = grader
    st = G[5]
    ev, best_ev, best, case, ph = grade_now(G, R, table, action, view, pile, legal)
    seat = st[S_CURRENT]
    row[D_GAME], row[D_ROUND], row[D_SEAT], row[D_TURN] = game, st[S_ROUND], seat, G[4][seat] + 1
    row[D_ACTION], row[D_AT_DRAW], row[D_BEST], row[D_CASE], row[D_PHASE] = action, st[S_STAGE] == STAGE_DRAW, best, \
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
    row[D_QUALITY] = quality
    evs[E_EV], evs[E_BEST], evs[E_LOSS] = ev, best_ev, loss


@njit(cache=True)
def run(R, base_deck, profiles, rngs, mode, cap, grader):
    """The one compiled game loop: play ``rngs.shape[0]`` games (``rngs[k]``: the game's
    generator, then each seat's), recording each decision before it is applied as ``mode``
    (``RECORD_*``) says. ``cap``: the actions kept per game (``RECORD_ACTIONS``); ``grader``:
    ``record_grade``'s tables (``no_grader()`` otherwise). Callers pass ``mode`` and ``cap`` as
    ``np.int64(...)``: numba compiles a function again for each constant passed as an argument,
    and ``run`` is the whole game. Compiled once for all three modes rather than once per mode,
    the kernel's fresh compilation took 156 s instead of 178 s, and the games per second did not
    change measurably (30 November 2026).

    Returns the hole outputs (``new_outputs``), the integer and float recordings (actions as
    [game, k], -1 after the last; placement or decision records as rows, the first ``m``
    filled), ``m`` and the actions played per game.
    """
    games = rngs.shape[0]
    n = profiles.shape[0]
    outs = new_outputs(games, R[4][F_ROUNDS], n)
    if mode == RECORD_ACTIONS:
        ints = np.full((games, max(cap, 1)), NONE, dtype=np.int64)
    elif mode == RECORD_PLACEMENTS:
        ints = np.empty((max(64, games * 300), P_COLUMNS + R[5].size), dtype=np.int64)
    elif mode == RECORD_GRADES:
        ints = np.empty((max(64, games * 600), D_COLUMNS), dtype=np.int64)
    else:
        ints = np.empty((1, 1), dtype=np.int64)
    floats = np.empty((ints.shape[0] if mode == RECORD_GRADES else 1, 3), dtype=np.float64)
    view = np.empty((n, 6), dtype=np.int64)
    pile = np.empty(base_deck.size, dtype=np.int64)
    legal = np.empty(16, dtype=np.int64)
    played = np.zeros(games, dtype=np.int64)
    m = 0
    for game in range(games):
        game_rngs = rngs[game]
        G = new_game(R, base_deck, n, game_rngs[0])
        count = 0
        while to_move(G, R, base_deck, game_rngs[0]):
            action = decide(G, R, profiles, game_rngs)
            if mode == RECORD_ACTIONS:
                if count < cap:
                    ints[game, count] = action
            elif mode == RECORD_PLACEMENTS:
                if G[5][S_STAGE] == STAGE_PLACE:
                    if m == ints.shape[0]:
                        ints = doubled(ints, m)
                    record_placement(G, R, game, action, ints[m])
                    m += 1
            elif mode == RECORD_GRADES:
                if m == ints.shape[0]:
                    ints, floats = doubled(ints, m), doubled(floats, m)
                record_grade(G, R, game, action, ints[m], floats[m], grader, view, pile, legal)
                m += 1
            count += 1
            apply(G, R, action, game_rngs[0], outs, game)
        played[game] = count
    return outs, ints, floats, m, played


@njit(cache=True)
def play_games(R, base_deck, profiles, rngs, history_cap):
    """Play ``rngs.shape[0]`` games (``rngs[k]``: the game's generator, then each seat's).

    Returns (hand scores, round scores, turns) as [game, hole, seat], finishers as
    [game, hole] (-1: none), and the actions played as [game, k] (-1 after the last; only
    the first ``history_cap`` of each game are kept) with their counts.
    """
    outs, history, _, _, played = run(R, base_deck, profiles, rngs, np.int64(RECORD_ACTIONS), np.int64(history_cap),
                                      no_grader())
    return outs[0], outs[1], outs[2], outs[3], history, played
