"""``python -m golflab.kernel``: compile the kernel now (or load it), so no user waits for it.

numba compiles on first use and caches the machine code beside the sources; this runs a
tiny game and a tiny hint through the kernel once and says how long that took. The setup
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
    from .. import Game, Rules, coach
    from . import play

    play(["Sofia", "Maya"], Rules(rounds=1), 0, 0, 1)
    game = Game(["Sofia", "Maya"], Rules(rounds=1), seed=0)
    coach.KERNEL_MIN_ROLLOUTS = 0
    coach.hint(game.observation(game.current_player), samples=2)
    print(f"golflab.kernel: compiled and cached (or loaded) in {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
