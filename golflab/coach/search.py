"""A drawn or taken card's best use (``use_plan``, ``best_use``: the chance node of the coach's
valuation, ``golflab.coach.valuation``), and the Expert's former search, kept for comparison
(no CPU plays it since 28 November 2026: the Expert plays the hint's best): the coach's
rollouts, looking one table round further ahead than a hint's (``SEARCH_HORIZON``), with
*draw* valued as a chance node and each drawn or taken card used as well as the search can.

``hint`` values *draw* and *take* by the rollout policy's own use of the card. ``best_move``
values them by the best use of that card, on the same worlds as every other option:

1. A screen first: the options raced as a hint races them, within ``SCREEN_ROLLOUTS``. An
   option more than ``USE_GAIN`` points (and ``racing.SEPARATION`` standard errors) behind
   the screen's best is out (``behind``): a better use of a card never gained that much. When
   one option is left, it is the move.
2. Else each kind of unseen card (``model.kind``) gets a use: the position after drawing a
   card of it (``drawn_observation``) is valued like a hint's, its uses (``swap N``,
   ``discard``) pruned to the ``USES`` best by the one-step EV (``ev.placement_evs``;
   equivalent face-down positions once), then raced on that position's own rollouts
   (``golflab.racing``) within ``USE_ROLLOUTS`` per use (``use_plan``). The card *take* would
   take gets its use the same way (``best_use``, ``taken_observation``).
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
same observation always gives the same move. Rollouts run compiled when the kernel may
(``rollouts.compiled``), else in Python, with the same values.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..actions import Action
from ..ev import placement_evs
from ..game import Game, Observation
from ..model import scoring_model
from ..racing import SEPARATION, race
from . import hints
from .rollouts import ROLLOUT_PROFILE, Samples
from .worlds import check_to_move, deal_world, observation_seed, unseen_cards

#: The screen: the options raced as a hint races them, within this many rollouts (first
#: round: ``SCREEN_FIRST`` each). Its *draw* and *take* are valued by the rollout policy's use of
#: the card, which a best use can only better: it sets aside only options ``behind`` its best.
SCREEN_ROLLOUTS = 256
SCREEN_FIRST = 16
#: Points an option must trail the screen's best by to be settled there (``behind``): more
#: than the best use of a drawn card ever gained over the rollout policy's use in our trials
#: (2.7), so the search of *draw* and *take* below could not make it up.
USE_GAIN = 5.0
#: Uses of each drawn card valued by rollouts (the best by one-step EV).
USES = 3
#: Determinizations per use in the first round of a drawn card's race.
USE_FIRST = 12
#: Rollouts per use a drawn card's race may spend (its budget is this times its uses).
USE_ROLLOUTS = 32
#: Rollouts the final race of a draw decision may spend in all (first round: ``DECISION_FIRST``
#: each): *draw* by the use plan against every other option, on the same worlds.
DECISION_ROLLOUTS = 2048
DECISION_FIRST = 32
#: The personality that plays the Expert's own seat on in its rollouts (the coach's hints
#: use ``rollouts.ROLLOUT_PROFILE``).
ROLLOUT_POLICY = ROLLOUT_PROFILE
#: Table rounds the Expert's rollouts look past the option's turn before they score the leaf:
#: three, one more than the coach's hints (``rollouts.HORIZON``). ``benchmarks/expert.py`` measured
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
    """The ``count`` best uses of the drawn card by one-step EV (face-down positions of equal
    EV, interchangeable, once), in the legal order."""
    legal = [a.notation for a in obs.legal_actions]
    evs = placement_evs(obs, obs.drawn)
    up = obs.my_grid
    seen, ranked = set(), []
    for a in sorted(legal, key=lambda a: evs.get(a, 0.0)):
        act = Action.parse(a)
        key = (round(evs.get(a, 0.0), 9),) if act.kind == "swap" and up[act.pos] is None else (a,)
        if key not in seen:
            seen.add(key)
            ranked.append(a)
    keep = set(ranked[:count])
    return [a for a in legal if a in keep]


def taken_observation(obs: Observation) -> Observation:
    """The seat's observation after *take* (the discard pile's top card: nothing unseen shows)."""
    return observation_after(obs, "take")


def best_use(obs: Observation, card=None, policy: str = ROLLOUT_POLICY,
             horizon: int | None = None, salt: int = 0, uses: int | None = None) -> tuple[Observation, str]:
    """(the observation after drawing ``card``, or after *take* when ``card`` is None; its best
    use): the ``uses`` (None: ``USES``) candidate uses raced on that observation's own rollouts
    (seeded from it, xor ``salt``), within ``USE_ROLLOUTS`` per use; one use: the one-step EV's
    best, no rollouts."""
    after = taken_observation(obs) if card is None else drawn_observation(obs, card)
    return after, _best_of(after, policy, search_horizon(horizon), salt, uses)


def _best_of(after: Observation, policy: str, horizon: int, salt: int = 0, count: int | None = None) -> str:
    uses = candidate_uses(after, USES if count is None else count)
    if len(uses) == 1:
        return uses[0]
    sample = Samples(after, observation_seed(after) ^ salt, policy, horizon)
    return race(uses, sample, first=USE_FIRST, budget=USE_ROLLOUTS * len(uses))[0].action


def use_plan(obs: Observation, policy: str = ROLLOUT_POLICY, horizon: int | None = None, salt: int = 0,
             uses: int | None = None) -> dict[str, tuple[Observation, str]]:
    """The best use of a drawn card of each kind of unseen card (``best_use`` of the first card
    of the kind, ``uses`` raced, its rollouts seeded xor ``salt``): ``{kind: (after, use)}``,
    which ``Samples.drawn`` plays."""
    kind, horizon = scoring_model(obs.rules).kind, search_horizon(horizon)
    plan: dict[str, tuple[Observation, str]] = {}
    for card in unseen_cards(obs):
        if kind(card) not in plan:
            plan[kind(card)] = best_use(obs, card, policy, horizon, salt, uses)
    return plan


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


__all__ = ["DECISION_FIRST", "DECISION_ROLLOUTS", "ROLLOUT_POLICY", "SCREEN_ROLLOUTS", "SEARCH_HORIZON", "USES",
           "USE_GAIN", "USE_ROLLOUTS", "Valued", "behind", "best_move", "best_use", "candidate_uses", "draw_decision",
           "drawn_observation", "observation_after", "search_horizon", "taken_observation", "use_plan"]
