"""The coach's default hint (the race) is the same whoever deals and plays its rollouts: Python,
the compiled kernel from the start (which then deals the worlds too, ``kernel.worlds``), or a
process that moves to the kernel in the middle of a hint."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from golflab import Game, Rules, coach
from golflab.ai import CPUPlayer
from golflab.kernel import ENV
from tests.support.kernel_marks import needs_compiled

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = ("Sofia", "Maya", "Priya", "Marcus")


def positions(count: int, seed: int = 7, every: int = 3) -> list:
    """Observations of the seat to move with a choice, every ``every`` decision of CPU holes."""
    out, step = [], 0
    while len(out) < count:
        game = Game(list(PLAYERS), Rules(rounds=1), seed=seed)
        bots = [CPUPlayer(p, seed=s) for s, p in enumerate(PLAYERS)]
        while not game.is_over and len(out) < count:
            obs = game.observation(game.current_player)
            if step % every == 0 and len(obs.legal_actions) > 1:
                out.append(obs)
            step += 1
            game.apply(bots[game.current_player].choose(obs))
        seed += 1
    return out


def raced(observations) -> list:
    coach.clear_cache()
    try:
        return [[(o.action, o.value, o.se, o.samples) for o in coach.hint(obs)] for obs in observations]
    finally:
        coach.clear_cache()


MIDWAY = """
import json, sys
from golflab import coach
from tests.coach.test_coach_kernel import positions, raced
coach.rollouts.KERNEL_MIN_ROLLOUTS = 100
before = "golflab.kernel.rollout" in sys.modules
values = raced(positions(3))
print(json.dumps({"before": before, "after": "golflab.kernel.rollout" in sys.modules, "values": values}))
"""


@pytest.fixture(scope="module")
def reference_races() -> list:
    """The race over Python rollouts (``GOLFLAB_KERNEL=0``) at ``positions(4)``, raced once for the
    module: the positions are dealt in order, so its first three are ``raced(positions(3))``."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(ENV, "0")
        return raced(positions(4))


@needs_compiled
def test_default_hints_are_the_same_dealt_and_played_compiled(monkeypatch, reference_races):
    """The race over Python rollouts and over the kernel's (which deals its own worlds) agree
    option for option: values, standard errors and samples spent."""
    monkeypatch.setenv(ENV, "1")
    monkeypatch.setattr(coach.rollouts, "KERNEL_MIN_ROLLOUTS", 0)
    assert raced(positions(4)) == reference_races
    assert any(len(options) > 2 for options in reference_races)


@needs_compiled
def test_a_hint_that_moves_to_the_kernel_midway_is_the_same(reference_races):
    """A fresh process plays a hint's first rollouts in Python, then loads the kernel, which
    takes over the worlds already dealt and deals on from the same generator: same hints."""
    reference = reference_races[:3]
    env = {**os.environ, ENV: "1", "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    run = subprocess.run([sys.executable, "-c", MIDWAY], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=600)
    assert run.returncode == 0, run.stderr
    found = json.loads(run.stdout.strip().splitlines()[-1])
    assert found["before"] is False and found["after"] is True
    assert [[tuple(o) for o in options] for options in found["values"]] == reference


@pytest.mark.parametrize("bits", [1, 31, 32, 33, 48, 63])
@needs_compiled
def test_the_kernels_getrandbits_is_cpythons(bits):
    """``mt19937.getrandbits`` draws what ``random.Random.getrandbits`` does, across a twist."""
    from golflab.kernel import mt19937

    rng = random.Random(2024)
    row = mt19937.state_of(rng)
    from numba import njit

    @njit
    def draws(row, k, n):
        out = [0] * n
        for i in range(n):
            out[i] = mt19937.getrandbits(row, k)
        return out

    assert list(draws(row, bits, 700)) == [rng.getrandbits(bits) for _ in range(700)]
