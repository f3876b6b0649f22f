"""The Expert against the personalities: duplicate deals with seats swapped.

Each deal is one hole at a table of 4: two Experts and two of the eight personalities drawn
at random, played twice from the same shuffle, the Experts at seats 0 and 2, then at 1 and 3
(the personalities taking the others). The margin is the personalities' mean hole score
minus the Experts' (positive: the Expert scores less), with a 95% interval from the spread
of the per-deal margins (normal approximation). Every ``--report`` deals it prints the
running figures, so a long run can be read while it goes.

``python benchmarks/expert.py --rounds 2000 [--seed 0] [--samples N] [--report 25]``
(``--rounds`` counts holes played: two per deal).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time

from golflab import Game, Rules
from golflab.ai import PROFILES, CPUPlayer


def play_hole(names: list[str], seed: int) -> tuple[int, ...]:
    """Play one hole with CPU players named ``names`` (personalities or "Expert"); its scores."""
    game = Game([f"{n} {i}" for i, n in enumerate(names)], Rules(rounds=1), seed=seed)
    bots = [CPUPlayer(n, seed=random.Random(f"{seed}:{i}").getrandbits(63)) for i, n in enumerate(names)]
    while not game.is_over:
        seat = game.current_player
        game.apply(bots[seat].choose(game.observation(seat)))
    return game.round_results[-1].scores


def deal_margin(index: int, seed: int) -> tuple[float, float, float]:
    """(personalities' mean, Experts' mean, margin) over both seatings of deal ``index``."""
    rng = random.Random(f"golflab.expert-bench:{seed}:{index}")
    a, b = rng.sample(list(PROFILES), 2)
    deal_seed = rng.getrandbits(63)
    expert, others = [], []
    for names in (["Expert", a, "Expert", b], [a, "Expert", b, "Expert"]):
        for name, score in zip(names, play_hole(names, deal_seed)):
            (expert if name == "Expert" else others).append(score)
    pm, em = sum(others) / len(others), sum(expert) / len(expert)
    return pm, em, pm - em


def summary(margins: list[float], pms: list[float], ems: list[float]) -> str:
    n = len(margins)
    mean = sum(margins) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in margins) / (n - 1)) if n > 1 else float("nan")
    half = 1.96 * sd / math.sqrt(n)
    return (f"{2 * n} rounds ({n} deals): personalities {sum(pms) / n:.2f}, Expert {sum(ems) / n:.2f} points "
            f"per round; margin {mean:+.2f} (95% interval {mean - half:+.2f} to {mean + half:+.2f})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000, help="holes to play (two per deal)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--report", type=int, default=25, help="print running figures every N deals")
    args = parser.parse_args(argv)
    if args.rounds < 2:
        parser.error(f"--rounds must be 2 or more, got {args.rounds}")
    margins, pms, ems = [], [], []
    start = time.perf_counter()
    deals = args.rounds // 2
    for i in range(deals):
        pm, em, d = deal_margin(i, args.seed)
        pms.append(pm)
        ems.append(em)
        margins.append(d)
        if (i + 1) % args.report == 0 or i + 1 == deals:
            print(f"{summary(margins, pms, ems)} [{time.perf_counter() - start:.0f} s]", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
