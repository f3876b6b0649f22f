"""The coach's one valuation: how every option of a decision is valued, for hints, grades,
reviews, puzzles, the tutor and the Expert alike (``value``).

Each option is played out on the same determinizations (``rollouts.Samples``) and the hole
played on by CPU personalities for ``rollouts.HORIZON`` (3) table rounds, then scored at its
exact expectation (``rollouts.leaf``). Moves that are one move up to the grid's symmetry are
valued once (``golflab.equivalence``). With ``CHANCE_DRAW`` (on), *draw* at a draw decision is a chance
node: each world's top card is drawn and used as its kind's best use says (``card_use.use_plan``:
the best of ``CHANCE_USES`` (3) raced on rollouts), and *take* is followed by the taken card's
best use (``card_use.best_use``: the best of ``TAKE_USES`` raced on rollouts); else the rollout
policy plays the drawn or taken card. ``benchmarks/valuation.py`` chose these among two and
three table rounds and the end of the hole, *draw* by the rollout policy or a chance node (the
use by one-step EV or the best of three raced on rollouts), on 200 positions from CPU play
against rollouts to the end of the hole (4,000 samples per option, whose own noise is 0.013
points per decision): the lowest regret, 0.031 points per decision (0.144 for the hint before,
two rounds with the use by one-step EV), at a median of 115 ms of CPU and 317 ms at the 95th
percentile (38 and 223 before; see the README's table). Four rounds agree better still with that
reference (30 November 2026, 32,000 samples an option: 0.010 points per decision against 0.020),
but the Expert looking four rounds played no better (``rollouts.HORIZON``).

The options race on paired differences (``golflab.racing``) within ``budget`` rollouts, or are
valued on ``samples`` each. Deterministic: sample ``i`` comes from ``seed`` (the observation's
own by default), the best uses from seeds of their own observations, whatever ``seed``: the use
*take* is followed by is part of the position's valuation, not of its samples, so re-valuing
with other samples values the same options (a use raced on seeds that followed ``seed`` made
*take* worth 0.9 points less on another seed for a lesson's puzzle: another use won the short
race). Only the check, ``reference``, chooses its uses on worlds of its own seed (``salt``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

from ..equivalence import equivalent_moves
from ..game import Observation
from ..racing import Estimate, race
from . import card_use
from .rollouts import ROLLOUT_PROFILE, Samples, rollout_horizon
from .worlds import observation_seed

#: Whether *draw* (and *take*) are valued by the best use of the card (a chance node over the
#: drawn card) rather than by the rollout policy's own use of it (``benchmarks/valuation.py``).
CHANCE_DRAW = True
#: The uses of a drawn card raced for its best use (``card_use.best_use``; a plan for every kind
#: of unseen card): the best three by one-step EV (``card_use.candidate_uses``) raced on rollouts
#: (``card_use.USES``). The best by one-step EV alone (1, no rollouts) lost 0.17 points per draw
#: decision against play to the end of the hole at three rounds, three raced 0.008.
CHANCE_USES = card_use.USES
#: The uses of the taken card raced for its best use when *draw* is a chance node: one race, a
#: few ms; by one-step EV alone, *take* of a 2 was valued up to 3 points worse than the use the
#: coach's next hint then shows (``tests/coach/test_taught_values.py`` found puzzles whose quoted gap
#: to *take* did not hold to the end of the hole).
TAKE_USES = 3
#: Table rounds that value a hole to its end (a hole of a few seats never lasts this long).
END_OF_HOLE = 1000


def chance_draw(chance: bool | int | None) -> int:
    """The uses of a drawn card raced for its best use, 0 when *draw* is valued by the rollout
    policy: ``chance`` False 0, True ``CHANCE_USES``, a whole number itself, None as
    ``CHANCE_DRAW`` says (read when the valuation runs)."""
    if chance is None:
        chance = CHANCE_DRAW
    if isinstance(chance, bool):
        return CHANCE_USES if chance else 0
    if not isinstance(chance, int) or chance < 0:
        raise ValueError(f"chance must be None, True, False or a number of uses, got {chance!r}")
    return chance


def sampler(obs: Observation, actions, seed: int, policy: str = ROLLOUT_PROFILE, horizon: int | None = None,
            chance: bool | int | None = None, salt: int = 0) -> Callable[[str, int, int], list]:
    """The paired samples of ``actions`` (``sample(action, start, stop)``, as ``racing.race``
    asks): rollouts from ``obs``'s worlds drawn from ``seed``; *draw* and *take* as chance nodes
    when ``chance`` says so (``chance_draw``) and the draw pile is not empty, the cards' uses
    raced on their observations' own seeds xor ``salt`` (0: the position's, whatever ``seed``)."""
    horizon, uses = rollout_horizon(horizon), chance_draw(chance)
    sample = Samples(obs, seed, policy, horizon)
    if not (uses and is_chance_node(obs)):
        return sample
    plans: dict[str, object] = {}

    def paired(action: str, start: int, stop: int) -> list:
        if action == "draw":
            if "draw" not in plans:
                plans["draw"] = card_use.use_plan(obs, policy, horizon, salt, uses)
            return sample.drawn(plans["draw"], start, stop)
        if action == "take":
            if "take" not in plans:
                plans["take"] = card_use.best_use(obs, None, policy, horizon, salt, max(uses, TAKE_USES))
            return sample.after(*plans["take"], start, stop)
        return sample(action, start, stop)

    return paired


def value(obs: Observation, actions, *, samples: int | None = None, budget: int, first: int,
          precision: float | None = None, seed: int | None = None, policy: str = ROLLOUT_PROFILE,
          horizon: int | None = None, chance: bool | int | None = None, salt: int = 0) -> list[Estimate]:
    """Every option of ``actions`` valued (``racing.Estimate``s, best first), the moves that are
    one move up to the grid's symmetry once, by the first of them (``golflab.equivalence``): ``samples``
    each, or raced on paired differences from ``first`` each within ``budget`` rollouts (and until
    the gap to the runner-up has at most ``precision`` standard error, when given). ``seed``:
    the worlds' seed (None: the observation's); ``horizon`` table rounds (None:
    ``rollouts.HORIZON``); ``chance`` (``chance_draw``); ``salt`` (``sampler``: 0, the coach's)."""
    seed = observation_seed(obs) if seed is None else seed
    groups = equivalent_moves(obs, actions)
    moves = [group[0] for group in groups]
    sample = sampler(obs, moves, seed, policy, horizon, chance, salt)
    if samples is not None:
        raced = race(moves, sample, first=samples, budget=samples * len(moves))
    else:
        raced = race(moves, sample, first=first, budget=max(budget, first * len(moves)), precision=precision)
    return shared(raced, groups)


def shared(raced: list[Estimate], groups: list[tuple[str, ...]]) -> list[Estimate]:
    """Each group's estimate (its first move's) for every move of the group (the others' ``same_as``
    the first), each group's moves together in their order, the groups as ``raced`` orders them
    (``golflab.equivalence.equivalent_moves``)."""
    members = {group[0]: group for group in groups}
    return [e if move == e.action else replace(e, action=move, same_as=e.action)
            for e in raced for move in members[e.action]]


def is_chance_node(obs: Observation) -> bool:
    """Whether *draw* and *take* can be valued as chance nodes at ``obs``: a draw decision with
    cards left to draw."""
    return obs.awaiting == "draw" and obs.draw_pile_size > 0 and any(a.kind == "draw" for a in obs.legal_actions)


def reference(obs: Observation, samples: int, seed: int, horizon: int = END_OF_HOLE,
              chance: bool | int | None = None) -> dict[str, float]:
    """A check of the coach's values: every legal option on ``samples`` determinizations from
    ``seed`` (give one independent of the observation's), played out to the end of the hole
    (or ``horizon`` table rounds), *draw* and *take* at a draw decision valued by the best use
    of the card, ``card_use.USES`` uses raced as the Expert's search raced them (``chance`` to say
    otherwise: ``chance_draw``), on worlds of ``seed`` too (``salt``: independent of the coach's
    choice of uses). ``{action: value}``."""
    if chance is None:
        chance = card_use.USES if is_chance_node(obs) else 0
    legal = [a.notation for a in obs.legal_actions]
    est = value(obs, legal, samples=samples, budget=0, first=samples, seed=seed, horizon=horizon, chance=chance,
                salt=seed ^ observation_seed(obs))
    return {e.action: e.value for e in est}


__all__ = ["CHANCE_DRAW", "CHANCE_USES", "END_OF_HOLE", "TAKE_USES", "chance_draw", "is_chance_node", "reference",
           "sampler", "shared", "value"]
