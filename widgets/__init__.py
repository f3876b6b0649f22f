"""ipywidgets boards and plotly explorers built on golflab's public API.

Names load lazily so that importing one board does not pull in every explorer.
"""

from __future__ import annotations

import importlib

_EXPORTS = {
    "RulesForm": "widgets.rules_form",
    "HandScorer": "widgets.scorer",
    "GolfTable": "widgets.table",
    "TierExplorer": "widgets.explorers.tiers",
    "PairingExplorer": "widgets.explorers.pairing",
    "TurnCountExplorer": "widgets.explorers.turns",
    "PersonalityExplorer": "widgets.explorers.personalities",
    "HouseRulesLab": "widgets.explorers.house_rules",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'widgets' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
