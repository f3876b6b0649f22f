"""Print the save of one fixed game, stopped in its second hole, as the golflab on ``sys.path`` writes it.

The saves beside this file were written so, each by the commit its name gives
(``v<version>-<commit>.json``): the first to write version 1 (3aa83b3, before the newer rule
options), the last to write it (1e1734f, with them) and the first to write version 2 (f625f36)::

    git archive <commit> golflab | tar -x -C /tmp/old
    PYTHONPATH=/tmp/old python tests/saves/make_save.py > tests/saves/v<version>-<commit>.json

It uses only what every version of ``Game`` had: keep it so.
"""

import random
import sys

from golflab.game import Game, Phase
from golflab.rules import Rules

RULES = Rules(rounds=3, flip_mode="always", knock_penalty=True, wolfpack=True, jokers="standard")


def main() -> None:
    game = Game(players=["Ann", "Sofia", "Maya"], rules=RULES, seed=7)
    rng = random.Random(7)
    while game.round < 2 or len(game.history) % 7:
        if game.phase == Phase.ROUND_OVER:
            game.next_round()
        else:
            game.apply(rng.choice(game.legal_actions()))
    sys.stdout.write(game.to_json())


if __name__ == "__main__":
    main()
