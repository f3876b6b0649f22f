"""The coach: every option valued by what it leads to, decisions graded, a game reviewed.

``hint(obs)`` values each legal option of the seat to move in **expected points for this
seat relative to the table** (lower is better): the seat's hole score minus the mean hole
score of the other seats, at the end of the hole. ``-3.0`` means "you finish this hole about
3 points below the others' average".

The method (determinized rollouts with common random numbers):

1. From the observation alone, the *unseen cards* are the full deck minus every visible card
   (face-up grid cards, the discard pile, the card this seat holds). They are shuffled with
   a ``random.Random`` seeded from the observation itself (``observation_seed``) and dealt
   into every face-down position and the draw pile (its known size): one *determinization*.
   No hidden card of the real game is ever read, so two games that differ only in hidden
   cards give the same hint.
2. Each legal option is applied to the same determinizations (common random numbers: every
   option meets the same hidden cards, draw-pile order and CPU random choices) and the hole
   is played out by CPU personalities: each opponent by its personality when its seat name
   is one (``"Maya 2"`` is Maya), else by ``ROLLOUT_PROFILE``; this seat too, after the
   option, by ``ROLLOUT_PROFILE``.
3. An option's ``value`` is the mean over the samples of (this seat's hole score, with every
   round adjustment, minus the others' mean); ``se`` is its standard error (the samples'
   standard deviation over the square root of their number). Differences between options
   are much more precise than each ``se`` because of the common random numbers.

So the values carry tempo the one-step EV (``golflab.ev``) misses: going out ends the hole
for the others, a face-down card may still become a pair, opponents close to going out end
the hole sooner.

How many samples (``golflab.racing``): by default the options race on their paired
differences. Each is valued on ``MIN_SAMPLES`` determinizations, then the options still in
the race get twice as many, and so on, until the best option is ``racing.SEPARATION`` (3)
standard errors of their paired difference ahead of each other option, or that difference
and its standard error are both under ``racing.INDIFFERENCE`` (0.1 point), or the hint has
spent ``HINT_ROLLOUTS`` rollouts. ``samples=`` values every option on a fixed number instead.
Sample ``i`` is the same world whatever batch draws it, so the same observation and arguments
always give the same hint.

One valuation, two depths: the coach (``hint``, ``grade``, ``review`` and the Expert
CPU) uses these rollouts; bulk grading in ``golflab.simulate`` and ``golflab.analysis.grade``
stays one-step exact EV (``golflab.ev``) for speed.

``grade(obs, action)`` grades one decision with spec section 11's five grades: the points
lost against the best option (``analysis.EV_LOSS_LIMITS``) or the spec's named cases
(``analysis.named_case``), whichever is worse. ``review(game, seat)`` grades every decision
of a seat (moves with a single legal action are no decision and are left out) with
``accuracy`` (see ``accuracy``), a ``decisions`` DataFrame and ``costliest(n)``. For speed a
review values only the move played and the ``REVIEW_CANDIDATES`` best options by one-step EV
(raced within ``REVIEW_ROLLOUTS`` rollouts), unless the full hint of that position was already
asked for (the table grading a move live): then its values are used.

Error bars: ``se`` is an option's own standard error; ``gap_se`` the standard error of its
difference to the best, much smaller because the options share their samples. A value is an
estimate of what the option leads to when the hole is played on by the CPU personalities (and
exact EV past the horizon), not a proof of the best play.
"""

from __future__ import annotations

import hashlib
import math
import random
import sys
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from . import words
from .actions import Action
from .analysis import EV_LOSS_LIMITS, GRADES, named_case
from .cards import build_deck
from .ev import Pool, action_values, draw_ev, take_ev, unseen_counts
from .game import Game, Observation, Phase
from .model import PARTNER, scoring_model
from .racing import race

__all__ = [
    "ACCURACY_SCALE", "HINT_ROLLOUTS", "HORIZON", "MIN_SAMPLES", "PRECISE_ROLLOUTS", "REVIEW_CANDIDATES",
    "REVIEW_ROLLOUTS", "ROLLOUT_PROFILE", "CoachGrade", "Option", "Review", "accuracy", "clear_cache", "determinize",
    "grade", "hint", "observation_seed", "review",
]

