"""golflab.strategy: the numbers behind the explorers (exact ones checked by brute force,
simulated ones checked against golflab.simulate)."""

from __future__ import annotations

import math
import subprocess
import sys
from collections import Counter
from itertools import permutations

import pandas as pd
import pytest

from golflab import Rules, score_hand, simulate
from golflab.ev import deck_counts
from golflab.strategy import (
    CHART_RANKS,
    calculator_observation,
    column_chances,
    compare_rules,
    hole_lengths,
    mean_ci,
    pairing_study,
    pairing_table,
    partner_table,
    personality_table,
    placement_table,
    play_events,
    rank_stats,
    rate_ci,
    round_robin,
    round_robin_tables,
    tier_table,
    turn_distribution,
    turn_study,
    turn_summary,
)

pytestmark = pytest.mark.usefixtures("clean_env")
TABLE = ["Sofia", "Maya", "Priya", "Marcus"]


# ------------------------------------------------------------------------------ tiers
def _tiers(rules):
    return dict(zip(tier_table(rules)["rank"], tier_table(rules)["tier"]))


def test_standard_tiers_are_the_spec_table():
    tiers = _tiers(Rules(jokers="standard"))
    expected = {"JK": "Excellent", "2": "Excellent", "K": "Good", "A": "Decent", "3": "Neutral", "4": "Neutral",
                "5": "Neutral", "6": "Bad", "7": "Bad", "8": "Terrible", "9": "Terrible", "T": "Terrible",
                "J": "Terrible", "Q": "Terrible"}
    assert tiers == expected
    assert not tier_table(Rules(jokers="standard"))["moved"].any()


def test_without_jokers_there_is_no_joker_row():
    assert list(tier_table(Rules())["rank"]) == [r for r in CHART_RANKS if r != "JK"]


@pytest.mark.parametrize("rules, rank, value, tier", [
    (Rules(super_kings=True), "K", -2, "Excellent"),
    (Rules(ten_penny=True), "T", 1, "Decent"),
    (Rules(jokers="eagle_eye"), "JK", 2, "Neutral"),
    (Rules(jokers="lucky_swing"), "JK", -5, "Excellent"),
])
def test_house_rules_move_cards_between_tiers(rules, rank, value, tier):
    row = tier_table(rules).set_index("rank").loc[rank]
    assert (row["value"], row["tier"]) == (value, tier)
    assert bool(row["moved"]) == (tier != row["standard_tier"])
    assert tier_table(rules)["moved"].sum() == (rank != "JK" or rules.jokers == "eagle_eye")


# ------------------------------------------------------------------------- statistics
def test_mean_ci_is_the_normal_interval():
    mean, low, high = mean_ci([1, 2, 3, 4])
    half = 1.959963984540054 * math.sqrt((5 / 3) / 4)
    assert mean == 2.5 and low == pytest.approx(2.5 - half) and high == pytest.approx(2.5 + half)
    assert mean_ci([3])[0] == 3 and math.isnan(mean_ci([3])[1])
    assert all(math.isnan(x) for x in mean_ci([]))
    with pytest.raises(ValueError, match="confidence"):
        mean_ci([1, 2], confidence=95)


def test_rate_ci_is_the_wilson_interval():
    rate, low, high = rate_ci(3, 10)
    assert rate == 0.3 and low == pytest.approx(0.1078, abs=1e-4) and high == pytest.approx(0.6032, abs=1e-4)
    assert rate_ci(0, 5)[1] == pytest.approx(0.0, abs=1e-12)
    with pytest.raises(ValueError, match="successes"):
        rate_ci(6, 5)


# ------------------------------------------------------------------------- turn counts
def test_turn_distribution_and_summary_on_a_known_frame():
    frame = pd.DataFrame({"turns": [3, 4, 4, 8, 9, 5], "mode": ["a", "a", "a", "b", "b", "b"]})
    dist = turn_distribution(frame)
    assert list(dist["turns"]) == [3, 4, 5, 8, 9] and list(dist["count"]) == [1, 2, 1, 1, 1]
    assert dist["cdf"].iloc[-1] == pytest.approx(1.0)
    by = turn_distribution(frame, "mode")
    assert set(by["group"]) == {"a", "b"} and by.groupby("group")["share"].sum().tolist() == pytest.approx([1, 1])
    summary = turn_summary(frame, "mode").set_index("group")
    assert summary.loc["a", "below_4"] == pytest.approx(1 / 3) and summary.loc["a", "min"] == 3
    assert summary.loc["b", "above_8"] == pytest.approx(1 / 3) and summary.loc["b", "in_4_8"] == pytest.approx(2 / 3)
    assert summary.loc["a", "median"] == 4
    with pytest.raises(ValueError, match="turns"):
        turn_distribution(pd.DataFrame({"x": [1]}))
    with pytest.raises(ValueError, match="cannot split by 'nope'"):
        turn_distribution(frame, "nope")


