"""Levels 1 to 8: CPU opponents of graded strength, declared once in ``LEVELS``.

``CPUPlayer("Level 3")`` (any case) plays the level. A level is a base personality and two
chances, both drawn from the player's own seeded generator (the same seed gives the same
games): ``blunder``, a uniformly random legal move instead of the base's, and ``search``,
the Expert's move (the hint's best, ``golflab.coach.expert``) instead of the base's, its
rollouts looking ``horizon`` table rounds ahead (None: the Expert's own, the coach's). Level 8 always
searches, as far ahead as the Expert: it is the Expert. (A search with a small fixed number
of rollouts per option, ``coach.hint(obs, samples=8)``, was no better than Kenji alone:
-0.65 points per round, 95% interval -1.82 to +0.52 over 120 rounds, and 2 per option far
worse; so the upper levels mix the full search with Kenji instead. Those figures are the
Classic Expert's search.) The menus, help and error messages take the names from here
(``LEVEL_NAMES``); the ladder is measured by ``benchmarks/levels.py``.

>>> LEVELS[0].name, LEVELS[-1].search
('Level 1', 1.0)
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Level:
    """One level: ``number`` (1-8), ``base`` (a personality's name), ``blunder`` (0-1: chance
    of a random legal move), ``search`` (0-1: chance of the Expert's move), ``summary``
    (shown in menus) and ``horizon`` (the table rounds that move's search looks ahead; None:
    the Expert's, the coach's ``coach.rollouts.HORIZON``)."""

    number: int
    base: str
    blunder: float
    search: float
    summary: str
    horizon: int | None = None

    @property
    def name(self) -> str:
        return f"Level {self.number}"

    @property
    def searches(self) -> bool:
        """True when the level plays the Expert's search on some moves (slow)."""
        return self.search > 0

    @property
    def plain(self) -> bool:
        """True when the level plays its base personality alone: no random move, no search."""
        return not self.blunder and not self.searches


#: The table rounds the search of levels 6 and 7 looks ahead (Level 8: the Expert's, ``coach.rollouts.HORIZON``,
#: three since 29 November 2026: levels 6 and 7 stay at two, quicker, and apart from Level 8).
SHORT_SEARCH = 2
#: The levels, weakest first (each measurably stronger than the one below: benchmarks/levels.py).
#: Levels 6 and 7 split the step from Kenji (Level 5) to the Expert (Level 8) in thirds: the
#: Expert's move on 1 decision in 3, then 2 in 3 (at 2 in 5 and 3 in 4, 6 v 7 measured +0.28),
#: its search looking two table rounds ahead (``SHORT_SEARCH``; Level 8 looks three).
LEVELS: tuple[Level, ...] = (
    Level(1, "Diego", 0.50, 0.0, "Beginner: half its moves at random"),
    Level(2, "Diego", 0.20, 0.0, "Novice: one move in five at random"),
    Level(3, "Marcus", 0.06, 0.0, "Casual: an occasional random move"),
    Level(4, "Marcus", 0.0, 0.0, "Club player: steady rules of thumb"),
    Level(5, "Kenji", 0.0, 0.0, "Strong player: Kenji's rules of thumb"),
    Level(6, "Kenji", 0.0, 1 / 3, "Thinker: plans ahead on 1 decision in 3", SHORT_SEARCH),
    Level(7, "Kenji", 0.0, 2 / 3, "Strategist: plans ahead on 2 decisions in 3", SHORT_SEARCH),
    Level(8, "Kenji", 0.0, 1.0, "Expert: the coach's full search on every move"),
)
#: The level names, weakest first ("Level 1" ... "Level 8").
LEVEL_NAMES: tuple[str, ...] = tuple(lv.name for lv in LEVELS)


def get_level(name: object) -> Level | None:
    """The level called ``name`` (any case, surrounding spaces ignored), or None."""
    if not isinstance(name, str):
        return None
    key = name.strip().lower()
    for level in LEVELS:
        if level.name.lower() == key:
            return level
    return None


#: The lowest puzzle rating (the class store's Glicko-2) of each level from Level 2 up:
#: a learner rated below the first plays Level 1. The store's starting rating, 1500, is Level 4.
RATING_FLOORS: tuple[int, ...] = (1200, 1350, 1500, 1650, 1800, 1950, 2100)
START = 3  # the level suggested with nothing to go on
PERSONALITY_LEVEL = 4  # games against personalities only count as games against this level


@dataclass(frozen=True)
class Suggestion:
    """A suggested opponent level and why (one sentence for the learner)."""

    level: Level
    reason: str


def _from_rating(rating: float) -> Suggestion:
    number = 1 + sum(rating >= floor for floor in RATING_FLOORS)
    return Suggestion(LEVELS[number - 1], f"your rating is {rating:.0f}")


def suggest_level(*, rating: "float | None" = None, games=()) -> Suggestion:
    """The opponent level to suggest: from the learner's ``rating`` when there is one
    (``RATING_FLOORS``); else from their newest game in ``games`` (newest first, each
    ``(players, totals, seat)``: the seat names, final totals and the learner's seat): the
    strongest level at that table (a table of personalities counts as ``PERSONALITY_LEVEL``),
    one up after a win (lowest total), one down after finishing last, else the same; with
    nothing to go on, ``START``. Simple on purpose: the learner can always pick another."""
    if rating is not None:
        return _from_rating(float(rating))
    for players, totals, seat in games:
        others = [p for i, p in enumerate(players) if i != seat]
        faced = [get_level(p).number for p in others if get_level(p) is not None]
        level = max(faced, default=PERSONALITY_LEVEL)
        what = f"Level {level}" if faced else "the personalities"
        mine, rest = totals[seat], [t for i, t in enumerate(totals) if i != seat]
        if mine <= min(rest):
            number, how = min(level + 1, len(LEVELS)), f"you won your last game against {what}"
        elif mine > max(rest):
            number, how = max(level - 1, 1), f"you finished last in your last game against {what}"
        else:
            number, how = level, f"you held your own in your last game against {what}"
        return Suggestion(LEVELS[number - 1], how)
    return Suggestion(LEVELS[START - 1], "a good place to start")
