"""The lessons' exercises and the puzzles scanned with the shared checker (tests/support/plain_words.py)
over several seeds: each question, its figure, a wrong answer's nudge, the answer shown on
request, a right answer's explanation, and the puzzle board's question, options and feedback."""

from __future__ import annotations

import pytest
from golflab_widgets.lessons.exercise import Exercises
from golflab_widgets.lessons.puzzle_board import BATCH, PuzzleBoard
from golflab_widgets.lessons.rules_html import hand_html, tell
from golflab_widgets.lessons.sets import lesson_questions

from golflab import Game, Phase, Rules, hand_breakdown
from golflab.ai import CPUPlayer
from tests.support.plain_words import problems, seen, widget_problems

SEEDS = (0, 1, 2)


@pytest.fixture(autouse=True)
def _no_env(monkeypatch):
    for var in ("GOLFLAB_CPU_DELAY", "GOLFLAB_SEED"):
        monkeypatch.delenv(var, raising=False)


def answers(q) -> list[tuple[str | None, str | None]]:
    """Every answer a learner could give by clicking, and a typed number or two."""
    choices = [value for _label, value in q.choices] or [None]
    numbers = [value for _label, value in q.buckets] or (["0", "7"] if q.number_label else [None])
    return [(c, n) for c in choices for n in numbers]


@pytest.mark.parametrize("lesson", [1, 2, 3, 4, 5])
def test_every_exercise_of_every_lesson_is_plain_words(lesson):
    wrong = 0
    for seed in SEEDS:
        ex = Exercises(lesson_questions(lesson, seed), title=f"Lesson {lesson} words")
        assert not widget_problems(ex), widget_problems(ex)[:3]
        for i, q in enumerate(ex.questions):
            for choice, number in answers(q):  # right and wrong answers: the nudge, the explanation
                verdict = ex.answer(i, choice=choice, number=number)
                wrong += verdict is not None and not verdict.correct
                assert not widget_problems(ex.boxes[i]), (lesson, seed, i, widget_problems(ex.boxes[i])[:3])
            ex.reveal(i)
            assert not widget_problems(ex.boxes[i]), (lesson, seed, i, widget_problems(ex.boxes[i])[:3])
        assert not widget_problems(ex), widget_problems(ex)[:3]
    assert wrong  # nudges were seen


@pytest.mark.parametrize("difficulty, seed", [("easy", 0), ("medium", 1), ("hard", 2)])
def test_the_puzzle_board_is_plain_words(difficulty, seed):
    """Every puzzle of a board's first batch (what it generates at once), answered right and wrong
    in turn: a board per seed re-generated a batch to look at three of its puzzles."""
    board = PuzzleBoard(seed=seed, difficulty=difficulty)
    for n in range(BATCH):
        assert not widget_problems(board), widget_problems(board)[:3]
        options = board.puzzle.options
        board.answer(options[n % 2].action)  # right, then wrong: each feedback
        assert not widget_problems(board), (seed, n, widget_problems(board)[:3])
        if n + 1 < BATCH:  # not past the batch: that would make the next
            board.next()


@pytest.mark.parametrize("seed", SEEDS)
def test_the_rules_lessons_tell_moves_and_hands_in_plain_words(seed):
    game = Game(players=["Ann", "Sofia"], rules=Rules(rounds=1, jokers="standard"), seed=seed)
    told = 0
    while game.phase in (Phase.INITIAL_FLIP, Phase.PLAYING) and told < 200:
        action = str(CPUPlayer("Marcus", seed=told).choose(game.observation(game.current_player)))
        text = seen(tell(game, action))
        told += 1
        assert not problems(text), (action, problems(text))
    for seat in range(2):
        text = seen(hand_html(hand_breakdown(game.grid(seat), game.rules), game.rules))
        assert "Left column:" in text and not problems(text), problems(text)
