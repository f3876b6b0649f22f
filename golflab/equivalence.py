"""Moves that are one move up to the grid's symmetry, valued once.

A hand scores by its columns alone (``model.COLUMNS``: each column's two cards, and hand bonuses
that count paired columns), so the columns may be put in any order and each column's two cards
exchanged without changing anything a player can know or score. Two moves at positions ``p`` and
``q`` of the seat's own grid (``flip N``, ``swap N``) are then the same move when ``p`` and ``q``
hold the same (a face-down card, or a face-up card of the same kind) and so do their column
partners: some symmetry maps one onto the other and fixes everything else. Their values are
equal in the game; rollouts played by a CPU policy that prefers some positions (it fills the top
row first) gave them values up to 0.3 points apart, so the coach values each group once, by its
first move, and shows that value for every move of the group (``coach.valuation.value``); a
puzzle's answer is any move of its group (``same_move``).
"""

from __future__ import annotations

from typing import Iterable

from .actions import Action
from .game import Observation
from .model import PARTNER, scoring_model

__all__ = ["equivalent_moves", "same_move"]


def equivalent_moves(obs: Observation, actions: Iterable[str]) -> list[tuple[str, ...]]:
    """``actions`` (notations, the seat to move's) in groups of the same move up to the grid's
    symmetry: each group in the given order, the groups in the order of their first move."""
    kind = scoring_model(obs.rules).kind
    grid = obs.my_grid

    def held(pos: int):
        card = grid[pos]
        return None if card is None else kind(card)

    groups: dict[tuple, list[str]] = {}
    for notation in actions:
        act = Action.parse(notation)
        key = (notation,) if act.pos is None else (act.kind, held(act.pos), held(PARTNER[act.pos]))
        groups.setdefault(key, []).append(notation)
    return [tuple(group) for group in groups.values()]


def same_move(obs: Observation, a: str, b: str) -> bool:
    """Whether the notations ``a`` and ``b`` are one move at ``obs`` (``equivalent_moves``)."""
    a, b = Action.parse(a).notation, Action.parse(b).notation
    return len(equivalent_moves(obs, [a, b])) == 1
