"""Hand and round scoring (spec section 6).

Hands are written as two rows, ``hand("top row", "bottom row")``: columns are
(0,3), (1,4), (2,5).
"""

import pytest

from golflab import Rules, hand_breakdown, round_breakdown, score_hand, score_round

pytestmark = pytest.mark.usefixtures("clean_env")


def hand(top, bottom):
    return top.split() + bottom.split()


_VALUE_CARD = {1: "A", -2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "Q"}


def worth(points):
    """A standard-rules hand that scores exactly ``points`` (-6, -3, -1 or 0..30): three cards over kings."""
    values = sorted(_VALUE_CARD)
    for a in values:
        for b in values:
            for c in values:
                if a + b + c == points:
                    cards = [_VALUE_CARD[v] + s for v, s in zip((a, b, c), "SHD")] + ["KS", "KH", "KD"]
                    assert score_hand(cards) == points
                    return cards
    raise AssertionError(f"no hand of three cards over kings scores {points}")


@pytest.mark.parametrize("points", [-6, -3, -1, *range(0, 31)])
def test_worth_helper_builds_the_score_it_promises(points):
    assert score_hand(worth(points)) == points


# ------------------------------------------------------------------ hand score
def test_unpaired_columns_score_the_sum_of_their_values():
    assert score_hand(hand("AS 5H 9C", "3D 7S QH")) == (1 + 3) + (5 + 7) + (9 + 10)


def test_a_column_pair_scores_zero():
    assert score_hand(hand("7S AH 9C", "7D 4S 6H")) == 0 + 5 + 15


def test_pairs_need_the_same_rank_not_the_same_suit_or_value():
    assert score_hand(hand("JS QS KS", "JH QH KH")) == 0
    assert score_hand(hand("TS JS QS", "JH QH TH")) == 60  # 10-point cards of different ranks do not pair


def test_only_columns_pair_not_rows():
    assert score_hand(hand("7S 7H 7C", "AD 2S 3H")) == 8 + 5 + 10


def test_paired_twos_score_zero_not_minus_four():
    assert score_hand(hand("2S 5H 6C", "2D 4S 3H")) == 0 + 9 + 9
    assert score_hand(hand("2S 5H 6C", "3D 4S 3H")) == 1 + 9 + 9


def test_paired_standard_jokers_score_zero():
    rules = Rules(jokers="standard")
    assert score_hand(hand("JK 3S 3H", "JK 4S 4H"), rules) == 0 + 7 + 7
    assert score_hand(hand("JK 3S 3H", "5S 4S 4H"), rules) == 3 + 7 + 7


def test_eagle_eye_joker_pair_scores_minus_four():
    rules = Rules(jokers="eagle_eye")
    assert score_hand(hand("JK 3S 3H", "JK 4S 4H"), rules) == -4 + 7 + 7
    assert score_hand(hand("JK JK 3S", "JK JK 3H"), rules) == -4 - 4 + 0


def test_eagle_eye_unpaired_joker_scores_plus_two():
    assert score_hand(hand("JK 3S 3H", "5S 4S 4H"), Rules(jokers="eagle_eye")) == 7 + 7 + 7


def test_lucky_swing_joker_scores_minus_five():
    assert score_hand(hand("JK 3S 3H", "5S 4S 4H"), Rules(jokers="lucky_swing")) == 0 + 7 + 7


def test_super_kings_unpaired_king_scores_minus_two_but_a_king_pair_scores_zero():
    rules = Rules(super_kings=True)
    assert score_hand(hand("KS 3S 3H", "5S 4S 4H"), rules) == 3 + 7 + 7
    assert score_hand(hand("KS 3S 3H", "KH 4S 4H"), rules) == 0 + 7 + 7


def test_ten_penny_ten_scores_one():
    assert score_hand(hand("TS 3S 3H", "5S 4S 4H"), Rules(ten_penny=True)) == 6 + 7 + 7
    assert score_hand(hand("TS 3S 3H", "5S 4S 4H")) == 15 + 7 + 7