def test_turn_study_by_flip_mode_is_one_simulation_per_mode():
    rules = Rules(rounds=3)
    rounds = turn_study(TABLE[:2], 6, rules, seed=4, by="flip_mode")
    assert list(rounds["flip_mode"].unique()) == ["never", "always", "endgame"]
    direct = simulate(TABLE[:2], 2, rules=rules.replace(flip_mode="always"), seed=4, progress=False,
                      analyze=False).rounds
    assert rounds.loc[rounds["flip_mode"] == "always", "turns"].tolist() == direct["turns"].tolist()
    with pytest.raises(ValueError, match="cannot compare turn counts by"):
        turn_study(TABLE, 3, rules, by="colour")


def test_turn_study_by_players_seats_two_to_six():
    rounds = turn_study(TABLE[:2], 1, Rules(rounds=1), seed=1, by="players")
    assert rounds.groupby("players")["seat"].nunique().to_dict() == {2: 2, 3: 3, 4: 4, 5: 5, 6: 6}


# ----------------------------------------------------------------------- exact pairing
def _unseen_cards(obs):
    """Every unseen card as a rank, one entry per physical card."""
    counts = Counter(deck_counts(obs.rules, len(obs.players)))
    for card in obs.visible_cards():
        counts[card.rank] -= 1
    return [r for r, c in counts.items() for _ in range(c)]


def _brute_hand_ev(ranks, unseen, rules):
    """Mean hand score over every ordered way the unseen cards can fill the face-down slots."""
    down = [i for i, r in enumerate(ranks) if r is None]
    total = n = 0
    for fill in permutations(range(len(unseen)), len(down)):
        hand = list(ranks)
        for pos, idx in zip(down, fill):
            hand[pos] = unseen[idx]
        total += score_hand([r + "S" if r != "JK" else "JK" for r in hand], rules)
        n += 1
    return total / n


CASES = [
    (["7", None, "K", "3", "9", "5"], "7", Rules()),
    (["K", "2", None, "K", "8", None], "8", Rules()),
    (["J", None, "J", None, "4", "4"], "J", Rules(wolfpack=True)),
    (["JK", "5", None, None, "5", "6"], "JK", Rules(jokers="eagle_eye")),
    (["T", None, "Q", "A", "6", None], "T", Rules(ten_penny=True, super_kings=True)),
]


@pytest.mark.parametrize("grid, drawn, rules", CASES)
def test_placement_evs_match_brute_force_enumeration(grid, drawn, rules):
    obs = calculator_observation(grid, drawn, rules, players=2)
    unseen = _unseen_cards(obs)
    before = _brute_hand_ev(grid, unseen, rules)
    table = placement_table(obs).set_index("action")
    for pos in range(6):
        after = list(grid)
        after[pos] = drawn
        assert table.loc[f"swap {pos}", "ev"] == pytest.approx(_brute_hand_ev(after, unseen, rules) - before)
    assert table.loc["discard", "ev"] == 0
    best = table.index[table["best"]].tolist()
    assert best == [a for a in table.index if table.loc[a, "ev"] == pytest.approx(table["ev"].min())]


@pytest.mark.parametrize("grid, drawn, rules", CASES[:2])
def test_column_chances_match_brute_force_enumeration(grid, drawn, rules):
    obs = calculator_observation(grid, drawn, rules, players=3)
    unseen = _unseen_cards(obs)
    chances = column_chances(obs, draws=(2,))
    for col, (a, b) in enumerate(((0, 3), (1, 4), (2, 5))):
        row = chances.iloc[col]
        up = grid[a] if grid[a] is not None else grid[b]
        if grid[a] is not None and grid[b] is not None:
            assert row["p_pair_now"] == float(grid[a] == grid[b])
        elif up is None:
            pairs = sum(unseen[i] == unseen[j] for i, j in permutations(range(len(unseen)), 2))
            assert row["p_pair_now"] == pytest.approx(pairs / (len(unseen) * (len(unseen) - 1)))
        else:
            assert row["p_pair_now"] == pytest.approx(unseen.count(up) / len(unseen))
            hits = sum(up in (unseen[i], unseen[j]) for i, j in permutations(range(len(unseen)), 2))
            assert row["p_within_2"] == pytest.approx(hits / (len(unseen) * (len(unseen) - 1)))


