"""The Expert: a CPU that plays the coach's best option (``CPUPlayer("Expert")``)."""

from __future__ import annotations

from ..actions import Action


def expert_move(obs, samples: int | None = None) -> Action:
    """The first option of ``golflab.coach.hint(obs)`` (its options raced on paired differences:
    ``golflab.racing``; the only legal action when there is one, without valuing it). Reads
    only the observation; deterministic: the same observation always gives the same move.
    ``samples`` as for ``hint``."""
    legal = getattr(obs, "legal_actions", None)
    if not legal:
        raise ValueError(
            "the Expert needs the observation of the seat to move (its legal_actions are empty): "
            "pass game.observation(game.current_player)")
    if len(legal) == 1:
        return legal[0]
    from ..coach import hint

    return Action.parse(hint(obs, samples=samples)[0].action)
