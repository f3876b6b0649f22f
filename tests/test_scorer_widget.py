"""The teaching score pad (widgets.HandScorer), driven from Python."""

import pytest

from golflab import Rules, score_hand
from widgets import HandScorer


def test_scorer_shows_the_engine_score_of_its_cards():
    pad = HandScorer(cards=["2H", "KS", "5D", "2C", "KD", "9S"])
    assert pad.score == score_hand(pad.cards) == 14
    assert "<b>14</b>" in pad.result.value


def test_changing_a_card_rescores_and_marks_pairs_live():
    pad = HandScorer(cards=["2H", "KS", "5D", "2C", "KD", "9S"])
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