#: Rollouts a hint may spend in all when ``samples`` is not given (its options race: ``golflab.racing``).
HINT_ROLLOUTS = 3000
#: Rollouts a hint asked for a ``precision`` may spend in all.
PRECISE_ROLLOUTS = 12000
#: Rollouts look this many table rounds past the option's turn, then score each hand at its
#: exact expectation over the unseen cards (a hole that ends sooner is scored as it ends).
HORIZON = 2
#: Determinizations per option in a race's first round.
MIN_SAMPLES = 16
#: Rollouts a decision of ``review`` may spend in all (a whole game is graded, so fewer).
REVIEW_ROLLOUTS = 600
#: Options ``review`` values beside the move played: the best ones by one-step EV.
REVIEW_CANDIDATES = 2
#: The personality that plays this seat (and opponents that are no personality) in rollouts.
ROLLOUT_PROFILE = "Marcus"
#: Points lost at which a decision's accuracy falls to 1/e (about 37): see ``accuracy``.
ACCURACY_SCALE = 5.0

_OVER = (Phase.ROUND_OVER, Phase.GAME_OVER)
_CACHE: OrderedDict[tuple, list[Option]] = OrderedDict()
_CACHE_SIZE = 512


def clear_cache() -> None:
    """Forget every valuation kept (hints are cached by observation, ``samples`` and options;
    benchmarks and tests clear it to time or compare fresh valuations)."""
    _CACHE.clear()


@dataclass(frozen=True)
class Option:
    """One legal option: ``action`` (its notation), ``value`` (expected hole points relative to
    the table: lower is better), ``se`` (standard error of ``value``), ``samples`` (the
    rollouts behind it), ``reason`` (one plain sentence saying what the move does) and
    ``gap_se`` (standard error of its paired difference to the best option; 0 for the best)."""

    action: str
    value: float
    se: float
    samples: int
    reason: str
    gap_se: float = 0.0

    def __str__(self) -> str:
        return f"{self.action}: {self.value:+.1f} ± {self.se:.1f} - {self.reason}"


# ------------------------------------------------------------------ determinization
def observation_seed(obs: Observation) -> int:
    """A seed computed from everything the observation shows (equal observations, equal seeds)."""
    parts = (
        obs.seat, str(obs.phase), obs.round, obs.current_player,
        [[str(c) for c in g] for g in obs.grids], [str(c) for c in obs.discard_pile],
        str(obs.drawn), str(obs.taken), obs.draw_pile_size, [str(a) for a in obs.legal_actions],
        sorted(obs.rules.to_dict().items()), list(obs.totals), list(obs.players), obs.awaiting,
        obs.first_player, obs.finisher, list(obs.turns),
    )
    return int.from_bytes(hashlib.sha256(repr(parts).encode()).digest()[:8], "big")


def _check_to_move(obs: Any) -> None:
    if not isinstance(obs, Observation):
        raise ValueError(f"the coach needs an Observation (game.observation(seat)), got {type(obs).__name__}")
    if obs.seat != obs.current_player or not obs.legal_actions:
        mover = "no one is to move" if obs.seat == obs.current_player else f"seat {obs.current_player} is to move"
        raise ValueError(
            f"the coach advises the seat to move: this observation is seat {obs.seat}'s, but {mover} "
            "(pass game.observation(game.current_player))")


def _unseen(obs: Observation) -> list:
    """The cards this seat cannot see (the deck minus every visible card), in a fixed order."""
    n = len(obs.players)
    deck = build_deck(obs.rules.decks_for(n), obs.rules.jokers)
    left: dict = {}
    for c in deck:
        left[c] = left.get(c, 0) + 1
    seen = [c for g in obs.grids for c in g if c is not None] + list(obs.discard_pile)
    if obs.drawn is not None:
        seen.append(obs.drawn)
    for c in seen:
        left[c] -= 1
    return sorted((c for c, k in left.items() for _ in range(k)), key=str)


