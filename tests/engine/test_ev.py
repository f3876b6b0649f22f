"""golflab.ev: exact expectations, checked against brute-force enumeration of small pools."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import combinations, permutations
from math import comb
from types import SimpleNamespace

import pytest

from golflab import Card, Game, Rules, score_hand
from golflab.ev import (
    Pool,
    action_values,
    deck_counts,
    draw_ev,
    expected_unseen_value,
    hand_ev,
    pair_probability,
    placement_evs,
    take_ev,
    unseen_counts,
)
from tests.support.kernel_marks import needs_compiled

SUITS = "SHDC"


def _cards(counts):
    """Distinct physical cards for a rank -> count pool (suits cycle, jokers repeat)."""
    out = []
    for rank, n in counts.items():
        for i in range(n):
            out.append(Card("JK") if rank == "JK" else Card(rank, SUITS[i % 4]))
    return out


def brute_hand_ev(grid, counts, rules):
    """Average score of every ordered way to fill the face-down slots from the pool."""
    slots = [i for i, r in enumerate(grid) if r is None]
    pool = _cards(counts)
    total, n = Fraction(0), 0
    for fill in permutations(pool, len(slots)):
        hand = [Card("JK") if r == "JK" else (Card(r, "S") if r else None) for r in grid]
        for slot, card in zip(slots, fill):
            hand[slot] = card
        total += score_hand(hand, rules)
        n += 1
    return total / n


SMALL_POOLS = [
    {"K": 2, "5": 1, "J": 2, "2": 1, "9": 1},
    {"J": 3, "Q": 1, "A": 2, "7": 1},
    {"JK": 2, "3": 2, "8": 1, "2": 2},
]
GRIDS = [
    ["J", None, "5", None, "J", None],
    [None, None, None, "K", "J", "7"],
    ["JK", None, None, None, "2", "3"],
    [None, "J", None, "J", None, "A"],
]
RULESETS = [Rules(), Rules(wolfpack=True), Rules(jokers="eagle_eye"), Rules(jokers="standard", super_kings=True),
            Rules(jokers="eagle_eye", wolfpack=True, ten_penny=True)]


@pytest.mark.parametrize("rules", RULESETS, ids=lambda r: repr(r))
@pytest.mark.parametrize("counts", SMALL_POOLS)
@pytest.mark.parametrize("grid", GRIDS)
def test_hand_ev_matches_brute_force_enumeration(grid, counts, rules):
    exact = Pool(counts, rules).hand_ev(grid)
    assert exact == pytest.approx(float(brute_hand_ev(grid, counts, rules)), abs=1e-9)


@pytest.mark.parametrize("rules", RULESETS, ids=lambda r: repr(r))
@pytest.mark.parametrize("held", ["J", "2", "JK", "K", "9"])
def test_placement_evs_match_brute_force(held, rules):
    counts = {"J": 2, "K": 1, "9": 2, "2": 1, "JK": 1, "4": 1}
    grid = ["J", None, "JK", None, "9", "2"]
    pool = Pool(counts, rules)
    evs = pool.placements(grid, held)
    before = brute_hand_ev(grid, counts, rules)
    for pos in range(6):
        after = list(grid)
        after[pos] = held
        assert evs[f"swap {pos}"] == pytest.approx(float(brute_hand_ev(after, counts, rules) - before), abs=1e-9)
    assert evs["discard"] == 0.0


def test_pairing_a_held_card_with_a_visible_partner_zeroes_the_column():
    pool = Pool({"5": 4, "6": 4}, Rules())
    grid = ["9", "K", "A", None, None, None]
    evs = pool.placements(grid, "9")
    # column (0,3): 9 + unknown(5.5) -> 0
    assert evs["swap 3"] == pytest.approx(-(9 + 5.5))
    # replacing the visible 9 with a 9 changes nothing
    assert evs["swap 0"] == 0.0


def test_eagle_eye_joker_pair_is_minus_four_and_standard_pair_zero():
    grid = ["JK", "K", "K", "8", "K", "K"]  # columns (0,3) JK 8, (1,4) K K, (2,5) K K
    eagle = Pool({"5": 3}, Rules(jokers="eagle_eye")).placements(grid, "JK")
    standard = Pool({"5": 3}, Rules(jokers="standard")).placements(grid, "JK")
    assert eagle["swap 3"] == (-4) - (2 + 8)
    assert standard["swap 3"] == 0 - (-2 + 8)


def test_wolfpack_second_jack_pair_earns_minus_five():
    grid = ["J", "J", "3", "J", "4", "3"]
    with_wolf = Pool({"5": 3}, Rules(wolfpack=True)).placements(grid, "J")
    without = Pool({"5": 3}, Rules()).placements(grid, "J")
    assert without["swap 4"] == -(10 + 4)
    assert with_wolf["swap 4"] == -(10 + 4) - 5


def test_pair_probability_is_hypergeometric():
    counts = {"7": 3, "K": 5, "9": 4}
    n, m = 12, 3
    for k in range(0, 6):
        expected = 1 - comb(n - m, k) / comb(n, k)
        assert pair_probability("7", counts, k) == pytest.approx(expected)
    # brute force for k=3: fraction of 3-card subsets holding a 7
    cards = _cards(counts)
    subsets = list(combinations(cards, 3))
    hits = sum(any(c.rank == "7" for c in s) for s in subsets)
    assert pair_probability(Card.parse("7H"), counts, 3) == pytest.approx(hits / len(subsets))
    assert pair_probability("Q", counts, 4) == 0.0


@pytest.mark.parametrize("draws", [-1, 1.5, True, 13])
def test_pair_probability_rejects_bad_draws(draws):
    with pytest.raises(ValueError, match="draws|unseen"):
        pair_probability("7", {"7": 3, "K": 9}, draws)


def _game(players=4, rules=None, seed=3):
    return Game(players, rules or Rules(), seed=seed)


def test_unseen_counts_is_deck_minus_everything_visible():
    game = _game()
    game.apply("flip 0").apply("flip 4")
    obs = game.observation(0)
    counts = unseen_counts(obs)
    seen = obs.visible_cards()
    assert len(seen) == 3  # two face-up cards and the discard top
    full = deck_counts(Rules(), 4)
    assert sum(full.values()) == 52
    for rank, n in full.items():
        assert counts[rank] == n - sum(c.rank == rank for c in seen)
    # the seat's own face-down cards are unseen: each one's rank has a positive count
    for i in obs.face_down():
        assert counts[game.grid(0)[i].rank] > 0


def test_unseen_counts_includes_own_drawn_card_but_not_another_seats():
    game = _game(rules=Rules(initial_flips=0))
    game.apply("draw")
    drawn = game.held
    mine, theirs = unseen_counts(game.observation(0)), unseen_counts(game.observation(1))
    assert mine[drawn.rank] == theirs[drawn.rank] - 1


@pytest.mark.parametrize("rules,players,size", [
    (Rules(), 4, 52), (Rules(), 5, 104), (Rules(jokers="standard"), 4, 54),
    (Rules(jokers="lucky_swing", decks=2), 3, 105), (Rules(jokers="eagle_eye", decks=3), 2, 162),
])
def test_deck_counts_follow_rules_and_player_count(rules, players, size):
    counts = deck_counts(rules, players)
    assert sum(counts.values()) == size
    assert counts.get("JK", 0) == {"none": 0, "standard": 2, "lucky_swing": 1, "eagle_eye": 2}[rules.jokers] * (
        1 if rules.jokers == "lucky_swing" else rules.decks_for(players))


def test_expected_unseen_value_of_full_deck_and_house_rules():
    assert expected_unseen_value(deck_counts(Rules(), 4), Rules()) == pytest.approx(71 / 13)
    ten_penny = Rules(ten_penny=True)
    assert expected_unseen_value(deck_counts(ten_penny, 4), ten_penny) == pytest.approx(62 / 13)
    lucky = Rules(jokers="lucky_swing")
    assert expected_unseen_value(deck_counts(lucky, 4), lucky) == pytest.approx((71 * 4 - 5) / 53)
    with pytest.raises(ValueError, match="no unseen"):
        expected_unseen_value({}, Rules())


def test_expected_unseen_value_from_observation_uses_its_rules():
    game = _game(rules=Rules(super_kings=True))
    obs = game.observation(0)
    counts = unseen_counts(obs)
    mean = sum(n * (-2 if r == "K" else {"A": 1, "2": -2, "T": 10, "J": 10, "Q": 10}.get(r, None) or int(r))
               for r, n in counts.items()) / sum(counts.values())
    assert expected_unseen_value(obs) == pytest.approx(mean)


def test_placement_evs_from_observation_match_pool_and_brute_force():
    game = _game(rules=Rules(initial_flips=2), seed=11)
    for _ in range(8):
        game.apply(game.legal_actions()[0])
    game.apply("draw")
    seat = game.current_player
    obs = game.observation(seat)
    evs = placement_evs(obs, obs.drawn)
    assert set(evs) == {f"swap {i}" for i in range(6)} | {"discard"}
    pool = Pool(unseen_counts(obs), obs.rules)
    grid = [None if c is None else c.rank for c in obs.my_grid]
    assert evs == pool.placements(grid, obs.drawn.rank)
    # a face-up position: the change is exact arithmetic when its partner is face up too
    assert hand_ev(obs) == pytest.approx(pool.hand_ev(grid))


def test_taken_card_cannot_be_discarded():
    game = _game(rules=Rules(initial_flips=0))
    game.apply("take")
    obs = game.observation(0)
    assert "discard" not in placement_evs(obs, obs.drawn)


def test_hypothetical_card_comes_out_of_the_unseen_pool():
    game = _game(rules=Rules(initial_flips=0))
    obs = game.observation(0)
    counts = unseen_counts(obs)
    rank = next(r for r, n in counts.items() if n and r != obs.discard_top.rank)
    expected = Pool({**counts, rank: counts[rank] - 1}, obs.rules).placements([None] * 6, rank)
    assert placement_evs(obs, rank) == expected


def test_draw_ev_is_the_average_best_response_over_the_pool():
    counts = {"K": 2, "9": 2, "5": 1, "J": 1}
    rules = Rules()
    grid = ["9", None, "5", "J", "K", None]
    obs = SimpleNamespace(my_grid=grid, draw_pile_size=10, discard_pile=())
    total = Fraction(0)
    cards = _cards(counts)
    for drawn in cards:  # every physical card equally likely to be drawn
        rest = dict(counts)
        rest[drawn.rank] -= 1
        before = brute_hand_ev(grid, rest, rules)
        options = [Fraction(0)]
        for pos in range(6):
            after = list(grid)
            after[pos] = drawn.rank
            options.append(brute_hand_ev(after, rest, rules) - before)
        total += min(options)
    assert draw_ev(obs, Pool(counts, rules)) == pytest.approx(float(total / len(cards)), abs=1e-9)


def test_draw_ev_from_an_empty_draw_pile_uses_the_reshuffled_discards():
    pool = Pool({"K": 4, "9": 4}, Rules())
    grid = ["9", None, "5", "J", "K", None]
    only_kings = SimpleNamespace(my_grid=grid, draw_pile_size=0, discard_pile=(Card.parse("KS"), Card.parse("QH")))
    assert draw_ev(only_kings, pool) == min(pool.placements(grid, "K").values())
    nothing = SimpleNamespace(my_grid=grid, draw_pile_size=0, discard_pile=(Card.parse("QH"),))
    assert draw_ev(nothing, pool) == 0.0


def test_action_values_at_draw_stage_cover_draw_and_take():
    game = _game(rules=Rules(initial_flips=0))
    obs = game.observation(0)
    values = action_values(obs)
    assert set(values.values) == {"draw", "take"}
    assert values.values["take"] == take_ev(obs)[0]
    assert values.best_value == min(values.values.values())
    with pytest.raises(ValueError, match="no legal actions"):
        action_values(game.observation(1))


@pytest.mark.parametrize("rules", RULESETS, ids=lambda r: repr(r))
def test_best_change_is_the_minimum_of_placements_and_discard(rules):
    rng = random.Random(4)
    ranks = ["A", "2", "5", "9", "J", "K", "JK"]
    for _ in range(300):
        counts = {r: rng.randint(0, 3) for r in ranks}
        counts["7"] = 6
        grid = [rng.choice(ranks + [None, None]) for _ in range(6)]
        held = rng.choice(ranks)
        pool = Pool(counts, rules)
        assert pool.best_change(grid, held) == pytest.approx(min(pool.placements(grid, held).values()), abs=1e-12)
        if counts.get(held):
            expected = min(pool.without(held).placements(grid, held).values())
            assert pool.best_change(grid, held, drawn=True) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("counts,match", [
    ({"K": -1, "5": 3}, "whole numbers >= 0"),
    ({"K": 1.5}, "whole numbers >= 0"),
    ({"K": True}, "whole numbers >= 0"),
    ({"Z": 2}, "unknown rank"),
])
def test_pool_rejects_bad_counts(counts, match):
    with pytest.raises(ValueError, match=match):
        Pool(counts, Rules())


def test_pool_accepts_numpy_integers_and_rejects_bad_rules():
    import numpy as np

    assert Pool({"K": np.int64(2), "9": np.int64(2)}, Rules()).mean == 4.5
    with pytest.raises(ValueError, match="rules must be a golflab.Rules"):
        Pool({"K": 1}, {"ten_penny": True})


# -- the compiled draw_ev (golflab.fastev) against the pure-Python reference -------------------
COMPILED_RULES = [Rules(), Rules(jokers="eagle_eye"), Rules(jokers="standard", super_kings=True, ten_penny=True),
                  Rules(one_eyed_jacks=True, negative_pairs_keep_value=True, jokers="lucky_swing"),
                  Rules(decks=2, jokers="standard", negative_pairs_keep_value=True)]


@needs_compiled
@pytest.mark.parametrize("rules", COMPILED_RULES, ids=lambda r: repr(r))
def test_compiled_draw_ev_is_bit_identical_to_the_reference(rules):
    from golflab.fastev import draw_ev_function
    from golflab.model import scoring_model

    assert draw_ev_function(rules) is not None  # numba is part of the fast extra the tests install
    kinds = list(scoring_model(rules).kinds)
    rng = random.Random(12)
    for _ in range(400):
        chosen = rng.sample(kinds, rng.randint(1, len(kinds)))  # any order: the sum keeps the pool's order
        counts = {k: rng.randint(0, 8) for k in chosen}
        if sum(counts.values()) < 2:
            counts[chosen[0]] = 2
        grid = [rng.choice(kinds + [None] * 4) for _ in range(6)]
        pool = Pool(counts, rules)
        assert pool.draw_ev(grid) == pool.draw_ev(grid, compiled=False), (counts, grid)


def test_compiled_draw_ev_matches_on_real_observations():
    from golflab.model import scoring_model

    rules = Rules(jokers="standard", one_eyed_jacks=True)
    kind = scoring_model(rules).kind
    game = Game(3, rules, seed=21)
    checked = 0
    while checked < 60:
        if game.phase == "round_over":
            game.next_round()
            continue
        obs = game.observation(game.current_player)
        if obs.awaiting == "draw":
            pool = Pool(unseen_counts(obs), rules)
            grid = [None if c is None else kind(c) for c in obs.my_grid]
            assert pool.draw_ev(grid) == pool.draw_ev(grid, compiled=False)
            checked += 1
            game.apply("draw")
        else:
            game.apply(obs.legal_actions[0])


def test_draw_ev_without_numba_is_the_reference(monkeypatch):
    import golflab.fastev as fastev

    pool = Pool({"K": 2, "9": 3, "5": 1, "JK": 2}, Rules(jokers="standard"))
    grid = ["9", None, "5", None, "K", None]
    compiled = pool.draw_ev(grid)
    monkeypatch.setenv("GOLFLAB_KERNEL", "0")
    assert fastev.draw_ev_function(pool.rules) is None
    assert pool.draw_ev(grid) == compiled == pool.draw_ev(grid, compiled=False)


@needs_compiled
def test_golflab_kernel_0_turns_the_compiled_code_off(monkeypatch):
    from golflab.fastev import draw_ev_function, kernel

    assert kernel(Rules()) is not None and draw_ev_function(Rules()) is not None
    monkeypatch.setenv("GOLFLAB_KERNEL", "0")
    assert kernel(Rules()) is None and draw_ev_function(Rules()) is None


def test_unseen_counts_rejects_an_observation_showing_more_cards_than_the_deck():
    obs = SimpleNamespace(rules=Rules(), players=("a", "b"), grids=[[Card.parse("KS")] * 6, [None] * 6],
                          discard_pile=(), drawn=None, taken=None)
    with pytest.raises(ValueError, match="shows more K cards than the deck holds"):
        unseen_counts(obs)


def test_pair_chances_are_pair_probability_of_each_rank():
    from golflab.ev import pair_chances, pair_probability

    counts = {"A": 3, "2": 0, "K": 4, "J": 1, "J1": 2, "JK": 1}
    chances = pair_chances(counts, {"A", "K", "J", "Q", "JK"})
    assert chances == {r: pair_probability(r, counts, 1) for r in ("A", "K", "J", "Q", "JK")}
    assert chances["J"] == 3 / 11 and chances["Q"] == 0.0  # both jack kinds pair a jack
