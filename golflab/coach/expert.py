"""The Expert CPUs, beside the coach whose search they play.

``CPUPlayer("Expert")`` (Level 8) plays ``expert_move``: the coach's search with *draw*
valued as a chance node (``golflab.coach.search``). ``CPUPlayer("Classic Expert")`` plays
``classic_expert_move``, the first option of ``hint(obs)`` (*draw* valued by the rollout
policy's own use of the card): the Expert before that search, kept for comparison.
``golflab.ai.player`` reaches these by a function-level import (the coach imports ``ai``).
"""

from __future__ import annotations

from ..actions import Action
from .hints import hint
from .search import best_move


def _check(obs) -> None:
    if not getattr(obs, "legal_actions", None):
        raise ValueError(
            "the Expert needs the observation of the seat to move (its legal_actions are empty): "
            "pass game.observation(game.current_player)")


def expert_move(obs) -> Action:
    """The Expert's move (``search.best_move``); the only legal action when there is one.
    Reads only the observation; the same observation always gives the same move."""
    _check(obs)
    if len(obs.legal_actions) == 1:
        return obs.legal_actions[0]
    return best_move(obs)


def classic_expert_move(obs, samples: int | None = None) -> Action:
    """The Classic Expert's move: the first option of ``hint(obs)`` (raced on paired
    differences, or ``samples`` per option); the only legal action when there is one.
    Deterministic like ``expert_move``."""
    _check(obs)
    if len(obs.legal_actions) == 1:
        return obs.legal_actions[0]
    return Action.parse(hint(obs, samples=samples)[0].action)
