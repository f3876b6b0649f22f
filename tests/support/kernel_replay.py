"""The compiled kernel's games against the Python reference's, move by move and hole by hole,
for ``tests/kernel/test_kernel.py`` and ``tests/kernel/test_kernel_parity.py`` (imported as
``tests.support.kernel_replay``).

``assert_plays_the_reference(lineup, rules, seed, start, stop)`` plays games ``start..stop-1``
of a ``simulate`` run both ways (``kernel.play`` and ``Game`` with the ``CPUPlayer``s) and
requires the same actions in the same order and, hole by hole, the same scores, hand scores,
turns and finisher; it returns what the reference's scoring applied (``fired``)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from golflab import Rules
from golflab.kernel import play
from golflab.simulation import play_games


@dataclass
class Reference:
    """Each game's action history and holes (scores, hand scores, turns, finisher or -1), and
    ``fired``: how often each round adjustment and hand bonus applied (by rule name)."""

    games: dict = field(default_factory=dict)
    fired: Counter = field(default_factory=Counter)


def reference_games(lineup, rules: Rules, seed: int, start: int, stop: int) -> Reference:
    """Games ``start..stop-1`` of a run with master ``seed`` as ``Game`` plays them."""
    out = Reference()
    for kind, index, game, _obs, _action in play_games(list(lineup), rules, seed, start, stop, kernel=False):
        if kind == "hole_over":
            result = game.round_results[-1]
            out.fired.update(a.rule for a in result.adjustments)
            out.fired.update(b.rule for hand in result.hands for b in hand.bonuses)
            holes = out.games.setdefault(index, [None, []])[1]
            holes.append((list(result.scores), list(result.hand_scores), game.turns,
                          -1 if result.finisher is None else result.finisher))
            if game.is_over:
                out.games[index][0] = game.history
    return out


def assert_plays_the_reference(lineup, rules: Rules, seed: int, start: int, stop: int) -> Counter:
    """The kernel plays games ``start..stop-1`` as the reference does; the reference's ``fired``."""
    ref = reference_games(lineup, rules, seed, start, stop)
    fast = play(list(lineup), rules, seed=seed, start=start, stop=stop, history=True)
    where = f"{list(lineup)} under {rules.changes()}, seed {seed}"
    for k, index in enumerate(range(start, stop)):
        history, holes = ref.games[index]
        mine = fast.actions[k]
        if mine != history:
            first = next((i for i, (a, b) in enumerate(zip(mine, history)) if a != b), min(len(history), len(mine)))
            raise AssertionError(f"game {index} of {where}: first difference at action {first}: kernel "
                                 f"{mine[first:first + 1]}, reference {history[first:first + 1]}")
        for h, (scores, hands, turns, finisher) in enumerate(holes):
            got = (fast.scores[k, h].tolist(), fast.hand_scores[k, h].tolist(), fast.turns[k, h].tolist(),
                   int(fast.finishers[k, h]))
            assert got == (scores, hands, turns, finisher), f"game {index}, hole {h + 1} of {where}"
    return ref.fired
