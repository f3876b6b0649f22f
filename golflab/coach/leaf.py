"""A correction of the rollouts' leaf by what play does after the horizon (issue 40, on trial).

Where the coach's rollouts stop, each hand is scored at its exact expectation now
(``rollouts.leaf``), as if the hole ended there. The hole goes on, and the worst cards are
replaced: in CPU play a column of two face-down cards ends about 6 points below that estimate, a
face-up 8 beside a face-down card about 10. A ``LeafCorrection`` holds, for one set of rules,
the mean of (a column's final points minus its expectation then) by the column's two cards (as
kinds, or face down), the seat's face-down cards and the table's fewest (``FEWEST`` or more as
``FEWEST``), each key under ``MIN_SAMPLES`` falling back to a coarser one; ``fit`` measures it
from CPU play. It counts only where ``rollouts.LEAF`` is set (None by default: the coach's leaf
is uncorrected until the Expert playing it is measured, ``benchmarks/expert.py --leaf-holes``).
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from ..ai import CPUPlayer
from ..ev import Pool, unseen_counts
from ..game import Game, Phase
from ..model import scoring_model
from ..rules import Rules

#: A face-down card in a column's key.
DOWN = "down"
#: The table's fewest face-down cards counts up to this (more: as this many).
FEWEST = 3
#: Samples a key needs before its mean is used (else the next coarser key's).
MIN_SAMPLES = 200
COLUMNS = ((0, 3), (1, 4), (2, 5))


def column_key(top: "str | None", bottom: "str | None") -> tuple:
    """A column's two cards as kinds (``DOWN``: face down; None in), in one order whichever is on top."""
    return tuple(sorted(DOWN if k is None else k for k in (top, bottom)))


def coarser(key: tuple) -> tuple:
    """A correction's key (column, seat's face-down cards, table's fewest), then the coarser keys it
    falls back to: without the table's fewest, then the column alone."""
    return key, key[:2], key[:1]


def fewest_down(grids: Sequence) -> int:
    """The table's fewest face-down cards (None in a grid), ``FEWEST`` or more as ``FEWEST``."""
    return min(min(sum(c is None for c in g) for g in grids), FEWEST)


@dataclass(frozen=True, eq=False)
class LeafCorrection:
    """The leaf's correction under ``rules`` (one hole's: ``rounds=1``), fitted from ``holes`` holes of
    ``players`` (game seeds from ``seed``): ``means`` by key (see the module). Compared and hashed by
    what made it (``key``)."""

    rules: Rules
    players: tuple
    holes: int
    seed: int
    means: dict = field(repr=False)
    #: The table's fewest face-down cards counts up to this (the kernel's array is this deep plus one).
    fewest_cap: ClassVar[int] = FEWEST

    @property
    def key(self) -> tuple:
        return self.rules, self.players, self.holes, self.seed

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LeafCorrection) and other.key == self.key

    def __hash__(self) -> int:
        return hash(self.key)

    def column(self, top: "str | None", bottom: "str | None", down: int, fewest: int) -> float:
        """The correction of a column of kinds ``top`` and ``bottom`` (None: face down) of a seat with
        ``down`` face-down cards, the table's fewest being ``fewest`` (capped at ``FEWEST``)."""
        key = (column_key(top, bottom), down, min(fewest, FEWEST))
        for k in coarser(key):
            if k in self.means:
                return self.means[k]
        return 0.0

    def hand(self, kinds: Sequence, fewest: int) -> float:
        """The correction of a hand of six kinds in grid order (None: face down): its columns', summed
        in column order."""
        down = sum(k is None for k in kinds)
        return sum(self.column(kinds[a], kinds[b], down, fewest) for a, b in COLUMNS)

    def check(self, rules: Rules) -> None:
        """A ValueError unless this correction was fitted for ``rules`` (any number of holes)."""
        if rules.replace(rounds=1) != self.rules:
            raise ValueError(f"the leaf's correction was fitted for {self.rules.describe()}, not for "
                             f"{rules.describe()}: fit one for these rules (golflab.coach.leaf.fit)")


def fit(rules: Rules, players: Sequence[str], holes: int, seed: int) -> LeafCorrection:
    """The leaf's correction under ``rules`` from ``holes`` holes of the personalities ``players``
    (game ``seed + h``, the CPU seats seeded from it), at about half of the draw decisions (the
    same choice for the same seed): every seat's columns against their final points."""
    if isinstance(holes, bool) or not isinstance(holes, int) or holes < 1:
        raise ValueError(f"holes must be a whole number, 1 or more, got {holes!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be a whole number, got {seed!r}")
    rules = rules.replace(rounds=1)  # a hole's play: the same whatever the game's holes
    model = scoring_model(rules)
    sums: dict = defaultdict(lambda: [0, 0.0])
    for h in range(holes):
        game = Game(list(players), rules, seed=seed + h)
        bots = [CPUPlayer(p, seed=(seed + h) * 7 + s) for s, p in enumerate(players)]
        pick, seen = random.Random(seed + h), []
        while game.phase not in (Phase.ROUND_OVER, Phase.GAME_OVER):
            obs = game.observation(game.current_player)
            if game.awaiting == "draw" and pick.random() < 0.5:
                pool = Pool(unseen_counts(obs), rules)
                fewest = fewest_down(obs.grids)
                for s, grid in enumerate(obs.grids):
                    kinds = [None if c is None else model.kind(c) for c in grid]
                    down = sum(k is None for k in kinds)
                    seen.extend((s, a, b, (column_key(kinds[a], kinds[b]), down, fewest),
                                 pool.column_ev(kinds[a], kinds[b])) for a, b in COLUMNS)
            game.apply(bots[game.current_player].choose(obs))
        final = [[model.kind(c) for c in game.grid(s)] for s in range(len(players))]
        for s, a, b, key, ev in seen:
            change = model.column_points(final[s][a], final[s][b]) - ev
            for k in coarser(key):
                cell = sums[k]
                cell[0] += 1
                cell[1] += change
    means = {k: total / n for k, (n, total) in sums.items() if n >= MIN_SAMPLES}
    return LeafCorrection(rules, tuple(players), holes, seed, means)


__all__ = ["DOWN", "FEWEST", "MIN_SAMPLES", "LeafCorrection", "coarser", "column_key", "fewest_down", "fit"]
