"""The compiled simulation kernel: CPU games at compiled speed, decision for decision the
games of the Python reference (``golflab.game`` with ``golflab.ai``).

``simulate`` uses it when it can (``enabled``: numba is installed, the ``fast`` extra, and
``GOLFLAB_KERNEL`` is not ``0``) for games of the eight personalities without decision
analysis; everything else runs the reference. The reference stays the single source of
truth: the kernel reads its rule tables from ``golflab.model`` and ``golflab.rules``
(``tables``), and ``tests/test_kernel.py`` replays kernel games move by move through
``Game`` and the ``CPUPlayer``s on every rule set, while the simulation fingerprints pin
the results. Compiled code is cached on disk (numba's ``cache=True``) after its first use.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass
from typing import Sequence

from ..rules import Rules

ENV = "GOLFLAB_KERNEL"


def installed() -> bool:
    """True when numba (the ``fast`` extra) can be imported."""
    try:
        import numba  # noqa: F401
    except ImportError:
        return False
    return True


def enabled() -> bool:
    """True when ``simulate`` may use the kernel: numba is installed and ``GOLFLAB_KERNEL``
    is unset or ``1`` (``0`` forces the Python reference). Any other value is a ValueError."""
    setting = os.environ.get(ENV, "1").strip()
    if setting not in ("0", "1"):
        raise ValueError(f"{ENV} must be 0 (the Python reference) or 1 (the compiled kernel when installed), "
                         f"got {setting!r}")
    return setting == "1" and installed()


def supports(personalities: Sequence) -> bool:
    """True when the kernel can play these seats: every one a personality (names or
    ``ai.Profile``s), none the Expert (which plays the coach's rollouts)."""
    from ..ai import EXPERT, get_profile

    return all(get_profile(p) is not EXPERT for p in personalities)


@dataclass(frozen=True)
class KernelGames:
    """Games ``start..stop-1`` of a run as the kernel played them: ``hand_scores``,
    ``scores`` and ``turns`` by [game, hole, seat], ``finishers`` by [game, hole] (-1: the
    hole stalled), and ``actions`` (each game's action notations) when asked for."""

    start: int
    hand_scores: "object"
    scores: "object"
    turns: "object"
    finishers: "object"
    actions: "list[list[str]] | None"


def play(personalities: Sequence, rules: Rules, seed: int, start: int, stop: int,
         history: bool = False) -> KernelGames:
    """Play games ``start..stop-1`` of a ``simulate`` run with master ``seed``: the same
    games ``simulation.play_games`` plays (same seeds per game and per seat)."""
    import numpy as np

    from ..ai import get_profile
    from ..simulation import game_seed
    from . import engine
    from .layout import ACTION_NAMES
    from .mt19937 import seed_rows
    from .tables import profile_rows, rule_arrays

    if not supports(personalities):
        raise ValueError("the kernel plays the eight personalities only (not the Expert)")
    n = len(personalities)
    seeds = np.empty((stop - start, n + 1), dtype=np.int64)
    for k, index in enumerate(range(start, stop)):
        gseed = game_seed(seed, index)
        seeds[k, 0] = gseed
        for s in range(n):
            seeds[k, s + 1] = random.Random(f"{gseed}:{s}").getrandbits(63)
    R, deck = rule_arrays(rules, n)
    profiles = profile_rows([get_profile(p) for p in personalities])
    cap = 20000 if history else 0
    hand, score, turns, finishers, actions, played = engine.play_games(R, deck, profiles, seed_rows(seeds), cap)
    names = None
    if history:
        if int(played.max(initial=0)) > cap:
            raise RuntimeError(f"a game played more than {cap} actions")
        names = [[ACTION_NAMES[a] for a in actions[k, :played[k]]] for k in range(stop - start)]
    return KernelGames(start, hand, score, turns, finishers, names)
