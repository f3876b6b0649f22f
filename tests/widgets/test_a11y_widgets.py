"""The widget side of issue 38 (every child can play): what a screen reader is told, and the
answer on screen going with its Check click. The browser side: tests/browser/test_a11y.py."""

from __future__ import annotations

import json

import ipywidgets as w
import pytest
from golflab_widgets.a11y import SR_LABEL, name_control
from golflab_widgets.on_screen import answer_on_screen, shown_box
from golflab_widgets.table.board import card_face
from golflab_widgets.table.rules_form import RulesForm

from golflab import Card
from golflab.display import card_html, card_name, grid_html


def test_a_card_has_one_name_after_its_place():
    assert card_name(Card.parse("7H"), where="top left") == "top left: 7 of hearts"
    assert card_name(Card.parse("7H"), face_up=False, where="top middle") == "top middle: face down"
    html = grid_html([Card.parse("7H"), None, Card.parse("KS"), None, None, Card.parse("JK")], label="cards of Ann")
    assert 'role="group" aria-label="cards of Ann"' in html
    for name in ("top left: 7 of hearts", "top middle: face down", "top right: king of spades",
                 "bottom right: joker"):
        assert f'aria-label="{name}"' in html
    assert 'role="img"' in card_html(Card.parse("2C"))


def test_a_card_button_says_first_what_it_shows():
    assert card_face(Card.parse("7H"))[2] == "7 of hearts"
    assert card_face(Card.parse("TS"))[2] == "10 of spades"
    assert card_face(Card.parse("QH"))[2] == "Q, queen of hearts"
    assert card_face(Card.parse("JK"))[2] == "JK, joker"


def test_name_control_names_a_control_for_screen_readers_alone():
    box = name_control(w.Dropdown(options=["a", "b"]), "add a player")
    assert box.description == "add a player" and SR_LABEL in box._dom_classes
    with pytest.raises(ValueError, match="must say what it is"):
        name_control(w.Text(), " ")


def test_every_rule_control_is_labelled_by_its_description():
    form = RulesForm()
    assert all(ctl.description for ctl in form.controls.values())


def test_the_answer_on_screen_is_graded_not_the_one_before():
    choice = w.RadioButtons(options=["pair them", "keep them apart"], value="pair them")
    number = w.Text(value="1")
    shown = shown_box()
    assert answer_on_screen(shown, choice, number) == ("pair them", "1")  # nothing from the page: the values
    shown.value = json.dumps({"choice": "keep them apart", "number": "12"})
    assert answer_on_screen(shown, choice, number) == ("keep them apart", "12")
    shown.value = json.dumps({"choice": "not an option", "number": None})
    assert answer_on_screen(shown, choice, number) == ("pair them", "1")  # what the page cannot have shown
    shown.value = "not json"
    assert answer_on_screen(shown, choice, None) == ("pair them", None)


def test_a_card_pickers_controls_are_named_after_its_place():
    from golflab_widgets.lessons.card_picker import CardPicker

    picker = CardPicker("7H", name="top left")
    assert (picker.text.description, picker.rank.description, picker.suit.description) == (
        "top left: type a card", "top left: rank", "top left: suit")