def test_wolfpack_two_columns_of_paired_jacks_give_a_further_minus_five():
    cards = hand("JS JH 5C", "JD JC 6S")
    assert score_hand(cards, Rules(wolfpack=True)) == 11 - 5
    assert score_hand(cards) == 11


def test_wolfpack_three_jack_pairs_still_give_minus_five_once():
    assert score_hand(hand("JS JH JC", "JD JC JS"), Rules(wolfpack=True)) == -5


def test_wolfpack_needs_two_jack_pairs():
    assert score_hand(hand("JS QH 5C", "JD QC 6S"), Rules(wolfpack=True)) == 11
    assert score_hand(hand("JS JH 5C", "JD 4C 6S"), Rules(wolfpack=True)) == 0 + 14 + 11


def test_score_hand_takes_cards_or_codes_and_needs_six():
    assert score_hand(["AS", "AH", "AC", "AD", "2S", "2H"]) == 0 + (1 - 2) + (1 - 2)
    with pytest.raises(ValueError, match="exactly 6 cards"):
        score_hand("AS AH AC")
    with pytest.raises(ValueError, match="cannot parse"):
        score_hand("AS AH AC AD 2S 1H")


def test_hand_breakdown_explains_every_column():
    b = hand_breakdown(hand("JK 3S 9S", "JK 4S 4H"), Rules(jokers="eagle_eye"))
    assert [c.points for c in b.columns] == [-4, 7, 13]
    assert [c.paired for c in b.columns] == [True, False, False]
    assert b.total == 16 and b.wolfpack == 0
    assert b.lines()[-1] == "hand total 16"


# ------------------------------------------------------------------ round adjustments, each alone
def test_no_adjustments_by_default():
    assert score_round([worth(21), worth(5), worth(5)], finisher=1) == [21, 5, 5]


def test_blackjack_a_score_of_exactly_21_becomes_zero():
    rules = Rules(blackjack=True)
    assert score_round([worth(21), worth(20), worth(22)], rules) == [0, 20, 22]


def test_knock_penalty_finisher_gets_ten_when_someone_is_strictly_lower():
    rules = Rules(knock_penalty=True)
    assert score_round([worth(12), worth(11), worth(20)], rules, finisher=0) == [22, 11, 20]


def test_knock_penalty_not_applied_on_tie_for_lowest():
    rules = Rules(knock_penalty=True)
    assert score_round([worth(11), worth(11), worth(20)], rules, finisher=0) == [11, 11, 20]


def test_knock_penalty_not_applied_when_finisher_is_lowest():
    rules = Rules(knock_penalty=True)
    assert score_round([worth(20), worth(3), worth(9)], rules, finisher=1) == [20, 3, 9]


def test_knock_rules_do_nothing_without_a_finisher():
    rules = Rules(knock_penalty=True, knock_bonus=True)
    assert score_round([worth(12), worth(3)], rules, finisher=None) == [12, 3]


def test_knock_bonus_finisher_gets_minus_five():
    rules = Rules(knock_bonus=True)
    assert score_round([worth(12), worth(3), worth(9)], rules, finisher=0) == [7, 3, 9]


def test_underdog_bonus_every_lowest_score_gets_minus_three():
    rules = Rules(underdog_bonus=True)
    assert score_round([worth(4), worth(9), worth(4)], rules) == [1, 9, 1]


def test_tied_shame_every_tied_score_gets_plus_five():
    rules = Rules(tied_shame=True)
    assert score_round([worth(7), worth(9), worth(7), worth(9), worth(3)], rules) == [12, 14, 12, 14, 3]


# ------------------------------------------------------------------ the order of the adjustments
def test_blackjack_applies_before_knock_penalty():
    # finisher has 21 -> 0; the other has 5. Blackjack first: finisher lowest, no penalty.
    # (penalty first would give 31 and then no blackjack.)
    rules = Rules(blackjack=True, knock_penalty=True)
    assert score_round([worth(21), worth(5)], rules, finisher=0) == [0, 5]


