"""Seeds of simulated games, derived from one master seed: each game's from the master seed
and its index, each CPU seat's from its game's seed and the seat. The reference
(``golflab.sim``) and the compiled kernel (``golflab.kernel.game_seeds``) both seed here, so a
run's games are the same whoever plays them and in whichever process."""

from __future__ import annotations

import random


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run with master ``seed`` (stable across processes)."""
    return random.Random(f"golflab.simulate:{seed}:{index}").getrandbits(63)


def seat_seed(gseed: int, seat: int) -> int:
    """The seed of the CPU player in ``seat`` of the game seeded ``gseed``."""
    return random.Random(f"{gseed}:{seat}").getrandbits(63)
