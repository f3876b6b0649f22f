"""Card tiers and how simulated CPU play treats each card: ``tier_table``, ``play_events``,
``rank_stats``, ``card_contributions``."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Sequence

from ..model import ALL_KINDS, scoring_model
from ..rules import TIER_ADVICE, TIERS, Rules, rank_value, value_tier
from ..scoring import hand_breakdown
from ..simulation import play_games, resolve_players
from .common import chart_ranks, kind_label, load_pandas

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd


# ----------------------------------------------------------------------------- tiers
def tier_table(rules: Rules | None = None) -> "pd.DataFrame":
    """One row per card kind in play: its value and tier under ``rules`` and under standard values.

    Columns: ``rank`` (the kind: a rank, or ``ONE_EYED`` for the one-eyed jacks under
    ``one_eyed_jacks``, whose tier differs from the other jacks'), ``label`` (how a chart
    names it), ``value``, ``tier``, ``tier_order`` (0 = Excellent ... 5 = Terrible),
    ``advice``, ``standard_value``, ``standard_tier`` and ``moved`` (the house rules put the
    kind in another tier than standard values do). The standard joker is -2 (spec section 2).
    """
    rules = rules or Rules()
    rows = []
    for rank in chart_ranks(rules):
        value = rank_value(rank, rules)
        std = rank_value(rank, None)
        tier, std_tier = value_tier(value), value_tier(std)
        rows.append({
            "rank": rank, "label": kind_label(rank, rules), "value": value, "tier": tier,
            "tier_order": TIERS.index(tier),
            "advice": TIER_ADVICE[tier], "standard_value": std, "standard_tier": std_tier,
            "moved": tier != std_tier,
        })
    return load_pandas().DataFrame(rows)


# ------------------------------------------------------------------------ per-rank stats
RANK_COUNTERS = ("dealt", "placed", "drawn", "discarded", "taken", "swapped_out", "final", "points")


def card_contributions(cards: Sequence, rules: Rules) -> list[tuple[str, float]]:
    """``(kind, points)`` for each card of a final 6-card hand: its value when unpaired,
    half its column's points when paired (0, -2 for an eagle-eye joker pair, or the card's
    value for a negative pair under ``negative_pairs_keep_value``).

    The sum is the hand score without the hand bonuses (which belong to no one card).
    """

    return _contributions(hand_breakdown(cards, rules), rules)


def _contributions(hand, rules: Rules) -> list[tuple[str, float]]:
    kind = scoring_model(rules).kind
    return [(kind(card), col.points / 2 if col.paired else rank_value(kind(card), rules))
            for col in hand.columns for card in col.cards]


def games_for(holes: int, rules: Rules) -> int:
    """Whole games of ``rules.rounds`` holes that make at least ``holes`` holes (a ValueError
    unless ``holes`` is a whole number of at least 1)."""
    if isinstance(holes, bool) or not isinstance(holes, int) or holes < 1:
        raise ValueError(f"holes must be a whole number of at least 1, got {holes!r}")
    return math.ceil(holes / rules.rounds)


def play_events(players: Sequence[str], holes: int, rules: Rules | None = None, seed: int = 0,
                awaiting: str | None = None):
    """Play CPU games and yield what happens, for statistics that need more than
    ``golflab.simulate``'s frames (final grids, held cards, omniscient checks).

    Plays whole games of ``rules.rounds`` holes until at least ``holes`` holes are done,
    with a ``golflab.ai.CPUPlayer`` per personality in ``players`` (a name may repeat).
    The games are those of ``golflab.simulate(players, games, rules, seed)``: the same
    game and CPU seeds. Yields ``("decision", game, obs, action)`` before each action is
    applied (``obs`` is the acting seat's observation, ``action`` the CPU's choice; do not
    change ``game``), and ``("hole_over", game, None, None)`` after each hole is scored.
    ``awaiting`` (e.g. ``"place"``): yield only the decisions of that stage (the others are
    played without building their observations when the compiled kernel gives the moves).
    """

    rules = rules or Rules()
    games = games_for(holes, rules)
    personalities = resolve_players(players)
    for kind, _index, game, obs, action in play_games(personalities, rules, seed, 0, games, awaiting=awaiting):
        yield (kind, game, obs, action)


def rank_stats(players: Sequence[str], holes: int, rules: Rules | None = None, seed: int = 0) -> "pd.DataFrame":
    """How simulated CPU play treats each rank, over ``holes`` holes of ``play_events``.

    One row per rank in play with the raw counts (``dealt`` into grids, ``placed`` by a
    swap, ``drawn`` from the draw pile, ``discarded`` straight after being drawn, ``taken``
    from the discard pile, ``swapped_out`` of a grid, ``final`` in a grid at the end of a
    hole, ``points`` they scored there) and the rates a player asks about:

    * ``kept_to_end``: of the cards of this rank that were in a grid (dealt or placed), the
      share still there when the hole is scored;
    * ``discard_rate``: of the cards of this rank drawn from the pile, the share discarded;
    * ``mean_points``: mean points one such card contributes to its final hand (see
      ``card_contributions``: a paired card counts half its column);
    * ``points_per_hand``: points the rank contributes to an average final hand.
    """
    rules = rules or Rules()
    players = tuple(players)
    counts = {r: dict.fromkeys(RANK_COUNTERS, 0) for r in ALL_KINDS}
    kind_of = scoring_model(rules).kind
    hands = games = 0
    new_hole = True
    for kind, game, obs, action in play_events(players, holes, rules, seed, awaiting="place"):
        if new_hole:  # a hole's first event: before its first swap, so the grids are as dealt
            new_hole = False
            games += game.round == 1
            for s in range(len(players)):
                for card in game.grid(s):
                    counts[kind_of(card)]["dealt"] += 1
        if kind == "hole_over":
            new_hole = True
            for hand in game.round_results[-1].hands:
                hands += 1
                for rank, pts in _contributions(hand, rules):
                    counts[rank]["final"] += 1
                    counts[rank]["points"] += pts
            continue
        held = counts[kind_of(obs.drawn)]  # placing the card drawn from the pile or taken from the discards
        held["drawn" if obs.taken is None else "taken"] += 1
        if action.kind == "swap":
            held["placed"] += 1
            counts[kind_of(game.grid(obs.seat)[action.pos])]["swapped_out"] += 1
        elif action.kind == "discard":
            held["discarded"] += 1
    pd = load_pandas()
    frame = tier_table(rules)[["rank", "label", "value", "tier"]].merge(
        pd.DataFrame([{"rank": r, **counts[r]} for r in chart_ranks(rules)]), on="rank")
    held = frame["dealt"] + frame["placed"]
    frame["kept_to_end"] = frame["final"] / held.where(held > 0)
    frame["discard_rate"] = frame["discarded"] / frame["drawn"].where(frame["drawn"] > 0)
    frame["mean_points"] = frame["points"] / frame["final"].where(frame["final"] > 0)
    frame["points_per_hand"] = frame["points"] / max(hands, 1)
    frame.attrs.update(hands=hands, holes=hands // len(players), games=games)
    return frame
