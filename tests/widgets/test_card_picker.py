"""The card picker (widgets.card_picker.CardPicker): type a card or pick its rank and suit."""

import pytest
import traitlets
from golflab_widgets.lessons.card_picker import CardPicker, card_input_error, rank_label


def test_typing_a_card_sets_it_and_moves_the_rank_and_suit_pickers():
    picker = CardPicker("2H")
    picker.text.value = "kd"
    assert picker.value == "KD"
    assert (picker.rank.value, picker.suit.value) == ("K", "D")
    assert picker.text.value == "KD" and picker.error == ""


@pytest.mark.parametrize("typed, code", [("10s", "TS"), ("T S", None), ("Q\u2663", "QC"), ("jk", "JK"), ("*", "JK")])
def test_every_spelling_the_engine_reads_is_accepted(typed, code):
    picker = CardPicker("2H")
    picker.text.value = typed
    if code is None:  # not a card: refused
        assert picker.value == "2H" and picker.error
    else:
        assert picker.value == code and picker.error == ""


def test_rank_and_suit_pickers_set_the_card_and_the_typed_text():
    picker = CardPicker("2H")
    picker.rank.value = "T"
    picker.suit.value = "C"
    assert picker.value == "TC"
    assert picker.text.value == "10C"
    picker.rank.value = "JK"
    assert picker.value == "JK" and picker.suit.disabled
    picker.rank.value = "Q"
    assert picker.value == "QC" and not picker.suit.disabled


@pytest.mark.parametrize("typed, wrong", [
    ("KX", '"X" is not a suit'),
    ("1H", '"1" is not a rank'),
    ("ZZ", '"Z" is not a rank'),
    ("K", "a card is a rank then a suit"),
    ("", "the box is empty"),
])
def test_a_bad_card_is_explained_and_changes_nothing(typed, wrong):
    picker = CardPicker("KH")
    seen = []
    picker.observe(lambda change: seen.append(change["new"]), names="value")
    picker.text.value = typed
    assert picker.value == "KH" and seen == []
    assert (picker.rank.value, picker.suit.value) == ("K", "H")
    assert picker.text.value == "KH"  # the box shows the card still in play
    assert wrong in picker.error
    assert "S \u2660, H \u2665, D \u2666 or C \u2663" in picker.error  # what is allowed
    assert "golf-card-bad" in picker.text._dom_classes
    picker.text.value = "QS"  # a good card clears the error
    assert picker.value == "QS" and picker.error == ""
    assert "golf-card-bad" not in picker.text._dom_classes


def test_setting_a_bad_value_from_python_is_a_clear_error():
    picker = CardPicker("KH")
    with pytest.raises(traitlets.TraitError, match="cannot parse 'XX' as a card"):
        picker.value = "XX"
    assert picker.value == "KH"


def test_the_messages_and_labels_read_as_people_write_cards():
    assert rank_label("T") == "10" and rank_label("JK") == "\u2605 joker" and rank_label("K") == "K"
    assert card_input_error("KH") == ""
    assert card_input_error("9Q").startswith('"9Q" is not a card ("Q" is not a suit): type a rank')
