"""The teaching score pad (widgets.HandScorer), driven from Python."""

import pytest
from golflab_widgets import HandScorer

from golflab import Rules, card_value, score_hand


def test_scorer_shows_the_engine_score_of_its_cards():
    pad = HandScorer(cards=["2H", "KS", "5D", "2C", "KD", "9S"])
    assert pad.score == score_hand(pad.cards) == 14
    assert "<b>14</b>" in pad.result.value


def test_changing_a_card_rescores_and_marks_pairs_live():
    pad = HandScorer(cards=["QH", "KS", "5D", "QC", "KD", "9S"])
    pad.pickers[5].value = "5C"  # completes the third column's pair
    assert pad.score == 0
    assert pad.result.value.count("gl-card gl-paired") == 6


def test_house_rule_toggles_change_the_score():
    pad = HandScorer(cards=["TH", "KS", "5D", "4C", "KD", "9S"])
    before = pad.score
    pad.form.controls["ten_penny"].value = True
    assert pad.score == before - 9 == score_hand(pad.cards, Rules(ten_penny=True))
    pad.form.controls["jokers"].value = "eagle_eye"
    pad.pickers[0].value = "JK"
    pad.pickers[3].value = "JK"
    assert pad.score == score_hand(pad.cards, Rules(jokers="eagle_eye", ten_penny=True))
    assert "eagle-eye joker pair" in pad.result.value


def test_a_hand_needs_six_cards():
    with pytest.raises(ValueError, match="exactly 6 cards"):
        HandScorer(cards=["2H", "KS"])


def test_the_default_hand_pairs_a_high_card_and_keeps_its_2_unpaired():
    pad = HandScorer()
    ranks = [card[:-1] for card in pad.cards]
    columns = [(ranks[i], ranks[i + 3]) for i in range(3)]
    assert "2" in ranks and ("2", "2") not in columns  # a 2 kept, never paired
    assert any(a == b and card_value(a + "S") >= 8 for a, b in columns)  # a high pair cancelled
    assert "golf-score-warning" not in pad.result.value
    assert "saves" in pad.result.value


def _unpaired_score(cards, rules):
    """The hand's score with every negative pair counted as two single cards (via the engine)."""
    total = score_hand(cards, rules)
    for top, bottom in zip(cards[:3], cards[3:]):
        if top[:-1] == bottom[:-1] and card_value(top, rules) + card_value(bottom, rules) < 0:
            total += card_value(top, rules) + card_value(bottom, rules)
    return total


def test_a_pair_of_2s_is_marked_as_the_mistake_it_is_with_the_points_it_throws_away():
    cards = ["2H", "KS", "5D", "2C", "KD", "9S"]
    pad = HandScorer(cards=cards)
    html = pad.result.value
    lost = score_hand(cards) - _unpaired_score(cards, Rules())
    assert lost == 4
    assert html.count("golf-score-warning") == 1
    assert "pair of negative cards" in html and f"throws away {lost} points" in html
    assert f"the same cards unpaired would score {_unpaired_score(cards, Rules())}" in html
    warning = html.split("golf-score-warning", 1)[1].split("</li>", 1)[0]
    assert "\u2714" not in warning  # no green tick on the mistake
    assert html.count("golf-pair-mistake") == 2 and html.count("gl-card gl-paired") == 2  # the kings are fine


def test_house_rules_decide_which_pairs_are_mistakes():
    pad = HandScorer(cards=["KH", "3S", "5D", "KC", "4D", "9S"])
    assert "golf-score-warning" not in pad.result.value  # kings: 0 paired or not
    pad.form.controls["super_kings"].value = True  # now each king is -2: the pair wastes 4
    assert "throws away 4 points" in pad.result.value
    pad.form.controls["super_kings"].value = False
    pad.form.controls["jokers"].value = "eagle_eye"
    pad.pickers[0].value = "JK"
    pad.pickers[3].value = "JK"
    assert "golf-score-warning" not in pad.result.value  # eagle-eye jokers: a pair is -4
    assert "saves 8 points" in pad.result.value


def test_pairs_of_2s_are_no_mistake_where_a_house_rule_rewards_them():
    pad = HandScorer(cards=["2H", "2S", "5D", "2C", "2D", "9S"])
    assert pad.result.value.count("golf-score-warning") == 2
    pad.form.controls["four_of_a_kind"].value = True  # four 2s: -20 for the hand
    assert "golf-score-warning" not in pad.result.value
    assert "(four of a kind bonus)" in pad.result.value
    assert pad.score == score_hand(pad.cards, Rules(four_of_a_kind=True))
    pad.form.controls["four_of_a_kind"].value = False
    pad.form.controls["negative_pairs_keep_value"].value = True  # two 2s keep their -4
    assert "golf-score-warning" not in pad.result.value
    assert pad.score == score_hand(pad.cards, Rules(negative_pairs_keep_value=True))


def test_typing_a_bad_card_explains_and_keeps_the_hand():
    pad = HandScorer()
    before, score = pad.cards, pad.score
    pad.pickers[4].text.value = "KX"
    assert pad.cards == before and pad.score == score
    assert "Bottom middle keeps" in pad.message.value and '"X" is not a suit' in pad.message.value
    assert pad.message.layout.display != "none"
    pad.pickers[1].text.value = "QH"  # the next good card clears the message
    assert pad.message.value == "" and pad.cards[1] == "QH"
