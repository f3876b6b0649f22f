"""Run every test in three lanes at once: ``make test`` calls this (``python tools/test_lanes.py``).

Each lane is a plain pytest session (its own servers, browser and cache directory) or a few, one
after another:

* ``engine``: the README's doctests, ``tests`` (but the browser tests) and the notebooks (nbval);
  then the engine, AI, coach and simulation tests again on the Python reference alone
  (``GOLFLAB_KERNEL=0``: the tests of the compiled code skip, saying why);
* ``browser``: ``tests/browser`` but the kernel-culling tests;
* ``culling``: the kernel-culling tests, which mostly wait (about 5 of their 6 minutes) for culling
  to come round.

On two cores the engine and browser lanes both keep the machine busy, so together they take about
as long as one after the other (34 min beside each other against 36, on a slow 2-core machine); the
culling tests' waiting is what running beside them saves.

Each lane's output goes to ``test-artifacts/lane-<name>.log``; the first lane's is also printed as
it comes (progress for CI's log), the others' whole when they end; then a line per lane with its
time and result. The exit status is 0 when every command of every lane passed; a lane stops at its
first failing command. Arguments after ``--`` go to every pytest command
(``python tools/test_lanes.py -- -x``); ``--lane NAME`` runs one lane alone.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "test-artifacts"
NBVAL = ["--nbval", "--nbval-sanitize-with", "tests/nbval_sanitize.cfg"]
CULLING = "tests/browser/test_kernels.py"
#: The tests that run a second time on the Python reference alone (``GOLFLAB_KERNEL=0``).
REFERENCE_TESTS = tuple(f"tests/test_{name}.py" for name in (
    "game", "ai", "analysis", "cards", "coach", "ev", "grading", "expert", "simulation",
    "simulation_fingerprint", "strategy", "scoring", "rules", "rule_model", "random_invariants",
    "quality_targets", "golden", "game_from_position", "round_adjustments", "kernel_switch",
    "legal_parity", "levels"))


@dataclass(frozen=True)
class Step:
    """One pytest command of a lane: its arguments and extra environment."""

    args: tuple[str, ...]
    env: tuple[tuple[str, str], ...] = ()


LANES: dict[str, tuple[Step, ...]] = {
    "engine": (
        Step((*NBVAL, "--doctest-glob=README.md", "README.md", "tests", "notebooks", "--ignore=tests/browser")),
        Step(REFERENCE_TESTS, (("GOLFLAB_KERNEL", "0"),)),
    ),
    "browser": (Step(("tests/browser", f"--ignore={CULLING}")),),
    "culling": (Step((CULLING,)),),
}
PRINT = threading.Lock()


#: The slowest tests each command lists at its end: where CI's time goes, in CI's own log.
SLOWEST = 15


def command(lane: str, step: Step, extra: list[str]) -> list[str]:
    """The pytest command line of ``step`` in ``lane`` (its own cache directory: the lanes run at
    once), listing its ``SLOWEST`` tests at the end."""
    return [sys.executable, "-m", "pytest", "-o", f"cache_dir=.pytest_cache/{lane}", f"--durations={SLOWEST}",
            *step.args, *extra]


def run_lane(lane: str, extra: list[str], results: dict[str, tuple[int, float]], live: bool) -> None:
    """Run ``lane``'s steps in order into its log (and to stdout as it comes when ``live``),
    stopping at the first that fails; then print the log (unless ``live``) and the lane's result."""
    start, code, path = time.monotonic(), 0, ARTIFACTS / f"lane-{lane}.log"
    with open(path, "w") as log:
        for step in LANES[lane]:
            cmd = command(lane, step, extra)
            _write(log, f"$ {' '.join([*(f'{k}={v}' for k, v in step.env), *cmd])}\n", live)
            with subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, env={**os.environ, **dict(step.env)},
                                  text=True, errors="replace") as proc:
                for out in proc.stdout:
                    _write(log, out, live)
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
    args = parser.parse_args(argv[:cut])
    ARTIFACTS.mkdir(exist_ok=True)
    lanes = [args.lane] if args.lane else list(LANES)
    results: dict[str, tuple[int, float]] = {}
    threads = [threading.Thread(target=run_lane, args=(lane, extra, results, i == 0)) for i, lane in enumerate(lanes)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    codes = []
    for lane in lanes:
        code, seconds = results.get(lane, (1, 0.0))  # (1: the lane's thread raised, its traceback above)
        print(f"lane {lane}: {verdict(code, seconds)}")
        codes.append(code)
    return next((code if code > 0 else 1 for code in codes if code), 0)  # a killed pytest's code is negative


if __name__ == "__main__":
    sys.exit(main())
