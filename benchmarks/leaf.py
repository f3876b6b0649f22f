"""An experiment for issue 40: the rollouts' leaf corrected by what play does after the horizon.

The coach's rollouts stop ``rollouts.HORIZON`` table rounds ahead and score each hand at its
exact expectation now (``rollouts.leaf``): a face-up card counts its points and a face-down one
the pool's mean, as if the hole ended there. But the hole goes on, and the worst cards are
replaced: a column of two face-down cards ends on average about 6 points below that estimate, a
face-up 8 beside a face-down card about 10. The hint then prefers to take a known high card away
now over placing the drawn card on a face-down one (both choices of 200 that the end-of-hole
reference finds half a point worse are of that kind).

This script fits the correction from CPU play and measures the hint with it:

1. ``fit``: ``holes`` holes of the positions' four personalities (``coach_precision.PLAYERS``,
   default rules; game seeds from ``seed``, away from the positions'), at about half of the draw
   decisions, for every seat and column: the column's final points minus its expectation then.
   The mean by (the column's two cards, as kinds or face down; the seat's face-down cards; the
   table's fewest, 3 or more as 3) is the correction, falling back to coarser keys under 200
   samples.
2. The hint's choice (the race within ``hints.HINT_ROLLOUTS``) on ``coach_precision``'s
   positions, with the coach's leaf and with the fitted one (each hand's expectation plus its
   columns' corrections), at each horizon asked for, judged by ``coach_precision``'s two
   end-of-hole references (``--cache`` reuses them).

The hints' rollouts run in Python (``GOLFLAB_KERNEL=0`` in their processes): the compiled kernel
has the coach's leaf only, and this script swaps the Python one (``rollouts.leaf``) in each such
process; the values are otherwise the coach's (the coach's leaf in Python gives the kernel's
values). A hint costs about ten times the kernel's CPU here, so the times printed are rollouts.

``python benchmarks/leaf.py [positions] [--holes H] [--seed S] [--horizons 3,2] [--cache FILE]
[--end-samples N] [--processes P]`` (defaults 200, 40000, 50000, 3, none, ``END_SAMPLES``, 2).
"""

from __future__ import annotations

import multiprocessing
import os
import random
import statistics
import sys
import time
from collections import defaultdict

import coach_precision as cp

from golflab import Game, Rules
from golflab.ai import CPUPlayer
from golflab.coach import hints, rollouts
from golflab.ev import Pool, unseen_counts
from golflab.game import Phase
from golflab.model import scoring_model

COLUMNS = ((0, 3), (1, 4), (2, 5))
DOWN = "down"
#: Samples a key needs before its mean is used (else the next coarser key's).
MIN_SAMPLES = 200


def column_key(top: "str | None", bottom: "str | None") -> tuple:
    """A column's two cards as kinds (``DOWN``: face down), in one order whichever is on top."""
    return tuple(sorted(DOWN if k is None else k for k in (top, bottom)))


def kinds_of(grid, kind) -> list:
    return [None if c is None else kind(c) for c in grid]


def fit(holes: int, seed: int) -> dict:
    """The leaf's correction by key (see the module), from ``holes`` holes of CPU play."""
    rules = Rules(rounds=1)
    model = scoring_model(rules)
    sums: dict = defaultdict(lambda: [0, 0.0])
    for h in range(holes):
        game = Game(list(cp.PLAYERS), rules, seed=seed + h)
        bots = [CPUPlayer(p, seed=(seed + h) * 7 + s) for s, p in enumerate(cp.PLAYERS)]
        pick, seen = random.Random(seed + h), []
        while game.phase not in (Phase.ROUND_OVER, Phase.GAME_OVER):
            obs = game.observation(game.current_player)
            if game.awaiting == "draw" and pick.random() < 0.5:
                pool = Pool(unseen_counts(obs), rules)
                down = [sum(c is None for c in g) for g in obs.grids]
                fewest = min(min(down), 3)
                for s, grid in enumerate(obs.grids):
                    ks = kinds_of(grid, model.kind)
                    seen.extend((s, c, (column_key(ks[a], ks[b]), down[s], fewest), pool.column_ev(ks[a], ks[b]))
                                for c, (a, b) in enumerate(COLUMNS))
            game.apply(bots[game.current_player].choose(obs))
        final = [kinds_of(game.grid(s), model.kind) for s in range(len(cp.PLAYERS))]
        for s, c, key, ev in seen:
            a, b = COLUMNS[c]
            points = model.column_points(final[s][a], final[s][b])
            for k in (key, key[:2], key[:1]):
                cell = sums[k]
                cell[0] += 1
                cell[1] += points - ev
    return {k: total / n for k, (n, total) in sums.items() if n >= MIN_SAMPLES}


