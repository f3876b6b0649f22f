"""``python -m golflab.kernel``: compile the kernel now (or load it), so no user waits for it.

numba compiles on first use and caches the machine code beside the sources (``cache``).
This first removes damaged cache files (numba fails on them, so ``golflab.kernel.enabled``
leaves a damaged cache to the Python reference), then runs a tiny simulation (without and
with grading), the placement records of one game (the pairing study's), a turn and a placement
graded by both graders and a tiny hint through the compiled code once, and says how long that
took. The setup commands (``make venv``, Binder's ``postBuild``) run it after installing.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path


def main() -> int:
    from . import ENV, cache, cache_location, cache_problem, installed, place_records, switched_on

    if not installed():
        print("golflab.kernel: numba is not installed (pip install 'golflab[fast]'); simulate and the coach "
              "use the Python reference", file=sys.stderr)
        return 1
    try:
        if not switched_on():
            print(f"golflab.kernel: {ENV}=0 turns the compiled kernel off: nothing compiled", file=sys.stderr)
            return 0
    except ValueError as error:
        print(f"golflab.kernel: {error}", file=sys.stderr)
        return 2
    where = cache_location()
    if where.used is None:
        print(f"golflab.kernel: {where.error}", file=sys.stderr)
        return 1
    if not repair(where.root, cache.damaged(where.root)):
        return 1
    cache_problem(recheck=True)  # decided again, on the repaired cache
    start = time.perf_counter()
    from .. import Game, Rules, coach, simulation
    from ..analysis import grade as reference_grade
    from ..grading import fast_grade
    from ..sim import games

    rules = Rules(rounds=1)
    games.KERNEL_MIN_GAMES = 0  # the smallest runs, through the compiled paths: play, then play and grade
    simulation.simulate(["Sofia", "Maya"], 1, rules, progress=False, analyze=False)
    simulation.simulate(["Sofia", "Maya"], 1, rules, progress=False, analyze=True)
    place_records(["Sofia", "Maya"], rules, 0, 0, 1)  # the pairing study's placements (its own run mode)
    game = Game(["Sofia", "Maya"], rules.replace(initial_flips=0), seed=0)
    for action in ("draw", "discard"):  # a turn decision, then a placement, by both graders
        obs = game.observation(game.current_player)
        fast_grade(obs, action)
        reference_grade(obs, action)  # analysis.grade: ev's compiled draw_ev
        game.apply(action)
    coach.rollouts.KERNEL_MIN_ROLLOUTS = 0
    coach.hint(obs, samples=2)
    if where.used != where.root:
        print(f"golflab.kernel: {where.root} is read-only: its compiled code was read from a copy, and anything "
              "compiled now is not kept", file=sys.stderr)
    print(f"golflab.kernel: compiled and cached (or loaded) in {time.perf_counter() - start:.1f} s")
    return 0


def repair(root: Path, damaged: list[tuple[Path, str]]) -> bool:
    """Remove the damaged files of the cache under ``root`` (numba compiles them again), saying
    so; False, with the reason, when they cannot be removed."""
    if not damaged:
        return True
    try:
        for path, _ in damaged:
            path.unlink(missing_ok=True)
    except OSError as error:
        print(f"golflab.kernel: the compiled cache in {root} is damaged ({damaged[0][0].name}: {damaged[0][1]}) "
              f"and cannot be repaired: {error.strerror} ({error.filename}). Make it writable, or point "
              "NUMBA_CACHE_DIR at a writable folder, and run this again", file=sys.stderr)
        return False
    print(f"golflab.kernel: removed {len(damaged)} damaged file(s) from the compiled cache in {root}; "
          "compiling them again", file=sys.stderr)
    return True


if __name__ == "__main__":
    sys.exit(main())
