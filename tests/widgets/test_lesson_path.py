"""The lesson path: each lesson's items are varied, stable and exact; nudges never give the answer;
the lessons teach in order (values before scoring, how a hole ends before when to end it); the
rules of thumb agree with the exercises; house-rule hands hold the cards their rules change."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from golflab_widgets.lessons.exercise import BUCKETS, BestOption, Choice, Exercises, PairPays, ScoreHand, ScoreHole
from golflab_widgets.lessons.sets import (
    GO_OUT_MAX,
    KINGS,
    MAX_SHARE,
    GoOut,
    go_out_advice,
    going_out_examples,
    lesson3_example,
    lesson_questions,
    rule_cards,
    thumb,
)

from golflab import Card, Rules
from golflab.puzzles import one_step_options

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
LESSON_FILES = sorted(NOTEBOOKS.glob("lesson*_*.ipynb"))
SEEDS = range(10)  # the lesson's own seed and nine others


def lesson(n: int, seed: int | None = None) -> list:
    return lesson_questions(n, seed)


def cells(n: int) -> list[tuple[str, str]]:
    nb = json.loads(LESSON_FILES[n - 1].read_text())
    return [(c["cell_type"], "".join(c["source"])) for c in nb["cells"]]


def wrong_answer(q) -> dict:
    """A wrong answer to ``q`` (a wrong choice, or the right choice with a wrong bucket is tested elsewhere)."""
    if isinstance(q, (ScoreHand, ScoreHole)):
        return {"number": str(q.answer + 3)}
    if isinstance(q, BestOption):
        wrong = next(v for _label, v in q.choices if v != q.puzzle.answer)
        return {"choice": wrong, "number": q.bucket}
    right = q.answer
    return {"choice": next(v for _label, v in q.choices if v != right)}


def right_answer(q) -> dict:
    if isinstance(q, (ScoreHand, ScoreHole)):
        return {"number": str(q.answer)}
    if isinstance(q, BestOption):
        return {"choice": q.puzzle.answer, "number": q.bucket}
    return {"choice": q.answer}


# -- variety, size, stability ---------------------------------------------------------------------

@pytest.mark.parametrize("n", range(1, 6))
@pytest.mark.parametrize("seed", SEEDS)
def test_each_lesson_draws_8_to_12_items_and_no_answer_kind_fills_60_percent(n, seed):
    qs = lesson(n, seed + 101 if seed else None)
    assert 8 <= len(qs) <= 12
    kinds = Counter(q.answer_kind for q in qs)
    assert max(kinds.values()) <= MAX_SHARE * len(qs), kinds
    by_skill: dict[str, Counter] = {}
    for q in qs:
        if q.choices:
            by_skill.setdefault(q.skill, Counter())[q.answer_kind] += 1
    for skill, counts in by_skill.items():  # e.g. "will this pair pay?" is not mostly "no"
        if sum(counts.values()) >= 3:
            assert max(counts.values()) <= MAX_SHARE * sum(counts.values()), (skill, counts)
    buckets = Counter(q.bucket for q in qs if isinstance(q, BestOption) and q.buckets)
    if sum(buckets.values()) >= 3:
        assert max(buckets.values()) <= MAX_SHARE * sum(buckets.values()), buckets


def test_lesson_1_decisions_are_not_all_draw_and_lesson_2_pairs_not_mostly_no():
    turns = Counter(q.answer_kind for q in lesson(1) if isinstance(q, BestOption))
    assert turns["draw"] >= 1 and turns["take"] >= 1
    pairs = Counter(q.answer for q in lesson(2) if isinstance(q, PairPays))
    assert pairs["yes"] == pairs["no"] >= 2


@pytest.mark.parametrize("n", range(1, 6))
def test_items_and_their_ids_are_the_same_on_every_visit(n):
    title = f"Lesson {n} exercises"
    first, again = Exercises(lesson(n), title=title), Exercises(lesson(n), title=title)
    ids = [first.item_id(i) for i in range(len(first.questions))]
    assert ids == [again.item_id(i) for i in range(len(again.questions))]
    assert [q.prompt for q in first.questions] == [q.prompt for q in again.questions]
    assert all(re.fullmatch(r"\d+-[a-z-]+", i) for i in ids) and first.lesson == f"lesson{n}"


def test_a_lesson_that_is_not_there_is_refused():
    with pytest.raises(ValueError, match="lesson must be one of 1, 2, 3, 4, 5"):
        lesson_questions(6)


# -- answers, nudges, exact values ----------------------------------------------------------------

@pytest.mark.parametrize("n", range(1, 6))
def test_right_answers_are_right_and_nudges_never_contain_the_answer(n):
    for q in lesson(n):
        assert q.check(**right_answer(q)).correct
        nudge = q.check(**wrong_answer(q))
        assert not nudge.correct and not nudge.detail
        text = nudge.message
        assert not re.search(r"\d", text), text  # no number at all, so not the score
        labels = [label for label, value in q.choices if value == (q.puzzle.answer if isinstance(q, BestOption)
                                                                     else getattr(q, "answer", None))]
        for label in labels:
            assert not re.search(rf"\b{re.escape(label.lower())}\b", text.lower()), (label, text)
        if isinstance(q, (PairPays, Choice)) and q.answer in ("yes", "no"):
            assert not re.search(rf"\b{q.answer}\b", text.lower()), text
        solution = q.solution()
        assert solution.correct and solution.message


def test_a_wrong_bucket_nudges_without_naming_the_bucket():
    q = next(q for q in lesson(3) if q.buckets)
    wrong = next(v for _label, v in BUCKETS if v != q.bucket)
    said = q.check(choice=q.puzzle.answer, number=wrong)
    assert not said.correct and "That is the best option" in said.message
    label = dict((v, k) for k, v in BUCKETS)[q.bucket]
    assert label.lower() not in said.message.lower()


@pytest.mark.parametrize("n", (1, 3, 5))
def test_every_option_value_a_lesson_grades_is_exact(n):
    for q in lesson(n):
        if isinstance(q, BestOption):
            p = q.puzzle
            assert p.valuation == "one_step" and p.gap_se == 0.0
            again = one_step_options(p.observation)  # re-valued: the same answer and gap
            assert again[0].action == p.answer and abs((again[1].value - again[0].value) - p.gap) < 0.01


# -- the lesson path ----------------------------------------------------------------------------

def test_lesson_1_asks_no_scoring_and_no_how_many_points():
    for q in lesson(1):
        assert not isinstance(q, (ScoreHand, ScoreHole)) and not q.buckets and not q.number_label
    code = " ".join(text for kind, text in cells(1) if kind == "code")
    assert "ScoreHand" not in code and "BestOption" not in code
    words = " ".join(text for kind, text in cells(1) if kind == "markdown").lower()
    assert "score?" not in words and "by how many points" not in words and "by how much" not in words
    assert "goes out" in words  # how a hole ends is told in lesson 1


def test_lesson_2_teaches_values_before_its_scoring_exercises():
    code = [text for kind, text in cells(2) if kind == "code"]
    values = next(i for i, c in enumerate(code) if "tier_frame(" in c)
    exercises = next(i for i, c in enumerate(code) if "Exercises(" in c)
    assert values < exercises


def test_lesson_3_rules_of_thumb_put_the_pair_first_and_agree_with_every_exercise():
    words = " ".join(text for kind, text in cells(3) if kind == "markdown")
    assert words.index("Complete a pair first") < words.index("replace your highest face-up card")
    for seed in (None, 7, 8):
        for q in lesson(3, seed):
            assert thumb(q.puzzle.observation) == q.puzzle.answer
    example = lesson3_example()
    assert example.source not in {q.puzzle.source for q in lesson(3)}
    assert thumb(example.observation) == example.answer


def test_lesson_4_tells_how_a_hole_ends_before_when_to_end_it_with_the_specs_guidance():
    words = " ".join(text for kind, text in cells(4) if kind == "markdown")
    assert words.index("## How a hole ends") < words.index("## When to go out")
    for said in ("about 10 points or less", "confident you are lowest", "face-up cards",
                 "knock penalty, be careful", "knock bonus"):
        assert said in words
    kinds = [q.advice for q in going_out_examples(4)]
    assert kinds == ["yes", "high", "not-lowest", "careful"]  # varied examples
    advice = Counter(q.advice for q in lesson(4) if isinstance(q, GoOut))
    assert advice == {"yes": 3, "high": 1, "not-lowest": 1, "careful": 1}


OPPONENT = [Card.parse(c) if c else None for c in ("9S", None, "8D", "7C", None, "QH")]  # shows 36, 2 hidden


@pytest.mark.parametrize("score, others, rules, advice", [
    (GO_OUT_MAX + 1, [OPPONENT], Rules(), "high"),
    (GO_OUT_MAX, [OPPONENT], Rules(), "yes"),
    (8, [[None] + [Card.parse(c) for c in ("2S", "AS", "KS", "3D", "2D")]], Rules(), "not-lowest"),  # 0 + 5.5
    (5, [[None, None] + [Card.parse(c) for c in ("5S", "KS", "2S", "AS")]], Rules(knock_penalty=True),
     "careful"),  # shows 4, about 15 in all
    (5, [[None, None] + [Card.parse(c) for c in ("5S", "KS", "2S", "AS")]], Rules(), "yes"),
])
def test_going_out_follows_the_spec(score, others, rules, advice):
    assert go_out_advice(score, others, rules, unseen=5.5)[0] == advice


def test_lesson_5_hands_hold_the_cards_their_rules_change():
    assert rule_cards(KINGS) == {"K", "T"}
    assert rule_cards(Rules(negative_pairs_keep_value=True)) == {"2"}
    for seed in (None, 9):
        for q in lesson(5, seed):
            if isinstance(q, ScoreHand):
                ranks = {c.rank for col in q.breakdown.columns for c in col.cards}
                assert rule_cards(q.rules) <= ranks, (q.rules, ranks)  # super kings: a king; ten penny: a ten
            elif isinstance(q, PairPays):
                assert q.column.cards[0].rank in rule_cards(q.rules) | {"Q"}
            elif isinstance(q, BestOption):
                obs = q.puzzle.observation
                seen = {c.rank for c in obs.my_grid if c is not None} | {obs.drawn.rank}
                assert rule_cards(obs.rules) & seen
    pairs = [q for q in lesson(5) if isinstance(q, PairPays)]
    assert {q.answer for q in pairs} == {"yes", "no"}


@pytest.mark.parametrize("path", LESSON_FILES, ids=lambda p: p.stem)
def test_each_lesson_notebook_draws_its_items_from_its_generator(path):
    n = int(path.name[len("lesson")])
    code = " ".join(text for kind, text in cells(n) if kind == "code")
    assert f'Exercises(lesson_questions({n}), title="Lesson {n} exercises")' in code
    words = " ".join(text for kind, text in cells(n) if kind == "markdown")
    assert "Show the answer" in words and "first try" in words


@pytest.mark.parametrize("n", range(1, 6))
def test_what_a_learner_reads_is_sentences_of_25_words_or_fewer(n):
    for q in lesson(n):
        for text in (q.prompt, q.check(**wrong_answer(q)).message, q.solution().message):
            for sentence in re.split(r"(?<=[.?!])\s+", text):
                assert len(sentence.split()) <= 25, sentence
