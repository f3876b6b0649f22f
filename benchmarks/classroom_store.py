"""The class store under a class's load: N processes (30 kernels) recording attempts at once.

    .venv/bin/python benchmarks/classroom_store.py [--processes 30] [--attempts 40] [--runs 3]

Runs on SQLite (a file in a temporary folder) and on PostgreSQL (a cluster started here from
Debian's packages, as the tests start it). Each process opens its own Store, waits for a common
start, then records ``--attempts`` lesson and puzzle attempts (half each; the puzzles are shared,
so their ratings are contended). Prints, per database, the attempts written per second (all
attempts over the wall time from the start to the last write, median of ``--runs``) and the
attempts lost (expected minus rows found: the goal is 0). Also the sign-in time (median of 20).
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from classroom_workers import count_attempts, record_attempts, run_at_once  # noqa: E402
from services import ServiceMissing, postgres_server  # noqa: E402

from golflab.classroom import Store  # noqa: E402


def one_run(url: str, processes: int, attempts: int) -> "tuple[float, int]":
    store = Store(url)
    names = [f"learner{i}" for i in range(processes)]
    for name in names:
        store.create_user(name)
    delay = 3.0 + processes * 0.15  # spawned processes import golflab before the common start
    start = time.time() + delay
    results = run_at_once(record_attempts, [(url, n, attempts) for n in names], delay=delay)
    wall = time.time() - start
    written = sum(w for w, _ in results)
    lost = processes * attempts - count_attempts(store)
    store.close()
    return written / wall, lost


def sign_in_time(url: str) -> float:
    store = Store(url)
    store.create_user("timing", password="timing-pass")
    times = []
    for _ in range(20):
        began = time.perf_counter()
        store.sign_in("timing", "timing-pass")
        times.append(time.perf_counter() - began)
    store.close()
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, default=30)
    parser.add_argument("--attempts", type=int, default=40)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with contextlib.ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        databases = {"sqlite": lambda i: f"sqlite:///{folder / f'run{i}.db'}"}
        try:
            pg = stack.enter_context(postgres_server())
            databases["postgresql"] = lambda i: pg.new_database(f"bench_{i}")
        except ServiceMissing as exc:
            print(f"postgresql: not measured ({exc})")
        print(f"{args.processes} processes x {args.attempts} attempts, {args.runs} runs each")
        for kind, url_for in databases.items():
            rates, losses = [], []
            for i in range(args.runs):
                rate, lost = one_run(url_for(i), args.processes, args.attempts)
                rates.append(rate)
                losses.append(lost)
            print(f"{kind:>10}: {statistics.median(rates):7.1f} attempts/s written (median; runs "
                  f"{', '.join(f'{r:.1f}' for r in rates)}), lost {sum(losses)}; "
                  f"sign-in {sign_in_time(url_for(args.runs)) * 1000:.0f} ms (median of 20)")


if __name__ == "__main__":
    main()
