"""The coach's rollouts: an option applied in each determinization and the hole played on by CPU
personalities (in Python, or in the compiled kernel once it pays: the same values either way),
then each hand scored at its exact expectation past the horizon."""

from __future__ import annotations

import bisect
import random
import sys

from .. import kernel
from ..actions import Action
from ..ai import LEVELS, PROFILES, CPUPlayer, get_level, get_profile
from ..ev import Pool, unseen_counts
from ..game import Game, Observation, Phase
from ..model import scoring_model
from .leaf import fewest_down
from .worlds import BOT_SEED_BITS, WORLD_SEED_BITS, align, check_unseen, deal_world, meets_hidden, unseen_cards

#: Rollouts look this many table rounds past the option's turn, then score each hand at its
#: exact expectation over the unseen cards (a hole that ends sooner is scored as it ends). Three
#: (``benchmarks/valuation.py``, 200 positions): two rounds lost 0.38 points per second initial flip
#: against play to the end of the hole (which column to turn up next), three none. Four agree better
#: with that reference (30 November 2026, 32,000 samples an option: 0.010 points a decision against
#: 0.020, 1 of 200 choices half a point worse against 2), but the Expert looking four rounds played
#: no better on the same deals (+0.05 points per round against the personalities, -0.41 against
#: Marcus; the README's *Four rounds, tried*), so three stay.
HORIZON = 3
#: The personality that plays this seat (and opponents that are no personality) in rollouts.
ROLLOUT_PROFILE = "Marcus"
#: The leaf's correction by what play does after the horizon (``leaf.LeafCorrection``, on trial:
#: ``benchmarks/leaf.py``), read when a valuation starts; None, the coach's: each hand at its
#: expectation now.
LEAF = None

_OVER = (Phase.ROUND_OVER, Phase.GAME_OVER)
_PROFILES_BY_LOWER = {name.lower(): profile for name, profile in PROFILES.items()}


def bot_profiles(obs: Observation, policy: str = ROLLOUT_PROFILE) -> list:
    """The personalities that play each seat of ``obs`` in its rollouts: an opponent named
    after a personality (``"Maya 2"`` is Maya) as itself, one named after a level below the
    Expert (``"Level 3"``, ``"Level 3 2"``) as the level's base personality, this seat and
    every other by the personality ``policy``."""
    own = get_profile(policy)
    return [own if s == obs.seat else modelled(name, own) for s, name in enumerate(obs.players)]


def modelled(name: str, own):
    """The personality a rollout plays for the seat called ``name`` (see ``bot_profiles``)."""
    words = name.split()
    bases = [name] + ([" ".join(words[:-1])] if len(words) > 1 and words[-1].isdigit() else [])
    for base in bases:
        level = get_level(base)
        if level is not None:
            return own if level.number == len(LEVELS) else get_profile(level.base)
        profile = _PROFILES_BY_LOWER.get(base.strip().lower())
        if profile is not None:
            return profile
    return own


def leaf_correction():
    """The leaf's correction valuations use now (``LEAF``; None: the coach's leaf)."""
    return LEAF


def rollout_horizon(horizon: int | None) -> int:
    """``horizon``, or ``HORIZON`` (the coach's) when it is None (read when the rollouts run)."""
    return HORIZON if horizon is None else horizon


def horizon_end(turns, horizon: int | None = None) -> int:
    """The turn count (all seats) at which a rollout from a position with ``turns`` stops and
    scores the leaf: ``horizon`` table rounds after the option's turn (None: ``HORIZON``)."""
    return sum(turns) + 1 + rollout_horizon(horizon) * len(turns)


class Bots:
    """The CPU players of one determinization, reset to the same random state for every option
    (cheaper than seeding new ones: ``random.Random(seed)`` costs more than a rollout step)."""

    def __init__(self, profiles: list, seed: int) -> None:
        self.players = [CPUPlayer(p, seed=seed + s) for s, p in enumerate(profiles)]
        self.states = [b.rng.getstate() for b in self.players]

    def fresh(self) -> list:
        for bot, state in zip(self.players, self.states):
            bot.reset(state)
        return self.players


def world(obs: Observation, deal: tuple, action: str) -> Game:
    """The game of one deal (``deal``'s grids, draw pile and world seed) for valuing ``action``.

    A flip or a swap at one of this seat's face-down positions first exchanges that hidden
    card with the one at the seat's first face-down position: every option then meets the
    same hidden card (the unseen cards are exchangeable, so the values' expectations are
    unchanged and their differences far less noisy)."""
    grids, draw, world_seed = deal
    act = Action.parse(action)
    seat, up = obs.seat, [c is not None for c in obs.grids[obs.seat]]
    if meets_hidden(act, up):
        grids = list(grids)
        grids[seat] = align(grids[seat], up, act.pos)
    return Game.from_position(obs, grids, draw, world_seed)