def test_knock_penalty_looks_at_scores_after_blackjack_of_others():
    # the other player's 21 becomes 0, which is now lower than the finisher's 4.
    rules = Rules(blackjack=True, knock_penalty=True)
    assert score_round([worth(4), worth(21)], rules, finisher=0) == [14, 0]


def test_knock_penalty_applies_before_knock_bonus():
    # 10 vs 8: penalty (+10) then bonus (-5) = 15. Bonus first would make 5, lowest: no penalty.
    rules = Rules(knock_penalty=True, knock_bonus=True)
    assert score_round([worth(10), worth(8)], rules, finisher=0) == [15, 8]


def test_underdog_bonus_applies_after_the_knock_rules():
    # finisher 6 vs 3: +10 -> 16; the underdog bonus goes to the 3, not the finisher.
    rules = Rules(knock_penalty=True, underdog_bonus=True)
    assert score_round([worth(6), worth(3)], rules, finisher=0) == [16, 0]
    # knock bonus makes the finisher lowest (4 - 5 = -1) and so the underdog
    rules = Rules(knock_bonus=True, underdog_bonus=True)
    assert score_round([worth(4), worth(3)], rules, finisher=0) == [-4, 3]


def test_tied_shame_applies_last_after_underdog_bonus():
    # underdog first: 4 7 1 -> 4 7 -2, nobody tied.
    rules = Rules(underdog_bonus=True, tied_shame=True)
    assert score_round([worth(4), worth(7), worth(1)], rules) == [4, 7, -2]
    assert score_round([worth(3), worth(3), worth(0)], rules) == [3 + 5, 3 + 5, -3]
    # tied lowest scores both get the bonus and stay tied, so both are shamed too: 1 1 -> -2 -2 -> 3 3.
    assert score_round([worth(4), worth(1), worth(1)], rules) == [4, 3, 3]
    # the knock bonus creates the tie that tied_shame then punishes (shame first would give 7 7)
    rules = Rules(knock_bonus=True, tied_shame=True)
    assert score_round([worth(12), worth(7)], rules, finisher=0) == [12, 12]


def test_tied_lowest_scores_get_the_underdog_bonus_and_then_tied_shame():
    # 3 and 3 tie; both are lowest and both get -3: still tied, so both are shamed.
    rules = Rules(underdog_bonus=True, tied_shame=True)
    assert score_round([worth(3), worth(3), worth(8)], rules) == [5, 5, 8]


def test_all_adjustments_together_follow_the_spec_order():
    rules = Rules(blackjack=True, knock_penalty=True, knock_bonus=True, underdog_bonus=True, tied_shame=True)
    b = round_breakdown([worth(21), worth(6), worth(9), worth(9)], rules, finisher=1)
    # blackjack: seat 0 -> 0; knock penalty: seat 1 (6) > 0 -> 16; knock bonus -> 11;
    # underdog: seat 0 -> -3; tied shame: seats 2 and 3 (9) -> 14.
    assert [a.rule for a in b.adjustments] == ["blackjack", "knock_penalty", "knock_bonus",
                                              "underdog_bonus", "tied_shame", "tied_shame"]
    assert b.hand_scores == (21, 6, 9, 9)
    assert b.scores == (-3, 11, 14, 14)
    assert b.winners == (0,)
    assert [a.points for a in b.adjustments_for(1)] == [10, -5]


def test_round_winners_are_every_lowest_score():
    b = round_breakdown([worth(4), worth(9), worth(4)])
    assert b.winners == (0, 2)


def test_score_round_rejects_a_bad_finisher():
    with pytest.raises(ValueError, match="finisher must be a seat index 0-1"):
        score_round([worth(4), worth(9)], finisher=2)


