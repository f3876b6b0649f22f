"""The Expert against the personalities, Marcus and the Classic Expert: duplicate deals, seats swapped.

Each deal is one hole at a table of 4: two Experts and two opponents, played twice from the
same shuffle, the Experts at seats 0 and 2, then at 1 and 3 (the opponents taking the
others). The opponents (``--versus``): ``personalities``, two of the eight drawn at random
per deal; ``marcus``, two Marcus; ``classic``, two Classic Experts (the Expert before the
hint's race: the hint's best option at 160 rollouts a move, ``golflab.coach.expert``); ``ladder``, levels
1-8 each against the next instead (``benchmarks/levels.py``, ``--rounds`` holes a pair);
``all``, the four in turn. The margin is the opponents' mean hole score minus the Experts' (positive: the
Expert scores less), with a 95% interval from the spread of the per-deal margins (normal
approximation). Every ``--report`` deals it prints the running figures with the median and
95th percentile of the Expert's move time (decisions with a choice only; the CPU time of the
process that played it, so another program sharing the machine does not lengthen it, though
the machine's own speed does). Several seeds
(``--seed 0 1``) play a run of ``--rounds`` each, then print the figures of all their deals pooled.

``python benchmarks/expert.py --rounds 2000 [--seed 0 [1 ...]] [--versus all] [--processes 2] [--report 25]
[--horizon 3] [--leaf-holes N] [--csv deals.csv] [--first-deal K]`` (``--rounds`` counts holes played per
matchup, or per pair of levels: two per deal; ``--horizon``: the table rounds the Expert's
rollouts look ahead, the coach's ``rollouts.HORIZON`` by default; ``--leaf-holes``: the rollouts'
leaf corrected by a fit of N holes, ``golflab.coach.leaf``, issue 40's trial; ``--csv`` writes one row per deal as
it ends, so an interrupted run keeps its deals; ``--first-deal K`` goes on from deal K of each
seed). ``python benchmarks/expert.py --pool a.csv b.csv`` prints the figures of the deals of
several runs pooled exactly (each deal once); ``--compare before.csv after.csv`` (several files
each, comma-separated) the change of margin between two versions of the Expert, deal by deal, on
the deals both played.
"""

from __future__ import annotations

import argparse
import csv
import math
import multiprocessing
import random
import statistics
import sys
import time
from typing import Callable

from golflab import Game, Rules
from golflab.ai import LEVELS, PROFILES, CPUPlayer
from golflab.coach import leaf, rollouts

EXPERT = "Expert"
VERSUS = ("personalities", "marcus", "classic")
#: The columns of ``--csv``: one row per deal (the means over its two seatings).
CSV_HEADER = ("versus", "seed", "deal", "opponents", "experts", "margin")


def timed_hole(names: list[str], seed: int) -> tuple[tuple[int, ...], list[float]]:
    """Play one hole with CPU players named ``names``: its scores and the CPU seconds each move of
    a seat named "Expert" took (moves with a choice only; this process's CPU time, so a machine
    shared with other work does not lengthen it)."""
    game = Game([f"{n} {i}" for i, n in enumerate(names)], Rules(rounds=1), seed=seed)
    bots = [CPUPlayer(n, seed=random.Random(f"{seed}:{i}").getrandbits(63)) for i, n in enumerate(names)]
    times = []
    while not game.is_over:
        seat = game.current_player
        obs = game.observation(seat)
        start = time.process_time()
        action = bots[seat].choose(obs)
        if names[seat] == EXPERT and len(obs.legal_actions) > 1:
            times.append(time.process_time() - start)
        game.apply(action)
    return game.round_results[-1].scores, times


def play_hole(names: list[str], seed: int) -> tuple[int, ...]:
    """Play one hole with CPU players named ``names`` (any CPU names); its scores."""
    return timed_hole(names, seed)[0]


def opponents(versus: str, rng: random.Random) -> tuple[str, str]:
    """The two opponents of one deal."""
    if versus == "personalities":
        return tuple(rng.sample(list(PROFILES), 2))
    return ("Marcus", "Marcus") if versus == "marcus" else ("Classic Expert", "Classic Expert")


