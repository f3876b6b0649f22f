"""How right and how fast the default hint is: the adaptive race against today's fixed split.

Positions: decisions with a choice from games of four CPU personalities (default rules, one
hole each). Reference: every option valued on 2,000 determinizations (compiled kernel) drawn
from another seed than the hints'. For each scheme: the mean regret (reference points lost by
playing the hint's first option instead of the reference's best), the share of positions
where it picks a move 0.5 points or more worse, and the median and 95th percentile of one hint's
time (cache emptied), CPU time (``time.process_time``) and wall time, each the median of
``repeats`` runs. The machine's load average is printed beside the times.

Schemes: ``race`` is ``coach.hint(obs)`` (``golflab.racing``); ``fixed`` is the former default,
``HINT_ROLLOUTS = 160`` split evenly over the options, at least 16 each
(``hint(obs, samples=max(16, 160 // options))``).

``python benchmarks/coach_precision.py [positions] [repeats] [--cache FILE]`` (defaults 200
and 3; ``--cache`` keeps the reference values in a JSON file to reuse).
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from pathlib import Path

from golflab import Game, Rules, coach
from golflab.ai import CPUPlayer

PLAYERS = ("Sofia", "Maya", "Priya", "Marcus")
REFERENCE_SAMPLES = 2000
REFERENCE_SEED = 0x5EED


def positions(count: int, seed: int = 100) -> list:
    """Observations of the seat to move with at least two legal actions, a few per hole."""
    out, index = [], 0
    while len(out) < count:
        game = Game(list(PLAYERS), Rules(rounds=1), seed=seed + index)
        bots = [CPUPlayer(p, seed=index + s) for s, p in enumerate(PLAYERS)]
        step = 0
        while not game.is_over and len(out) < count:
            obs = game.observation(game.current_player)
            if len(obs.legal_actions) > 1 and step % 4 == index % 4:
                out.append(obs)
            game.apply(bots[game.current_player].choose(obs))
            step += 1
        index += 1
    return out


def reference(obs) -> dict[str, float]:
    seed = coach.observation_seed(obs) ^ REFERENCE_SEED
    return {o.action: o.value for o in coach.hint(obs, samples=REFERENCE_SAMPLES, seed=seed)}


def fixed(obs):
    return coach.hint(obs, samples=max(16, 160 // len(obs.legal_actions)))


def race(obs):
    return coach.hint(obs)


def timed(fn, obs, repeats: int) -> tuple[float, float, str]:
    cpu, wall = [], []
    for _ in range(repeats):
        coach.clear_cache()
        c, w = time.process_time(), time.perf_counter()
        first = fn(obs)[0].action
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
    return statistics.median(cpu), statistics.median(wall), first


def pct(xs, q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(q * (len(xs) - 1)))]


def main(count: int = 200, repeats: int = 3, cache: str | None = None) -> None:
    obs_list = positions(count)
    coach.rollouts.KERNEL_MIN_ROLLOUTS = 0  # the compiled kernel from the first hint
    race(obs_list[0])  # load the kernel before timing
    stored = json.loads(Path(cache).read_text()) if cache and Path(cache).exists() else {}
    refs = []
    start = time.perf_counter()
    for i, obs in enumerate(obs_list):
        key = str(coach.observation_seed(obs))
        if key not in stored:
            stored[key] = reference(obs)
        refs.append(stored[key])
        if i % 20 == 19:
            print(f"reference {i + 1}/{count} ({time.perf_counter() - start:.0f} s)", file=sys.stderr)
    if cache:
        Path(cache).write_text(json.dumps(stored))
    coach.clear_cache()
    print(f"{count} positions, reference {REFERENCE_SAMPLES} samples per option (seed xor {REFERENCE_SEED:#x}); "
          f"load average before timing {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    for name, fn in (("fixed (before)", fixed), ("race (now)", race)):
        regrets, cpu, wall, rollouts = [], [], [], []
        for obs, ref in zip(obs_list, refs):
            c, w, first = timed(fn, obs, repeats)
            cpu.append(c)
            wall.append(w)
            regrets.append(ref[first] - min(ref.values()))
            rollouts.append(sum(o.samples for o in fn(obs)))
        bad = sum(r >= 0.5 for r in regrets)
        print(f"{name:15} mean regret {statistics.mean(regrets):.3f} points; >= 0.5 worse in {bad}/{count} "
              f"({100 * bad / count:.1f}%); rollouts median {statistics.median(rollouts):.0f}, "
              f"p95 {pct(rollouts, 0.95):.0f}; CPU ms median {1000 * statistics.median(cpu):.1f}, "
              f"p95 {1000 * pct(cpu, 0.95):.1f}; wall ms median {1000 * statistics.median(wall):.1f}, "
              f"p95 {1000 * pct(wall, 0.95):.1f}")
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    args = sys.argv[1:]
    path = None
    if "--cache" in args:
        i = args.index("--cache")
        path = args[i + 1]
        del args[i:i + 2]
    main(*(int(a) for a in args), cache=path)
