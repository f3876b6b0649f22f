"""The seats of a simulated game: personalities resolved, seat names, seeded CPU players."""

from __future__ import annotations

from typing import Sequence

from ..ai import CPUPlayer, personality_names
from ..seeding import seat_seed


def cpu_players(personalities: Sequence, gseed: int) -> list:
    """The CPU players of one simulated game, each seeded from the game's seed and its seat."""
    return [CPUPlayer(p, seed=seat_seed(gseed, s)) for s, p in enumerate(personalities)]


def seat_names(players: Sequence[str]) -> list[str]:
    """Distinct seat names for personalities: ``["Sofia", "Sofia"]`` -> ``["Sofia", "Sofia 2"]``."""
    seen: dict[str, int] = {}
    names = []
    for p in players:
        seen[p] = seen.get(p, 0) + 1
        names.append(p if seen[p] == 1 else f"{p} {seen[p]}")
    return names


def resolve_players(players: Sequence) -> list:
    """Each player as a ``CPU_NAMES`` name (the personalities or "Expert", any case) or an ``ai.Profile``
    given as is (a custom personality); anything else is a ValueError."""
    return personality_names(players, count=(2, 6), profiles=True, what="players")


def personality_name(personality) -> str:
    """A seat's personality as its name (a name stays as it is; a ``Profile`` gives its ``name``)."""
    return personality if isinstance(personality, str) else personality.name
