"""Run every test: ``make test`` calls this (``python tools/test_lanes.py``).

Two lanes run at once, each with its own log and pytest cache directory:

* ``main``: the simulation kernel compiled (``python -m golflab.kernel``, numba caches it), then the
  README's doctests, ``tests`` (the browser tests included) and the notebooks (nbval),
  spread over ``WORKERS`` pytest-xdist workers with ``--dist loadfile``: a file is one unit of work,
  so its module's browser, servers and notebook kernel stay with it, and a worker that finishes a
  file takes the next. ``tests/scheduling.py`` hands the files out longest first, by the seconds
  measured in ``tests/durations.json``, so that no long file starts last while the others idle.
* ``reference``: the engine, AI, coach and simulation tests again on the Python reference alone
  (``GOLFLAB_KERNEL=0``: the tests of the compiled code skip, saying why), one process beside them:
  it needs no compiled code, so it runs while the main lane compiles.

Each lane's output goes to ``test-artifacts/lane-<name>.log``; the first lane's is also printed as
it comes (progress for CI's log), the other's whole when it ends; then a line per lane with its
time and result, and each command lists its ``SLOWEST`` tests; the main lane's seconds per test
file go to ``test-artifacts/durations.json``. The exit status is 0 when every
command of every lane passed. Arguments after ``--`` go to every pytest command
(``python tools/test_lanes.py -- -x``); ``--lane NAME`` runs one lane alone; ``--workers N`` sets
the main lane's workers; ``--store-durations`` writes the main lane's measured seconds per file
into ``tests/durations.json`` (commit it when a change moved time between files).
"""

from __future__ import annotations

import argparse
import codecs
import os
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "test-artifacts"
NBVAL = ("--nbval", "--nbval-sanitize-with", "tests/nbval_sanitize.cfg")
#: The main lane's pytest-xdist workers: three on two cores, because the browser tests' and the
#: kernel-culling tests' workers spend much of their time waiting for a page or a timer.
WORKERS = 3
#: The tests that run a second time on the Python reference alone (``GOLFLAB_KERNEL=0``): those that
#: reach the one switch (``golflab.kernel.use_compiled`` or ``enabled`` answering yes in the main lane),
#: so that here they run other code. The engine's own files (game, cards, scoring, rules, rule model,
#: random invariants, golden games, positions, round adjustments) and the legal-move parity never
#: reach it: they run the reference in both lanes, and once is enough (``tools/switch_probe.py`` tells,
#: run over these groups 2026-11-28). Not ``test_quality_targets`` (1,900 simulated
#: games, 90 s on the reference): the compiled games and grades equal the reference's
#: (``test_simulation_fingerprint`` runs both ways, here too), so the same figures would be measured twice.
REFERENCE_TESTS = tuple(f"tests/{group}/test_{name}.py" for group, names in (
    ("engine", ("ai", "analysis", "ev", "strategy", "levels")),
    ("coach", ("coach", "expert")),
    ("kernel", ("grading", "kernel_switch")),
    ("simulation", ("simulation", "simulation_fingerprint")),
) for name in names)
#: What the main lane runs: every test file, notebook and the README, once.
EVERYTHING = ("README.md", "tests", "notebooks")


@dataclass(frozen=True)
class Step:
    """One command of a lane: ``python -m <module> <args>`` with extra environment (pytest by default)."""

    args: tuple[str, ...]
    env: tuple[tuple[str, str], ...] = ()
    module: str = "pytest"


#: The main lane's first step: compile the simulation kernel (numba caches it), while the reference
#: pass, which needs none of it, runs beside it; the compiled tests then find it made.
COMPILE = Step((), module="golflab.kernel")


def lanes(workers: int = WORKERS) -> dict[str, tuple[Step, ...]]:
    """The lanes and their steps, with ``workers`` pytest-xdist workers in the main lane."""
    return {
        "main": (COMPILE, Step(("-n", str(workers), "--dist", "loadfile", "--no-loadscope-reorder", *NBVAL,
                       "--measured-durations", str(ARTIFACTS / "durations.json"), "--doctest-glob=README.md",
                       *EVERYTHING)),),
        "reference": (Step(REFERENCE_TESTS, (("GOLFLAB_KERNEL", "0"),)),),
    }


