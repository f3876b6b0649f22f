"""The puzzle board makes its puzzles one at a time in the background (``puzzle_maker``): a page waits
for its first puzzle only, the next is made while the learner reads an answer, and ``prepare`` makes
a visit's first puzzle before the visitor is known."""

from __future__ import annotations

import pytest
from golflab_widgets.account import session as classroom_session
from golflab_widgets.lessons import puzzle_board, puzzle_maker
from golflab_widgets.lessons.puzzle_board import FIRST_VISIT_SEED, PuzzleBoard, prepare, puzzle_key, visit_seed
from golflab_widgets.lessons.puzzle_maker import PuzzleMaker

from golflab import Rules
from golflab.puzzles import DIFFICULTY, generate, stream

MEDIUM = DIFFICULTY["medium"]


@pytest.fixture
def made(monkeypatch):
    """A fresh maker whose streams record each puzzle they make, by stream arguments."""
    made: dict[tuple, list] = {}

    def recorded(seed, rules, min_gap, kind):
        puzzles = stream(seed, rules, min_gap, kind)

        def each():
            for p in puzzles:
                made.setdefault((seed, min_gap, kind), []).append(p)
                yield p

        return each()

    monkeypatch.setattr(puzzle_board, "MAKER", PuzzleMaker())
    monkeypatch.setattr(puzzle_maker, "stream", recorded)
    return made


def test_a_board_waits_for_its_first_puzzle_only_and_makes_the_next_while_the_answer_is_read(made):
    board = PuzzleBoard(seed=0)
    assert len(board.puzzles) == 1 and len(made[(0, MEDIUM, "place")]) == 1  # not the batch of five
    board.answer(board.puzzle.answer)
    puzzle_board.MAKER.get(Rules(), 0, MEDIUM, "place", 1)  # started by the answer: wait till it is made
    assert len(made[(0, MEDIUM, "place")]) == 2
    board.next()
    assert board.puzzle is made[(0, MEDIUM, "place")][1]
    expected = generate(2, seed=0, min_gap=MEDIUM, kind="place")
    assert [(p.source, p.options) for p in board.puzzles] == [(p.source, p.options) for p in expected]
    assert board.puzzle_keys == [puzzle_key(Rules(), 0, "medium", "place", i) for i in (0, 1)]


def test_next_with_no_more_puzzles_says_so_and_keeps_the_answered_one(monkeypatch):
    only = generate(1, seed=0, min_gap=2.0, kind="place", valuation="one_step")[0]

    def one_puzzle(*_args):
        yield only
        raise ValueError("only 1 positions with a gap of 2.0 points or more in 200 games")

    monkeypatch.setattr(puzzle_board, "MAKER", PuzzleMaker())
    monkeypatch.setattr(puzzle_maker, "stream", one_puzzle)
    board = PuzzleBoard(seed=0)
    board.answer(only.options[-1].action)
    board.next()
    assert board.index == 0 and board.puzzle is only and board.tried == 1 and board.chosen is not None
    assert "No more puzzles with these settings" in board.feedback.value and "only 1 positions" in board.feedback.value
    assert board.next_button.disabled
    board.next()  # asked again: the same answer, nothing lost
    assert board.index == 0 and board.puzzle is only and board.feedback.value.count("No more puzzles") == 1


def test_prepare_makes_the_visits_first_puzzle_before_the_visitor_is_known(made, monkeypatch):
    monkeypatch.setenv("GOLFLAB_SEED", "7")  # a class on one seed: known before the page's request
    prepare()
    first = puzzle_board.MAKER.get(Rules(), 700, MEDIUM, "place", 0)
    board = PuzzleBoard()
    assert board.puzzle is first and list(made) == [(700, MEDIUM, "place")]  # made once, by prepare

    monkeypatch.delenv("GOLFLAB_SEED")
    drawn = iter([42, 43])
    monkeypatch.setattr(puzzle_board.secrets, "randbelow", lambda n: next(drawn))
    monkeypatch.delenv("VOILA_PREHEAT", raising=False)
    prepare()  # the visitor is known already (no kernel started ahead): nothing drawn, nothing made
    assert list(made) == [(700, MEDIUM, "place")]
    monkeypatch.setenv("VOILA_PREHEAT", "True")  # a kernel started ahead, awaiting its page's request
    monkeypatch.setattr(classroom_session, "request_seen", False)
    prepare()  # a guest's seed, drawn now
    assert visit_seed() == FIRST_VISIT_SEED + 42  # the next guest gets it
    assert visit_seed() == FIRST_VISIT_SEED + 43  # and the one after a new one
    puzzle_board.MAKER.get(Rules(), (FIRST_VISIT_SEED + 42) * 100, MEDIUM, "place", 0)
    assert (FIRST_VISIT_SEED * 100 + 4200, MEDIUM, "place") in made
