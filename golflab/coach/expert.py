"""The Expert CPUs, beside the coach whose search they play.

``CPUPlayer("Expert")`` (Level 8) plays ``expert_move``: the coach's search with *draw*
valued as a chance node (``golflab.coach.search``). ``CPUPlayer("Classic Expert")`` plays
``classic_expert_move``: the Expert before that search and before the hint's race, kept for
comparison. It plays the first option of ``hint(obs, samples=...)`` with ``CLASSIC_ROLLOUTS``
(160) rollouts a move split evenly over its options, *draw* valued by the rollout policy's own
use of the card.
``golflab.ai.player`` reaches these by a function-level import (the coach imports ``ai``).
"""

from __future__ import annotations

from ..actions import Action
from .hints import MIN_SAMPLES, hint
from .search import best_move

#: Rollouts the Classic Expert spends on a move, split evenly over its options (at least
#: ``hints.MIN_SAMPLES`` each): the hint's fixed budget before its options raced.
CLASSIC_ROLLOUTS = 160


def _check(obs) -> None:
    if not getattr(obs, "legal_actions", None):
        raise ValueError(
            "the Expert needs the observation of the seat to move (its legal_actions are empty): "
            "pass game.observation(game.current_player)")


def expert_move(obs, horizon: int | None = None) -> Action:
    """The Expert's move (``search.best_move``, its rollouts looking ``horizon`` table rounds
    ahead; None: ``search.SEARCH_HORIZON``); the only legal action when there is one. Reads
    only the observation; the same observation always gives the same move."""
    _check(obs)
    if len(obs.legal_actions) == 1:
        return obs.legal_actions[0]
    return best_move(obs, horizon=horizon)


def classic_samples(obs) -> int:
    """The Classic Expert's samples per option: ``CLASSIC_ROLLOUTS`` split evenly over the legal
    options, at least ``hints.MIN_SAMPLES``."""
    return max(MIN_SAMPLES, CLASSIC_ROLLOUTS // len(obs.legal_actions))


def classic_expert_move(obs, samples: int | None = None) -> Action:
    """The Classic Expert's move: the first option of ``hint(obs, samples=...)``, ``samples``
    per option (default ``classic_samples(obs)``); the only legal action when there is one.
    Deterministic like ``expert_move``."""
    _check(obs)
    if len(obs.legal_actions) == 1:
        return obs.legal_actions[0]
    return Action.parse(hint(obs, samples=classic_samples(obs) if samples is None else samples)[0].action)
