"""Hints: every legal option valued by the rollouts, raced on paired differences
(``golflab.racing``) or on a fixed number of samples, best first, and kept for reuse."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from ..game import Observation
from .reasons import describe
from .rollouts import ROLLOUT_PROFILE, leaf_correction, rollout_horizon
from .valuation import chance_draw, value
from .worlds import check_to_move, observation_seed, position_key

#: Rollouts a hint may spend in all when ``samples`` is not given (its options race: ``golflab.racing``).
HINT_ROLLOUTS = 3000
#: Rollouts a hint asked for a ``precision`` may spend in all: 24,000 since the rollouts look three
#: table rounds ahead (12,000 left a puzzle's quoted gap at 0.4 points of standard error where three
#: options were close for second place, each raced in turn as the runner-up).
PRECISE_ROLLOUTS = 24000
#: Determinizations per option in a race's first round.
MIN_SAMPLES = 16

_CACHE: OrderedDict[tuple, list[Option]] = OrderedDict()
_CACHE_SIZE = 512


def clear_cache() -> None:
    """Forget every valuation kept (hints are cached by position, seed, ``samples`` and options;
    benchmarks and tests clear it to time or compare fresh valuations)."""
    _CACHE.clear()


@dataclass(frozen=True)
class Option:
    """One legal option: ``action`` (its notation), ``value`` (expected hole points relative to
    the table: lower is better), ``se`` (standard error of ``value``), ``samples`` (the
    rollouts behind it), ``reason`` (one plain sentence saying what the move does) and
    ``gap_se`` (standard error of its paired difference to the best option; 0 for the best) and
    ``same_as`` (the move it is the same as up to the grid's symmetry, whose value and rollouts it
    shares; "" when it was valued itself: ``rollouts_spent``)."""

    action: str
    value: float
    se: float
    samples: int
    reason: str
    gap_se: float = 0.0
    same_as: str = ""

    def __str__(self) -> str:
        return f"{self.action}: {self.value:+.1f} ± {self.se:.1f} - {self.reason}"


def rollouts_spent(options) -> int:
    """The rollouts a hint (or a grade's or a review's options) spent: each option valued itself
    counted once (``Option.same_as``)."""
    return sum(o.samples for o in options if not o.same_as)


def known_hint(obs: Observation, samples: int | None = None) -> list[Option] | None:
    """The full hint of ``obs`` if it was already valued (the default race, or ``samples`` per
    option), else None: a grade then reuses it instead of valuing again."""
    seed = observation_seed(obs)
    legal = tuple(str(a) for a in obs.legal_actions)
    return _CACHE.get(_cache_key(obs, seed, None, HINT_ROLLOUTS, None, legal)) or _CACHE.get(
        _cache_key(obs, seed, samples, None, None, legal))


def _cache_key(obs: Observation, seed: int, samples: int | None, budget: int | None, precision: float | None,
               actions: tuple, policy: str = ROLLOUT_PROFILE, horizon: int | None = None,
               chance: bool | int | None = None) -> tuple:
    """What a valuation is kept under: everything its values depend on, the position first
    (``worlds.position_key``; the budget only when the options race, ``samples`` None; the leaf's
    correction, ``rollouts.LEAF``)."""
    return (position_key(obs), seed, samples, budget if samples is None else None, precision, actions, policy,
            rollout_horizon(horizon), chance_draw(chance), leaf_correction())


def check_samples(samples: Any) -> None:
    """A ValueError unless ``samples`` is a whole number from 1 to 10000."""
    if isinstance(samples, bool) or not isinstance(samples, int) or not 1 <= samples <= 10_000:
        raise ValueError(f"samples must be a whole number from 1 to 10000, got {samples!r}")


def _check_seed(seed: Any) -> None:
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise ValueError(f"seed must be None (the observation's own) or a whole number, got {seed!r}")


def _check_precision(precision: Any, samples: Any) -> None:
    if precision is None:
        return
    if samples is not None:
        raise ValueError("give samples (a fixed number per option) or precision (the adaptive race), not both")
    if isinstance(precision, bool) or not isinstance(precision, (int, float)) or not 0.01 <= precision <= 10:
        raise ValueError(f"precision must be a number of points from 0.01 to 10, got {precision!r}")


def evaluate(obs: Observation, actions: tuple, samples: int | None, budget: int = HINT_ROLLOUTS,
              precision: float | None = None, seed: int | None = None,
              policy: str = ROLLOUT_PROFILE, horizon: int | None = None,
              chance: bool | int | None = None) -> list[Option]:
    """The values of ``actions`` by the coach's one valuation (``valuation.value``), best
    first, as ``Option``s, kept for reuse: ``samples`` per option, or raced
    (``golflab.racing``) within ``budget`` rollouts when ``samples`` is None. Sample ``i`` is
    the same world for every option, drawn from the observation's seed (or ``seed``); this
    seat is played on by the personality ``policy`` (``rollouts.bot_profiles``), the rollouts
    looking ``horizon`` table rounds ahead (None: ``rollouts.HORIZON``), *draw* a chance node
    as ``chance`` says (``valuation.chance_draw``)."""
    seed = observation_seed(obs) if seed is None else seed
    key = _cache_key(obs, seed, samples, budget, precision, actions, policy, horizon, chance)
    found = _CACHE.get(key)
    if found is not None:
        _CACHE.move_to_end(key)
        return list(found)
    estimates = value(obs, actions, samples=samples, budget=budget, first=MIN_SAMPLES, precision=precision,
                      seed=seed, policy=policy, horizon=horizon, chance=chance)
    options = [Option(e.action, e.value, e.se, e.samples, describe(obs, e.action), e.gap_se, e.same_as)
               for e in estimates]
    _CACHE[key] = options
    if len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return list(options)


def hint(observation: Observation, *, samples: int | None = None, precision: float | None = None,
         seed: int | None = None) -> list[Option]:
    """Every legal option of the seat to move, valued by determinized rollouts, best first.

    ``observation`` must be the seat to move's (``game.observation(game.current_player)``).
    By default the options race on paired differences (``golflab.racing``: until the best is
    3 standard errors of their difference ahead of each other option, or the difference is
    under 0.1 point, or ``HINT_ROLLOUTS`` rollouts are spent). ``samples``: a fixed number of
    determinizations per option instead. ``precision``: also race until the standard error of
    the gap between the best and the runner-up is at most this many points (within
    ``PRECISE_ROLLOUTS``). ``seed``: draw the determinizations from another seed (to re-value
    with other samples). Each option has ``action``, ``value`` (expected hole points relative
    to the table: lower is better), ``se``, ``samples``, ``reason`` and ``gap_se``.
    Deterministic: the same arguments give the same list. Ties keep the legal order.
    """
    check_to_move(observation)
    legal = tuple(str(a) for a in observation.legal_actions)
    if samples is not None:
        check_samples(samples)
    _check_precision(precision, samples)
    _check_seed(seed)
    budget = HINT_ROLLOUTS if precision is None else PRECISE_ROLLOUTS
    return evaluate(observation, legal, samples, budget, precision, seed)
