"""The lessons and puzzles: ``rules_html`` (the rules taught in HTML, every number from the engine),
``exercise`` (``Exercises``: checked questions), ``sets`` (each lesson's questions), ``scorer``
(``HandScorer``, a score pad) with ``card_picker``, ``puzzle_board`` (``PuzzleBoard``) and
``puzzle_maker`` (puzzles made in the background).
"""

from __future__ import annotations

from golflab.lazy import lazy_exports

__all__, __getattr__ = lazy_exports(
    __name__, {"Exercises": ".exercise", "HandScorer": ".scorer", "PuzzleBoard": ".puzzle_board"}
)
