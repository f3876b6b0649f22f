"""Every seed derived from another, in one place.

* ``game_seed`` / ``seat_seed``: simulated games, from one master seed: each game's from the
  master seed and its index, each CPU seat's from its game's seed and the seat. The reference
  (``golflab.sim``) and the compiled kernel (``golflab.kernel.game_seeds``) both seed here, so a
  run's games are the same whoever plays them and in whichever process.
* ``derived_seed``: a seed mixed from whole numbers, for what a played game derives from its
  own seed (a Codepiece match's deals, a CPU's decision at a table or in a room: the game's
  seed, the seat and the moves so far)."""

from __future__ import annotations

import random


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run with master ``seed`` (stable across processes)."""
    return random.Random(f"golflab.simulate:{seed}:{index}").getrandbits(63)


def seat_seed(gseed: int, seat: int) -> int:
    """The seed of the CPU player in ``seat`` of the game seeded ``gseed``."""
    return random.Random(f"{gseed}:{seat}").getrandbits(63)


def derived_seed(*parts: int) -> int:
    """A 63-bit seed mixed from whole numbers (a game's or match's seed, a deal, a seat, a move count)."""
    value = 0
    for part in parts:
        value = (value * 1_000_003 + part) % (2**63)
    return value
