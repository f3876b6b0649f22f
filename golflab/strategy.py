"""Numbers behind the strategy explorers: pure functions on rules, engine values and
simulation frames (pandas), with no widgets.

* ``tier_table(rules)``: each rank's value and tier under the house rules (spec section 2).
* ``play_events`` / ``rank_stats``: CPU games step by step (the games of ``simulate``), and
  how they treat each rank (kept to the end, discarded when drawn, points at the end).
* ``calculator_observation``, ``placement_table``, ``column_chances``: the exact pairing
  calculator (``golflab.ev``); ``pairing_study`` / ``pairing_table`` / ``partner_table``:
  what completing a pair is worth by rank and phase, predicted and realised.
* ``turn_study``, ``turn_distribution``, ``turn_summary``: turns per player per hole.
* ``round_robin`` (or ``round_robin_grades``, decisions counted) / ``personality_table``: the
  personalities at every 4-player table.
* ``compare_rules``, ``hole_lengths``, ``relative_scores``: two rule sets side by side.
* ``mean_ci`` / ``rate_ci``: confidence intervals (normal approximation / Wilson).

The studies live in ``golflab.studies`` (``tiers``, ``pairing``, ``personalities``,
``turns`` and their shared ``common``); this module keeps every name importable from
``golflab.strategy``. pandas is imported lazily so that ``import golflab.strategy`` stays light.
"""

from __future__ import annotations

from .studies.common import CHART_RANKS, chart_ranks, mean_ci, rate_ci
from .studies.pairing import (
    COLUMNS,
    calculator_observation,
    column_chances,
    pairing_study,
    pairing_table,
    partner_table,
    placement_table,
)
from .studies.personalities import (
    personality_table,
    relative_scores,
    round_robin,
    round_robin_grades,
    round_robin_tables,
    table_seed,
)
from .studies.tiers import RANK_COUNTERS, card_contributions, play_events, rank_stats, tier_table
from .studies.turns import (
    TURN_SPLITS,
    compare_rules,
    hole_lengths,
    simulate_holes,
    turn_distribution,
    turn_study,
    turn_summary,
)

__all__ = [
    "CHART_RANKS", "COLUMNS", "RANK_COUNTERS", "TURN_SPLITS", "calculator_observation", "card_contributions",
    "chart_ranks", "column_chances", "compare_rules", "hole_lengths", "mean_ci", "pairing_study",
    "pairing_table", "partner_table", "personality_table", "placement_table", "play_events", "rank_stats",
    "rate_ci", "relative_scores", "round_robin", "round_robin_grades", "round_robin_tables", "simulate_holes",
    "table_seed", "tier_table", "turn_distribution", "turn_study", "turn_summary",
]
