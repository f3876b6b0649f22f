"""How fast the CPU players decide: microseconds per ``choose`` call and complete games per
second (4 CPU players, 9 holes, default rules, one core).

Prints medians of several runs. ``python benchmarks/ai_decisions.py [games]``
"""

from __future__ import annotations

import statistics
import sys
import time

from golflab import Rules
from golflab.ai import CPUPlayer
from golflab.simulation import play_games

PLAYERS = ("Sofia", "Maya", "Priya", "Marcus")
RUNS = 5


def play(games: int, seed: int = 0) -> tuple[int, int]:
    """Play ``games`` complete games (those of ``simulate``); return (turns, decisions)."""
    turns = decisions = 0
    for kind, _index, _game, _obs, action in play_games(PLAYERS, Rules(), seed, 0, games):
        if kind == "decision":
            turns += action.kind in ("draw", "take")
            decisions += 1
    return turns, decisions


def observations(games: int) -> list:
    """(bot, observation) for every decision of ``games`` games, to time ``choose`` alone."""
    bots = {p: CPUPlayer(p, seed=1) for p in PLAYERS}
    return [(bots[PLAYERS[obs.seat]], obs)
            for kind, _index, _game, obs, _action in play_games(PLAYERS, Rules(), 0, 0, games)
            if kind == "decision"]


def main(games: int = 50) -> None:
    sample = observations(10)
    per_call = []
    for _ in range(RUNS):
        start = time.perf_counter()
        for bot, obs in sample:
            bot.choose(obs)
        per_call.append((time.perf_counter() - start) / len(sample) * 1e6)
    print(f"choose(): median {statistics.median(per_call):.1f} us per call over {len(sample)} decisions")
    rates = []
    for run in range(RUNS):
        start = time.perf_counter()
        turns, decisions = play(games, seed=run * 1000)
        elapsed = time.perf_counter() - start
        rates.append((games / elapsed, turns / elapsed, decisions / elapsed))
    g, t, d = (statistics.median(r[i] for r in rates) for i in range(3))
    print(f"full games (observation + choose + apply): median {g:.0f} games/s, {t:,.0f} turns/s, "
          f"{d:,.0f} decisions/s over {RUNS} runs of {games} games")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 50)
