"""The Expert's search: the coach's rollouts, with *draw* valued as a chance node.

``hint`` values *draw* by the rollout policy's own use of the drawn card. ``best_move``
values it as the expectation, over the card drawn, of the best use of that card:

1. A screen first: the options raced as a hint races them, within ``SCREEN_ROLLOUTS``. Its
   *draw* is the rollout policy's use of the card, which the best use can only better: when
   *draw* is already ``racing.SEPARATION`` standard errors ahead of every option, it is the
   move; when an option is clearly ahead of it by more than ``DRAW_GAIN`` points, the
   screen's best is.
2. Else the unseen cards (``worlds.unseen_cards``) are grouped by scoring kind
   (``model.kind``): each kind is drawn with probability (its count) / (the unseen cards).
3. For each kind, the position after drawing a card of it (``drawn_observation``) is valued
   like a hint's: its uses (``swap N``, ``discard``) pruned to the ``USES`` best by the
   one-step EV (``ev.placement_evs``; equivalent face-down positions once), then raced on
   paired rollouts (``golflab.racing``) within ``USE_ROLLOUTS`` per use. The card's value is
   the winner's, on ``CARD_SAMPLES`` further worlds (not the race's own, which favour it).
4. *draw* is worth the probability-weighted sum of the cards' values; the other options
   (``take``, ``flip N``, ``knock``) are raced on the observation's own rollouts within
   ``OTHER_ROLLOUTS`` and the best of them valued on ``OTHER_SAMPLES``. The lowest value
   wins (ties: the legal order).

Every other decision (placing a card, flipping) is the hint's best option (``hint``). A draw
pile that is empty (the draw reshuffles the discards) is valued by the hint too.
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
from ..racing import SEPARATION, mean, race
from . import hints
from .rollouts import ROLLOUT_PROFILE, Samples
from .worlds import check_to_move, deal_world, observation_seed, unseen_cards

#: The screen: the options raced as a hint races them, within this many rollouts (first
#: round: ``SCREEN_FIRST`` each). Its *draw* is valued by the rollout policy's use of the card,
#: which a best use can only better: when *draw* is clearly first there, it is the move.
SCREEN_ROLLOUTS = 256
SCREEN_FIRST = 16
#: Points by which an option clearly ahead of *draw* in the screen settles it too: more than
#: a best use of the drawn card ever gained over the rollout policy's use in our trials (2.7).
DRAW_GAIN = 5.0
#: Uses of each drawn card valued by rollouts (the best by one-step EV).
USES = 3
#: Determinizations per use in the first round of a drawn card's race.
USE_FIRST = 12
#: Rollouts per use a drawn card's race may spend (its budget is this times its uses).
USE_ROLLOUTS = 32
#: Further worlds that value the race's winner (the drawn card's value).
CARD_SAMPLES = 24
#: Rollouts the options other than *draw* may spend in all (first round: ``OTHER_FIRST`` each).
OTHER_ROLLOUTS = 512
OTHER_FIRST = 32
#: Rollouts that value the best option other than *draw* (compared with *draw*'s value).
OTHER_SAMPLES = 256
#: The personality that plays the Expert's own seat on in its rollouts (the coach's hints
#: use ``rollouts.ROLLOUT_PROFILE``).
ROLLOUT_POLICY = ROLLOUT_PROFILE


@dataclass(frozen=True)
class Valued:
    """An option of the draw decision: ``action``, ``value`` (expected hole points relative to
    the table, lower is better) and ``rollouts`` spent on it."""

    action: str
    value: float
    rollouts: int


def drawn_observation(obs: Observation, card) -> Observation:
    """The seat's observation after drawing ``card`` (one of its unseen cards) from the draw
    pile: a world dealt from the observation's seed with ``card`` on top of the pile, drawn."""
    grids, pile, seed = deal_world(obs, random.Random(observation_seed(obs)), on_top=(card,))
    game = Game.from_position(obs, grids, pile, seed)
    game.apply("draw")
    return game.observation(obs.seat)


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


