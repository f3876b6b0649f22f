"""The ladder of levels 1-8: each level against the next, duplicate deals with seats swapped.

Each deal is one hole at a table of 4, two of level n and two of level n+1, played twice
from the same shuffle: level n at seats 0 and 2, then at 1 and 3 (``play_hole`` of
``benchmarks/expert.py``). The margin is level n's mean hole score minus level n+1's
(positive: the higher level scores less, as it should), with a 95% interval from the spread
of the per-deal margins (normal approximation). Then the median (and mean) time of one move
per level, over the same positions for every level (positions of Marcus's games), on this
machine, whose load it depends on.

``python benchmarks/levels.py [--pairs 1-7] [--rounds 400] [--search-rounds 100] [--seed 0]
[--positions 40] [--processes 1] [--horizon 3]`` (``--rounds`` counts holes, two per deal;
``--search-rounds`` for the pairs that involve levels 6-8, which are slow; ``--horizon``: the table
rounds the Expert's rollouts look ahead, in Level 8; levels 6 and 7 search their own
``Level.horizon`` ahead).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from expert import add_horizon_option, apply_horizon, play_hole  # noqa: E402  (benchmarks/expert.py)

from golflab import Game, Rules, coach  # noqa: E402
from golflab.ai import LEVELS, CPUPlayer  # noqa: E402


@dataclass(frozen=True)
class Rung:
    """Level ``low`` against level ``low + 1`` over ``deals`` deals: mean points per round of
    each and the margin (low's minus high's) with its 95% interval half-width."""

    low: int
    deals: int
    low_mean: float
    high_mean: float
    margin: float
    half: float

    def line(self) -> str:
        low, high = self.margin - self.half, self.margin + self.half
        resolved = "" if low > 0 else "  (WRONG ORDER: the lower level scores less)" if high < 0 \
            else "  (not resolved at this sample)"
        return (f"Level {self.low} v Level {self.low + 1}: {2 * self.deals} rounds ({self.deals} deals): "
                f"{self.low_mean:.2f} v {self.high_mean:.2f} points per round; margin {self.margin:+.2f} "
                f"(95% interval {low:+.2f} to {high:+.2f}){resolved}")


def deal_means(task: tuple[int, int, int]) -> tuple[float, float]:
    """(level low's, level low+1's) mean hole score over both seatings of one deal (``task``:
    low, seed, index)."""
    low, seed, index = task
    a, b = f"Level {low}", f"Level {low + 1}"
    deal_seed = random.Random(f"golflab.levels-bench:{seed}:{low}:{index}").getrandbits(63)
    mine = {a: [], b: []}
    for names in ([a, b, a, b], [b, a, b, a]):
        for name, score in zip(names, play_hole(names, deal_seed)):
            mine[name].append(score)
    return statistics.fmean(mine[a]), statistics.fmean(mine[b])


def rung(low: int, deals: int, seed: int, processes: int = 1) -> Rung:
    """Level ``low`` against the next over ``deals`` duplicate deals (seats swapped), the deals
    played by ``processes`` worker processes (the same results whatever their number)."""
    tasks = [(low, seed, i) for i in range(deals)]
    if processes > 1:
        with multiprocessing.Pool(processes) as pool:
            results = pool.map(deal_means, tasks)
    else:
        results = list(map(deal_means, tasks))
    lows, highs = [lo for lo, _ in results], [hi for _, hi in results]
    margins = [lo - hi for lo, hi in results]
    mean = statistics.fmean(margins)
    half = 1.96 * statistics.stdev(margins) / math.sqrt(deals) if deals > 1 else float("nan")
    return Rung(low, deals, statistics.fmean(lows), statistics.fmean(highs), mean, half)


def positions(count: int, seed: int) -> list:
    """``count`` observations of a seat to move (with a choice to make), from Marcus's games."""
    out, g = [], 0
    while len(out) < count:
        game = Game([f"Marcus {i}" for i in range(4)], Rules(rounds=1), seed=seed * 1000 + g)
        bots = [CPUPlayer("Marcus", seed=seed * 1000 + g + i) for i in range(4)]
        while not game.is_over and len(out) < count:
            obs = game.observation(game.current_player)
            if len(obs.legal_actions) > 1 and random.Random(f"{seed}:{g}:{len(game.history)}").random() < 0.3:
                out.append(obs)
            game.apply(bots[game.current_player].choose(obs))
        g += 1
    return out


def move_ms(level: int, obs_list: list) -> tuple[float, float]:
    """(median, mean) milliseconds of ``CPUPlayer("Level n").choose`` over ``obs_list``, the
    coach's remembered hints forgotten before each move (``coach.clear_cache``)."""
    player = CPUPlayer(f"Level {level}", seed=0)
    times = []
    for obs in obs_list:
        coach.clear_cache()
        start = time.perf_counter()
        player.choose(obs)
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times), 1000 * statistics.fmean(times)


def _span(text: str) -> range:
    lo, _, hi = text.partition("-")
    first, last = int(lo), int(hi or lo)
    if not 1 <= first <= last <= len(LEVELS) - 1:
        raise ValueError(f"--pairs must be a range of lower levels within 1-{len(LEVELS) - 1}, got {text!r}")
    return range(first, last + 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", default=f"1-{len(LEVELS) - 1}", help="lower levels of the pairs, e.g. 1-4")
    parser.add_argument("--rounds", type=int, default=400, help="holes per pair of cheap levels (two per deal)")
    parser.add_argument("--search-rounds", type=int, default=100, help="holes per pair involving a search level")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--positions", type=int, default=40, help="positions timed per level (0: no timing)")
    parser.add_argument("--processes", type=int, default=1, help="worker processes (deals in parallel)")
    add_horizon_option(parser)
    args = parser.parse_args(argv)
    try:
        span = _span(args.pairs)
    except ValueError as exc:
        parser.error(str(exc))
    if min(args.rounds, args.search_rounds) < 4:
        parser.error("--rounds and --search-rounds must be 4 or more")
    if args.processes < 1:
        parser.error(f"--processes must be 1 or more, got {args.processes}")
    apply_horizon(parser, args.horizon)
    print(f"seed {args.seed}, the Expert's horizon {args.horizon} table rounds; levels: "
          + "; ".join(f"{lv.name} = {lv.summary}" + (f" ({lv.horizon or args.horizon} table rounds ahead)"
                                                      if lv.searches else "") for lv in LEVELS), flush=True)
    for low in span:
        searches = LEVELS[low].searches  # the higher level of the pair (LEVELS[low] is Level low+1)
        start = time.perf_counter()
        result = rung(low, (args.search_rounds if searches else args.rounds) // 2, args.seed, args.processes)
        print(f"{result.line()} [{time.perf_counter() - start:.0f} s]", flush=True)
    if args.positions:
        obs_list = positions(args.positions, args.seed)
        move_ms(len(LEVELS), obs_list[:1])  # loads the compiled kernel, if any, before timing
        for level in sorted({*span, span[-1] + 1}):
            median, mean = move_ms(level, obs_list)
            print(f"Level {level}: median move {median:.2f} ms (mean {mean:.2f}) over {len(obs_list)} positions",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
