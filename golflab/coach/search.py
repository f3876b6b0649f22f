"""The Expert's former search, kept for comparison (no CPU plays it since 28 November 2026: the
Expert plays the hint's best, ``golflab.coach.expert``): the coach's rollouts, looking one table
round further ahead than a hint's (``SEARCH_HORIZON``), with *draw* valued as a chance node and
each drawn or taken card used as well as the search can (``golflab.coach.card_use``).

``hint`` values *draw* and *take* by the coach's valuation; ``best_move`` values them by the
best use of that card, on the same worlds as every other option:

1. A screen first: the options raced as a hint races them, within ``SCREEN_ROLLOUTS``. An
   option more than ``USE_GAIN`` points (and ``racing.SEPARATION`` standard errors) behind
   the screen's best is out (``behind``): a better use of a card never gained that much. When
   one option is left, it is the move.
2. Else each kind of unseen card gets its best use (``card_use.use_plan``, ``card_use.USES``
   uses raced); the card *take* would take gets its use the same way (``card_use.best_use``).
3. The options left race on the observation's own worlds: *draw* played by that plan, each
   world's top card drawn and used as its kind's plan says (``Samples.drawn``), so *draw* is
   the expectation over the drawn card of its best use; *take* followed by its use
   (``Samples.after``); ``flip N`` and ``knock`` as they are. The race's paired differences
   (within ``DECISION_ROLLOUTS``) decide; the lowest value wins (ties: the legal order). The
   uses are chosen on other worlds than the race's, so its values do not favour them by luck.

Every other decision (placing a card, flipping) is the hint's best option (``hints.evaluate``,
as far ahead as the search). A draw pile that is empty (the draw reshuffles the discards) is
valued by the hint too.
Deterministic: every sample is seeded from the observation (``observation_seed``), so the
same observation always gives the same move.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..actions import Action
from ..game import Observation
from ..racing import SEPARATION, race
from . import hints
from .card_use import best_use, use_plan
from .rollouts import ROLLOUT_PROFILE, Samples
from .worlds import check_to_move, observation_seed

#: The screen: the options raced as a hint races them, within this many rollouts (first
#: round: ``SCREEN_FIRST`` each). Its *draw* and *take* are valued by the rollout policy's use of
#: the card, which a best use can only better: it sets aside only options ``behind`` its best.
SCREEN_ROLLOUTS = 256
SCREEN_FIRST = 16
#: Points an option must trail the screen's best by to be settled there (``behind``): more
#: than the best use of a drawn card ever gained over the rollout policy's use in our trials
#: (2.7), so the search of *draw* and *take* below could not make it up.
USE_GAIN = 5.0
#: Rollouts the final race of a draw decision may spend in all (first round: ``DECISION_FIRST``
#: each): *draw* by the use plan against every other option, on the same worlds.
DECISION_ROLLOUTS = 2048
DECISION_FIRST = 32
#: The personality that plays the Expert's own seat on in its rollouts (the coach's hints
#: use ``rollouts.ROLLOUT_PROFILE``).
ROLLOUT_POLICY = ROLLOUT_PROFILE
#: Table rounds the Expert's rollouts look past the option's turn before they score the leaf:
#: three, as the coach's hints since 29 November 2026 (``rollouts.HORIZON``). ``benchmarks/expert.py`` measured
#: three against two on the same deals (seed 0, 2,000 rounds each): +4.32 points per round
#: against Marcus where two gave +3.87 (see the README for every figure). Levels 6 and 7 search
#: two rounds ahead (``ai.levels.SHORT_SEARCH``).
SEARCH_HORIZON = 3


def search_horizon(horizon: int | None) -> int:
    """``horizon``, or ``SEARCH_HORIZON`` when it is None (read when the search runs)."""
    return SEARCH_HORIZON if horizon is None else horizon


@dataclass(frozen=True)
class Valued:
    """An option of the draw decision: ``action``, ``value`` (expected hole points relative to
    the table, lower is better) and ``rollouts`` spent on it."""

    action: str
    value: float
    rollouts: int


def draw_decision(obs: Observation, policy: str = ROLLOUT_POLICY, horizon: int | None = None) -> list[Valued]:
    """Every option of a draw decision valued, best first: the hint's screen first (when it
    already settles the decision, that stands); else *draw* played by the best use of each
    drawn card's kind (``use_plan``) and raced with the other options on the same worlds."""
    legal = [a.notation for a in obs.legal_actions]
    horizon = search_horizon(horizon)
    sample = Samples(obs, observation_seed(obs), policy, horizon)
    screen = race(legal, sample, first=SCREEN_FIRST, budget=SCREEN_ROLLOUTS)
    best = screen[0]
    contenders = [e.action for e in screen if e is best or not behind(e, best)]
    if len(contenders) == 1:
        return [Valued(e.action, e.value, e.samples) for e in screen]
    plan = use_plan(obs, policy, horizon) if "draw" in contenders else {}
    taken = best_use(obs, None, policy, horizon) if "take" in contenders else None

    def paired(action: str, start: int, stop: int) -> list[float]:
        if action == "draw":
            return sample.drawn(plan, start, stop)
        if action == "take":
            return sample.after(*taken, start, stop)
        return sample(action, start, stop)

    est = race(contenders, paired, first=DECISION_FIRST,
               budget=max(DECISION_ROLLOUTS, DECISION_FIRST * len(contenders)))
    return [Valued(e.action, e.value, e.samples) for e in est] + [
        Valued(e.action, e.value, e.samples) for e in screen if e.action not in contenders]


def behind(option, best) -> bool:
    """Whether the screen settles ``option`` as worse than ``best`` (``racing.Estimate``s):
    more than ``USE_GAIN`` points behind, and ``racing.SEPARATION`` standard errors of their
    paired difference: the best use of a drawn or taken card could not make up the gap."""
    gap = option.value - best.value
    return gap > USE_GAIN and gap > SEPARATION * option.gap_se


def best_move(obs: Observation, policy: str = ROLLOUT_POLICY, horizon: int | None = None) -> Action:
    """The Expert's move for the seat to move (see the module): deterministic from ``obs``;
    its own seat played on in the rollouts by the personality ``policy`` for ``horizon``
    table rounds."""
    check_to_move(obs)
    legal = obs.legal_actions
    if len(legal) == 1:
        return legal[0]
    notations = [a.notation for a in legal]
    horizon = search_horizon(horizon)
    if obs.awaiting == "draw" and "draw" in notations and obs.draw_pile_size > 0:
        return Action.parse(draw_decision(obs, policy, horizon)[0].action)
    return Action.parse(hints.evaluate(obs, tuple(notations), None, hints.HINT_ROLLOUTS, policy=policy,
                                       horizon=horizon)[0].action)


__all__ = ["DECISION_FIRST", "DECISION_ROLLOUTS", "ROLLOUT_POLICY", "SCREEN_ROLLOUTS", "SEARCH_HORIZON", "USE_GAIN",
           "Valued", "behind", "best_move", "draw_decision", "search_horizon"]