def determinize(obs: Observation, rng: random.Random, unseen: list | None = None) -> Game:
    """A full game consistent with the observation: the unseen cards shuffled by ``rng`` into
    every face-down position and the draw pile. Reads nothing but ``obs``."""
    grids, draw, world_seed = _deal(obs, rng, unseen)
    return Game.from_position(obs, grids, draw, world_seed)


#: The sizes of the seeds a world draws after its deal: its own generator's, then its CPUs'.
WORLD_SEED_BITS, BOT_SEED_BITS = 63, 48


def _check_unseen(obs: Observation, unseen: list) -> None:
    down = sum(c is None for grid in obs.grids for c in grid)
    if len(unseen) != down + obs.draw_pile_size:
        raise ValueError(
            f"the observation is inconsistent: {len(unseen)} unseen cards for {down} face-down cards and a "
            f"draw pile of {obs.draw_pile_size}")


def _deal(obs: Observation, rng: random.Random, unseen: list | None = None) -> tuple[list, list, int]:
    """``determinize``'s deal: every seat's six cards, the draw pile (drawn from the end) and
    the seed of the world's own generator (its reshuffles), all drawn from ``rng``."""
    cards = list(unseen if unseen is not None else _unseen(obs))
    rng.shuffle(cards)
    _check_unseen(obs, cards)
    it = iter(cards)
    grids = [[c if c is not None else next(it) for c in grid] for grid in obs.grids]
    return grids, list(it), rng.getrandbits(WORLD_SEED_BITS)


def _bot_profiles(obs: Observation) -> list:
    from .ai import PROFILES, get_profile

    own = get_profile(ROLLOUT_PROFILE)
    by_lower = {k.lower(): p for k, p in PROFILES.items()}
    out = []
    for s, name in enumerate(obs.players):
        base = name.rsplit(" ", 1)[0] if name.rsplit(" ", 1)[-1].isdigit() else name
        out.append(own if s == obs.seat else by_lower.get(base.strip().lower(), own))
    return out


