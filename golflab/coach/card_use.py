"""The best use of a drawn or taken card: the chance node of the coach's valuation
(``golflab.coach.valuation``), where *draw* is valued over every kind of card it may draw, each
used as well as it can be (``use_plan``), and *take* by the taken card's best use (``best_use``).

A card's candidate uses (``swap N``, ``discard``) are pruned to the ``USES`` best by the one-step
EV (``ev.placement_evs``; equivalent moves once, ``golflab.equivalence``), then raced on
the position's own rollouts (``golflab.racing``) within ``USE_ROLLOUTS`` per use (``best_of``).
The position after drawing a card is dealt from the observation's own seed (``drawn_observation``),
so the same observation always gives the same uses. The former Expert's search
(``golflab.coach.search``) reads these too.
"""

from __future__ import annotations

import random

from ..equivalence import equivalent_moves
from ..ev import placement_evs
from ..game import Game, Observation
from ..model import scoring_model
from ..racing import race
from .rollouts import ROLLOUT_PROFILE, Samples
from .worlds import deal_world, observation_seed, unseen_cards

#: Uses of each drawn card valued by rollouts (the best by one-step EV).
USES = 3
#: Determinizations per use in the first round of a drawn card's race.
USE_FIRST = 12
#: Rollouts per use a drawn card's race may spend (its budget is this times its uses).
USE_ROLLOUTS = 32


def observation_after(obs: Observation, action: str, on_top: tuple = ()) -> Observation:
    """The seat's observation after ``action`` (*draw* or *take*), played in a world dealt from
    the observation's seed with the unseen cards ``on_top`` on top of the draw pile."""
    grids, pile, seed = deal_world(obs, random.Random(observation_seed(obs)), on_top=on_top)
    game = Game.from_position(obs, grids, pile, seed)
    game.apply(action)
    return game.observation(obs.seat)


def drawn_observation(obs: Observation, card) -> Observation:
    """The seat's observation after drawing ``card`` (one of its unseen cards) from the draw pile."""
    return observation_after(obs, "draw", (card,))


def candidate_uses(obs: Observation, count: int = USES) -> list[str]:
    """The ``count`` best uses of the drawn card by one-step EV (uses that are one move up to the
    grid's symmetry once, ``golflab.equivalence``), in the legal order."""
    legal = [a.notation for a in obs.legal_actions]
    evs = placement_evs(obs, obs.drawn)
    firsts = [group[0] for group in equivalent_moves(obs, legal)]
    keep = set(sorted(firsts, key=lambda a: evs.get(a, 0.0))[:count])
    return [a for a in legal if a in keep]


def taken_observation(obs: Observation) -> Observation:
    """The seat's observation after *take* (the discard pile's top card: nothing unseen shows)."""
    return observation_after(obs, "take")


def best_use(obs: Observation, card=None, policy: str = ROLLOUT_PROFILE,
             horizon: int | None = None, salt: int = 0, uses: int | None = None) -> tuple[Observation, str]:
    """(the observation after drawing ``card``, or after *take* when ``card`` is None; its best
    use): the ``uses`` (None: ``USES``) candidate uses raced on that observation's own rollouts
    (seeded from it, xor ``salt``, played on for ``horizon`` table rounds, None: ``rollouts.HORIZON`` when
    they run), within ``USE_ROLLOUTS``
    per use; one use: the one-step EV's best, no rollouts."""
    after = taken_observation(obs) if card is None else drawn_observation(obs, card)
    return after, best_of(after, policy, horizon, salt, uses)


def best_of(after: Observation, policy: str = ROLLOUT_PROFILE, horizon: int | None = None, salt: int = 0,
            count: int | None = None) -> str:
    """The best of the ``count`` (None: ``USES``) candidate uses of the card held at ``after``."""
    uses = candidate_uses(after, USES if count is None else count)
    if len(uses) == 1:
        return uses[0]
    sample = Samples(after, observation_seed(after) ^ salt, policy, horizon)
    return race(uses, sample, first=USE_FIRST, budget=USE_ROLLOUTS * len(uses))[0].action


def use_plan(obs: Observation, policy: str = ROLLOUT_PROFILE, horizon: int | None = None, salt: int = 0,
             uses: int | None = None) -> dict[str, tuple[Observation, str]]:
    """The best use of a drawn card of each kind of unseen card (``best_use`` of the first card
    of the kind, ``uses`` raced, its rollouts seeded xor ``salt``): ``{kind: (after, use)}``,
    which ``Samples.drawn`` plays."""
    kind = scoring_model(obs.rules).kind
    plan: dict[str, tuple[Observation, str]] = {}
    for card in unseen_cards(obs):
        if kind(card) not in plan:
            plan[kind(card)] = best_use(obs, card, policy, horizon, salt, uses)
    return plan


__all__ = ["USES", "USE_FIRST", "USE_ROLLOUTS", "best_of", "best_use", "candidate_uses", "drawn_observation",
           "observation_after", "taken_observation", "use_plan"]