def fitted_leaf(table: dict):
    """``rollouts.leaf`` with each column's correction from ``table`` added to its hand's expectation."""
    def correction(key: tuple) -> float:
        for k in (key, key[:2], key[:1]):
            if k in table:
                return table[k]
        return 0.0

    def leaf(obs) -> float:
        pool = Pool(unseen_counts(obs), obs.rules)
        down = [sum(c is None for c in g) for g in obs.grids]
        fewest = min(min(down), 3)
        est = []
        for s, grid in enumerate(obs.grids):
            ks = kinds_of(grid, pool.model.kind)
            est.append(pool.hand_ev(ks) + sum(correction((column_key(ks[a], ks[b]), down[s], fewest))
                                              for a, b in COLUMNS))
        mine = est.pop(obs.seat)
        return mine - sum(est) / len(est)

    return leaf


_POSITIONS: list = []


def _start(count: int, table: "dict | None") -> None:
    """A process's positions, and its leaf: the fitted one, or the coach's (None), in Python (the
    kernel's is the coach's; the references are made with it, in other processes)."""
    os.environ["GOLFLAB_KERNEL"] = "0"
    _POSITIONS[:] = cp.positions(count)
    if table is not None:
        rollouts.leaf = fitted_leaf(table)


def _choice(job: tuple) -> tuple[str, int]:
    i, horizon = job
    obs = _POSITIONS[i]
    hints.clear_cache()
    options = hints.evaluate(obs, tuple(a.notation for a in obs.legal_actions), None, hints.HINT_ROLLOUTS,
                             horizon=horizon)
    return options[0].action, hints.rollouts_spent(options)


def judged(name: str, obs_list: list, choices: list, ends: list, seconds: list) -> str:
    losses = [cp.regret(end, c) for (c, _), end in zip(choices, ends)]
    second = [cp.regret(end, c) for (c, _), end in zip(choices, seconds)]
    bad = [i for i, loss in enumerate(losses) if loss >= 0.5]
    spent = [n for _, n in choices]
    return (f"{name}: end of hole regret {statistics.mean(losses):.3f}, >= 0.5 worse {len(bad)}/{len(losses)} "
            f"(positions {bad}); second reference {statistics.mean(second):.3f}, "
            f"{sum(x >= 0.5 for x in second)}/{len(second)}; rollouts median {statistics.median(spent):.0f}, "
            f"p95 {cp.pct(spent, 0.95):.0f}; by kind {cp.by_kind(obs_list, losses)}")


def main(count: int = 200, holes: int = 40000, seed: int = 50000, horizons: tuple = (3,), cache: "str | None" = None,
         end_samples: int = cp.END_SAMPLES, processes: int = 2) -> None:
    obs_list = cp.positions(count)
    ends, seconds = cp.references(obs_list, cp.end_references(end_samples), cache, processes)
    start = time.process_time()
    table = fit(holes, seed)
    print(f"fitted from {holes} holes (game seeds from {seed}): {len(table)} keys in "
          f"{time.process_time() - start:.0f} s CPU; e.g. two face-down cards, 4 down, fewest 3+: "
          f"{table.get(((DOWN, DOWN), 4, 3), float('nan')):+.2f}")
    ctx = multiprocessing.get_context("spawn")
    for name, leaf_table in (("coach's leaf", None), ("fitted leaf", table)):
        with ctx.Pool(processes, _start, (count, leaf_table)) as pool:
            for horizon in horizons:
                choices = pool.map(_choice, [(i, horizon) for i in range(count)], chunksize=4)
                print(judged(f"{name}, {horizon} rounds", obs_list, choices, ends, seconds), flush=True)


if __name__ == "__main__":
    args = sys.argv[1:]
    options: dict = {}
    for flag, name, parse in (("--holes", "holes", int), ("--seed", "seed", int), ("--cache", "cache", str),
                              ("--horizons", "horizons", lambda v: tuple(int(h) for h in v.split(","))),
                              ("--end-samples", "end_samples", int), ("--processes", "processes", int)):
        if flag in args:
            i = args.index(flag)
            options[name] = parse(args[i + 1])
            del args[i:i + 2]
    main(*(int(a) for a in args), **options)