def deal_margin(task: tuple[str, int, int]) -> tuple[float, float, float, list[float]]:
    """(opponents' mean, Experts' mean, margin, Expert move times) over both seatings of deal
    ``index`` of matchup ``versus`` (``task``: versus, seed, index)."""
    versus, seed, index = task
    rng = random.Random(f"golflab.expert-bench:{versus}:{seed}:{index}")
    a, b = opponents(versus, rng)
    deal_seed = rng.getrandbits(63)
    expert, others, times = [], [], []
    for names in ([EXPERT, a, EXPERT, b], [a, EXPERT, b, EXPERT]):
        scores, took = timed_hole(names, deal_seed)
        times += took
        for i, score in enumerate(scores):
            (expert if names[i] == EXPERT else others).append(score)
    om, em = statistics.fmean(others), statistics.fmean(expert)
    return om, em, om - em, times


def mean_and_interval(values: list[float]) -> tuple[float, str]:
    """The mean of per-deal ``values`` and its 95% interval in words (normal approximation)."""
    n, mean = len(values), statistics.fmean(values)
    if n < 2:
        return mean, "an interval needs 2 deals"
    half = 1.96 * statistics.stdev(values) / math.sqrt(n)
    return mean, f"95% interval {mean - half:+.2f} to {mean + half:+.2f}"


def summary(versus: str, margins: list[float], oms: list[float], ems: list[float]) -> str:
    n = len(margins)
    mean, interval = mean_and_interval(margins)
    return (f"Expert v {versus} (2 v 2): {2 * n} rounds ({n} deals): {versus} {statistics.fmean(oms):.2f}, "
            f"Expert {statistics.fmean(ems):.2f} points per round; margin {mean:+.2f} ({interval})")


def times_line(times: list[float]) -> str:
    if not times:
        return "no Expert move with a choice was timed"
    ms = sorted(1000 * t for t in times)
    p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
    return f"Expert move: median {statistics.median(ms):.0f} ms, p95 {p95:.0f} ms of CPU over {len(ms)} moves"


def matchup(versus: str, deals: int, seed: int, processes: int, report: int,
            write_row: Callable[[tuple], object] | None = None, first: int = 0) -> tuple[list, list, list, list]:
    """Play and print one matchup, deals ``first`` to ``first + deals - 1`` of the seed: its
    per-deal (margins, opponents' means, Experts' means) and the Expert's move times; each deal
    also passed to ``write_row`` (``CSV_HEADER``'s columns) when given."""
    tasks = [(versus, seed, first + i) for i in range(deals)]
    margins, oms, ems, times = [], [], [], []
    start = time.perf_counter()
    pool = multiprocessing.Pool(processes) if processes > 1 else None
    try:
        results = pool.imap(deal_margin, tasks) if pool else map(deal_margin, tasks)
        for i, (om, em, d, took) in enumerate(results):
            oms.append(om)
            ems.append(em)
            margins.append(d)
            times += took
            if write_row is not None:
                write_row((versus, seed, first + i, f"{om:.4f}", f"{em:.4f}", f"{d:.4f}"))
            if (i + 1) % report == 0 or i + 1 == deals:
                elapsed = f"{time.perf_counter() - start:.0f} s"
                print(f"{summary(versus, margins, oms, ems)}; {times_line(times)} [{elapsed}]", flush=True)
    finally:
        if pool:
            pool.close()
            pool.join()
    print(f"{times_line(times)} ({processes} process{'es' if processes > 1 else ''}, {versus})", flush=True)
    return margins, oms, ems, times


def ladder(rounds: int, seed: int, processes: int) -> None:
    """Print the ladder of levels 1-8, each against the next (``benchmarks/levels.py``)."""
    from levels import rung  # benchmarks/levels.py, beside this script

    for low in range(1, len(LEVELS)):
        start = time.perf_counter()
        print(f"{rung(low, rounds // 2, seed, processes).line()} [{time.perf_counter() - start:.0f} s]", flush=True)


