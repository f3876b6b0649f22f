"""How long an explorer refresh takes: medians of several runs (issue 12's goals: 1 s or less
for a refresh over 2,000 simulated 4-player rounds on a cache miss, 2 s for personalities,
which grades every decision).

    .venv/bin/python benchmarks/explorers.py [--runs 3] [--holes 2000]

Prints, for about ``--holes`` 4-player holes: ``golflab.simulate`` alone (with and without
the decision analysis), the studies the explorers call, each explorer's uncached refresh
(compute + render) and a cached refresh (render only), and the Codepiece bids explorer's
refresh for ``--deals`` deals. Each figure is the median wall clock and, beside it, the
median CPU time of this process (which does not grow when other processes share the CPU).
Deterministic inputs (seed 0); only the timings vary.

With ``--baseline DIR`` (a checkout of another commit, e.g. a ``git worktree``) it first times
``bid_records`` (the Codepiece bids explorer's computation) for this checkout and DIR in turn,
each in a fresh process, so both meet the same load, and checks that both give the same rows;
then every explorer's uncached refresh, this script run on each checkout's code in fresh
processes alternated ``--rounds`` times (each ``--runs`` refreshes), and whether every explorer
shows the same frames (a digest of each result's values to the last bit) in both.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

#: The checkout whose code is measured (``--baseline`` runs this script on another one's).
ROOT = Path(os.environ.get("GOLFLAB_BENCH_ROOT") or Path(__file__).resolve().parents[1])
sys.path.insert(0, str(ROOT))

from golflab_widgets import HouseRulesLab, PairingExplorer, PersonalityExplorer, TierExplorer, TurnCountExplorer  # noqa: E402
from golflab_widgets.explorers.charts import figure  # noqa: E402
from golflab_widgets.explorers.codepiece_bids import CodepieceBidExplorer  # noqa: E402

from golflab import Rules, simulate  # noqa: E402
from golflab.strategy import pairing_study, rank_stats  # noqa: E402

TABLE = ["Sofia", "Maya", "Priya", "Marcus"]


def median_time(fn, runs: int) -> tuple[float, float]:
    """(median wall clock, median CPU time) of ``runs`` calls of ``fn``, in seconds."""
    wall, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return statistics.median(wall), statistics.median(cpu)


def sized(cls, samples: int):
    """The explorer class with ``samples`` as its only sample size."""
    return type(f"Bench{cls.__name__}", (cls,), {"SAMPLE_OPTIONS": (samples,)})


def refresh_time(explorer, runs: int) -> tuple[tuple[float, float], tuple[float, float]]:
    """(uncached refresh, cached refresh), each as ``median_time``."""

    def uncached():
        explorer.cache.clear()
        if hasattr(explorer, "study_cache"):
            explorer.study_cache.clear()
        explorer.refresh()
        assert explorer.error is None, explorer.error

    cold = median_time(uncached, runs)
    warm = median_time(explorer.refresh, runs)
    return cold, warm


BIDS_TIMING = """
import hashlib, json, time
from golflab.codepiece.selfplay import bid_records
start, start_cpu = time.perf_counter(), time.process_time()
rows = bid_records({deals}, 0)
print(json.dumps([time.perf_counter() - start, time.process_time() - start_cpu,
                  hashlib.sha256(json.dumps(rows, sort_keys=True).encode()).hexdigest()]))
"""


def compare_bids(baseline: Path, deals: int, runs: int) -> None:
    """``bid_records(deals)`` timed in this checkout and in ``baseline``, alternated; same rows."""
    here = Path(__file__).resolve().parents[1]
    times: dict[str, list] = {"this checkout": [], f"baseline {baseline}": []}
    for _ in range(runs):
        for figures, root in zip(times.values(), (here, baseline.resolve())):
            env = {**os.environ, "PYTHONPATH": str(root)}
            out = subprocess.run([sys.executable, "-c", BIDS_TIMING.format(deals=deals)], env=env, cwd=root,
                                 capture_output=True, text=True, check=True).stdout
            figures.append(json.loads(out))
    print(f"bid_records({deals}) in a fresh process, median of {runs} alternated runs, "
          f"load average {os.getloadavg()[0]:.1f}")
    for label, figures in times.items():
        print(f"  {label:<40} {statistics.median(f[0] for f in figures):8.3f} s wall "
              f"{statistics.median(f[1] for f in figures):8.3f} s cpu")
    digests = {f[2] for figures in times.values() for f in figures}
    print(f"  the same rows: {'yes' if len(digests) == 1 else 'NO'}\n")


def result_digest(result) -> str:
    """A digest of an explorer's result: each frame's values to the last bit and its column types."""
    text = "".join(f"{name}:{frame.to_csv(index=False, float_format='%.17g')}{list(frame.dtypes)}"
                   for name, frame in result.items() if hasattr(frame, "to_csv"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def explorer_benches(holes: int, deals: int) -> list[tuple[str, Any]]:
    """(name, explorer) of every explorer at ``holes`` holes (``deals`` for Codepiece), uncomputed."""
    per_table = max(1, round(holes / 630))  # 70 tables x 9 holes per game
    return [
        ("TierExplorer", sized(TierExplorer, holes)(players=TABLE, auto=False)),
        ("PairingExplorer", sized(PairingExplorer, holes)(players=TABLE, auto=False)),
        ("TurnCountExplorer (1 series)", sized(TurnCountExplorer, holes)(players=TABLE, compare="personality",
                                                                         auto=False)),
        ("HouseRulesLab (2 rule sets)", sized(HouseRulesLab, holes)(players=TABLE, auto=False)),
        (f"PersonalityExplorer ({per_table} games x 70 tables)", sized(PersonalityExplorer, per_table)(auto=False)),
        (f"CodepieceBidExplorer ({deals} deals)", sized(CodepieceBidExplorer, deals)(auto=False)),
    ]


def refresh_samples(explorer, runs: int) -> dict:
    """``runs`` uncached refreshes of ``explorer``: their wall and CPU times and the result's digest."""
    wall, cpu = [], []
    for _ in range(runs):
        explorer.cache.clear()
        if hasattr(explorer, "study_cache"):
            explorer.study_cache.clear()
        start, start_cpu = time.perf_counter(), time.process_time()
        explorer.refresh()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        assert explorer.error is None, explorer.error
    return {"wall": wall, "cpu": cpu, "digest": result_digest(explorer.result)}