def card_value(obs: Observation, card, policy: str = ROLLOUT_POLICY) -> tuple[float, int]:
    """(the best use's rollout value, rollouts spent) after drawing ``card``: the uses raced,
    then the winner valued on ``CARD_SAMPLES`` further worlds (the race's own means favour
    the winner by its luck; fresh worlds do not)."""
    after = drawn_observation(obs, card)
    uses = candidate_uses(after)
    sample = Samples(after, observation_seed(after), policy)
    if len(uses) == 1:
        values = sample(uses[0], 0, CARD_SAMPLES)
        return mean(values), len(values)
    est = race(uses, sample, first=USE_FIRST, budget=USE_ROLLOUTS * len(uses))
    start = max(e.samples for e in est)
    values = sample(est[0].action, start, start + CARD_SAMPLES)
    return mean(values), sum(e.samples for e in est) + len(values)


def draw_value(obs: Observation, policy: str = ROLLOUT_POLICY) -> Valued:
    """*draw* as a chance node: the expectation over the drawn card's kind of its best use."""
    kind = scoring_model(obs.rules).kind
    groups: dict[str, list] = {}
    for c in unseen_cards(obs):
        groups.setdefault(kind(c), []).append(c)
    total = sum(len(cs) for cs in groups.values())
    value, spent = 0.0, 0
    for cards in groups.values():
        v, n = card_value(obs, cards[0], policy)
        value += len(cards) / total * v
        spent += n
    return Valued("draw", value, spent)


def draw_decision(obs: Observation, policy: str = ROLLOUT_POLICY) -> list[Valued]:
    """Every option of a draw decision valued, best first: the hint's screen first (when it
    already puts *draw* clearly first, that stands); else *draw* as a chance node, the other
    options raced among themselves and the best of them valued on ``OTHER_SAMPLES``."""
    legal = [a.notation for a in obs.legal_actions]
    sample = Samples(obs, observation_seed(obs), policy)
    screen = race(legal, sample, first=SCREEN_FIRST, budget=SCREEN_ROLLOUTS)
    draw = next(e for e in screen if e.action == "draw")
    ahead = [e for e in screen if e is not draw and draw.value - e.value > SEPARATION * max(e.gap_se, draw.gap_se)]
    if (screen[0] is draw and all(e.value - draw.value > SEPARATION * e.gap_se for e in screen[1:])) or any(
            draw.value - e.value > DRAW_GAIN for e in ahead):
        return [Valued(e.action, e.value, e.samples) for e in screen]
    others = [a for a in legal if a != "draw"]
    out = [draw_value(obs, policy)]
    if others:
        if len(others) > 1:
            est = race(others, sample, first=OTHER_FIRST, budget=max(OTHER_ROLLOUTS, OTHER_FIRST * len(others)))
            out += [Valued(e.action, e.value, e.samples) for e in est[1:]]
            others = [est[0].action]
        values = sample(others[0], 0, OTHER_SAMPLES)
        out.append(Valued(others[0], mean(values), len(values)))
    order = {a: i for i, a in enumerate(legal)}
    return sorted(out, key=lambda v: (v.value, order[v.action]))


def best_move(obs: Observation, policy: str = ROLLOUT_POLICY) -> Action:
    """The Expert's move for the seat to move (see the module): deterministic from ``obs``;
    its own seat played on in the rollouts by the personality ``policy``."""
    check_to_move(obs)
    legal = obs.legal_actions
    if len(legal) == 1:
        return legal[0]
    notations = [a.notation for a in legal]
    if obs.awaiting == "draw" and "draw" in notations and obs.draw_pile_size > 0:
        return Action.parse(draw_decision(obs, policy)[0].action)
    return Action.parse(hints.evaluate(obs, tuple(notations), None, hints.HINT_ROLLOUTS, policy=policy)[0].action)


__all__ = ["CARD_SAMPLES", "DRAW_GAIN", "OTHER_ROLLOUTS", "OTHER_SAMPLES", "ROLLOUT_POLICY", "SCREEN_ROLLOUTS",
           "USES", "USE_ROLLOUTS", "Valued", "best_move", "candidate_uses", "card_value", "draw_decision",
           "draw_value", "drawn_observation"]