def rollout(game: Game, action: str, bots: list, seat: int, horizon: int | None = None, correction=None) -> float:
    """Apply ``action``, play the hole on with CPU players for ``horizon`` table rounds (or to
    its end), return the seat's relative score (the leaf's when the horizon comes first,
    corrected by ``correction`` when given: ``leaf``)."""
    stop = horizon_end(game.turns, horizon)
    game.apply(action)
    observe, apply = game.observation, game.apply
    while game.phase not in _OVER:
        if game.awaiting == "draw" and sum(game.turns) >= stop:
            return leaf(observe(seat), correction)
        cur = game.current_player
        apply(bots[cur].choose(observe(cur)))
    scores = game.round_results[-1].scores
    others = [x for s, x in enumerate(scores) if s != seat]
    return scores[seat] - sum(others) / len(others)


#: Rollouts this process plays in Python before it loads the compiled kernel for the rest. Loading
#: costs about a second of CPU, some 800 Python rollouts, and one hint can race 2,000 rollouts
#: (options too close to separate: a hole's first flip), so the kernel loads at once (0). A fresh
#: process's first hint at a first flip took a median 1.1-1.3 s of CPU at 0 against 2.9-3.5 s at
#: 2,000, mid-hole 1.0-1.1 s against 1.3-1.4 s (``benchmarks/coach.py``, two runs). A larger number
#: plays that many in Python first. The values are the same either way.
KERNEL_MIN_ROLLOUTS = 0
_python_rollouts = 0


def compiled(obs: Observation, rollouts: int, policy: str = ROLLOUT_PROFILE) -> bool:
    """Whether the compiled kernel plays these rollouts (this seat played by ``policy``): when
    the one switch lets it (``kernel.use_compiled`` for the rules and the rollouts' seats), and it is already
    loaded or this process has already spent ``KERNEL_MIN_ROLLOUTS`` rollouts in Python."""
    global _python_rollouts
    loaded = "golflab.kernel.rollout" in sys.modules or _python_rollouts >= KERNEL_MIN_ROLLOUTS
    if loaded and kernel.use_compiled(obs.rules, bot_profiles(obs, policy)):
        return True
    _python_rollouts += rollouts
    return False


def compiled_rollouts(obs: Observation, policy: str = ROLLOUT_PROFILE, horizon: int | None = None,
                      correction=None):
    """``rollout`` in the compiled kernel, as a function of the option and the kernel's deal
    arrays (grids, draw piles, world seeds: ``Samples.window``) and the CPU seeds."""
    seat = obs.seat
    play = kernel.rollouts_from(obs, bot_profiles(obs, policy), horizon_end(obs.turns, horizon), correction)
    up = [c is not None for c in obs.grids[seat]]

    def rollouts(action: str, deals: tuple, bot_seeds: list, generators) -> list[float]:
        act = Action.parse(action)
        if meets_hidden(act, up):
            grids = deals[0].copy()
            grids[:, seat, :] = grids[:, seat, align(list(range(6)), up, act.pos)]
            deals = (grids, *deals[1:])
        return play(act.notation, deals, bot_seeds, generators)

    return rollouts