def compare_explorers(baseline: Path, holes: int, deals: int, runs: int, rounds: int) -> None:
    """Every explorer's uncached refresh on this checkout's code and ``baseline``'s, this script in
    fresh processes alternated ``rounds`` times; whether both show the same results."""
    import tempfile

    here = Path(__file__).resolve().parents[1]
    roots = {"this checkout": here, f"baseline {baseline}": baseline.resolve()}
    samples: dict[str, dict[str, dict]] = {label: {} for label in roots}
    loads = []
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(rounds):
            for k, (label, root) in enumerate(roots.items()):
                shim = Path(tmp, str(k))  # golflab_widgets from that checkout (an editable install maps it here)
                shim.mkdir(exist_ok=True)
                if not (shim / "golflab_widgets").exists():
                    (shim / "golflab_widgets").symlink_to(root / "widgets")
                env = {**os.environ, "PYTHONPATH": f"{shim}{os.pathsep}{root}", "GOLFLAB_BENCH_ROOT": str(root)}
                out = subprocess.run([sys.executable, __file__, "--json", "--runs", str(runs), "--holes", str(holes),
                                      "--deals", str(deals)], env=env, cwd=root, capture_output=True, text=True,
                                     check=True).stdout
                loads.append(os.getloadavg()[0])
                for name, got in json.loads(out).items():
                    mine = samples[label].setdefault(name, {"wall": [], "cpu": [], "digest": set()})
                    mine["wall"] += got["wall"]
                    mine["cpu"] += got["cpu"]
                    mine["digest"].add(got["digest"])
    print(f"Uncached refresh, median of {runs * rounds} runs ({rounds} alternated fresh processes per checkout), "
          f"load average {min(loads):.1f}-{max(loads):.1f}")
    names = list(samples["this checkout"])
    width = max(len(n) for n in names)
    print(f"{'':<{width}}  {'this checkout':>21}  {'baseline':>21}  same results")
    for name in names:
        cells = []
        for label in roots:
            got = samples[label][name]
            cells.append(f"{statistics.median(got['wall']):6.3f} s {statistics.median(got['cpu']):6.3f} s cpu")
        digests = samples["this checkout"][name]["digest"] | samples[f"baseline {baseline}"][name]["digest"]
        print(f"{name:<{width}}  {cells[0]:>21}  {cells[1]:>21}  {'yes' if len(digests) == 1 else 'NO'}")
    print()


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per figure (the median is printed)")
    parser.add_argument("--holes", type=int, default=2000, help="4-player holes per refresh")
    parser.add_argument("--deals", type=int, default=2000, help="Codepiece deals per refresh")
    parser.add_argument("--baseline", type=Path, help="a checkout of another commit to compare bid_records with")
    parser.add_argument("--only-baseline", action="store_true", help="stop after the --baseline comparison")
    parser.add_argument("--rounds", type=int, default=2, help="with --baseline: fresh processes per checkout")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)  # compare_explorers' worker
    args = parser.parse_args(argv)
    holes, runs = args.holes, args.runs
    if args.json:
        figure(100, 100).draw([])  # plotly's first chart imports it, once per process
        print(json.dumps({name: refresh_samples(explorer, runs)
                          for name, explorer in explorer_benches(holes, args.deals)}))
        return
    if args.baseline:
        compare_bids(args.baseline, args.deals, runs)
        compare_explorers(args.baseline, holes, args.deals, runs, args.rounds)
        if args.only_baseline:
            return
    rules = Rules()
    games = math.ceil(holes / rules.rounds)
    print(f"{games * rules.rounds} 4-player holes ({games} games of {rules.rounds}), median of {runs} runs\n")
    rows = [
        ("simulate (no analysis)", median_time(
            lambda: simulate(TABLE, games, rules=rules, seed=0, progress=False, analyze=False), runs)),
        ("simulate (with analysis)", median_time(
            lambda: simulate(TABLE, games, rules=rules, seed=0, progress=False, analyze=True), runs)),
        ("strategy.rank_stats", median_time(lambda: rank_stats(TABLE, holes, rules, 0), runs)),
        ("strategy.pairing_study", median_time(lambda: pairing_study(TABLE, holes, rules, 0), runs)),
    ]
    figure(100, 100).draw([])  # plotly's first chart imports it (about a second), once per process
    for name, explorer in explorer_benches(holes, args.deals):
        cold, warm = refresh_time(explorer, runs)
        rows.append((f"{name} refresh", cold))
        rows.append((f"{name} cached refresh", warm))
    width = max(len(n) for n, _ in rows)
    print(f"{'':<{width}}  {'wall':>8}    {'cpu':>8}")
    for name, (wall, cpu) in rows:
        print(f"{name:<{width}}  {wall:8.3f} s  {cpu:8.3f} s")


if __name__ == "__main__":
    main()