def csv_deals(paths: list[str]) -> dict[tuple[str, str, str], tuple[float, float, float]]:
    """The deals of ``--csv`` files, in file order: ``{(matchup, seed, deal): (margin, opponents'
    mean, Experts' mean)}``. A ValueError when a file is not one ``--csv`` wrote or when a deal is
    in two places: each deal must count once."""
    deals: dict[tuple[str, str, str], tuple[float, float, float]] = {}
    seen: dict[tuple, str] = {}
    for path in paths:
        with open(path, newline="") as f:
            rows = list(csv.reader(f))
        if not rows or tuple(rows[0]) != CSV_HEADER:
            raise ValueError(f"{path} is not a --csv file of this benchmark (its first row must be "
                             f"{','.join(CSV_HEADER)})")
        for n, row in enumerate(rows[1:], start=2):
            if len(row) != len(CSV_HEADER):
                raise ValueError(f"{path}, row {n}: {len(row)} columns, expected {len(CSV_HEADER)}")
            versus, seed, deal, om, em, margin = row
            key = (versus, seed, deal)
            if key in seen:
                raise ValueError(f"{path}, row {n}: deal {deal} of seed {seed} against {versus} is also in "
                                 f"{seen[key]}; pool each deal once")
            seen[key] = path
            deals[key] = (float(margin), float(om), float(em))
    return deals


def pooled_csv(paths: list[str]) -> dict[str, tuple[list, list, list]]:
    """The deals of ``--csv`` files, per matchup: ``{versus: (margins, opponents' means, Experts'
    means)}``, in file order (``csv_deals``: each deal once)."""
    pooled: dict[str, tuple[list, list, list]] = {}
    for (versus, _seed, _deal), figures in csv_deals(paths).items():
        for values, value in zip(pooled.setdefault(versus, ([], [], [])), figures):
            values.append(value)
    return pooled


def compared(before: list[str], after: list[str]) -> list[str]:
    """Two runs over the same deals, deal by deal (``--compare``): per matchup, the deals both
    played, each run's mean margin and the mean change with a 95% interval (the spread of the
    per-deal changes: the deal's luck cancels out). A ValueError when they share no deal."""
    old, new = csv_deals(before), csv_deals(after)
    lines = []
    for versus in dict.fromkeys(k[0] for k in new):
        both = [k for k in new if k[0] == versus and k in old]
        if not both:
            continue
        n = len(both)
        mean, interval = mean_and_interval([new[k][0] - old[k][0] for k in both])
        lines.append(f"Expert v {versus}, {n} deals ({2 * n} rounds) in both: margin "
                     f"{statistics.fmean(old[k][0] for k in both):+.2f} before, "
                     f"{statistics.fmean(new[k][0] for k in both):+.2f} after; change {mean:+.2f} ({interval})")
    if not lines:
        raise ValueError("the two runs share no deal (the same matchup, seed and deal)")
    return lines


def add_horizon_option(parser: argparse.ArgumentParser) -> None:
    """``--horizon N``: the table rounds the Expert's rollouts look ahead (the coach's, ``rollouts.HORIZON``)."""
    parser.add_argument("--horizon", type=int, default=rollouts.HORIZON,
                        help="table rounds the Expert's rollouts look ahead (default %(default)s: the Expert's own)")


def apply_horizon(parser: argparse.ArgumentParser, horizon: int) -> None:
    """Set the Expert's horizon, the coach's (read when the rollouts run; worker processes
    inherit it), or stop with a usage error when ``horizon`` is outside 1-20."""
    if not 1 <= horizon <= 20:
        parser.error(f"--horizon must be 1 to 20 table rounds, got {horizon}")
    rollouts.HORIZON = horizon


def add_leaf_option(parser: argparse.ArgumentParser) -> None:
    """``--leaf-holes N``: the Expert's leaf corrected as ``benchmarks/leaf.py`` fits it (issue 40's trial)."""
    parser.add_argument("--leaf-holes", type=int, default=0, metavar="N",
                        help="correct the rollouts' leaf by a fit of N holes of coach_precision's four "
                             "personalities (benchmarks/leaf.py's seed; golflab.coach.leaf); default 0: "
                             "the coach's leaf")


