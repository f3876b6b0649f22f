"""This machine's speed as one figure, to print beside a time so that times read on different machines
can be compared: the CPU seconds that one fixed piece of work takes here, 1,000 one-hole games of four
CPU personalities played move by move in golflab's Python engine (no compiled code, one process),
the median of 3 runs.

    .venv/bin/python benchmarks/machine.py

Measured on 2026-11-30 on a 2-core machine that compiles the kernel (``python -m golflab.kernel``,
empty cache) in 73.5 s: ``MEASURED_THEN`` seconds (0.96 to 1.00 in five runs, some beside other
work: CPU time, which other processes hardly change). A slower machine's figure is larger in
proportion: a time budget read on it is that much harder to meet.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from golflab import Game, Rules  # noqa: E402
from golflab.ai import CPUPlayer  # noqa: E402

PLAYERS = ("Sofia", "Maya", "Priya", "Marcus")
GAMES = 1000
RUNS = 3
#: This script's figure on the machine named in the docstring (2026-11-30).
MEASURED_THEN = 0.98


def work() -> int:
    """The fixed work: ``GAMES`` holes played move by move; the moves played (a check that it ran)."""
    moves = 0
    for seed in range(GAMES):
        game = Game(list(PLAYERS), Rules(rounds=1), seed=seed)
        bots = [CPUPlayer(name, seed=seed + seat) for seat, name in enumerate(PLAYERS)]
        while not game.is_over:
            game.apply(bots[game.current_player].choose(game.observation(game.current_player)))
            moves += 1
    return moves


def speed() -> float:
    """CPU seconds of ``work()`` here, the median of ``RUNS``."""
    times = []
    for _ in range(RUNS):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return statistics.median(times)


def line() -> str:
    """The figure in words, for a benchmark's header."""
    here = speed()
    then = f" ({here / MEASURED_THEN:.2f} times 2026-11-30's {MEASURED_THEN:.2f} s)" if MEASURED_THEN else ""
    return f"this machine: {here:.2f} CPU s for benchmarks/machine.py's fixed work{then}"


if __name__ == "__main__":
    print(line())
