"""The plain, frozen values the class store hands out (no database handle inside)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from golflab.game import Game

ROLES = ("learner", "teacher", "admin")


@dataclass(frozen=True)
class User:
    id: int
    name: str
    role: str
    active: bool = True
    hub: bool = False
    last_seen: "float | None" = None
    #: The setting that gave this role (``roles.TEACHERS``, ``roles.ADMINS``); None: given by hand.
    role_setting: "str | None" = field(default=None, compare=False)
    #: The hash of the session token this user came from (``Store.user_for``): every store action
    #: by this user checks that the session is still there. None: not from a session (the Hub, a CLI).
    session: "str | None" = field(default=None, compare=False, repr=False)

    @property
    def teaches(self) -> bool:
        """A teacher or an admin: may create classes and see their learners."""
        return self.role in ("teacher", "admin")

    @classmethod
    def from_row(cls, row) -> "User":
        return cls(row.id, row.name, row.role, bool(row.active), bool(row.hub), row.last_seen, row.role_setting)


@dataclass(frozen=True)
class Klass:
    """A class (``class`` is Python's word): its name, code and teacher."""
    id: int
    name: str
    code: str
    teacher_id: int
    active: bool = True

    @classmethod
    def from_row(cls, row) -> "Klass":
        return cls(row.id, row.name, row.code, row.teacher_id, bool(row.active))


@dataclass(frozen=True)
class GameRecord:
    """A finished game as one learner played it (``seat``); ``game()`` gives the Game back."""
    id: int
    user_id: int
    seat: int
    seed: str
    players: tuple
    rules: dict
    scores: tuple
    holes: int
    points: int
    accuracy: "float | None"
    blunders: "int | None"
    room: "str | None"
    played_at: float
    save: str = field(repr=False)

    @property
    def points_per_hole(self) -> float:
        return self.points / self.holes if self.holes else 0.0

    @property
    def won(self) -> bool:
        return self.points == min(self.scores)

    def game(self):
        return Game.from_json(self.save)

    @classmethod
    def from_row(cls, row) -> "GameRecord":
        return cls(id=row.id, user_id=row.user_id, seat=row.seat, seed=row.seed,
                   players=tuple(json.loads(row.players)), rules=json.loads(row.rules),
                   scores=tuple(json.loads(row.scores)), holes=row.holes, points=row.points,
                   accuracy=row.accuracy, blunders=row.blunders, room=row.room, played_at=row.played_at,
                   save=row.save)


@dataclass(frozen=True)
class LessonProgress:
    lesson: str
    items: int            # the lesson's exercise count
    answered: int         # distinct items answered
    first_try_right: int  # items right at the first try
    stars: int            # 0-3 (see STARS)
    done: bool

    @property
    def first_try_share(self) -> float:
        return self.first_try_right / self.items if self.items else 0.0


#: Lesson stars by the share of the lesson's items right at the first try (all answered).
STARS = ((0.9, 3), (0.8, 2), (0.0, 1))
#: A lesson is done when at least this share of its items was right at the first try.
DONE_SHARE = 0.8


def lesson_summary(lesson: str, items: int, answered: int, right: int) -> LessonProgress:
    """A lesson's progress from its counts: ``STARS`` by the share right at the first try once all
    are answered, done at ``DONE_SHARE`` (the lessons' pages show the same)."""
    share = right / items if items else 0.0
    complete = answered >= items
    stars = next((s for threshold, s in STARS if share >= threshold), 0) if complete else 0
    return LessonProgress(lesson, items, answered, right, stars, complete and share >= DONE_SHARE)


@dataclass(frozen=True)
class PuzzleResult:
    rating: float
    change: float
    rd: float  # how sure the rating is (``glicko2.settling`` tells whether it is still settling)
    streak: int
    review_in_days: "int | None"  # when a missed puzzle comes back (None: it does not)


@dataclass(frozen=True)
class PuzzleProfile:
    rating: float
    rd: float
    attempts: int
    solved: int
    streak: int
    best_streak: int
    due: tuple  # puzzle keys due for review now


@dataclass(frozen=True)
class Assignment:
    id: int
    class_id: int
    lesson: "str | None"
    puzzles: int
    difficulty: "str | None"
    due_at: float
    created_at: float
    lesson_done: "bool | None" = None    # for one learner: the lesson done (None: no lesson)
    puzzles_solved: "int | None" = None  # for one learner: puzzles solved since it was set
    puzzle_set: "int | None" = None      # the id of the teacher's puzzle set it sets (None: no set)
    set_done: "bool | None" = None       # for one learner: every item of the set answered (None: no set)


@dataclass(frozen=True)
class PuzzleSet:
    """A teacher's named set of positions in a class; ``items``: how many are served (not removed)."""
    id: int
    class_id: int
    name: str
    items: int
    created_at: float


@dataclass(frozen=True)
class SetItem:
    """A position of a puzzle set (golflab's notation, normal form) and the move its teacher wants
    (``answer``, normalized); ``loss``: the points by which that move is worse than the coach's best."""
    id: int
    set_id: int
    seq: int
    position: str
    answer: str
    title: str
    note: str
    loss: float


@dataclass(frozen=True)
class SetAnswer:
    """A learner's answer to a set item: right or not, and whether it was their first."""
    item_id: int
    answer: str
    correct: bool
    first_try: bool


@dataclass(frozen=True)
class SetItemResult:
    """A set item in its teacher's view: the class's active learners, how many answered it, how
    many were right at the first try, and ``wrong``: ((answer, count), ...) of the wrong first
    answers, most common first (ties by answer)."""
    item: SetItem
    learners: int
    answered: int
    right_first: int
    wrong: tuple


@dataclass(frozen=True)
class LearnerStats:
    games: int
    points_per_hole: "float | None"
    accuracy_trend: tuple  # (played_at, accuracy) of graded games, oldest first
    blunders_per_game: "float | None"