def test_placement_table_marks_the_pair():
    obs = calculator_observation(["9", None, None, None, None, None], "9")
    table = placement_table(obs).set_index("action")
    assert table["completes_pair"].tolist() == [False, False, False, True, False, False, False]
    assert table.index[table["best"]].tolist() == ["swap 3"]


@pytest.mark.parametrize("grid, drawn, kwargs, message", [
    (["K"] * 4 + [None, None], "K", {}, "5 cards of rank K"),
    ([None] * 6, "JK", {}, "no jokers"),
    ([None] * 5, "K", {}, "6 positions"),
    ([None] * 6, "ZZ", {}, "cannot parse"),
    ([None] * 6, "K", {"players": 7}, "players"),
])
def test_calculator_refuses_impossible_tables(grid, drawn, kwargs, message):
    with pytest.raises(ValueError, match=message):
        calculator_observation(grid, drawn, Rules(), **kwargs)


# ------------------------------------------------------------------ simulated play
def test_play_events_plays_the_games_of_simulate():
    rules = Rules(rounds=3)
    hands = [h for kind, game, _o, _a in play_events(TABLE, 6, rules, seed=9) if kind == "hole_over"
             for h in game.round_results[-1].hand_scores]
    direct = simulate(TABLE, 2, rules=rules, seed=9, progress=False, analyze=False).rounds
    assert hands == direct["hand_score"].tolist()


def test_rank_stats_accounts_for_every_card():
    rules = Rules(rounds=3, jokers="standard")
    stats = rank_stats(TABLE, 6, rules, seed=2).set_index("rank")
    direct = simulate(TABLE, 2, rules=rules, seed=2, progress=False, analyze=False).rounds
    holes = len(direct) // 4
    assert stats["final"].sum() == stats["dealt"].sum() == 6 * 4 * holes
    assert stats["points"].sum() == pytest.approx(direct["hand_score"].sum())  # no wolfpack here
    assert (stats["dealt"] + stats["placed"] - stats["swapped_out"] == stats["final"]).all()
    assert stats["kept_to_end"].between(0, 1).all() and stats["discard_rate"].dropna().between(0, 1).all()
    assert stats.loc["K", "mean_points"] == 0  # a king scores 0 paired or not
    assert stats.attrs["holes"] == holes
    assert rank_stats(TABLE, 6, rules, seed=2).equals(stats.reset_index())  # deterministic


def test_rank_stats_counts_each_deal_once_with_one_hole_games():
    stats = rank_stats(TABLE[:2], 3, Rules(rounds=1), seed=0)
    assert stats["dealt"].sum() == stats["final"].sum() == 6 * 2 * 3
    assert (stats.attrs["games"], stats.attrs["holes"]) == (3, 3)
    with pytest.raises(ValueError, match="holes must be a whole number"):
        rank_stats(TABLE, 0)


def test_pairing_study_predictions_agree_with_what_happened():
    situations, partners = pairing_study(TABLE, 90, Rules(), seed=3)
    assert len(situations) > 100 and len(partners) > 1000
    assert (situations["gain"] == situations["elsewhere_ev"] - situations["pair_ev"]).all()
    # The exact EV of pairing is the mean of what pairing really did, within sampling error.
    diff = situations["realised"] - situations["pair_ev"]
    assert abs(diff.mean()) < 3 * diff.std() / math.sqrt(len(diff))
    err = partners["matched"].mean() - partners["predicted"].mean()
    assert abs(err) < 3 * math.sqrt(partners["predicted"].mean() / len(partners))
    table = pairing_table(situations)
    assert table["situations"].sum() == len(situations)
    assert set(table["phase"]) <= {"early", "mid", "late"}
    row = table.iloc[0]
    part = situations[(situations["rank"] == row["rank"]) & (situations["phase"] == row["phase"])]
    assert row["gain"] == pytest.approx(part["gain"].mean())
    assert partner_table(partners)["columns"].sum() == len(partners)


