"""Everything taught is checked: each puzzle a lesson or the puzzles app shows, re-valued with
more samples drawn from another seed, keeps its answer as the best and its quoted gap within
the tolerance the exercise grades with; and re-valued to the end of the hole (the coach's
check, ``coach.valuation.reference``: rollouts to the end of the hole, *draw* by the best use
of the drawn card), each from its own independent seed, its answer is less than
``END_TOLERANCE`` worse than the best there (the line issue 40 draws: a choice 0.5 points or
more worse is a wrong one). (The
other numbers taught are exact: hand and hole scores by the scoring rules, one-step values by
enumeration in test_ev/test_puzzles.)"""

from __future__ import annotations

import pytest
from golflab_widgets.lessons.exercise import MARGIN_TOLERANCE

from golflab.coach import hint, observation_seed, valuation
from golflab.puzzles import DIFFICULTY, GAP_PRECISION, SEPARATION, generate
from golflab.racing import SEPARATION as RACE_SEPARATION
from golflab.taught import LESSON_PUZZLES, lesson_puzzle

#: Determinizations per option of the re-valuation, and the seed it is drawn from (xor the observation's).
SAMPLES = 600
OTHER_SEED = 0xC0FFEE
#: Determinizations per option of the end-of-hole re-valuation, and its seed (xor the observation's).
END_SAMPLES = 400
END_SEED = 0xE0D0F
#: Points the answer may trail the best option by at the end of the hole (ties and the reference's noise).
END_TOLERANCE = 0.5


def revalued(puzzle) -> dict[str, float]:
    obs = puzzle.observation
    return {o.action: o.value for o in hint(obs, samples=SAMPLES, seed=observation_seed(obs) ^ OTHER_SEED)}


def check_holds(puzzle) -> None:
    values = revalued(puzzle)
    best = min(values, key=values.get)
    gap = min(v for a, v in values.items() if a != puzzle.answer) - values[puzzle.answer]
    assert best == puzzle.answer, (puzzle.source, puzzle.answer, values)
    assert abs(gap - puzzle.gap) <= MARGIN_TOLERANCE, (puzzle.source, puzzle.gap, gap)
    obs = puzzle.observation
    to_end = valuation.reference(obs, END_SAMPLES, observation_seed(obs) ^ END_SEED)
    assert to_end[puzzle.answer] - min(to_end.values()) < END_TOLERANCE, (
        "end of hole", puzzle.source, puzzle.answer, to_end)


def test_the_quoted_gap_is_precise_enough_for_the_tolerance():
    """A re-valuation of a gap with standard error GAP_PRECISION stays within the exercise's
    tolerance at 3 standard errors (both estimates' errors together)."""
    assert SEPARATION == RACE_SEPARATION == 3
    assert SEPARATION * (2 * GAP_PRECISION**2) ** 0.5 <= MARGIN_TOLERANCE


@pytest.mark.parametrize("name", list(LESSON_PUZZLES))
def test_a_lesson_puzzle_holds_when_revalued(name):
    puzzle = lesson_puzzle(name)
    assert puzzle.gap_se <= GAP_PRECISION
    check_holds(puzzle)


@pytest.mark.parametrize("difficulty", list(DIFFICULTY))
def test_the_puzzles_apps_first_puzzles_hold_when_revalued(difficulty):
    """The first puzzles the puzzles app serves (its first batch has seed 0)."""
    for puzzle in generate(2, seed=0, min_gap=DIFFICULTY[difficulty]):
        assert puzzle.gap >= SEPARATION * puzzle.gap_se
        check_holds(puzzle)


def test_an_unknown_lesson_puzzle_is_refused_by_name():
    with pytest.raises(ValueError, match="lesson 3, worked example"):
        lesson_puzzle("lesson 9")