def apply_leaf(parser: argparse.ArgumentParser, holes: int) -> None:
    """Correct the Expert's leaf (``rollouts.LEAF``, read when a valuation starts; worker processes
    inherit it) by a fit of ``holes`` holes, or stop with a usage error when ``holes`` is negative."""
    if holes < 0:
        parser.error(f"--leaf-holes must be 0 (the coach's leaf) or more, got {holes}")
    if holes:
        from coach_precision import PLAYERS
        from leaf import SEED

        start = time.process_time()
        rollouts.LEAF = leaf.fit(Rules(rounds=1), PLAYERS, holes, SEED)
        print(f"the Expert's leaf corrected by a fit of {holes} holes of {', '.join(PLAYERS)} (game seeds from "
              f"{SEED}; {time.process_time() - start:.0f} s of CPU)", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000, help="holes to play per matchup (two per deal)")
    parser.add_argument("--seed", type=int, nargs="+", default=[0],
                        help="one seed, or several: each is a run of --rounds, then all pooled")
    parser.add_argument("--versus", choices=(*VERSUS, "ladder", "all"), default="all",
                        help="the Experts' opponents, or the ladder of levels (each against the next); all: every one")
    parser.add_argument("--processes", type=int, default=1, help="worker processes (deals in parallel)")
    parser.add_argument("--report", type=int, default=25, help="print running figures every N deals")
    add_horizon_option(parser)
    add_leaf_option(parser)
    parser.add_argument("--csv", metavar="PATH",
                        help=f"also write one row per deal to PATH ({', '.join(CSV_HEADER)}), to pool runs later")
    parser.add_argument("--first-deal", type=int, default=0, metavar="K",
                        help="start at deal K of each seed (to go on with a run later: pool the CSVs with --pool)")
    parser.add_argument("--pool", nargs="+", metavar="CSV",
                        help="print the pooled figures of the deals in these --csv files, and play nothing")
    parser.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"),
                        help="two --csv files (several each: comma-separated) of the same deals played by two "
                             "versions of the Expert: print the change of margin deal by deal, and play nothing")
    args = parser.parse_args(argv)
    if args.compare:
        try:
            for line in compared(*(paths.split(",") for paths in args.compare)):
                print(line, flush=True)
        except (OSError, ValueError) as error:
            parser.error(f"--compare: {error}")
        return 0
    if args.pool:
        try:
            pooled = pooled_csv(args.pool)
        except (OSError, ValueError) as error:
            parser.error(f"--pool: {error}")
        for versus, (margins, oms, ems) in pooled.items():
            print(f"{', '.join(args.pool)} pooled: {summary(versus, margins, oms, ems)}", flush=True)
        return 0
    if args.rounds < 4:
        parser.error(f"--rounds must be 4 or more, got {args.rounds}")
    if args.processes < 1:
        parser.error(f"--processes must be 1 or more, got {args.processes}")
    if args.report < 1:
        parser.error(f"--report must be 1 or more, got {args.report}")
    if args.first_deal < 0:
        parser.error(f"--first-deal must be 0 or more, got {args.first_deal}")
    apply_horizon(parser, args.horizon)
    apply_leaf(parser, args.leaf_holes)
    try:
        out = open(args.csv, "w", newline="", buffering=1) if args.csv else None  # each deal kept as it ends
    except OSError as error:
        parser.error(f"--csv cannot write {args.csv!r}: {error.strerror}")
    rows = csv.writer(out) if out else None
    if rows:
        rows.writerow(CSV_HEADER)
    try:
        for versus in (*VERSUS, "ladder") if args.versus == "all" else (args.versus,):
            if versus == "ladder":
                for seed in args.seed:
                    print(f"seed {seed}, {args.rounds} rounds per pair of levels", flush=True)
                    ladder(args.rounds, seed, args.processes)
                continue
            pooled: tuple[list, ...] = ([], [], [], [])
            for seed in args.seed:
                start = f", from deal {args.first_deal}" if args.first_deal else ""
                print(f"seed {seed}, {args.rounds} rounds per matchup{start}, the Expert's horizon {args.horizon} "
                      "table rounds", flush=True)
                for into, part in zip(pooled, matchup(versus, args.rounds // 2, seed, args.processes, args.report,
                                                      rows.writerow if rows else None, args.first_deal)):
                    into += part
            if len(args.seed) > 1:
                margins, oms, ems, times = pooled
                print(f"seeds {', '.join(map(str, args.seed))} pooled: {summary(versus, margins, oms, ems)}; "
                      f"{times_line(times)}", flush=True)
    finally:
        if out:
            out.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
