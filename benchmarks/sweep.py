"""Sweep throughput and resume cost: ``python -m golflab sweep`` over a small grid.

Times the same sweep (2 lineups x flip_mode x jokers = 8 cells) with one process (the
baseline), with ``--processes 2`` and on a Dask ``LocalCluster`` of two workers given by
address, each the median of REPEATS runs into a fresh file; then the rerun of a finished
sweep (nothing recomputed) and the resume of one cut short after half of its cells.
Every file is checked identical to the baseline's. Usage: ``python benchmarks/sweep.py [GAMES]``
(games per cell, default 40).
"""

from __future__ import annotations

import contextlib
import io
import statistics
import sys
import tempfile
import time
from pathlib import Path

from golflab.cli import main as golflab

REPEATS = 3
GRID = ["--players", "Sofia,Maya,Priya,Marcus", "--players", "Kenji,Diego,River", "--grid", "flip_mode=never,always",
        "--grid", "jokers=none,standard", "--no-analysis"]


def run(out: Path, games: int, *extra: str) -> float:
    """Seconds for one sweep into ``out`` (quiet)."""
    start = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        code = golflab(["sweep", *GRID, "--games", str(games), "--out", str(out), *extra])
    if code:
        raise SystemExit(f"sweep failed with exit code {code}")
    return time.perf_counter() - start


def median_fresh(tmp: Path, games: int, name: str, *extra: str) -> tuple[float, bytes]:
    times = []
    for i in range(REPEATS):
        out = tmp / f"{name}{i}.csv"
        times.append(run(out, games, *extra))
    return statistics.median(times), out.read_bytes()


def main() -> None:
    from distributed import LocalCluster

    games = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    cells = 8
    print(f"sweep: {cells} cells x {games} games (no analysis), median of {REPEATS}")
    with tempfile.TemporaryDirectory() as tmp_dir:
        tmp = Path(tmp_dir)
        base, reference = median_fresh(tmp, games, "one")
        print(f"  one process:            {base:6.2f} s  ({cells * games / base:.0f} games/s; baseline)")
        t, data = median_fresh(tmp, games, "two", "--processes", "2")
        assert data == reference
        print(f"  --processes 2:          {t:6.2f} s  ({base / t:.2f}x)")
        with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster:
            t, data = median_fresh(tmp, games, "dask", "--scheduler", cluster.scheduler_address)
        assert data == reference
        print(f"  Dask, 2 workers:        {t:6.2f} s  ({base / t:.2f}x)")
        done = tmp / "one0.csv"
        print(f"  rerun when finished:    {run(done, games):6.2f} s  (nothing recomputed)")
        cut = tmp / "cut.csv"
        cut.write_bytes(reference[:reference.index(b"\n4,") + 1])  # cells 0-3 done
        t = run(cut, games)
        assert cut.read_bytes() == reference
        print(f"  resume after 4 of 8:    {t:6.2f} s  (file identical to the uninterrupted run)")


if __name__ == "__main__":
    main()
