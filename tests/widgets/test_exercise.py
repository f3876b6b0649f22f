"""The lessons' exercises: right answers accepted, wrong ones explained, bad input refused, nothing lost."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from golflab_widgets.lessons.exercise import (
    BUCKETS,
    BestOption,
    Exercises,
    PairPays,
    ScoreHand,
    ScoreHole,
    bucket_of,
    parse_number,
    rules_words,
)
from golflab_widgets.lessons.puzzle_board import BATCH, PuzzleBoard, option_class
from golflab_widgets.position_links import position_link

from golflab import Position, Rules, round_breakdown, score_hand
from golflab.puzzles import generate

HAND = ["QH", "2S", "5D", "QC", "7C", "KS"]
TWOS = ["2S", "KD", "9C", "2D", "KH", "5C"]
HOLE = (["Ann", "Ben"], [["KH", "5S", "3D", "KC", "AH", "3C"], ["4H", "5H", "QD", "4C", "KS", "QC"]])


@pytest.fixture(scope="module")
def puzzle():
    return generate(n=1, seed=0, min_gap=2.0, kind="place", valuation="one_step")[0]  # exact values


# -- ScoreHand -----------------------------------------------------------------------------------

def test_score_hand_accepts_the_engines_score_in_any_spelling():
    q = ScoreHand(HAND)
    assert q.answer == score_hand(HAND)
    for typed in (str(q.answer), f" {q.answer} ", f"+{q.answer}", f"{q.answer}.0"):
        assert q.check(number=typed).correct
    negative = ScoreHand(["2S", "JK", "KD", "AS", "KH", "2C"], Rules(jokers="standard"))
    assert negative.answer < 0
    assert negative.check(number=str(negative.answer).replace("-", "\u2212")).correct


def test_score_hand_nudges_a_wrong_answer_and_shows_the_solution_only_on_request():
    q = ScoreHand(HAND)
    v = q.check(number=str(q.answer + 4))
    assert not v.correct and "column by column" in v.message
    assert str(q.answer) not in v.message and not v.detail  # a nudge, not the solution
    shown = q.solution()
    assert f"The hand scores {q.answer}" in shown.message
    assert "Left column" in shown.detail and "Hand: <b>" in shown.detail


def test_score_hand_dealt_by_the_engine_under_house_rules():
    from golflab import Game

    rules = Rules(super_kings=True)
    q = ScoreHand.dealt(5, rules)
    assert q.answer == score_hand(Game(players=2, rules=rules, seed=5).grid(0), rules)
    assert "super kings" in q.prompt


@pytest.mark.parametrize("typed, message", [
    ("", "the box is empty"),
    ("twelve", '"twelve" is not a number'),
    ("4.5", '"4.5" is not a whole number'),
    ("inf", "is not a usable number"),
])
def test_score_hand_refuses_what_is_no_answer(typed, message):
    with pytest.raises(ValueError, match=message):
        ScoreHand(HAND).check(number=typed)


# -- ScoreHole -------------------------------------------------------------------------------------

def test_score_hole_counts_house_rule_adjustments():
    rules = Rules(knock_penalty=True)
    q = ScoreHole(*HOLE, rules=rules, finisher=0, seat=0)
    expected = round_breakdown(HOLE[1], rules, finisher=0).scores[0]
    assert q.answer == expected
    assert q.check(number=str(expected)).correct
    wrong = q.check(number=str(round_breakdown(HOLE[1], rules, finisher=0).hand_scores[0]))
    assert not wrong.correct and "house rules" in wrong.message and str(expected) not in wrong.message
    assert "knock penalty +10" in q.solution().message
    assert "Ann went out" in q.prompt and "knock penalty" in q.prompt


def test_score_hole_refuses_a_seat_that_is_not_there():
    with pytest.raises(ValueError, match="seat must be one of the 2 players"):
        ScoreHole(*HOLE, rules=Rules(), finisher=0, seat=2)


# -- PairPays --------------------------------------------------------------------------------------

@pytest.mark.parametrize("cards, column, rules, answer", [
    (HAND, 0, Rules(), "yes"),                                   # two queens: 20 points saved
    (TWOS, 0, Rules(), "no"),                                    # two 2s: 4 points thrown away
    (TWOS, 1, Rules(), "no"),                                    # two kings: 0 either way
    (TWOS, 1, Rules(super_kings=True), "no"),                    # super kings: -4 thrown away
    (TWOS, 0, Rules(negative_pairs_keep_value=True), "no"),      # keeps -4: saves nothing
])
def test_pair_pays_answers_from_the_engine(cards, column, rules, answer):
    q = PairPays(cards, column, rules)
    assert q.answer == answer
    assert q.check(choice=answer).correct
    other = "no" if answer == "yes" else "yes"
    wrong = q.check(choice=other)
    assert not wrong.correct and "apart" in wrong.message and answer not in wrong.message.lower().split()
    assert "Apart the two cards score" in q.solution().message


def test_pair_pays_refuses_a_column_without_a_pair_and_a_missing_choice():
    with pytest.raises(ValueError, match="column 2 of this hand is no pair"):
        PairPays(HAND, 2)
    q = PairPays(HAND, 0)
    with pytest.raises(ValueError, match="pick one of the options first"):
        q.check(choice=None)
    with pytest.raises(ValueError, match="'maybe' is not one of the options"):
        q.check(choice="maybe")


# -- BestOption ------------------------------------------------------------------------------------

def test_best_option_needs_the_best_action_and_the_gap_in_its_bucket(puzzle):
    q = BestOption(puzzle)
    best, gap = q.answer
    assert best == puzzle.answer and gap == puzzle.gap and q.bucket == bucket_of(gap)
    assert q.check(choice=best, number=q.bucket).correct
    other = next(value for _label, value in BUCKETS if value != q.bucket)
    far = q.check(choice=best, number=other)
    assert not far.correct and "That is the best option" in far.message
    second = puzzle.options[1].action
    wrong = q.check(choice=second, number=q.bucket)
    assert not wrong.correct and not wrong.detail
    labels = dict((v, k) for k, v in q.choices)
    assert labels[best] not in wrong.message and best not in wrong.message  # a nudge, not the answer
    assert "<th>value</th>" in q.check(choice=best, number=q.bucket).detail  # every option's worth, once right
    assert {value for _label, value in q.choices} == {o.action for o in puzzle.options}


@pytest.mark.parametrize("gap, bucket", [(0.5, "little"), (1.99, "little"), (2.0, "clearly"), (5.0, "clearly"),
                                         (5.01, "lot"), (14.0, "lot")])
def test_buckets_are_the_issues_a_little_clearly_a_lot(gap, bucket):
    assert bucket_of(gap) == bucket


def test_an_estimated_gap_is_bucketed_only_when_three_standard_errors_stay_in_its_bucket(puzzle):
    from dataclasses import replace

    sure = replace(puzzle, gap=3.5, gap_se=0.4)  # 2.3 to 4.7: clearly
    assert BestOption(sure).bucket == "clearly"
    unsure = replace(puzzle, gap=3.5, gap_se=0.6)  # 1.7 to 5.3: three buckets
    with pytest.raises(ValueError, match="may lie in two buckets"):
        BestOption(unsure)
    assert BestOption(unsure, margin=False).buckets == ()  # the option alone may still be asked


def test_best_option_refuses_an_action_that_is_no_option_and_a_missing_margin(puzzle):
    q = BestOption(puzzle)
    with pytest.raises(ValueError, match="is not one of the options"):
        q.check(choice="knock", number="2")
    with pytest.raises(ValueError, match="pick one of the options first: A little"):
        q.check(choice=puzzle.answer, number="")


# -- the widget ------------------------------------------------------------------------------------

def test_exercises_count_first_tries_and_keep_results_through_refusals(puzzle):
    ex = Exercises([ScoreHand(HAND), PairPays(TWOS, 0), BestOption(puzzle)])
    assert "0 of 3 answered, 0 right at the first try" in ex.progress.value
    assert ex.answer(0, number="nonsense") is None
    assert ex.results == [None, None, None] and ex.first_try == [None, None, None]
    assert "golf-exercise-refused" in ex.boxes[0].feedback._dom_classes
    assert "Not checked" in ex.boxes[0].feedback.value
    assert ex.answer(0, number=str(score_hand(HAND))).correct
    assert ex.answer(1, choice="yes").correct is False
    assert "golf-exercise-nudge" in ex.boxes[1].feedback.value and "Show the answer" in ex.boxes[1].feedback.value
    assert "2 of 3 answered, 1 right at the first try" in ex.progress.value
    before = ex.progress.value
    assert ex.answer(0, number="") is None  # refused: the right answer still counts
    assert ex.results[0] is True and ex.progress.value == before
    assert "still counts" in ex.boxes[0].feedback.value
    assert ex.answer(1, choice="no").correct  # a second try may put it right, but not at the first try
    assert ex.right == 2 and ex.done == 2 and ex.first_try == [True, False, None]
    assert "not at the first try" in ex.boxes[1].feedback.value
    assert "2 of 3 answered, 1 right at the first try" in ex.progress.value
    assert "golf-exercise-right" in ex.boxes[1].feedback._dom_classes


def test_show_the_answer_then_retyping_it_is_no_first_try_right():
    ex = Exercises([ScoreHand(HAND), PairPays(TWOS, 0)])
    shown = ex.reveal(0)
    assert str(score_hand(HAND)) in shown.message
    assert "golf-exercise-revealed" in ex.boxes[0].feedback._dom_classes
    assert f"The hand scores {score_hand(HAND)}" in ex.boxes[0].feedback.value
    assert ex.first_try[0] is False and ex.done == 1
    assert ex.answer(0, number=str(score_hand(HAND))).correct  # retyped: right, but no first try
    assert ex.first_try[0] is False and ex.first_try_right == 0 and ex.results[0] is True
    assert "1 of 2 answered, 0 right at the first try" in ex.progress.value
    ex.answer(1, choice="no")
    assert ex.reveal(1).correct and ex.first_try[1] is True  # shown after a right first try: it stays right
    summary = ex.summary()
    assert (summary.answered, summary.first_try_right, summary.stars, summary.done) == (2, 1, 1, False)


def test_the_reveal_button_shows_the_answer():
    ex = Exercises([PairPays(TWOS, 0)])
    reveal = next(c for row in ex.boxes[0].children if hasattr(row, "children") for c in row.children
                  if "golf-exercise-reveal" in c._dom_classes)
    assert reveal.description == "Show the answer"
    reveal.click()
    assert "golf-exercise-revealed" in ex.boxes[0].feedback._dom_classes and "No." in ex.boxes[0].feedback.value


@pytest.mark.parametrize("right, stars, done", [(10, 3, True), (9, 3, True), (8, 2, True), (7, 1, False),
                                                (0, 1, False)])
def test_stars_and_done_follow_the_class_stores_rule(right, stars, done):
    qs = [ScoreHand(HAND) for _ in range(10)]
    ex = Exercises(qs)
    for i in range(10):
        ex.answer(i, number=str(score_hand(HAND) + (0 if i < right else 1)))
    summary = ex.summary()
    assert (summary.first_try_right, summary.stars, summary.done) == (right, stars, done)
    assert f"10 of 10 answered, {right} right at the first try" in ex.progress.value


def test_no_stars_before_every_question_is_answered():
    ex = Exercises([ScoreHand(HAND), ScoreHand(HAND)])
    ex.answer(0, number=str(score_hand(HAND)))
    assert ex.summary().stars == 0 and not ex.summary().done


def test_exercises_check_button_reads_the_boxes():
    ex = Exercises([ScoreHand(HAND)])
    box = ex.boxes[0]
    number = next(c for row in box.children if hasattr(row, "children") for c in row.children
                  if "golf-exercise-number" in c._dom_classes)
    check = next(c for row in box.children if hasattr(row, "children") for c in row.children
                 if "golf-exercise-check" in c._dom_classes)
    number.value = str(score_hand(HAND))
    check.click()
    assert ex.results == [True]


def test_exercises_refuse_an_empty_set_and_a_question_not_there():
    with pytest.raises(ValueError, match="at least one question"):
        Exercises([])
    with pytest.raises(ValueError, match="there are 1 questions here"):
        Exercises([ScoreHand(HAND)]).answer(3, number="1")


def test_parse_number_and_rules_words():
    assert parse_number(" \u22123 ", True, "x") == -3
    assert parse_number("2.5", False, "x") == 2.5
    assert rules_words(Rules(), none="none") == "none"
    assert rules_words(Rules(super_kings=True, jokers="standard")) == "jokers: standard, super kings"


# -- the puzzle board ------------------------------------------------------------------------------

def test_puzzle_board_scores_streaks_and_refuses_a_second_answer():
    board = PuzzleBoard(seed=0)
    first = board.puzzle
    classes = {c for b in board.options.children for c in b._dom_classes}
    assert classes == {option_class(o.action) for o in first.options}
    wrong = first.options[-1].action
    assert "golf-position-link" not in board.feedback.value  # before the answer the link would give it away
    assert board.answer(wrong) is False
    assert "golf-puzzle-wrong" in board.feedback._dom_classes
    assert position_link(Position.of(first.observation)) in html.unescape(board.feedback.value)
    for o in first.options:
        assert f"{o.value:+.1f}" in board.feedback.value
    with pytest.raises(ValueError, match="answered already"):
        board.answer(first.answer)
    assert board.tried == 1 and board.solved == 0
    board.next()
    assert board.answer(board.puzzle.answer) is True
    board.next()
    assert board.answer(board.puzzle.answer) is True
    assert (board.solved, board.tried, board.streak) == (2, 3, 2)
    assert "solved 2 of 3" in board.score.value and "streak 2" in board.score.value


def test_puzzle_board_refuses_an_option_that_is_not_there_and_changes_nothing():
    board = PuzzleBoard(seed=0)
    with pytest.raises(ValueError, match="is not an option here"):
        board.answer("knock")
    assert board.tried == 0 and board.chosen is None and board.next_button.disabled


def test_puzzle_board_follows_difficulty_and_house_rules():
    board = PuzzleBoard(seed=0, difficulty="easy")
    assert all(p.gap >= 5.0 for p in board.puzzles)
    board.form.controls["super_kings"].value = True
    assert board.puzzle.observation.rules.super_kings
    board.difficulty.value = "hard"
    assert board.index == 0 and board.puzzles[0].gap >= 0.5
    for _ in range(BATCH):  # past the first batch: more are made
        board.next()
    assert board.index == BATCH and len(board.puzzles) == BATCH + 1
    with pytest.raises(ValueError, match="difficulty must be one of"):
        PuzzleBoard(difficulty="brutal")


def test_score_hole_from_a_cpu_hole_asks_about_who_went_out():
    from golflab.puzzles import cpu_hole

    rules = Rules(knock_penalty=True)
    game = cpu_hole(5, rules)
    result = game.round_results[-1]
    q = ScoreHole.from_game(game)
    assert q.seat == result.finisher and q.answer == result.scores[result.finisher]
    assert q.check(number=str(q.answer)).correct
    with pytest.raises(ValueError, match="no finished hole yet"):
        from golflab import Game

        ScoreHole.from_game(Game(players=2, seed=1))


# -- the lesson notebooks --------------------------------------------------------------------------

LESSON_FILES = sorted((Path(__file__).resolve().parents[2] / "notebooks").glob("lesson*_*.ipynb"))


def test_there_are_five_lessons_or_more_in_order():
    assert [p.name.split("_")[0] for p in LESSON_FILES][:5] == [f"lesson{i}" for i in range(1, 6)]


@pytest.mark.parametrize("path", LESSON_FILES, ids=lambda p: p.stem)
def test_each_lesson_is_slides_with_exercises_and_links(path):
    cells = json.loads(path.read_text())["cells"]
    kinds = [c["metadata"].get("slideshow", {}).get("slide_type") for c in cells]
    assert all(k in ("slide", "subslide", "fragment", "-", "skip") for k in kinds), kinds
    assert kinds.count("slide") >= 3 and "subslide" in kinds
    text = "".join("".join(c["source"]) for c in cells)
    assert "](index.ipynb)" in text
    index = LESSON_FILES.index(path)
    following = LESSON_FILES[index + 1].name if index + 1 < len(LESSON_FILES) else "puzzles.ipynb"
    assert f"]({following})" in text
    code = [("".join(c["source"])) for c in cells if c["cell_type"] == "code"]
    assert any("Exercises(" in c for c in code)
    assert not any(re.search(r"^\s*(def|class|for|while) ", c, re.MULTILINE) for c in code)  # composition, no logic


def test_the_landing_page_links_the_lessons_in_order_and_the_puzzles():
    index = json.loads((LESSON_FILES[0].parent / "index.ipynb").read_text())
    text = "".join("".join(c["source"]) for c in index["cells"])
    places = [text.index(f"]({p.name})") for p in LESSON_FILES]
    assert places == sorted(places)
    assert "](puzzles.ipynb)" in text