class Samples:
    """The rollouts of one observation, sample by sample: sample ``i`` is the ``i``-th deal and
    CPU seed drawn from ``random.Random(seed)`` (in that order), the same for every option and
    whatever batch asks for it (``__call__(action, start, stop)``); this seat is played by the
    personality ``policy`` after the option (``bot_profiles``), for ``horizon`` table rounds
    (None: ``HORIZON``). Each batch is played by
    the compiled kernel or in Python (``compiled``): the values are the same either way.
    Once the kernel plays, it deals the further worlds too (``kernel.worlds.Dealer``, draw for
    draw ``deal``)."""

    def __init__(self, obs: Observation, seed: int, policy: str = ROLLOUT_PROFILE,
                 horizon: int | None = None) -> None:
        self.obs, self.rng, self.unseen = obs, random.Random(seed), unseen_cards(obs)
        self.policy, self.horizon = policy, rollout_horizon(horizon)
        self.correction = leaf_correction()  # read once: every batch of these samples has the same leaf
        if self.correction is not None:
            self.correction.check(obs.rules)
        self.deals: list = []
        self.seeds: list[int] = []
        self.compiled = None
        self.profiles: list | None = None
        self.bots: list[Bots] = []
        self._batches: list[tuple] = []  # the kernel's worlds (``window``), batch by batch from world 0
        self._starts: list[int] = []  # the first world of each batch
        self._filled = 0  # the worlds in the batches
        self._dealer = None
        self._plays: dict[int, tuple] = {}  # id(after): (after, its compiled rollouts), for ``_play``

    def _play(self, after: Observation):
        """The compiled rollouts from ``after`` (this observation's, or one after *draw* or
        *take*), built once per observation for the life of these samples (a race asks for
        them every round)."""
        if after is self.obs:
            return self.compiled
        held = self._plays.get(id(after))
        if held is None or held[0] is not after:
            held = self._plays[id(after)] = (after, compiled_rollouts(after, self.policy, self.horizon,
                                                                      self.correction))
        return held[1]

    def _converted(self, start: int, stop: int) -> tuple:
        """Python's deals ``start:stop`` as the kernel's arrays (grids, draws, world seeds, CPU seeds)."""
        import numpy as np

        return (*kernel.deal_arrays(self.deals[start:stop], self.obs.draw_pile_size),
                np.array(self.seeds[start:stop], dtype=np.int64))

    def window(self, start: int, stop: int) -> tuple:
        """Worlds ``start`` to ``stop - 1`` as the kernel's arrays (card indices of the grids, of
        the draw piles padded to one card at least, the world seeds, the CPU seeds, the worlds'
        generators seeded): the deals Python made converted, the rest dealt by the kernel, each
        world seeded once whatever the number of options. The worlds are kept in the batches
        they were made in: a window inside one batch is a view of it (a race asks every option
        for the same new worlds), one across batches a copy of that window alone (growing one
        array of every world, a generator row of 25 KB per world, took a tenth of a move)."""
        import numpy as np

        self._make(stop)
        i = bisect.bisect_right(self._starts, start) - 1
        pieces, at = [], start
        while at < stop:
            lo, batch = self._starts[i], self._batches[i]
            hi = min(stop, lo + len(batch[0]))
            pieces.append(tuple(a[at - lo:hi - lo] for a in batch))
            at, i = hi, i + 1
        if len(pieces) == 1:
            return pieces[0]
        return tuple(np.concatenate(parts) for parts in zip(*pieces))

    def _make(self, stop: int) -> None:
        """Make the kernel's arrays of the first ``stop`` worlds (``window``), as new batches."""
        from ..kernel import world_generators
        from ..kernel.worlds import Dealer

        have = self._filled
        made = len(self.deals)
        parts = []
        if have < min(made, stop):
            parts.append(self._converted(have, min(made, stop)))
        if stop > max(have, made):
            if self._dealer is None:
                check_unseen(self.obs, self.unseen)
                self._dealer = Dealer(self.obs, self.unseen, self.rng, WORLD_SEED_BITS, BOT_SEED_BITS)
            parts.append(self._dealer(stop - max(have, made)))
        for part in parts:
            self._starts.append(self._filled)
            self._batches.append((*part, world_generators(part[2], part[3], len(self.obs.players))))
            self._filled += len(part[0])

    def _kernel_plays(self, rollouts: int) -> bool:
        """Whether these rollouts run compiled (``compiled``; once it does, it always does)."""
        if self.compiled is None and compiled(self.obs, rollouts, self.policy):
            self.compiled = compiled_rollouts(self.obs, self.policy, self.horizon, self.correction)
        return self.compiled is not None

    def _python_worlds(self, stop: int) -> None:
        """Deal the first ``stop`` worlds in Python, with their CPU players."""
        while len(self.deals) < stop:
            self.deals.append(deal_world(self.obs, self.rng, self.unseen))
            self.seeds.append(self.rng.getrandbits(BOT_SEED_BITS))
        if self.profiles is None:
            self.profiles = bot_profiles(self.obs, self.policy)
        while len(self.bots) < stop:
            self.bots.append(Bots(self.profiles, self.seeds[len(self.bots)]))

    def __call__(self, action: str, start: int, stop: int) -> list[float]:
        return self.after(self.obs, action, start, stop)

    def after(self, after: Observation, use: str, start: int, stop: int) -> list[float]:
        """The values of ``use`` played from ``after`` on samples ``start`` to ``stop - 1``,
        paired with every option's: ``after`` is this observation, or it after a move that
        shows no unseen card (*take*), so each world of this observation is one of ``after``'s."""
        if self._kernel_plays(stop - start):
            play = self._play(after)
            grids, draws, worlds, bots, generators = self.window(start, stop)
            return play(use, (grids, draws, worlds), bots, generators)
        self._python_worlds(stop)
        return [rollout(world(after, deal, use), use, bots.fresh(), self.obs.seat, self.horizon, self.correction)
                for deal, bots in zip(self.deals[start:stop], self.bots[start:stop])]

    def drawn(self, plan: dict, start: int, stop: int) -> list[float]:
        """*draw*'s values on samples ``start`` to ``stop - 1``, paired with every option's: in
        each world the top card of its pile is drawn and used as ``plan`` says for its kind
        (``plan[kind] = (after, use)``: ``after`` the observation after drawing one card of that
        kind, ``use`` the notation played). The world is then ``after``'s, the drawn card and the
        one ``after`` holds exchanged where they differ (same kind: same points, same pairs)."""
        kind = scoring_model(self.obs.rules).kind
        hidden = [[c is None for c in grid] for grid in self.obs.grids]
        top = self.obs.draw_pile_size - 1
        if self._kernel_plays(stop - start):
            return self._drawn_compiled(plan, start, stop, kind, hidden, top)
        self._python_worlds(stop)
        out = []
        for (grids, draw, seed), bots in zip(self.deals[start:stop], self.bots[start:stop]):
            after, use = plan[kind(draw[top])]
            grids, rest = exchanged(grids, draw[:top], hidden, after.drawn, draw[top])
            out.append(rollout(world(after, (grids, rest, seed), use), use, bots.fresh(), self.obs.seat,
                               self.horizon, self.correction))
        return out

    def _drawn_compiled(self, plan: dict, start: int, stop: int, kind, hidden: list, top: int) -> list[float]:
        import numpy as np

        from ..kernel.tables import card_index, card_of

        grids, draws, worlds, bots, generators = self.window(start, stop)
        kinds = [kind(card_of(int(i))) for i in draws[:, top]]
        out = np.empty(len(kinds))
        for k, (after, use) in plan.items():
            rows = [w for w, x in enumerate(kinds) if x == k]
            if not rows:
                continue
            g, d = grids[rows].copy(), draws[rows].copy()
            held = card_index(after.drawn)
            for r, w in enumerate(rows):
                drawn = int(draws[w, top])
                if drawn != held:
                    exchange_index(g[r], d[r, :top], hidden, held, drawn)
            values = self._play(after)(use, (g, d, worlds[rows]), bots[rows], generators[rows])
            out[rows] = values
        return [float(v) for v in out]


