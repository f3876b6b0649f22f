"""The leaf's correction on trial (golflab.coach.leaf, issue 40): fitted from CPU play the same way from
the same seed, used only under its own rules, kept apart in the hints' cache, and the same compiled."""

from __future__ import annotations

import pytest

from golflab import Game, Rules
from golflab.ai import CPUPlayer
from golflab.coach import clear_cache, hint, leaf, rollouts
from golflab.kernel import ENV
from tests.support.kernel_marks import needs_compiled

PLAYERS = ("Sofia", "Maya", "Priya", "Marcus")


@pytest.fixture(scope="module")
def correction():
    return leaf.fit(Rules(rounds=1), PLAYERS, 300, seed=50_000)


def positions(rules: Rules, count: int, seed: int = 7) -> list:
    """Decisions with a choice from one CPU game, every third."""
    game = Game(list(PLAYERS), rules, seed=seed)
    bots = [CPUPlayer(p, seed=s) for s, p in enumerate(PLAYERS)]
    out, step = [], 0
    while not game.is_over and len(out) < count:
        obs = game.observation(game.current_player)
        if len(obs.legal_actions) > 1 and step % 3 == 0:
            out.append(obs)
        game.apply(bots[game.current_player].choose(obs))
        step += 1
    return out


def test_a_fit_says_what_play_replaces_and_is_the_same_from_the_same_seed(correction):
    again = leaf.fit(Rules(rounds=3), PLAYERS, 300, seed=50_000)  # the holes of a game: rounds do not count
    assert again == correction and again.means == correction.means
    down = leaf.DOWN
    both_down = correction.column(None, None, 4, 3)
    assert both_down == correction.means[((down, down), 4, 3)] < -2  # two face-down cards end lower
    assert correction.column("8", None, 4, 3) < correction.column("2", None, 4, 3)  # an 8 is replaced, a 2 kept
    assert correction.column(None, "8", 4, 9) == correction.column("8", None, 4, 3)  # either order; fewest capped
    assert leaf.fit(Rules(rounds=1), PLAYERS, 300, seed=1) != correction
    with pytest.raises(ValueError, match="holes must be a whole number, 1 or more, got 0"):
        leaf.fit(Rules(rounds=1), PLAYERS, 0, seed=1)
    with pytest.raises(ValueError, match="seed must be a whole number, got '1'"):
        leaf.fit(Rules(rounds=1), PLAYERS, 10, seed="1")


def test_a_correction_counts_only_where_set_and_under_its_own_rules(monkeypatch, correction):
    obs = positions(Rules(rounds=1), 1)[0]
    clear_cache()
    plain = hint(obs, samples=8)
    monkeypatch.setattr(rollouts, "LEAF", correction)
    corrected = hint(obs, samples=8)
    assert [o.value for o in corrected] != [o.value for o in plain]  # kept apart in the cache, and valued anew
    monkeypatch.setattr(rollouts, "LEAF", None)
    assert hint(obs, samples=8) == plain
    monkeypatch.setattr(rollouts, "LEAF", correction)
    other = positions(Rules(rounds=1, jokers="eagle_eye"), 1)[0]
    with pytest.raises(ValueError, match="the leaf's correction was fitted for .*: fit one for these rules"):
        hint(other, samples=8)


@needs_compiled
@pytest.mark.parametrize("options", [{}, {"jokers": "eagle_eye", "flip_mode": "always"}])
def test_the_corrected_leaf_is_the_same_compiled(monkeypatch, options):
    """Every option's value and standard error with the correction, from the kernel's rollouts and
    from the Python ones, in every phase of a hole."""
    rules = Rules(rounds=1, **options)
    monkeypatch.setattr(rollouts, "LEAF", leaf.fit(rules, PLAYERS, 150, seed=3))
    observations = positions(rules, 8)
    assert {str(o.awaiting) for o in observations} >= {"draw", "place"}
    monkeypatch.setenv(ENV, "0")
    clear_cache()
    reference = [hint(o, samples=6) for o in observations]
    monkeypatch.setenv(ENV, "1")
    monkeypatch.setattr(rollouts, "KERNEL_MIN_ROLLOUTS", 0)
    clear_cache()
    compiled = [hint(o, samples=6) for o in observations]
    clear_cache()
    assert compiled == reference
