"""Engine throughput: random-legal-action playouts on one core.

Prints turns/s, rounds/s and actions/s as the median of several runs, with the spread
(min-max). Goal: at least 50,000 turns/s.

    .venv/bin/python benchmarks/engine.py            # 5 runs of 2,000 holes
    .venv/bin/python benchmarks/engine.py --quick    # 5 runs of 200 holes
    .venv/bin/python benchmarks/engine.py --players 6 --rule flip_mode=always --rule jokers=eagle_eye
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from golflab import Game, Phase, Rules


def playout(holes: int, players: int, rules: Rules, seed: int) -> tuple[float, int, int]:
    """Play ``holes`` one-hole games with uniformly random legal actions: (seconds, turns, actions)."""
    rng = random.Random(seed)
    randrange = rng.randrange
    rules = rules.replace(rounds=1)
    turns = actions = 0
    start = time.perf_counter()
    for i in range(holes):
        game = Game(players, rules, seed=seed * 1_000_003 + i)
        legal, apply = game.legal_actions, game.apply
        while game.phase is not Phase.GAME_OVER:
            acts = legal()
            apply(acts[randrange(len(acts))])
            actions += 1
        turns += sum(game.turns)
    return time.perf_counter() - start, turns, actions


def parse_rule(text: str) -> tuple[str, object]:
    name, _, raw = text.partition("=")
    if not raw:
        raise argparse.ArgumentTypeError(f"--rule takes name=value, got {text!r}")
    value: object = {"true": True, "false": False}.get(raw.lower(), raw)
    if isinstance(value, str) and value.lstrip("-").isdigit():
        value = int(value)
    return name, value


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short run (200 holes per run)")
    parser.add_argument("--holes", type=int, help="holes per run (default 2000, or 200 with --quick)")
    parser.add_argument("--runs", type=int, default=5, help="runs to take the median of (default 5)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rule", type=parse_rule, action="append", default=[], help="a rule option, name=value")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    holes = args.holes or (200 if args.quick else 2000)
    rules = Rules(**dict(args.rule))
    results = [playout(holes, args.players, rules, args.seed + run) for run in range(args.runs)]

    def line(label: str, rates: list[float]) -> str:
        return (f"{label:<10} median {statistics.median(rates):>10,.0f}   "
                f"spread {min(rates):,.0f} - {max(rates):,.0f}")

    turns = sum(t for _, t, _ in results)
    print(f"engine playouts: {args.runs} runs x {holes} holes, {args.players} players, {rules!r}, "
          f"{turns / (holes * args.runs):.1f} turns per hole")
    print(line("turns/s", [t / s for s, t, _ in results]))
    print(line("rounds/s", [holes / s for s, _, _ in results]))
    print(line("actions/s", [a / s for s, _, a in results]))


if __name__ == "__main__":
    main()
