"""``golflab.guidance``: the going-out advice a lesson teaches counts an opponent's face-up
cards as the scoring model scores them (a face-up pair as its column, a lone card by its value)."""

from __future__ import annotations

from golflab import Card, Rules
from golflab.guidance import GO_OUT_MAX, go_out_advice, shown_points

C = Card.parse


def test_face_up_cards_count_as_the_model_scores_them():
    cells = [C("7S"), C("KD"), None, C("7H"), None, C("2C")]  # a 7 pair, a lone king, a lone 2
    assert shown_points(cells, Rules()) == 0 + 0 - 2
    twos = [C("2S"), None, None, C("2H"), None, None]
    assert shown_points(twos, Rules()) == 0
    assert shown_points(twos, Rules(negative_pairs_keep_value=True)) == -4
    assert shown_points([None] * 6, Rules()) == 0


def test_the_advice_weighs_hidden_cards_at_the_unseen_mean():
    opponent = [C("AS"), None, None, C("2H"), None, None]  # shows -1, four hidden
    assert go_out_advice(GO_OUT_MAX, [opponent], Rules(), unseen=1.0)[0] == "not-lowest"
    assert go_out_advice(GO_OUT_MAX, [opponent], Rules(), unseen=5.0)[0] == "yes"
