"""The Expert CPUs, beside the coach whose valuation they play.

``CPUPlayer("Expert")`` (Level 8) plays ``expert_move``: the hint's best option, valued by the
coach's one valuation (``golflab.coach.valuation``, through ``hints.evaluate``) raced within
``EXPERT_ROLLOUTS`` rollouts instead of the hint's ``HINT_ROLLOUTS``: its only extra strength
is more samples, so the coach never grades the Expert by another model of the game
(``expert_options``: the values it chose by). ``CPUPlayer("Classic Expert")`` plays
``classic_expert_move``: the Expert before the hint's race, kept for
comparison. It plays the first option of ``hint(obs, samples=...)`` with ``CLASSIC_ROLLOUTS``
(160) rollouts a move split evenly over its options, *draw* valued by the rollout policy's own
use of the card.
``golflab.ai.player`` reaches these by a function-level import (the coach imports ``ai``).
"""

from __future__ import annotations

from ..actions import Action
from .hints import HINT_ROLLOUTS, MIN_SAMPLES, Option, check_samples, evaluate, hint

#: Rollouts the Expert's race may spend on a move: the hint's budget twice over (the race
#: stops sooner when the best option is clear: the budget counts only in close decisions).
EXPERT_ROLLOUTS = 2 * HINT_ROLLOUTS

#: Rollouts the Classic Expert spends on a move, split evenly over its options (at least
#: ``hints.MIN_SAMPLES`` each): the hint's fixed budget before its options raced.
CLASSIC_ROLLOUTS = 160


def _check(obs) -> None:
    if not getattr(obs, "legal_actions", None):
        raise ValueError(
            "the Expert needs the observation of the seat to move (its legal_actions are empty): "
            "pass game.observation(game.current_player)")


def expert_options(obs, samples: int | None = None, horizon: int | None = None) -> list[Option]:
    """The options the Expert chooses from, best first: ``hints.evaluate`` of every legal
    action raced within ``EXPERT_ROLLOUTS`` (``samples``: that many each, exactly as
    ``hint(obs, samples=...)`` values them), its rollouts looking ``horizon`` table rounds
    ahead (None: the coach's, ``rollouts.HORIZON``)."""
    _check(obs)
    if samples is not None:
        check_samples(samples)
    legal = tuple(a.notation for a in obs.legal_actions)
    return evaluate(obs, legal, samples, EXPERT_ROLLOUTS, horizon=horizon)


def expert_move(obs, horizon: int | None = None) -> Action:
    """The Expert's move: the first of ``expert_options(obs, horizon=horizon)``; the only legal
    action when there is one. Reads only the observation; the same observation always gives
    the same move."""
    _check(obs)
    if len(obs.legal_actions) == 1:
        return obs.legal_actions[0]
    return Action.parse(expert_options(obs, horizon=horizon)[0].action)


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
