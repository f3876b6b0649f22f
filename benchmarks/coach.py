"""How fast the coach answers (CPU time on one core): a hint, an Expert move and the review of a 9-hole game.

Positions come from games of four CPU personalities (default rules). Each figure is a median:
over every decision with a choice in the sampled positions (hint, Expert move, each timed
with an empty cache) and over the reviews of several 9-hole games (one seat each).

Both ways in the same run: the Python reference rollouts (``GOLFLAB_KERNEL=0``), then the
compiled kernel's (``golflab.kernel``; the same values), with the speed-up of each median.

Then a fresh process's *first* hint, the one a learner waits for at a new page (the compiled
kernel's one-time load included), at a hole's first flip and mid-hole, by the number of rollouts
a process plays in Python before it loads the kernel (``coach.rollouts.KERNEL_MIN_ROLLOUTS``):
medians over ``--fresh`` processes (default 5).

``python benchmarks/coach.py [positions] [games] [--fresh N]`` (defaults 40, 3 and 5).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time

from golflab import Game, Rules, coach
from golflab.ai import CPUPlayer

PLAYERS = ("Sofia", "Maya", "Priya", "Marcus")


def positions(count: int, seed: int = 0) -> list:
    """Observations of the seat to move with at least two legal actions, spread over holes."""
    out, index = [], 0
    while len(out) < count:
        game = Game(list(PLAYERS), Rules(rounds=1), seed=seed + index)
        bots = [CPUPlayer(p, seed=index + s) for s, p in enumerate(PLAYERS)]
        step = 0
        while not game.is_over:
            obs = game.observation(game.current_player)
            if len(obs.legal_actions) > 1 and step % 5 == index % 5 and len(out) < count:
                out.append(obs)
            game.apply(bots[game.current_player].choose(obs))
            step += 1
        index += 1
    return out


def timed(fn, items) -> list[float]:
    """CPU seconds of ``fn`` on each item (``time.process_time``: the time on one core, which a
    busy machine does not inflate as it does the wall-clock time), cache emptied first."""
    out = []
    for item in items:
        coach.clear_cache()
        start = time.process_time()
        fn(item)
        out.append(time.process_time() - start)
    return out


def full_game(seed: int) -> Game:
    game = Game(list(PLAYERS), Rules(), seed=seed)
    bots = [CPUPlayer(p, seed=seed + s) for s, p in enumerate(PLAYERS)]
    while not game.is_over:
        if game.phase == "round_over":
            game.next_round()
            continue
        game.apply(bots[game.current_player].choose(game.observation(game.current_player)))
    return game


def measure(obs: list, games: list) -> tuple[list, list, list]:
    """CPU seconds of each hint, Expert move and review."""
    expert = CPUPlayer("Expert")
    return (timed(coach.hint, obs), timed(expert.choose, obs), timed(lambda g: coach.review(g, 0), games))


#: A fresh process's first hint: its CPU seconds at the position ``sys.argv[3]`` of deal ``sys.argv[2]``
#: ("first": the hole's first flip; "mid": after 14 moves of CPU players), Python rollouts first
#: up to ``sys.argv[1]``.
FIRST_HINT = """
import json, sys, time
from golflab import Game, Rules, coach
from golflab.ai import CPUPlayer
coach.rollouts.KERNEL_MIN_ROLLOUTS = int(sys.argv[1])
game = Game(["You", "Sofia", "Maya", "Marcus"], Rules(rounds=1), seed=int(sys.argv[2]))
if sys.argv[3] == "mid":
    bots = [CPUPlayer("Sofia", seed=s) for s in range(4)]
    for _ in range(14):
        game.apply(bots[game.current_player].choose(game.observation(game.current_player)))
start = time.process_time()
coach.hint(game.observation(game.current_player))
print(json.dumps(time.process_time() - start))
"""


def first_hints(processes: int, thresholds=(0, 400, 2000)) -> None:
    """Print the median CPU seconds of a fresh process's first hint, by threshold and position."""
    print(f"a fresh process's first hint (CPU s, median of {processes} processes; kernel load included):")
    env = {**os.environ, "GOLFLAB_KERNEL": "1"}
    for where in ("first", "mid"):
        row = []
        for threshold in thresholds:
            times = [json.loads(subprocess.run([sys.executable, "-c", FIRST_HINT, str(threshold), str(seed), where],
                                               capture_output=True, text=True, check=True, env=env).stdout)
                     for seed in range(1, processes + 1)]
            row.append(f"{threshold} in Python first: {statistics.median(times):.2f}")
        label = "a hole's first flip" if where == "first" else "mid-hole"
        print(f"  {label}: " + "; ".join(row))


def main(argv: list[str]) -> int:
    fresh = 5
    if "--fresh" in argv:
        at = argv.index("--fresh")
        fresh = int(argv[at + 1])
        argv = argv[:at] + argv[at + 2:]
    count = int(argv[0]) if argv else 40
    games = int(argv[1]) if len(argv) > 1 else 3
    obs = positions(count)
    played = [full_game(s) for s in range(games)]
    results = {}
    for engine in ("reference", "kernel"):
        # the Python rollouts, then the compiled kernel's (loaded first: its one-time load is not timed)
        os.environ["GOLFLAB_KERNEL"] = "0" if engine == "reference" else "1"
        coach.rollouts.KERNEL_MIN_ROLLOUTS = 0
        if engine == "kernel":
            coach.hint(obs[0])
        results[engine] = hint_t, move_t, review_t = measure(obs, played)
        print(f"{engine}:")
        print(f"  hint: median {statistics.median(hint_t) * 1000:.1f} ms over {len(obs)} positions "
              f"(max {max(hint_t) * 1000:.0f} ms)")
        print(f"  Expert move: median {statistics.median(move_t) * 1000:.1f} ms over {len(obs)} positions")
        print(f"  review of a 9-hole game: median {statistics.median(review_t):.2f} s over {games} games")
    ref, fast = results["reference"], results["kernel"]
    print("kernel speed-up (medians): " + ", ".join(
        f"{name} {statistics.median(a) / statistics.median(b):.1f}x"
        for name, a, b in zip(("hint", "Expert move", "review"), ref, fast)))
    first_hints(fresh)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
