"""Simulation throughput: complete 4-player, 9-hole games per second on one core.

Four personalities (Sofia, Maya, Priya, Marcus), default rules, ``processes=1``; each
figure is the median of 5 runs, with and without decision analysis (with numba both are
played, and graded, in compiled code: ``golflab.kernel``, ``golflab.gradedgames``), and the
time split between building observations, CPU decisions (by what the seat must do), applying
actions and grading one observation, by the reference and by the compiled grader (one extra
instrumented run of the Python engine). ``--scale-out`` adds the same run on
two workers (a ``ProcessPoolExecutor`` and a Dask ``LocalCluster`` through ``executor=``)
against the one-process run as the baseline, all in the same run, each a median.
Usage: ``python benchmarks/simulate.py [GAMES] [--scale-out]`` (default 100 games).
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from contextlib import contextmanager

from golflab import Game, Phase, Rules, simulate
from golflab.ai import CPUPlayer
from golflab.analysis import grade
from golflab.grading import fast_grade
from golflab.seeding import game_seed

PLAYERS = ["Sofia", "Maya", "Priya", "Marcus"]
REPEATS = 5


def games_per_second(games: int, analyze: bool, **where) -> tuple[float, float, float]:
    """Medians over REPEATS runs of ``simulate``: games per wall-clock second, games per
    CPU second of this process (less disturbed by other work on a shared machine; not
    meaningful with workers), and player-turns per wall-clock second. ``where``:
    ``processes`` or ``executor`` for ``simulate``."""
    rates, cpu_rates, turn_rates = [], [], []
    for _ in range(REPEATS):
        start, cpu = time.perf_counter(), time.process_time()
        result = simulate(PLAYERS, games, Rules(), seed=1, progress=False, analyze=analyze, **where)
        elapsed, cpu_used = time.perf_counter() - start, time.process_time() - cpu
        rates.append(games / elapsed)
        cpu_rates.append(games / cpu_used)
        turn_rates.append(result.rounds["turns"].sum() / elapsed)
    return statistics.median(rates), statistics.median(cpu_rates), statistics.median(turn_rates)


@contextmanager
def python_reference():
    """Run the block on the Python reference engine and grader (``GOLFLAB_KERNEL=0``)."""
    old = os.environ.get("GOLFLAB_KERNEL")
    os.environ["GOLFLAB_KERNEL"] = "0"
    try:
        yield
    finally:
        if old is None:
            del os.environ["GOLFLAB_KERNEL"]
        else:
            os.environ["GOLFLAB_KERNEL"] = old


def time_split(games: int) -> dict[str, float]:
    """Seconds spent in each part of the hot path, timed around each call (and the decision count)."""
    clock = time.perf_counter
    spent = {"observation": 0.0, "choose": 0.0, "apply": 0.0, "grade": 0.0, "fast_grade": 0.0, "decisions": 0}
    by_stage: dict[str, list] = {}  # stage -> [seconds choosing, decisions]
    for index in range(games):
        game = Game(PLAYERS, Rules(), seed=game_seed(1, index))
        bots = [CPUPlayer(p, seed=s) for s, p in enumerate(PLAYERS)]
        while game.phase is not Phase.GAME_OVER:
            if game.phase is Phase.ROUND_OVER:
                game.next_round()
                continue
            stage = game.awaiting
            t0 = clock()
            obs = game.observation(game.current_player)
            t1 = clock()
            action = bots[game.current_player].choose(obs)
            t2 = clock()
            grade(obs, action)
            t3 = clock()
            fast_grade(obs, action)
            t3b = clock()
            game.apply(action)
            t4 = clock()
            spent["observation"] += t1 - t0
            spent["choose"] += t2 - t1
            spent["grade"] += t3 - t2
            spent["fast_grade"] += t3b - t3
            spent["apply"] += t4 - t3b
            spent["decisions"] += 1
            entry = by_stage.setdefault(stage, [0.0, 0])
            entry[0] += t2 - t1
            entry[1] += 1
    spent["by_stage"] = by_stage
    return spent


def scale_out(games: int) -> None:
    """Graded games/s on one process (the baseline) and on two workers through ``executor=``."""
    from concurrent.futures import ProcessPoolExecutor

    from distributed import Client, LocalCluster

    base = games_per_second(games, analyze=True)[0]
    print(f"  scale-out (with analysis, wall clock): one process {base:.1f} games/s (baseline)")
    with ProcessPoolExecutor(2) as pool:
        rate = games_per_second(games, analyze=True, executor=pool)[0]
    print(f"    ProcessPoolExecutor(2): {rate:.1f} games/s ({rate / base:.2f}x)")
    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        rate = games_per_second(games, analyze=True, executor=client)[0]
    print(f"    Dask LocalCluster(2 workers): {rate:.1f} games/s ({rate / base:.2f}x)")


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    games = int(args[0]) if args else 100
    print(f"simulate: {games} games of 4 players x 9 holes ({', '.join(PLAYERS)}), default rules, one core, "
          f"median of {REPEATS}")
    plain, plain_cpu, plain_turns = games_per_second(games, analyze=False)
    print(f"  without analysis: {plain:7.1f} games/s  ({plain_cpu:.1f} per CPU second; "
          f"{plain_turns:,.0f} player-turns/s)")
    graded, graded_cpu, graded_turns = games_per_second(games, analyze=True)
    print(f"  with analysis:    {graded:7.1f} games/s  ({graded_cpu:.1f} per CPU second; "
          f"{graded_turns:,.0f} player-turns/s); analysis costs {plain_cpu / graded_cpu:.1f}x")
    with python_reference():
        plain_base, plain_base_cpu, _ = games_per_second(games, analyze=False)
        base, base_cpu, _ = games_per_second(games, analyze=True)
    print(f"  baseline, the Python reference without analysis (GOLFLAB_KERNEL=0): {plain_base:7.1f} games/s "
          f"({plain_base_cpu:.1f} per CPU second); compiled {plain_cpu / plain_base_cpu:.1f}x faster per CPU second")
    print(f"  baseline, the Python reference with analysis (GOLFLAB_KERNEL=0):    {base:7.1f} games/s "
          f"({base_cpu:.1f} per CPU second); compiled {graded_cpu / base_cpu:.1f}x faster per CPU second")
    spent = time_split(max(1, games // 4))
    decisions = spent.pop("decisions")
    by_stage = spent.pop("by_stage")
    play = spent["observation"] + spent["choose"] + spent["apply"]
    print("  hot path (instrumented run, without grading): "
          + ", ".join(f"{k} {spent[k] / play:.0%} ({spent[k] / decisions * 1e6:.1f} us)"
                      for k in ("observation", "choose", "apply"))
          + f"; grading an observation {spent['grade'] / decisions * 1e6:.1f} us per decision with the reference"
          + f" (analysis.grade), {spent['fast_grade'] / decisions * 1e6:.1f} us compiled (grading.fast_grade)")
    print("  choose by stage: " + ", ".join(
        f"{stage} {t / n * 1e6:.1f} us x {n / max(1, games // 4):.0f} per game" for stage, (t, n) in by_stage.items()))
    if "--scale-out" in sys.argv:
        scale_out(games)


if __name__ == "__main__":
    main()