# --------------------------------------------------------------------- personalities
def test_round_robin_tables_seat_everyone_equally():
    tables = round_robin_tables(["A", "B", "C", "D", "E", "F", "G", "H"])
    assert len(tables) == 70 and len(set(tables)) == 70
    assert set(Counter(name for t in tables for name in t).values()) == {35}
    with pytest.raises(ValueError, match="distinct"):
        round_robin_tables(["A", "A", "B", "C"])


def test_round_robin_and_personality_table():
    rounds, decisions = round_robin(["Sofia", "Maya", "Kenji"], 1, Rules(rounds=2), seed=5, size=2)
    assert sorted(rounds["table"].unique()) == [0, 1, 2] and len(rounds) == 3 * 2 * 2
    table = personality_table(rounds, decisions)
    assert list(table["rank"]) == [1, 2, 3] and table["mean_score"].is_monotonic_increasing
    sofia = table.set_index("personality").loc["Sofia"]
    own = rounds[rounds["personality"] == "Sofia"]
    assert sofia["mean_score"] == pytest.approx(own["score"].mean())
    assert sofia["ci_low"] <= sofia["mean_score"] <= sofia["ci_high"]
    assert sofia["win_rate"] == pytest.approx(own["won_hole"].mean())
    assert (sofia["win_low"], sofia["win_high"]) == pytest.approx(rate_ci(own["won_hole"].sum(), len(own))[1:])
    grades = ["optimal", "good", "questionable", "mistake", "blunder"]
    assert table[grades].sum(axis=1).tolist() == pytest.approx([1, 1, 1])


def test_personality_table_on_a_known_frame():
    rounds = pd.DataFrame({"game": [0, 0, 0, 0], "round": [1, 1, 2, 2], "personality": ["A", "B", "A", "B"],
                           "score": [2, 6, 4, 4], "won_hole": [True, False, True, True],
                           "went_out": [True, False, False, True]})
    table = personality_table(rounds).set_index("personality")
    assert table.loc["A", "rank"] == 1 and table.loc["A", "mean_score"] == 3 and table.loc["B", "mean_score"] == 5
    assert table.loc["A", "edge"] == -1 and table.loc["B", "edge"] == 1
    assert table.loc["B", "win_rate"] == 0.5 and table.loc["A", "go_out_rate"] == 0.5


def test_compare_rules_and_hole_lengths_on_known_frames():
    a = pd.DataFrame({"game": [0, 0], "round": [1, 1], "personality": ["X", "Y"], "score": [2, 6],
                      "won_hole": [True, False], "went_out": [True, False], "turns": [4, 5]})
    b = a.assign(score=[8, 4], won_hole=[False, True])
    out = compare_rules({"A": a, "B": b}).set_index(["rules", "personality"])
    assert out.loc[("A", "X"), "delta_edge"] == 0
    assert out.loc[("B", "X"), "edge"] == 2 and out.loc[("B", "X"), "delta_edge"] == 4
    assert out.loc[("B", "Y"), "delta_edge"] == -4
    lengths = hole_lengths(a)
    assert lengths["turns"].tolist() == [5] and lengths["went_out"].tolist() == [True]


def test_importing_strategy_loads_no_pandas_or_widgets():
    code = ("import sys, golflab.strategy; "
            "print(sorted(m for m in ('pandas', 'ipywidgets', 'plotly') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_one_eyed_jacks_get_their_own_tier_row_and_calculator_suits():
    from golflab.strategy import calculator_observation, placement_table, tier_table

    rules = Rules(one_eyed_jacks=True)
    tiers = tier_table(rules).set_index("label")
    assert tiers.loc["J (JH JS)", "tier"] == "Good" and tiers.loc["J (JD JC)", "tier"] == "Terrible"
    assert len(tier_table(Rules())) == 13
    obs = calculator_observation(["J", None, None, "5", None, None], "JS", rules)
    assert str(obs.my_grid[0]) in ("JD", "JC") and str(obs.drawn) in ("JH", "JS")
    table = placement_table(obs).set_index("action")
    assert table.loc["swap 3", "completes_pair"] and table.loc["swap 3", "ev"] == -15  # 10 + 5 become a 0 pair
