"""Spec section 11's quality targets and spec section 10's personalities, measured by simulation.

What is simulated (kept to a few seconds, one core):

* quality targets: 1,000 four-player games of one hole each, default rules, every decision
  graded; games 0-499 seat Sofia, Maya, Priya, Marcus and games 500-999 Kenji, Diego,
  River, Sage, so all eight personalities are measured (about 25,000 turns).
* personalities (no grading): mixed tables of four (400 games of 4 holes each, so every
  seat starts a hole equally often) for go-out rates; tables of four copies of one
  personality (300 one-hole games each) for turns per round and mean round score, where
  each personality's own habits set the pace. Differences are asserted as z-scores.
"""

from __future__ import annotations

import math

import pytest

from golflab import Rules
from golflab.analysis import CASES, QualityCounters
from golflab.simulation import simulate

TABLES = (["Sofia", "Maya", "Priya", "Marcus"], ["Kenji", "Diego", "River", "Sage"])
ALL = TABLES[0] + TABLES[1]


@pytest.fixture(scope="module")
def thousand_games() -> QualityCounters:
    one_hole = Rules(rounds=1)
    first = simulate(TABLES[0], 500, one_hole, seed=11, progress=False)
    second = simulate(TABLES[1], 500, one_hole, seed=12, progress=False)
    return first.quality + second.quality


def test_quality_targets_over_1000_games(thousand_games):
    q = thousand_games
    rates = q.rates()
    print("\nquality over 1,000 one-hole games:", {c: f"{getattr(q, c)} ({rates[c]:.3%})" for c in CASES},
          f"turns {q.total_turns}")
    assert q.total_turns > 20_000
    # blunders and mistakes with target 0
    assert q.discarded_jokers == 0
    assert q.discarded_twos == 0
    assert q.took_bad_card_without_pair == 0
    assert q.paired_negative_cards == 0
    # rates per turn
    assert rates["discarded_kings"] < 0.001
    assert rates["swapped_good_for_bad"] < 0.001
    assert rates["questionable_moves"] < 0.05


def test_quality_targets_hold_with_jokers_and_house_rules():
    """A smaller run (200 one-hole games) where jokers, super kings and ten_penny exist."""
    rules = Rules(rounds=1, jokers="standard", super_kings=True, ten_penny=True, flip_mode="always")
    q = simulate(TABLES[0], 100, rules, seed=3, progress=False).quality
    q = q + simulate(TABLES[1], 100, rules, seed=4, progress=False).quality
    assert (q.discarded_jokers, q.discarded_twos, q.took_bad_card_without_pair, q.paired_negative_cards) == (0,) * 4
    rates = q.rates()
    assert rates["discarded_kings"] < 0.001 and rates["swapped_good_for_bad"] < 0.001
    assert rates["questionable_moves"] < 0.05


def _z(mean_a, mean_b, se_a, se_b):
    return abs(mean_a - mean_b) / math.hypot(se_a, se_b)


def test_personalities_go_out_at_measurably_different_rates():
    """Sofia (aggression 0.20) goes out less often than Maya (0.85), the aggressive closer."""
    rates = {}
    for i, table in enumerate(TABLES):
        rounds = simulate(table, 400, Rules(rounds=4), seed=20 + i, progress=False, analyze=False).rounds
        stats = rounds.groupby("personality")["went_out"].agg(["mean", "size"])
        rates.update({p: (row["mean"], row["size"]) for p, row in stats.iterrows()})
    print("\ngo-out rate per hole:", {p: f"{m:.1%}" for p, (m, _) in rates.items()})

    def z(a, b):
        (pa, na), (pb, nb) = rates[a], rates[b]
        return _z(pa, pb, math.sqrt(pa * (1 - pa) / na), math.sqrt(pb * (1 - pb) / nb))

    assert rates["Maya"][0] > rates["Sofia"][0] and z("Maya", "Sofia") > 2
    low, high = min(ALL, key=lambda p: rates[p][0]), max(ALL, key=lambda p: rates[p][0])
    assert z(low, high) > 3, (low, high, rates)


@pytest.fixture(scope="module")
def own_tables():
    out = {}
    for i, p in enumerate(ALL):
        rounds = simulate([p] * 4, 300, Rules(rounds=1), seed=40 + i, progress=False, analyze=False).rounds
        out[p] = rounds
    return out


def test_personalities_take_measurably_different_numbers_of_turns(own_tables):
    stats = {p: (r["turns"].mean(), r.groupby("game")["turns"].mean().std() / math.sqrt(r["game"].nunique()))
             for p, r in own_tables.items()}
    print("\nturns per player per hole at an own table:", {p: f"{m:.2f}" for p, (m, _) in stats.items()})
    slow, fast = max(stats, key=lambda p: stats[p][0]), min(stats, key=lambda p: stats[p][0])
    assert _z(*stats[slow][:1], *stats[fast][:1], stats[slow][1], stats[fast][1]) > 4, stats
    # every table ends its holes by someone going out, well before the stall guard
    assert not any(r["stalled"].any() for r in own_tables.values())


def test_personalities_score_measurably_differently(own_tables):
    stats = {p: (r["score"].mean(), r.groupby("game")["score"].mean().std() / math.sqrt(r["game"].nunique()))
             for p, r in own_tables.items()}
    print("\nmean round score at an own table:", {p: f"{m:.2f}" for p, (m, _) in stats.items()})
    high, low = max(stats, key=lambda p: stats[p][0]), min(stats, key=lambda p: stats[p][0])
    assert _z(stats[high][0], stats[low][0], stats[high][1], stats[low][1]) > 3, stats