# ------------------------------------------------------------------ section 12 scoring rules
def test_one_eyed_jacks_are_worth_zero_and_still_pair_with_any_jack():
    rules = Rules(one_eyed_jacks=True)
    assert score_hand(hand("JH JS JD", "3C 4C 5C"), rules) == 3 + 4 + 15
    assert score_hand(hand("JH 5S 5C", "JC 6S 6D"), rules) == 0 + 11 + 11  # a pair, whatever the suits
    assert score_hand(hand("JH JS JD", "3C 4C 5C"), Rules()) == 13 + 14 + 15


@pytest.mark.parametrize("rules, cards, points", [
    (Rules(negative_pairs_keep_value=True), hand("2S 5S 6S", "2H 5H 7S"), -4 + 0 + 13),
    (Rules(negative_pairs_keep_value=True, jokers="standard"), hand("JK 5S 6S", "JK 5H 7S"), -4 + 0 + 13),
    (Rules(negative_pairs_keep_value=True, super_kings=True), hand("KS 5S 6S", "KH 5H 7S"), -4 + 0 + 13),
    (Rules(negative_pairs_keep_value=True, jokers="eagle_eye"), hand("JK 5S 6S", "JK 5H 7S"), -4 + 0 + 13),
    (Rules(negative_pairs_keep_value=True), hand("KS 5S 6S", "KH 5H 7S"), 0 + 0 + 13),
    (Rules(), hand("2S 5S 6S", "2H 5H 7S"), 0 + 0 + 13),
])
def test_negative_pairs_keep_value_keeps_the_sum_of_a_negative_pair(rules, cards, points):
    assert score_hand(cards, rules) == points


def test_four_of_a_kind_gives_a_further_minus_twenty_beside_wolfpack():
    fours = hand("5S 5H 9C", "5D 5C 8C")
    assert score_hand(fours, Rules(four_of_a_kind=True)) == 17 - 20
    assert score_hand(fours, Rules()) == 17
    jacks = hand("JS JH 9C", "JD JC 8C")
    assert score_hand(jacks, Rules(four_of_a_kind=True, wolfpack=True)) == 17 - 5 - 20
    twos = hand("2S 2H 9C", "2D 2C 8C")
    assert score_hand(twos, Rules(four_of_a_kind=True, negative_pairs_keep_value=True)) == -4 - 4 + 17 - 20
    assert score_hand(hand("5S 6H 9C", "5D 6C 8C"), Rules(four_of_a_kind=True)) == 17  # two ranks: no bonus


def test_hand_bonuses_are_named_entries_in_the_breakdown_and_the_display():
    from golflab.display import breakdown_html

    b = hand_breakdown(hand("JS JH 9C", "JD JC 8C"), Rules(four_of_a_kind=True, wolfpack=True))
    assert [(x.rule, x.rank, x.points) for x in b.bonuses] == [("wolfpack", "J", -5), ("four_of_a_kind", "J", -20)]
    assert b.wolfpack == -5 and b.total == 17 - 25
    assert any("four_of_a_kind" in line and "-20" in line for line in b.lines())
    html = breakdown_html(b)
    assert "four of a kind" in html and "-20" in html and "wolfpack" in html


def test_what_a_pair_saves_and_which_pairs_throw_points_away():
    """``pair_gain``: unpaired minus paired points; a pair of 2s throws 4 away (spec 6: a pair
    scores 0), unless negative pairs keep their value; a pair a hand bonus rewards is no waste."""
    from golflab import pair_gain, unpaired_total, wasted_pairs

    twos = hand("2S 7H KD", "2H 7D 5C")  # 2s paired, 7s paired, K over 5
    standard = hand_breakdown(twos)
    assert [pair_gain(c, Rules()) for c in standard.columns] == [-4, 14, 0]
    assert [c.positions for c in wasted_pairs(standard, Rules())] == [(0, 3)]
    assert unpaired_total(standard, Rules()) == standard.total - 4 == 1
    keep = Rules(negative_pairs_keep_value=True)
    kept = hand_breakdown(twos, keep)
    assert pair_gain(kept.columns[0], keep) == 0 and wasted_pairs(kept, keep) == []
    assert unpaired_total(kept, keep) == kept.total
