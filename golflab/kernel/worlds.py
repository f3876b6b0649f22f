"""The coach's determinizations dealt in compiled code: ``coach.worlds.deal_world`` draw for draw.

A world deals the cards a seat cannot see (``unseen``, in the coach's fixed order) shuffled by
the hint's generator into every face-down position (seat by seat, position by position) and
then the draw pile; the generator then draws the world's own seed (``getrandbits(63)``) and the
seed of its CPU players (``getrandbits(48)``), as ``coach.rollouts.Samples`` does in Python. The deals
are the same card for card, so the rollouts and every value are too.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import mt19937 as mt
from .tables import card_index


@njit(cache=True)
def deal_worlds(state, unseen, grids, draw_n, count, world_bits, bot_bits):
    """``count`` worlds from generator row ``state`` (advanced in place): every seat's cards
    (``grids``' face-down slots, -1, filled), the draw pile (at least one slot wide), the
    world seeds (``world_bits`` random bits) and the CPU seeds (``bot_bits``)."""
    n = grids.shape[0]
    out_grids = np.empty((count, n, 6), dtype=np.int64)
    out_draws = np.zeros((count, max(draw_n, 1)), dtype=np.int64)
    world_seeds = np.empty(count, dtype=np.int64)
    bot_seeds = np.empty(count, dtype=np.int64)
    cards = np.empty(unseen.size, dtype=np.int64)
    for w in range(count):
        cards[:] = unseen
        mt.shuffle(state, cards, cards.size)
        k = 0
        for s in range(n):
            for p in range(6):
                if grids[s, p] < 0:
                    out_grids[w, s, p] = cards[k]
                    k += 1
                else:
                    out_grids[w, s, p] = grids[s, p]
        for d in range(draw_n):
            out_draws[w, d] = cards[k + d]
        world_seeds[w] = mt.getrandbits(state, world_bits)
        bot_seeds[w] = mt.getrandbits(state, bot_bits)
    return out_grids, out_draws, world_seeds, bot_seeds


class Dealer:
    """Deals the worlds of one observation in compiled code, continuing ``rng`` (a
    ``random.Random``, left untouched) from its current state; ``unseen``: the cards in the
    coach's order; ``world_bits``/``bot_bits``: the seeds' sizes the coach draws."""

    def __init__(self, obs, unseen, rng, world_bits: int, bot_bits: int) -> None:
        self.state = mt.state_of(rng)
        self.unseen = np.array([card_index(c) for c in unseen], dtype=np.int64)
        self.grids = np.array([[-1 if c is None else card_index(c) for c in grid] for grid in obs.grids],
                              dtype=np.int64)
        self.draw_n = obs.draw_pile_size
        self.bits = (world_bits, bot_bits)

    def __call__(self, count: int) -> tuple:
        """The next ``count`` worlds: (grids, draw piles, world seeds, CPU seeds) arrays."""
        return deal_worlds(self.state, self.unseen, self.grids, self.draw_n, count, *self.bits)
