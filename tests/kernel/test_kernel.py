"""The compiled kernel against the Python reference: the same games, move for move.

For one variant per value of every rule option (generated from ``rules.OPTIONS``), and a
few combinations, the kernel's games must equal ``Game`` played by the ``CPUPlayer``s:
the same actions in the same order, the same hole scores, turns and finishers
(``kernel_replay``, shared with ``tests/kernel/test_kernel_parity.py``, which plays random rules and
lineups until every rule has fired), and the same ``simulate`` rounds frame. The Mersenne
Twister port is checked against CPython's.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("numba", reason="the kernel needs the fast extra (numba)")

from golflab import Rules, simulate  # noqa: E402
from golflab.kernel import ENV, enabled, play, supports  # noqa: E402
from golflab.kernel import mt19937 as mt  # noqa: E402
from golflab.rules import OPTIONS  # noqa: E402
from tests.support.kernel_replay import assert_plays_the_reference  # noqa: E402

BASE = {"rounds": 3, "initial_flips": 2, "flip_mode": "never", "jokers": "none", "max_turns": 50}
LINEUPS = [("Sofia", "Maya", "Priya", "Marcus"), ("Kenji", "Diego", "River"), ("Sage", "Maya"),
           ("Diego", "Kenji", "Sage", "River", "Sofia")]


def _values(option) -> list:
    """Every value an option may take besides the base's, bounded ints at their ends and middle."""
    if option.kind is bool:
        return [True]
    if option.choices:
        return [c for c in option.choices if c != BASE.get(option.name, option.default)]
    lo, hi = option.bounds
    return sorted({lo, (lo + hi) // 2, hi} - {BASE.get(option.name, option.default)})


VARIANTS = {f"{o.name}={v}": {o.name: v} for o in OPTIONS for v in _values(o)}
VARIANTS["rounds=18"] = {"rounds": 18}
VARIANTS["max_turns=10,flip_always"] = {"max_turns": 10, "flip_mode": "always"}
VARIANTS["all_scoring"] = {"jokers": "standard", "super_kings": True, "ten_penny": True, "knock_bonus": True,
                           "blackjack": True, "wolfpack": True, "one_eyed_jacks": True, "four_of_a_kind": True,
                           "negative_pairs_keep_value": True, "underdog_bonus": True, "tied_shame": True}
VARIANTS["all_turns"] = {"flip_as_action": True, "knock_early": True, "flip_mode": "endgame", "knock_penalty": True,
                         "jokers": "eagle_eye", "initial_flips": 0}


@pytest.mark.parametrize("name", list(VARIANTS))
def test_kernel_plays_the_reference_games(name):
    options = VARIANTS[name]
    rules = Rules(**{**BASE, **options})
    k = sum(map(ord, name)) % len(LINEUPS)
    lineup = LINEUPS[k]
    if rules.decks is not None and rules.decks == 1 and len(lineup) > 4:
        lineup = LINEUPS[0]
    assert_plays_the_reference(lineup, rules, seed=k + 7, start=0, stop=2 if rules.rounds > 5 else 4)


def test_kernel_reshuffles_as_the_reference():
    """Six players on one deck leave 15 cards to draw: every hole reshuffles the discard pile."""
    lineup = ("Sofia", "Maya", "Priya", "Marcus", "Kenji", "Sage")
    rules = Rules(**{**BASE, "decks": 1})
    assert_plays_the_reference(lineup, rules, seed=3, start=0, stop=2)
    fast = play(lineup, rules, seed=3, start=0, stop=1, history=True)
    assert fast.actions[0].count("draw") > 3 * 15  # more draws than 3 holes' piles: reshuffled


@pytest.mark.parametrize("options", [{}, {"flip_mode": "always", "underdog_bonus": True, "tied_shame": True}])
def test_simulate_rounds_are_the_same_with_and_without_the_kernel(monkeypatch, options):
    """A run big enough for the kernel gives the very frame the reference gives."""
    rules = Rules(**{**BASE, **options})
    players = ["Sofia", "Maya", "Priya"]
    monkeypatch.setenv(ENV, "0")
    reference = simulate(players, 120, rules, seed=5, progress=False, analyze=False)
    monkeypatch.setenv(ENV, "1")
    fast = simulate(players, 120, rules, seed=5, progress=False, analyze=False)
    assert fast.rounds.equals(reference.rounds)
    assert fast.rounds.dtypes.tolist() == reference.rounds.dtypes.tolist()


def test_kernel_switch_is_checked(monkeypatch):
    monkeypatch.setenv(ENV, "yes")
    with pytest.raises(ValueError, match="GOLFLAB_KERNEL must be 0"):
        enabled()
    with pytest.raises(ValueError, match="GOLFLAB_KERNEL must be 0"):
        simulate(["Sofia", "Maya"], 2, Rules(), seed=1, progress=False, analyze=False)
    monkeypatch.setenv(ENV, "0")
    assert not enabled()


def test_the_expert_is_left_to_the_reference():
    assert supports(["Sofia", "Maya"])
    assert not supports(["Sofia", "Expert"])
    with pytest.raises(ValueError, match="seat kind .expert."):
        play(["Sofia", "Expert"], Rules(), 1, 0, 1)


def test_generators_seeded_side_by_side_are_cpythons():
    """``seed_many`` seeds ``BLOCK`` generators at a time: every one of them, across the blocks' edges
    and the last, shorter block, one-word and two-word seeds mixed, is ``random.Random(seed)``'s."""
    rng = random.Random(5)
    seeds = [0, 2**63 - 1, 2**32, 2**32 - 1]
    seeds += [rng.getrandbits(rng.choice((8, 31, 32, 33, 63))) for _ in range(2 * mt.BLOCK + 3)]
    rows = np.zeros((len(seeds), mt.N + 1), dtype=np.int64)
    mt.seed_many(rows, np.array(seeds, dtype=np.int64))
    assert [tuple(row) for row in rows] == [random.Random(seed).getstate()[1] for seed in seeds]
    grid = np.array(seeds[:-1], dtype=np.int64).reshape(-1, 2)
    assert np.array_equal(mt.seed_rows(grid).reshape(len(seeds) - 1, -1), rows[:-1])


@pytest.mark.parametrize("seed", [0, 1, 2**32 - 1, 2**32, 98765432123456789, 2**63 - 1])
def test_mersenne_twister_is_cpythons(seed):
    row = np.zeros(625, dtype=np.int64)
    mt.seed_row(row, seed)
    reference = random.Random(seed)
    assert tuple(row) == reference.getstate()[1]
    assert [mt.random(row) for _ in range(700)] == [reference.random() for _ in range(700)]  # past a twist
    assert [mt.randbelow(row, n) for n in range(1, 300)] == [reference._randbelow(n) for n in range(1, 300)]
    deck = list(range(108))
    reference.shuffle(deck)
    mine = np.arange(108)
    mt.shuffle(row, mine, 108)
    assert mine.tolist() == deck
    assert tuple(row) == reference.getstate()[1]


def _positions(rules: Rules, lineup, seed: int, every: int):
    """Observations of the seat to move (with a choice), every ``every``-th decision of a game."""
    from golflab import Game
    from golflab.ai import CPUPlayer

    game = Game(list(lineup), rules, seed=seed)
    bots = [CPUPlayer(p, seed=s) for s, p in enumerate(lineup)]
    step = 0
    while not game.is_over:
        if game.phase == "round_over":
            game.next_round()
            continue
        obs = game.observation(game.current_player)
        if step % every == 0 and len(obs.legal_actions) > 1:
            yield obs
        step += 1
        game.apply(bots[game.current_player].choose(obs))


@pytest.mark.parametrize("options", [
    {},
    {"flip_mode": "always", "jokers": "eagle_eye", "wolfpack": True, "four_of_a_kind": True, "one_eyed_jacks": True},
    {"knock_early": True, "flip_as_action": True, "knock_penalty": True, "blackjack": True, "initial_flips": 1},
])
def test_coach_rollouts_are_the_same_compiled(monkeypatch, options):
    """Every hint (each option's value and standard error) is the same from the kernel's
    rollouts as from the Python ones, in every phase of a hole."""
    from golflab import coach

    rules = Rules(**{**BASE, "rounds": 1, **options})
    observations = list(_positions(rules, ("Sofia", "Maya", "Kenji"), seed=11, every=5))[:10]
    assert {str(o.awaiting) for o in observations} >= {"draw", "place"}
    monkeypatch.setenv(ENV, "0")
    coach.clear_cache()
    reference = [coach.hint(o, samples=6) for o in observations]
    monkeypatch.setenv(ENV, "1")
    monkeypatch.setattr(coach.rollouts, "KERNEL_MIN_ROLLOUTS", 0)
    coach.clear_cache()
    compiled = [coach.hint(o, samples=6) for o in observations]
    coach.clear_cache()
    assert compiled == reference


def test_a_worker_without_the_kernel_plays_the_same_games_in_python(monkeypatch):
    """Tasks the client hands to the kernel, run by a worker where it is off (no numba there,
    or GOLFLAB_KERNEL=0), are played by the reference: the same frame."""
    from concurrent.futures import Future

    import golflab.kernel as kernel

    def no_kernel_here(*args, **kwargs):
        raise AssertionError("the kernel ran where it is off")

    class KernelOffWorker:
        """An executor whose worker has GOLFLAB_KERNEL=0."""

        def submit(self, fn, *args):
            with monkeypatch.context() as there:
                there.setenv(ENV, "0")
                there.setattr(kernel, "play", no_kernel_here)
                future = Future()
                future.set_result(fn(*args))
            return future

    rules = Rules(**BASE)
    here = simulate(["Sofia", "Maya"], 100, rules, seed=3, progress=False, analyze=False)
    there = simulate(["Sofia", "Maya"], 100, rules, seed=3, progress=False, analyze=False, executor=KernelOffWorker())
    assert there.rounds.equals(here.rounds)


@pytest.mark.parametrize("options", [{}, {"one_eyed_jacks": True, "jokers": "standard", "flip_mode": "always"}])
def test_pairing_study_is_the_same_from_the_kernels_records(monkeypatch, options):
    """The pairing study from the kernel's placement records equals the one from Game replays."""
    from golflab.sim import games
    from golflab.strategy import pairing_study

    rules = Rules(**{**BASE, **options})
    players = ["Sofia", "Maya", "Priya", "Marcus"]
    monkeypatch.setenv(ENV, "0")
    reference = pairing_study(players, 60, rules, seed=2)
    monkeypatch.setenv(ENV, "1")
    monkeypatch.setattr(games, "KERNEL_MIN_GAMES", 0)
    compiled = pairing_study(players, 60, rules, seed=2)
    assert len(reference[0]) and len(reference[1])
    assert compiled[0].equals(reference[0]) and compiled[1].equals(reference[1])
