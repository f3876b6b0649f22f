"""The puzzles the lessons teach with, by name: one place for the lessons and the tests.

Each lesson's worked example and "which is best, by how many points" exercise is a puzzle of
``golflab.puzzles.generate``; ``LESSON_PUZZLES`` names the arguments that make each one and
``lesson_puzzle(name)`` makes it. ``tests/coach/test_taught_values.py`` re-values every one with
more samples and another seed and checks the answer and the quoted gap hold.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .puzzles import Puzzle, generate
from .rules import Rules

__all__ = ["LESSON_PUZZLES", "Taught", "lesson_puzzle"]


@dataclass(frozen=True)
class Taught:
    """Puzzle ``index`` of ``generate(index + 1, seed, rules, min_gap, kind)``."""

    seed: int
    min_gap: float
    kind: str
    index: int = 0
    rules: Rules = field(default_factory=Rules)


LESSON_PUZZLES = {
    "lesson 1, exercise 2": Taught(1, 4.0, "turn"),
    "lesson 1, exercise 3": Taught(2, 4.0, "turn", 1),
    "lesson 3, worked example": Taught(0, 2.0, "place", 1),
    "lesson 3, exercise 1": Taught(3, 3.0, "place"),
    "lesson 3, exercise 2": Taught(3, 3.0, "place", 1),
    "lesson 3, exercise 3": Taught(3, 3.0, "place", 2),
    "lesson 4, worked example": Taught(0, 5.0, "last_card"),
    "lesson 4, exercise 1": Taught(4, 3.0, "last_card"),
    "lesson 4, exercise 2": Taught(4, 3.0, "last_card", 1),
    "lesson 5, exercise 4": Taught(5, 3.0, "place", 0, Rules(super_kings=True, jokers="standard")),
}


def lesson_puzzle(name: str) -> Puzzle:
    """The puzzle a lesson shows under ``name`` (a key of ``LESSON_PUZZLES``)."""
    if name not in LESSON_PUZZLES:
        raise ValueError(f"no lesson puzzle named {name!r}; the names are {', '.join(LESSON_PUZZLES)}")
    t = LESSON_PUZZLES[name]
    return generate(t.index + 1, seed=t.seed, rules=t.rules, min_gap=t.min_gap, kind=t.kind)[t.index]