def exchanged(grids: list, rest: list, hidden: list, held, drawn) -> tuple[list, list]:
    """A world's grids and remaining pile with the first unseen copy of ``held`` (a face-down
    card, where ``hidden[s][i]``, or a card of ``rest``) replaced by ``drawn``: the world's
    cards then match an observation holding ``held`` after ``drawn`` was drawn."""
    if held == drawn:
        return grids, rest
    for s, grid in enumerate(grids):
        for i, card in enumerate(grid):
            if hidden[s][i] and card == held:
                grids = [list(g) for g in grids]
                grids[s][i] = drawn
                return grids, rest
    rest = list(rest)
    rest[rest.index(held)] = drawn
    return grids, rest


def exchange_index(grids, rest, hidden: list, held: int, drawn: int) -> None:
    """``exchanged`` in place on one world's kernel arrays (card indices)."""
    for s in range(len(hidden)):
        for i in range(6):
            if hidden[s][i] and grids[s, i] == held:
                grids[s, i] = drawn
                return
    for j in range(len(rest)):
        if rest[j] == held:
            rest[j] = drawn
            return
    raise ValueError(f"card index {held} is not among the world's unseen cards")


def leaf(obs: Observation, correction=None) -> float:
    """The seat's expected hand score minus the others' mean, each face-down card at the exact
    expectation over the cards this seat cannot see (``golflab.ev``); each hand corrected by
    ``correction`` when given (``leaf.LeafCorrection.hand``: what play does after the horizon)."""
    pool = Pool(unseen_counts(obs), obs.rules)
    kind = pool.model.kind
    hands = [[None if c is None else kind(c) for c in grid] for grid in obs.grids]
    est = [pool.hand_ev(kinds) for kinds in hands]
    if correction is not None:
        fewest = fewest_down(obs.grids)
        est = [e + correction.hand(kinds, fewest) for e, kinds in zip(est, hands)]
    mine = est.pop(obs.seat)
    return mine - sum(est) / len(est)
