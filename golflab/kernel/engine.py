"""The golf state machine in compiled code: ``golflab.game.Game`` with CPU players, as
``golflab.simulation.play_games`` plays it, many games per call.

Every transition is ``Game``'s (deal, turns, the endgame, reshuffles, the stall guard) and
every shuffle draws from the game's own generator as ``Game`` does; scoring is
``scoring.round_breakdown`` over the model's tables. ``play_games`` returns each hole's
hand scores, round scores, turns and finisher, and (when asked) every action played.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import cpu
from . import mt19937 as mt
from .layout import (
    A_DISCARD,
    A_DRAW,
    A_FLIP,
    A_KNOCK,
    A_SKIP,
    A_SWAP,
    A_TAKE,
    F_FLIP_ACTION,
    F_FLIP_MODE,
    F_INITIAL_FLIPS,
    F_KNOCK_EARLY,
    F_MAX_TURNS,
    F_ROUNDS,
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
    value, pair, rank_of = R[0], R[1], R[10]
    total = 0
    for c in range(3):
        a, b = g[c], g[c + 3]
        if rank_of[a] == rank_of[b]:
            total += int(pair[a])
        else:
            total += int(value[a]) + int(value[b])
    return total + cpu.bonus_points(g, rank_of, R[8], R[9])


@njit(cache=True)
def apply_adjustments(scores, finisher, who, points, target):
    """``scoring.round_breakdown``'s round adjustments as the model declares them
    (``model.ROUND_ADJUSTMENTS``: ``who`` gets them, their ``points``, ``target`` for
    ``score_is``), in order, each to the scores the earlier ones left; ``finisher`` -1: none."""
    n = scores.size
    gets = np.zeros(n, dtype=np.bool_)
    for j in range(who.size):
        kind = who[j]
        gets[:] = False
        if kind == WHO_SCORE_IS:
            for s in range(n):
                gets[s] = scores[s] == target[j]
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
        for s in range(n):
            if gets[s]:
                scores[s] += points[j]


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
    apply_adjustments(scores, finisher, R[11], R[12], R[13])
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
def play_games(R, base_deck, profiles, rngs, history_cap):
    """Play ``rngs.shape[0]`` games (``rngs[k]``: the game's generator, then each seat's).

    Returns (hand scores, round scores, turns) as [game, hole, seat], finishers as
    [game, hole] (-1: none), and the actions played as [game, k] (-1 after the last; only
    the first ``history_cap`` of each game are kept) with their counts.
    """
    games = rngs.shape[0]
    n = profiles.shape[0]
    rounds = R[4][F_ROUNDS]
    outs = new_outputs(games, rounds, n)
    history = np.full((games, max(history_cap, 1)), NONE, dtype=np.int64)
    played = np.zeros(games, dtype=np.int64)
    for game in range(games):
        game_rngs = rngs[game]
        G = new_game(R, base_deck, n, game_rngs[0])
        count = 0
        while to_move(G, R, base_deck, game_rngs[0]):
            action = decide(G, R, profiles, game_rngs)
            if count < history_cap:
                history[game, count] = action
            count += 1
            apply(G, R, action, game_rngs[0], outs, game)
        played[game] = count
    return outs[0], outs[1], outs[2], outs[3], history, played
