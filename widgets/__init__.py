"""ipywidgets boards and plotly explorers built on golflab's public API.

The repository's ``widgets/`` folder installs as ``golflab_widgets`` (a top-level
``widgets`` would collide with other distributions): ``from golflab_widgets import GolfTable``.
Names load lazily so that importing one board does not pull in every explorer.
"""

from __future__ import annotations

from golflab.lazy import lazy_exports

_EXPORTS = {
    "RulesForm": ".table.rules_form",
    "HandScorer": ".lessons.scorer",
    "GolfTable": ".table.golf_table",
    "Coach": ".coach.panel",
    "ReplayViewer": ".coach.replay",
    "Exercises": ".lessons.exercise",
    "PuzzleBoard": ".lessons.puzzle_board",
    "CodepieceTable": ".codepiece.board",
    "TierExplorer": ".explorers.tiers",
    "PairingExplorer": ".explorers.pairing",
    "TurnCountExplorer": ".explorers.turns",
    "PersonalityExplorer": ".explorers.personalities",
    "HouseRulesLab": ".explorers.house_rules",
    "CodepieceBidExplorer": ".explorers.codepiece_bids",
}

__all__, __getattr__ = lazy_exports(__name__, _EXPORTS)