LANES = lanes()
#: Environment variables the lanes run without. ``PYTHONDONTWRITEBYTECODE`` (set on some machines, the
#: ones this project is developed and checked on among them) keeps Python from caching bytecode, so each
#: of the run's hundreds of processes (pytest workers, Voila servers and kernels, sweep and CLI
#: subprocesses) compiled numba, pandas and Jupyter from source again: a fresh clone's tests took about
#: 230 s longer than a second run in the same clone, and a fresh clone's ``make test`` went from
#: 1,088-1,326 s to 922 s without it (2026-11-29). The lanes let Python write ``__pycache__`` as it imports
#: (inside .venv and the checkout, both ignored by git): once per module.
DROPPED_ENV = ("PYTHONDONTWRITEBYTECODE",)
PRINT = threading.Lock()


def lane_env(step: Step) -> dict[str, str]:
    """The environment of ``step``'s command: this one without ``DROPPED_ENV``, plus the step's own."""
    return {**{k: v for k, v in os.environ.items() if k not in DROPPED_ENV}, **dict(step.env)}


#: The slowest tests each command lists at its end: where CI's time goes, in CI's own log.
SLOWEST = 15


def command(lane: str, step: Step, extra: list[str]) -> list[str]:
    """The command line of ``step`` in ``lane``: pytest with its own cache directory (the lanes run at
    once), listing its ``SLOWEST`` tests at the end, and ``extra``; another module as it is."""
    if step.module != "pytest":
        return [sys.executable, "-m", step.module, *step.args]
    return [sys.executable, "-m", "pytest", "-o", f"cache_dir=.pytest_cache/{lane}", f"--durations={SLOWEST}",
            *step.args, *extra]


def run_lane(lane: str, steps: tuple[Step, ...], extra: list[str], results: dict[str, tuple[int, float]],
             live: bool) -> None:
    """Run ``steps`` in order into the lane's log (and to stdout as it comes when ``live``),
    stopping at the first that fails; then print the log (unless ``live``) and the lane's result."""
    start, code, path = time.monotonic(), 0, ARTIFACTS / f"lane-{lane}.log"
    with open(path, "w") as log:
        for step in steps:
            cmd = command(lane, step, extra)
            _write(log, f"$ {' '.join([*(f'{k}={v}' for k, v in step.env), *cmd])}\n", live)
            decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
            with subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  env=lane_env(step)) as proc:
                while chunk := proc.stdout.read1(65536):  # as it comes: xdist's dots have no newline for long
                    _write(log, decoder.decode(chunk), live)
            code = proc.returncode
            if code:
                break
    results[lane] = (code, time.monotonic() - start)
    with PRINT:
        if not live:
            sys.stdout.write(path.read_text(errors="replace"))
        sys.stdout.write(f"\n== lane {lane}: {verdict(*results[lane])} ==\n\n")
        sys.stdout.flush()


def _write(log, text: str, live: bool) -> None:
    log.write(text)
    log.flush()
    if live:
        with PRINT:
            sys.stdout.write(text)
            sys.stdout.flush()


def verdict(code: int, seconds: float) -> str:
    """A lane's result in words: passed, or failed with its exit code (negative: killed by that signal)."""
    return f"{'passed' if code == 0 else f'FAILED (exit {code})'} in {seconds:.0f} s"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    cut = argv.index("--") if "--" in argv else len(argv)
    extra = argv[cut + 1:]
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lane", choices=sorted(LANES), help="run this lane alone")
    parser.add_argument("--workers", type=int, default=WORKERS, help=f"the main lane's workers ({WORKERS})")
    parser.add_argument("--store-durations", action="store_true",
                        help="write the main lane's seconds per test file into tests/durations.json")
    args = parser.parse_args(argv[:cut])
    if args.workers < 1:
        parser.error(f"--workers must be 1 or more, got {args.workers}")
    plan = LANES if args.workers == WORKERS else lanes(args.workers)
    if args.store_durations:
        plan = {**plan, "main": tuple(replace(s, args=(*s.args, "--store-durations")) if s.module == "pytest" else s
                                      for s in plan["main"])}
    ARTIFACTS.mkdir(exist_ok=True)
    names = [args.lane] if args.lane else list(plan)
    results: dict[str, tuple[int, float]] = {}
    threads = [threading.Thread(target=run_lane, args=(name, plan[name], extra, results, i == 0))
               for i, name in enumerate(names)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    codes = []
    for name in names:
        code, seconds = results.get(name, (1, 0.0))  # (1: the lane's thread raised, its traceback above)
        print(f"lane {name}: {verdict(code, seconds)}")
        codes.append(code)
    return next((code if code > 0 else 1 for code in codes if code), 0)  # a killed pytest's code is negative


if __name__ == "__main__":
    sys.exit(main())
