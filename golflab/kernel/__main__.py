"""``python -m golflab.kernel``: compile the kernel now (or load it), so no user waits for it.

numba compiles on first use and caches the machine code beside the sources; this runs a
tiny simulation (without and with grading), a turn and a placement graded by both graders and
a tiny hint through the compiled code once and says how long that took. The setup
commands (``make venv``, Binder's ``postBuild``) run it after installing.
"""

from __future__ import annotations

import sys
import time


def main() -> int:
    from . import installed

    if not installed():
        print("golflab.kernel: numba is not installed (pip install 'golflab[fast]'); simulate and the coach "
              "use the Python reference", file=sys.stderr)
        return 1
    start = time.perf_counter()
    from .. import Game, Rules, coach, simulation
    from ..analysis import grade as reference_grade
    from ..grading import grade

    rules = Rules(rounds=1)
    simulation.KERNEL_MIN_GAMES = 0  # the smallest runs, through the compiled paths: play, then play and grade
    simulation.simulate(["Sofia", "Maya"], 1, rules, progress=False, analyze=False)
    simulation.simulate(["Sofia", "Maya"], 1, rules, progress=False, analyze=True)
    game = Game(["Sofia", "Maya"], rules.replace(initial_flips=0), seed=0)
    for action in ("draw", "discard"):  # a turn decision, then a placement, by both graders
        obs = game.observation(game.current_player)
        grade(obs, action)
        reference_grade(obs, action)  # analysis.grade: ev's compiled draw_ev
        game.apply(action)
    coach.KERNEL_MIN_ROLLOUTS = 0
    coach.hint(obs, samples=2)
    print(f"golflab.kernel: compiled and cached (or loaded) in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
