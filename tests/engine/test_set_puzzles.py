"""A teacher's own puzzle (an item of a class's puzzle set): ``check_answer`` says whether the coach
finds the teacher's move best or by how much it is worse; ``set_puzzle`` makes the learner's puzzle
of it, valued as the generated puzzles are, with the teacher's move as its answer."""

from __future__ import annotations

import pytest

from golflab import Position
from golflab.puzzles import BEST_WITHIN, check_answer, describe, set_puzzle

#: Seat 1 has drawn the 8 of diamonds. Over its 9 (top left) saves a point now, but the coach's best
#: is over a face-down card under a face-down card (top right, or bottom right: the same move), about
#: 2 points better to the end of the hole (two references of 4,000 samples agree; the coach looking two
#: table rounds ahead, before 29 November 2026, found the 9 best).
DRAWN = "KH 5D ? ? ? 2C / 9S ? ? ? 7H ?; discard 4S; deck 38; seat 1 holds 8D"


@pytest.fixture(scope="module")
def obs():
    return Position.parse(DRAWN).observation()


def test_the_coachs_best_move_is_said_best(obs):
    check = check_answer(obs, "Swap 2")  # typed any way the notation allows
    assert check.is_best and check.loss == 0.0 and check.answer == check.best == "swap 2"
    assert check.options[0].action == "swap 2"
    assert check.words.startswith("The coach finds this the best move: " + describe(obs, "swap 2"))
    # bottom right is the same move (a face-down card under a face-down card): best too
    same = check_answer(obs, "swap 5")
    assert same.is_best and same.loss == 0.0 and same.best == "swap 2"


def test_another_move_is_said_worse_by_the_points_the_options_differ(obs):
    check = check_answer(obs, "swap 0")
    values = {o.action: o.value for o in check.options}
    assert not check.is_best and check.best == "swap 2"
    assert check.loss == pytest.approx(values["swap 0"] - values["swap 2"], abs=0.01) and check.loss > BEST_WITHIN
    assert check.loss_se > 0
    assert f"{round(check.loss, 1):g} points worse" in check.words and describe(obs, "swap 2") in check.words


@pytest.mark.parametrize("answer", ["take", "swap 6", "fold", ""])
def test_a_move_that_is_not_one_here_is_refused_with_the_moves(obs, answer):
    with pytest.raises(ValueError, match="is not a move here; the moves are swap 0, swap 1.*discard"):
        check_answer(obs, answer)


def test_a_position_with_no_move_to_make_is_refused():
    over = Position.parse(DRAWN).game(0)
    while over.legal_actions():
        over.apply(over.legal_actions()[0])
    with pytest.raises(ValueError, match="no move to make"):
        check_answer(over.observation(0), "discard")


def test_the_puzzle_answers_with_the_teachers_move_and_quotes_the_checks_values(obs):
    best = set_puzzle(obs, "swap 2", "Into the dark", "Look past your 9.")
    assert best.answer == "swap 2" and best.gap > 0
    assert best.explanation.startswith("Look past your 9. Best: ")
    worse = set_puzzle(obs, "swap 0", "Save a point")
    check = check_answer(obs, "swap 0")
    assert worse.answer == "swap 0" and worse.options == check.options
    assert worse.gap == pytest.approx(-check.loss, abs=0.01)
    assert worse.explanation == check.words and "Save a point" in worse.source