#: The grid's symmetries: the columns in any order, the rows kept or exchanged (as position maps).
_SYMMETRIES = tuple(
    tuple(cols[i % 3] + (3 * (1 - i // 3) if flip else 3 * (i // 3)) for i in range(6))
    for cols in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)) for flip in (False, True))


def _meets_hidden(act: Action, up: list) -> bool:
    """Does ``act`` flip or swap at one of the seat's face-down positions (``up``: its flags)?
    Then the rollouts first ``_align`` the seat's hidden cards."""
    return act.kind in ("flip", "swap") and not up[act.pos]


def _horizon_end(turns) -> int:
    """The turn count (all seats) at which a rollout from a position with ``turns`` stops and
    scores the leaf: ``HORIZON`` table rounds after the option's turn."""
    return sum(turns) + 1 + HORIZON * len(turns)


def _align(grid: list, up: list, pos: int) -> list:
    """The seat's hidden cards moved so that the card at its first face-down position lands at
    ``pos``: by a grid symmetry that fixes every face-up position when there is one (then
    equivalent positions get equal values), else by exchanging the two cards."""
    first = up.index(False)
    for sym in _SYMMETRIES:
        if sym[first] == pos and all(sym[i] == i for i in range(6) if up[i]):
            out = list(grid)
            for i in range(6):
                if not up[i]:
                    out[sym[i]] = grid[i]
            return out
    out = list(grid)
    out[first], out[pos] = grid[pos], grid[first]
    return out


class _Bots:
    """The CPU players of one determinization, reset to the same random state for every option
    (cheaper than seeding new ones: ``random.Random(seed)`` costs more than a rollout step)."""

    def __init__(self, profiles: list, seed: int) -> None:
        from .ai import CPUPlayer

        self.players = [CPUPlayer(p, seed=seed + s) for s, p in enumerate(profiles)]
        self.states = [b.rng.getstate() for b in self.players]

    def fresh(self) -> list:
        for bot, state in zip(self.players, self.states):
            bot.reset(state)
        return self.players


def _world(obs: Observation, deal: tuple, action: str) -> Game:
    """The game of one deal (``_deal``'s grids, draw pile and world seed) for valuing ``action``.

    A flip or a swap at one of this seat's face-down positions first exchanges that hidden
    card with the one at the seat's first face-down position: every option then meets the
    same hidden card (the unseen cards are exchangeable, so the values' expectations are
    unchanged and their differences far less noisy)."""
    grids, draw, world_seed = deal
    act = Action.parse(action)
    seat, up = obs.seat, [c is not None for c in obs.grids[obs.seat]]
    if _meets_hidden(act, up):
        grids = list(grids)
        grids[seat] = _align(grids[seat], up, act.pos)
    return Game.from_position(obs, grids, draw, world_seed)


def _rollout(game: Game, action: str, bots: list, seat: int) -> float:
    """Apply ``action``, play the hole out with CPU players, return the seat's relative score."""
    stop = _horizon_end(game.turns)
    game.apply(action)
    observe, apply = game.observation, game.apply
    while game.phase not in _OVER:
        if game.awaiting == "draw" and sum(game.turns) >= stop:
            return _leaf(observe(seat))
        cur = game.current_player
        apply(bots[cur].choose(observe(cur)))
    scores = game.round_results[-1].scores
    others = [x for s, x in enumerate(scores) if s != seat]
    return scores[seat] - sum(others) / len(others)


#: Rollouts this process plays in Python before it loads the compiled kernel for the rest
#: (loading takes about a second, some 2,000 Python rollouts): a few hints stay in Python, a
#: review or a game of Experts soon moves to the kernel. The values are the same either way.
KERNEL_MIN_ROLLOUTS = 2000
_python_rollouts = 0


def _compiled(obs: Observation, rollouts: int) -> bool:
    """Whether the compiled kernel plays these rollouts: when the one switch lets it
    (``kernel.use_compiled`` for the rules and the rollouts' seats), and it is already
    loaded or this process has already spent ``KERNEL_MIN_ROLLOUTS`` rollouts in Python."""
    global _python_rollouts
    from . import kernel

    loaded = "golflab.kernel.rollout" in sys.modules or _python_rollouts >= KERNEL_MIN_ROLLOUTS
    if loaded and kernel.use_compiled(obs.rules, _bot_profiles(obs)):
        return True
    _python_rollouts += rollouts
    return False


def _compiled_rollouts(obs: Observation):
    """``_rollout`` in the compiled kernel, as a function of the option and the kernel's deal
    arrays (grids, draw piles, world seeds: ``_Samples.arrays``) and the CPU seeds."""
    from . import kernel

    profiles, seat = _bot_profiles(obs), obs.seat
    stop = _horizon_end(obs.turns)
    up = [c is not None for c in obs.grids[seat]]

    def rollouts(action: str, deals: tuple, bot_seeds: list, generators) -> list[float]:
        act = Action.parse(action)
        if _meets_hidden(act, up):
            grids = deals[0].copy()
            grids[:, seat, :] = grids[:, seat, _align(list(range(6)), up, act.pos)]
            deals = (grids, *deals[1:])
        return kernel.rollout_values(obs, deals, bot_seeds, profiles, act.notation, stop, generators)

    return rollouts


class _Samples:
    """The rollouts of one observation, sample by sample: sample ``i`` is the ``i``-th deal and
    CPU seed drawn from ``random.Random(seed)`` (in that order), the same for every option and
    whatever batch asks for it (``__call__(action, start, stop)``). Each batch is played by
    the compiled kernel or in Python (``_compiled``): the values are the same either way.
    Once the kernel plays, it deals the further worlds too (``kernel.worlds.Dealer``, draw for
    draw ``_deal``)."""

    def __init__(self, obs: Observation, seed: int) -> None:
        self.obs, self.rng, self.unseen = obs, random.Random(seed), _unseen(obs)
        self.deals: list = []
        self.seeds: list[int] = []
        self.compiled = None
        self.profiles: list | None = None
        self.bots: list[_Bots] = []
        self._arrays: tuple | None = None
        self._dealer = None

    def _converted(self, start: int, stop: int) -> tuple:
        """Python's deals ``start:stop`` as the kernel's arrays (grids, draws, world seeds, CPU seeds)."""
        import numpy as np

        from .kernel.tables import card_index

        new = self.deals[start:stop]
        grids = np.array([[[card_index(c) for c in g] for g in deal[0]] for deal in new], dtype=np.int64)
        draws = np.zeros((len(new), max(self.obs.draw_pile_size, 1)), dtype=np.int64)
        for w, deal in enumerate(new):
            draws[w, :len(deal[1])] = [card_index(c) for c in deal[1]]
        return (grids, draws, np.array([deal[2] for deal in new], dtype=np.int64),
                np.array(self.seeds[start:stop], dtype=np.int64))

    def arrays(self, stop: int) -> tuple:
        """The first ``stop`` worlds as the kernel's arrays (card indices of the grids, of the
        draw piles padded to one card at least, the world seeds, the CPU seeds, the worlds'
        generators seeded): the deals Python made converted, the rest dealt by the kernel,
        each world seeded once whatever the number of options."""
        import numpy as np

        from .kernel import world_generators
        from .kernel.worlds import Dealer

        have = 0 if self._arrays is None else len(self._arrays[2])
        made = len(self.deals)
        parts = []
        if have < min(made, stop):
            parts.append(self._converted(have, min(made, stop)))
        if stop > max(have, made):
            if self._dealer is None:
                _check_unseen(self.obs, self.unseen)
                self._dealer = Dealer(self.obs, self.unseen, self.rng, WORLD_SEED_BITS, BOT_SEED_BITS)
            parts.append(self._dealer(stop - max(have, made)))
        for part in parts:
            part = (*part, world_generators(part[2], part[3], len(self.obs.players)))
            self._arrays = part if self._arrays is None else tuple(
                np.concatenate([old, new]) for old, new in zip(self._arrays, part))
        return self._arrays

    def __call__(self, action: str, start: int, stop: int) -> list[float]:
        if self.compiled is None and _compiled(self.obs, stop - start):
            self.compiled = _compiled_rollouts(self.obs)
        if self.compiled is not None:
            grids, draws, worlds, bots, generators = self.arrays(stop)
            return self.compiled(action, (grids[start:stop], draws[start:stop], worlds[start:stop]),
                                 bots[start:stop], generators[start:stop])
        while len(self.deals) < stop:
            self.deals.append(_deal(self.obs, self.rng, self.unseen))
            self.seeds.append(self.rng.getrandbits(BOT_SEED_BITS))
        if self.profiles is None:
            self.profiles = _bot_profiles(self.obs)
        while len(self.bots) < stop:
            self.bots.append(_Bots(self.profiles, self.seeds[len(self.bots)]))
        obs = self.obs
        return [_rollout(_world(obs, deal, action), action, bots.fresh(), obs.seat)
                for deal, bots in zip(self.deals[start:stop], self.bots[start:stop])]


def _leaf(obs: Observation) -> float:
    """The seat's expected hand score minus the others' mean, each face-down card at the exact
    expectation over the cards this seat cannot see (``golflab.ev``)."""
    pool = Pool(unseen_counts(obs), obs.rules)
    kind = pool.model.kind
    est = [pool.hand_ev([None if c is None else kind(c) for c in grid]) for grid in obs.grids]
    mine = est.pop(obs.seat)
    return mine - sum(est) / len(est)


# ------------------------------------------------------------------ sentences


def _name(card) -> str:
    return words.card_name(card)


def _column_points(model, a, b) -> float | None:
    if a is None or b is None:
        return None
    return model.column_points(model.kind(a), model.kind(b))


def _describe(obs: Observation, action: str) -> str:
    """One plain sentence on what ``action`` does, with the points it changes now."""
    model = scoring_model(obs.rules)
    grid = obs.my_grid
    act = Action.parse(action)
    down = obs.face_down()

    def value(card):
        return model.value[model.kind(card)]

    if act.kind == "swap":
        held, pos = obs.drawn, act.pos
        old, partner = grid[pos], grid[PARTNER[pos]]
        pair = partner is not None and partner.rank == held.rank
        also = [f"pairs your {_name(partner)} in the {words.column(pos)}"] if pair else []
        if obs.phase is Phase.PLAYING and down == [pos]:
            also.append("takes you out")
        if old is None:
            return f"Swapping the {_name(held)} into the face-down card at {words.position(pos)} " + _and(
                ["replaces an unknown card", *also])
        before = _column_points(model, old, partner)
        after = _column_points(model, held, partner)
        if before is None:
            before, after = value(old), value(held)
        saved = before - after
        points = f"{abs(saved)} point{'s' if abs(saved) != 1 else ''}"
        change = "changes no points now" if saved == 0 else f"{'saves' if saved > 0 else 'costs'} {points} now"
        return f"Swapping the {_name(held)} in at {words.position(pos)} " + _and(
            [f"replaces your {_name(old)}", *also, change])
    if act.kind == "discard":
        return f"Discarding the {_name(obs.drawn)} keeps your cards as they are"
    if act.kind == "draw":
        gain = -draw_ev(obs)
        return (f"Drawing from the pile gives an unknown card you may swap in or discard "
                f"(its best use saves {gain:.1f} points on average)")
    if act.kind == "take":
        top = obs.discard_top
        change, where = take_ev(obs)
        pos = int(where.split()[1])
        old = "a face-down card" if grid[pos] is None else f"your {_name(grid[pos])}"
        word = "saved" if change <= 0 else "lost"
        return (f"Taking the {_name(top)} from the discard pile means swapping it in, best over {old} at "
                f"{words.position(pos)} ({abs(change):.1f} points {word} on average)")
    if act.kind == "flip":
        last = obs.phase is Phase.PLAYING and down == [act.pos]
        whole = " as your whole turn" if obs.awaiting == "draw" else ""
        return f"Flipping your face-down card at {words.position(act.pos)}{whole}" + (" takes you out" if last else
                                                                                " reveals it")
    if act.kind == "knock":
        return f"Knocking turns your {len(down)} face-down card{'s' if len(down) != 1 else ''} up and takes you out"
    if act.kind == "skip":
        return "Skipping the flip keeps your face-down cards hidden"
    return f"Playing {action}"


# ------------------------------------------------------------------ hint
def _check_samples(samples: Any) -> None:
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


def _evaluate(obs: Observation, actions: tuple, samples: int | None, budget: int = HINT_ROLLOUTS,
              precision: float | None = None, seed: int | None = None) -> list[Option]:
    """The rollout values of ``actions`` (best first): ``samples`` per option, or raced
    (``golflab.racing``) within ``budget`` rollouts when ``samples`` is None. Sample ``i`` is
    the same world for every option, drawn from the observation's seed (or ``seed``)."""
    seed = observation_seed(obs) if seed is None else seed
    key = (seed, samples, budget if samples is None else None, precision, actions)
    found = _CACHE.get(key)
    if found is not None:
        _CACHE.move_to_end(key)
        return list(found)
    first = MIN_SAMPLES if samples is None else samples
    sample = _Samples(obs, seed)
    if samples is None:
        estimates = race(actions, sample, first=first, budget=max(budget, first * len(actions)),
                         precision=precision)
    else:
        estimates = race(actions, sample, first=samples, budget=samples * len(actions))
    options = [Option(e.action, e.value, e.se, e.samples, _describe(obs, e.action), e.gap_se) for e in estimates]
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
    _check_to_move(observation)
    legal = tuple(str(a) for a in observation.legal_actions)
    if samples is not None:
        _check_samples(samples)
    _check_precision(precision, samples)
    _check_seed(seed)
    budget = HINT_ROLLOUTS if precision is None else PRECISE_ROLLOUTS
    return _evaluate(observation, legal, samples, budget, precision, seed)


# ------------------------------------------------------------------ grading
def _by_loss(loss: float) -> str:
    for name, limit in EV_LOSS_LIMITS:
        if loss <= limit:
            return name
    return "BLUNDER"


@dataclass(frozen=True)
class CoachGrade:
    """The coach's verdict on one decision.

    ``grade`` one of ``analysis.GRADES``; ``ev_loss`` points lost against the best option
    (by the rollout values; 0 for the best); ``best`` the best option's notation; ``reason``
    one plain sentence; ``case`` the spec's named case (or None); ``options`` the hint.
    ``round``, ``turn`` (turns this seat completed this hole before the move, plus 1; 0 for
    initial flips) and ``step`` (the move's index in ``game.history``, or None) place it.
    """

    action: str
    best: str
    grade: str
    ev_loss: float
    reason: str
    case: str | None
    options: tuple
    round: int
    turn: int
    step: int | None = None
    observation: Observation | None = field(default=None, repr=False, compare=False)

    def __str__(self) -> str:
        return f"{self.action}: {self.grade} ({self.ev_loss:.1f} points lost; best {self.best}) - {self.reason}"


def _graded_options(obs: Observation, action: str, samples: int | None, candidates: int | None) -> list[Option]:
    legal = tuple(str(a) for a in obs.legal_actions)
    if samples is not None:
        _check_samples(samples)
    seed = observation_seed(obs)
    # a full hint already asked for (the default one, as the table's live grades ask, or these samples)
    full = _CACHE.get((seed, None, HINT_ROLLOUTS, None, legal)) or _CACHE.get((seed, samples, None, None, legal))
    if full is not None:
        return full
    if candidates is None:
        return hint(obs, samples=samples)
    if isinstance(candidates, bool) or not isinstance(candidates, int) or candidates < 1:
        raise ValueError(f"candidates must be a whole number 1 or more, got {candidates!r}")
    if len(legal) <= candidates + 1:
        return _evaluate(obs, legal, samples, REVIEW_ROLLOUTS)
    one_step = action_values(obs).values
    ranked = sorted(legal, key=lambda a: one_step[a])  # stable: ties in legal order
    chosen = [a for a in legal if a == action or a in ranked[:candidates]]
    return _evaluate(obs, tuple(chosen), samples, REVIEW_ROLLOUTS)


def _and(parts: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def grade(observation: Observation, action: str | Action, *, samples: int | None = None,
          candidates: int | None = None, step: int | None = None) -> CoachGrade:
    """Grade ``action`` played from ``observation`` (the seat to move's, before the move).

    The grade is the worse of the points lost against the best option valued (at most 0.05
    OPTIMAL, 2 GOOD, 5 QUESTIONABLE, 10 MISTAKE, more BLUNDER: ``analysis.EV_LOSS_LIMITS``)
    and the spec's named cases (discarding a 2 is a BLUNDER, whatever it costs). An illegal
    action is a ValueError.

    By default every legal option is valued (``hint``). ``candidates=k`` values only the move
    played and the ``k`` best options by the one-step exact EV (``golflab.ev.action_values``),
    with the same rollouts, raced within ``REVIEW_ROLLOUTS`` (with ``samples``: exactly as the
    full hint values them), unless the full hint is already known (then it is used).
    ``review`` grades this way, for speed.
    """
    _check_to_move(observation)
    act = Action.parse(action)
    if act not in observation.legal_actions:
        legal = ", ".join(str(a) for a in observation.legal_actions)
        raise ValueError(f"cannot grade {act.notation!r}: it is not legal here (legal actions are {legal})")
    options = _graded_options(observation, act.notation, samples, candidates)
    best = options[0]
    mine = next(o for o in options if o.action == act.notation)
    loss = max(0.0, mine.value - best.value)
    quality = _by_loss(loss)
    case, severity, why = named_case(observation, act)
    if case is not None and GRADES.index(severity) > GRADES.index(quality):
        quality = severity
    if loss == 0:
        best = mine  # a tie with the first option: the move played is a best one
    if loss <= EV_LOSS_LIMITS[0][1]:
        reason = f"Best move: {_lower_first(mine.reason)}"
    else:
        reason = (f"Better: {_lower_first(best.reason)}. Your move: {_lower_first(mine.reason)}, "
                  f"about {loss:.1f} points worse by the end of the hole")
    if case is not None:
        reason += f" ({why})"
    turn = 0 if observation.phase is Phase.INITIAL_FLIP else observation.turns[observation.seat] + 1
    return CoachGrade(act.notation, best.action, quality, loss, reason, case, tuple(options),
                      observation.round, turn, step, observation)


def accuracy(losses) -> float:
    """Accuracy 0-100 from the points lost per decision: ``100 * mean(exp(-loss / ACCURACY_SCALE))``.

    A decision with no loss scores 100, one losing 5 points about 37, 10 points about 14;
    no decisions at all is 100. Rounded to one decimal.
    """
    losses = [float(x) for x in losses]
    if any(x < 0 or math.isnan(x) for x in losses):
        raise ValueError(f"points lost must be 0 or more, got {losses}")
    if not losses:
        return 100.0
    return round(100 * sum(math.exp(-x / ACCURACY_SCALE) for x in losses) / len(losses), 1)


class Review:
    """Every decision of one seat in a game (``review(game, seat)``).

    ``grades``: a ``CoachGrade`` per decision in play order; ``decisions``: a pandas
    DataFrame (round, turn, action, best, grade, ev_loss, reason, step); ``accuracy``
    (0-100, see ``accuracy``); ``counts``: decisions per grade; ``costliest(n)``.
    """

    def __init__(self, seat: int, grades: list[CoachGrade]) -> None:
        self.seat = seat
        self.grades = list(grades)
        self.accuracy = accuracy(g.ev_loss for g in self.grades)
        self.counts = {q: sum(g.grade == q for g in self.grades) for q in GRADES}

    @property
    def decisions(self):
        import pandas as pd

        cols = ["round", "turn", "action", "best", "grade", "ev_loss", "reason", "step"]
        return pd.DataFrame([[getattr(g, c) for c in cols] for g in self.grades], columns=cols)

    def costliest(self, n: int = 3) -> list[CoachGrade]:
        """The ``n`` decisions that lost the most points, worst first (ties in play order);
        decisions that lost nothing are left out."""
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ValueError(f"n must be a whole number 0 or more, got {n!r}")
        lost = [g for g in self.grades if g.ev_loss > 0]
        return sorted(lost, key=lambda g: -g.ev_loss)[:n]

    def __repr__(self) -> str:
        return f"<Review seat {self.seat}: {len(self.grades)} decisions, accuracy {self.accuracy}>"


def review(game: Game, seat: int, *, samples: int | None = None,
           candidates: int = REVIEW_CANDIDATES) -> Review:
    """Grade every decision ``seat`` made in ``game`` so far (replayed from its seed and history).

    Moves with a single legal action are no decision and are left out. Each decision is
    graded by ``grade(obs, move, samples=samples, candidates=candidates)``: the move played
    and the ``candidates`` best options by one-step EV, raced as a hint's options are (within
    ``REVIEW_ROLLOUTS`` rollouts; ``samples``: a fixed number per option instead), or the full
    hint when one was already asked for that position (as the table's live grades do).
    """
    if not isinstance(game, Game):
        raise ValueError(f"review needs a golflab.Game, got {type(game).__name__}")  # noqa: TRY004
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.num_players:
        raise ValueError(f"seat must be a seat index 0-{game.num_players - 1}, got {seat!r}")
    g = Game(list(game.players), game.rules, seed=game.seed)
    grades = []
    for step, act in enumerate(game.history):
        if g.phase is Phase.ROUND_OVER:
            g.next_round()
        if g.current_player == seat and len(g.legal_actions()) > 1:
            grades.append(grade(g.observation(seat), act, samples=samples, candidates=candidates, step=step))
        g.apply(act)
    return Review(seat, grades)
