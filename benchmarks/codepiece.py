"""Codepiece CPU players: a CPU team against a random-play team, and how often CPU bids are made.

    .venv/bin/python benchmarks/codepiece.py [--deals 2000] [--bid-deals 5000] [--seed 0]

* **CPU vs random**: each deal is played twice with the same cards and dealer, the CPU
  team in seats 0/2 and then in seats 1/3; a deal's figure is a CPU player's mean payoff
  over the two (so the luck of the cards cancels). Printed: points per deal with a 95%
  interval, and the share of deals the CPU team came out ahead.
* **Bids made**: four CPU players; the share of contracts made by bid (7: all passed),
  with Wilson 95% intervals, and a bidding-side player's mean points.

Deterministic from ``--seed``; only the timing varies.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from golflab.codepiece.selfplay import bid_records, duplicate_points, made_by  # noqa: E402
from golflab.strategy import mean_ci  # noqa: E402


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000, help="duplicate deal pairs, CPU vs random")
    parser.add_argument("--bid-deals", type=int, default=5000, help="CPU self-play deals for the bid table")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    start = time.perf_counter()
    points = duplicate_points(args.deals, args.seed)
    mean, low, high = mean_ci(points)
    ahead = sum(p > 0 for p in points) / len(points)
    print(f"CPU team vs random team, {args.deals:,} duplicate deals (seats swapped), seed {args.seed}:")
    print(f"  points per deal for a CPU player: {mean:+.2f} (95% interval {low:+.2f} to {high:+.2f}); "
          f"CPU team ahead on {ahead:.1%} of deals  [{time.perf_counter() - start:.1f} s]")

    start = time.perf_counter()
    rows = bid_records(args.bid_deals, args.seed)
    print(f"\nBids made by four CPU players, {args.bid_deals:,} deals, seed {args.seed}:")
    print(f"  {'bid':>4} {'deals':>6} {'made':>6} {'rate':>6}  {'95% interval':<13} {'points':>7}")
    for g in made_by(rows, lambda r: r["bid"]):
        label = f"{g['group']}*" if g["group"] == 7 else str(g["group"])
        print(f"  {label:>4} {g['deals']:>6} {g['made']:>6} {g['rate']:>6.1%}  "
              f"{g['low']:.1%}-{g['high']:.1%}{'':<2} {g['points']:>+7.2f}")
    print(f"  (* 7: all four passed and the first bidder had to play 7)  [{time.perf_counter() - start:.1f} s]")


if __name__ == "__main__":
    main()
