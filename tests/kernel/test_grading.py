"""golflab.grading: the compiled grader gives the reference's Grade (golflab.analysis.grade), bit for bit."""

from __future__ import annotations

import dataclasses
import random

import pytest

from golflab import Rules, build_deck
from golflab.actions import DISCARD, DRAW, FLIP, KNOCK, SKIP, SWAP, TAKE
from golflab.analysis import grade as reference
from golflab.game import Observation, Phase
from golflab.grading import fast_grade as fast
from golflab.simulation import play_games
from tests.simulation.test_simulation_fingerprint import CASES
from tests.support.kernel_marks import needs_compiled

BASE = {"rounds": 9, "initial_flips": 2, "flip_mode": "never", "jokers": "none"}


def same(a, b) -> bool:
    """Equal Grades, floats compared bit for bit (0.0 and -0.0 differ in a CSV)."""
    return a == b and all(repr(x) == repr(y) for x, y in zip(a.__dict__.values(), b.__dict__.values()))


def outcome(grader, obs, action, personality=None):
    """The Grade, or the ValueError's message (e.g. more face-down cards than unseen ones)."""
    try:
        return grader(obs, action, personality)
    except ValueError as error:
        return str(error)


def agree(obs, action, personality=None) -> bool:
    got, expected = outcome(fast, obs, action, personality), outcome(reference, obs, action, personality)
    return got == expected if isinstance(expected, str) else same(got, expected)


@needs_compiled
@pytest.mark.parametrize("name", list(CASES))
def test_every_decision_of_the_fingerprint_cases_grades_as_the_reference(name):
    from golflab.fastev import kernel

    assert kernel(Rules()) is not None  # numba is part of the fast extra the tests install
    players, games, options, seed = CASES[name]
    rules = Rules(**{**BASE, **options})
    checked = 0
    for step, _index, _game, obs, action in play_games(list(players), rules, seed, 0, min(games, 4)):
        if step == "decision":
            assert agree(obs, action, "p"), (obs, action)
            checked += 1
    assert checked > 100


RULESETS = [Rules(), Rules(jokers="eagle_eye"), Rules(jokers="standard", super_kings=True, ten_penny=True),
            Rules(one_eyed_jacks=True, negative_pairs_keep_value=True, jokers="lucky_swing"),
            Rules(flip_mode="always", decks=2, jokers="standard"), Rules(wolfpack=True, jokers="standard")]


def random_position(rules: Rules, rng: random.Random) -> Observation:
    """Seat 0 to move in a random position: any stage, face-down cards, a discard pile of
    any length (an empty draw pile too), possibly so many cards shown that few are unseen."""
    players = rng.randint(2, 4)
    deck = build_deck(rules.decks_for(players), rules.jokers)
    rng.shuffle(deck)
    up = rng.random()
    grids = [[deck.pop() if rng.random() < up else None for _ in range(6)] for _ in range(players)]
    grids[0][rng.randrange(6)] = None if rng.random() < 0.8 else grids[0][0]
    held = deck.pop()
    pile = [deck.pop() for _ in range(rng.choice([1, 3, 12, len(deck) - rng.randint(0, 12)]))]
    awaiting = rng.choice(["draw", "place", "flip"])
    down = [i for i, c in enumerate(grids[0]) if c is None]
    taken = None
    if awaiting == "draw":
        legal = [DRAW, TAKE] + ([FLIP[i] for i in down] if rng.random() < 0.3 else [])
        if 1 <= len(down) <= 2 and rng.random() < 0.5:
            legal.append(KNOCK)
        held = None
    elif awaiting == "place":
        taken = held if rng.random() < 0.3 else None
        legal = list(SWAP) + ([] if taken else [DISCARD])
    else:
        if not down:
            grids[0][0], down = None, [0]
        legal = [FLIP[i] for i in down] + ([SKIP] if rng.random() < 0.5 else [])
        held = None
    obs = Observation.of_position(rules, grids, drawn=held, draw_pile_size=rng.choice([0, 1, 9]), discard_pile=pile)
    return dataclasses.replace(obs, legal_actions=legal, awaiting=awaiting, taken=taken,
                               phase=rng.choice([Phase.PLAYING, Phase.PLAYING, Phase.FINAL_TURN]),
                               finisher=rng.choice([None, None, 1]))


