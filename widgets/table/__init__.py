"""The golf table and its parts, one thing a module.

``golf_table`` (``GolfTable``: the game at the table, CPU turns, saves), ``board`` (its widget
tree and how a state is drawn on it), ``setup`` (the new-game panel), ``view`` (its HTML pieces),
``words`` (what the learner reads: what to do now, why a click was refused, what a move did),
``pacing`` (CPU moves one at a time, also for the Codepiece table), ``rules_form`` (one control
per rule option, also for the explorers and rooms) and ``display_size`` (the projector's large
display, for every board).
"""

from __future__ import annotations

from golflab.lazy import lazy_exports

__all__, __getattr__ = lazy_exports(__name__, {"GolfTable": ".golf_table", "RulesForm": ".rules_form"})
