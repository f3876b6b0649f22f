"""An experiment for issue 40: the rollouts' leaf corrected by what play does after the horizon.

The coach's rollouts stop ``rollouts.HORIZON`` table rounds ahead and score each hand at its
exact expectation now (``rollouts.leaf``): a face-up card counts its points and a face-down one
the pool's mean, as if the hole ended there. But the hole goes on, and the worst cards are
replaced: a column of two face-down cards ends on average about 6 points below that estimate, a
face-up 8 beside a face-down card about 10. The hint then prefers to take a known high card away
now over placing the drawn card on a face-down one (both choices of 200 that the end-of-hole
reference finds half a point worse are of that kind).

This script fits the correction from CPU play (``golflab.coach.leaf.fit``: ``holes`` holes of the
positions' four personalities, default rules, game seeds from ``seed``, away from the
positions') and measures the hint's choice (the race within ``hints.HINT_ROLLOUTS``) on
``coach_precision``'s positions with the coach's leaf and with the corrected one
(``rollouts.LEAF``), at each horizon asked for, judged by ``coach_precision``'s two end-of-hole
references (``--cache`` reuses them). The rollouts run in the compiled kernel when it is on
(the values are the same in Python).

``python benchmarks/leaf.py [positions] [--holes H] [--seed S] [--horizons 3,2] [--cache FILE]
[--end-samples N] [--processes P]`` (defaults 200, 40000, 50000, 3, none, ``END_SAMPLES``, 2).
"""

from __future__ import annotations

import multiprocessing
import statistics
import sys
import time

import coach_precision as cp

from golflab import Rules
from golflab.coach import hints, leaf, rollouts

#: The fit's holes and its first game seed, away from the positions' (``benchmarks/expert.py
#: --leaf-holes`` fits from the same seed).
HOLES = 40000
SEED = 50000

_POSITIONS: list = []


def _start(count: int, correction: "leaf.LeafCorrection | None") -> None:
    """A process's positions, and its leaf: corrected, or the coach's (None)."""
    rollouts.KERNEL_MIN_ROLLOUTS = 0
    rollouts.LEAF = correction
    _POSITIONS[:] = cp.positions(count)


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


def main(count: int = 200, holes: int = HOLES, seed: int = SEED, horizons: tuple = (3,), cache: "str | None" = None,
         end_samples: int = cp.END_SAMPLES, processes: int = 2) -> None:
    obs_list = cp.positions(count)
    ends, seconds = cp.references(obs_list, cp.end_references(end_samples), cache, processes)
    start = time.process_time()
    correction = leaf.fit(Rules(rounds=1), cp.PLAYERS, holes, seed)
    print(f"fitted from {holes} holes (game seeds from {seed}): {len(correction.means)} keys in "
          f"{time.process_time() - start:.0f} s CPU; e.g. two face-down cards, 4 down, fewest 3+: "
          f"{correction.column(None, None, 4, 3):+.2f}")
    ctx = multiprocessing.get_context("spawn")
    for name, used in (("coach's leaf", None), ("fitted leaf", correction)):
        with ctx.Pool(processes, _start, (count, used)) as pool:
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