@pytest.mark.parametrize("rules", RULESETS, ids=repr)
def test_random_positions_grade_as_the_reference(rules):
    rng = random.Random(31)
    for _ in range(250):
        obs = random_position(rules, rng)
        for action in obs.legal_actions:
            assert agree(obs, action), (obs, action)


def test_with_golflab_kernel_0_the_reference_grades(monkeypatch):
    import golflab.fastev as fastev

    monkeypatch.setenv("GOLFLAB_KERNEL", "0")
    assert fastev.kernel(Rules()) is None
    rng = random.Random(2)
    for _ in range(20):
        obs = random_position(Rules(), rng)
        for action in obs.legal_actions:
            assert agree(obs, action, "Maya")


def test_an_illegal_action_is_refused_as_by_the_reference():
    obs = random_position(Rules(), random.Random(5))
    illegal = next(a for a in ("knock", "skip", "take", "swap 0") if a not in obs.legal_actions)
    with pytest.raises(ValueError, match="it is not legal here"):
        fast(obs, illegal)


# -- whole runs played and graded in compiled code (golflab.gradedgames) ------------------------
from dataclasses import replace  # noqa: E402

from golflab.sim.games import Task, compiled_grading  # noqa: E402
from golflab.sim.run import play_task  # noqa: E402

KERNEL_RULES = {
    "default": Rules(**BASE),
    "flip_always": Rules(**{**BASE, "flip_mode": "always", "jokers": "eagle_eye"}),
    "flip_endgame": Rules(**{**BASE, "flip_mode": "endgame", "jokers": "lucky_swing", "max_turns": 12}),
    "whole_turns": Rules(**{**BASE, "knock_early": True, "flip_as_action": True, "one_eyed_jacks": True,
                            "negative_pairs_keep_value": True, "jokers": "standard"}),
    "scoring": Rules(**{**BASE, "super_kings": True, "ten_penny": True, "knock_bonus": True, "blackjack": True,
                        "underdog_bonus": True, "tied_shame": True, "decks": 2, "rounds": 4}),
}


def _task(rules, players=("Sofia", "Kenji", "River"), games=3, rows=True):
    return Task(tuple(players), rules, 17, 0, games, True, rows, True)


def _same_result(got, expected):
    assert got[0] == expected[0]  # round rows
    assert len(got[1]) == len(expected[1])
    if isinstance(expected[1], list):
        for a, b in zip(got[1], expected[1]):
            assert a == b and [repr(x) for x in a] == [repr(x) for x in b], (a, b)
    else:
        assert got[1] == expected[1]
    assert got[2] == expected[2]  # quality counters


@needs_compiled
@pytest.mark.parametrize("name", list(KERNEL_RULES))
def test_compiled_graded_games_equal_the_reference(name):
    from golflab import gradedgames
    from golflab.sim import graded

    rules = KERNEL_RULES[name]
    assert gradedgames.supported(rules)
    task = _task(rules)
    _same_result(graded.decision_rows(task), play_task(replace(task, kernel=False)))


@needs_compiled
def test_compiled_graded_grade_counts_equal_the_reference():
    from golflab.sim import graded

    task = _task(KERNEL_RULES["default"], players=("Maya", "Priya", "Marcus", "Diego", "Sage"), rows=False)
    _same_result(graded.decision_rows(task), play_task(replace(task, kernel=False)))


@needs_compiled
def test_a_game_the_kernel_cannot_grade_is_graded_by_the_reference(monkeypatch):
    from golflab import gradedgames
    from golflab.sim import graded

    play = gradedgames.play

    def one_left_to_the_reference(*args):
        played, recs, evs = play(*args)
        first = int((recs[:, gradedgames.D_GAME] == 1).argmax())
        recs[first + 5, gradedgames.D_CASE] = gradedgames.gk.FALLBACK
        evs[recs[:, gradedgames.D_GAME] == 1] = 99.0  # whatever the kernel said about that game is not used
        return played, recs, evs

    monkeypatch.setattr(gradedgames, "play", one_left_to_the_reference)
    task = _task(KERNEL_RULES["default"])
    _same_result(graded.decision_rows(task), play_task(replace(task, kernel=False)))


@needs_compiled
def test_hand_bonuses_are_graded_by_the_reference_replay():
    from golflab import gradedgames

    assert not gradedgames.supported(Rules(wolfpack=True))
    assert not compiled_grading(Rules(four_of_a_kind=True))
    assert compiled_grading(Rules())
