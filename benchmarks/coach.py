"""How fast the coach answers (CPU time on one core): a hint, an Expert move and the review of a 9-hole game.

Positions come from games of four CPU personalities (default rules). Each figure is a median:
over every decision with a choice in the sampled positions (hint, Expert move, each timed
with an empty cache) and over the reviews of several 9-hole games (one seat each).

Both ways in the same run: the Python reference rollouts (``GOLFLAB_KERNEL=0``), then the
compiled kernel's (``golflab.kernel``; the same values), with the speed-up of each median.

``python benchmarks/coach.py [positions] [games]`` (defaults 40 and 3).
"""

from __future__ import annotations

import os
import statistics
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


def main(argv: list[str]) -> int:
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
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
