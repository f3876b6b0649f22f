"""Card notation and decks (spec section 1)."""

import pickle

import pytest

from golflab import JOKER, RANKS, SUITS, Card, Rules, build_deck, parse_cards
from golflab.game import Game

pytestmark = pytest.mark.usefixtures("clean_env")


@pytest.mark.parametrize("rank", RANKS)
@pytest.mark.parametrize("suit", SUITS)
def test_notation_is_rank_then_suit(rank, suit):
    card = Card.parse(rank + suit)
    assert (card.rank, card.suit, str(card)) == (rank, suit, rank + suit)


def test_ten_is_written_t_and_10_is_accepted_on_input():
    assert str(Card.parse("10D")) == "TD"
    assert Card.parse("10d") is Card.parse("TD")
    assert Card.parse("td") is Card("T", "D")


@pytest.mark.parametrize("spelling", ["JK", "jk", "*", "\u2605", " JK "])
def test_joker_is_written_jk_and_star_spellings_are_accepted(spelling):
    card = Card.parse(spelling)
    assert card is JOKER
    assert str(card) == "JK" and card.is_joker and card.suit is None


def test_suit_symbols_are_accepted_on_input():
    assert Card.parse("K\u2665") is Card.parse("KH")
    assert Card.parse("10\u2666") is Card.parse("TD")


def test_cards_are_interned_and_immutable():
    card = Card.parse("KH")
    assert card is Card("K", "H")
    with pytest.raises(AttributeError):
        card.rank = "Q"
    assert pickle.loads(pickle.dumps(card)) is card


@pytest.mark.parametrize("bad", ["", "K", "1H", "11H", "KX", "ZS", "JKH", "10", "XX", "KHS", "JK1"])
def test_bad_codes_are_a_clear_error(bad):
    with pytest.raises(ValueError, match="cannot parse") as exc:
        Card.parse(bad)
    assert "suits S H D C" in str(exc.value)


@pytest.mark.parametrize("bad", [None, 12, ["KH"]])
def test_non_string_card_input_is_a_clear_error(bad):
    with pytest.raises(ValueError, match="expected a string"):
        Card.parse(bad)


def test_card_constructor_rejects_bad_rank_and_suit():
    with pytest.raises(ValueError, match="allowed ranks"):
        Card("1", "S")
    with pytest.raises(ValueError, match="allowed suits"):
        Card("K", "X")
    with pytest.raises(ValueError, match="no suit"):
        Card("JK", "S")


def test_parse_cards_takes_a_string_or_an_iterable():
    assert parse_cards("KH 10d jk") == [Card.parse("KH"), Card.parse("TD"), JOKER]
    assert parse_cards(["AS", Card.parse("2C")]) == [Card.parse("AS"), Card.parse("2C")]


def test_card_repr_and_pretty():
    assert repr(Card.parse("KH")) == "Card('KH')"
    assert Card.parse("TD").pretty == "10\u2666"
    assert JOKER.pretty == "\u2605"
    assert Card.parse("KH").is_red and not Card.parse("KS").is_red


def test_card_repr_html_shows_the_card():
    html = Card.parse("KH")._repr_html_()
    assert "K\u2665" in html and 'title="KH"' in html and "gl-back" not in html
    assert "JK" in JOKER._repr_html_()


# ---------------------------------------------------------------- decks
def test_one_deck_holds_52_distinct_cards():
    deck = build_deck(1, "none")
    assert len(deck) == 52 and len(set(deck)) == 52
    assert JOKER not in deck


@pytest.mark.parametrize(
    "decks, mode, size, jokers",
    [
        (1, "none", 52, 0), (2, "none", 104, 0), (3, "none", 156, 0),
        (1, "standard", 54, 2), (2, "standard", 108, 4), (3, "standard", 162, 6),
        (1, "lucky_swing", 53, 1), (2, "lucky_swing", 105, 1), (3, "lucky_swing", 157, 1),
        (1, "eagle_eye", 54, 2), (2, "eagle_eye", 108, 4), (3, "eagle_eye", 162, 6),
    ],
)
def test_joker_modes_add_their_card_counts(decks, mode, size, jokers):
    deck = build_deck(decks, mode)
    assert len(deck) == size
    assert deck.count(JOKER) == jokers
    assert deck.count(Card.parse("KH")) == decks


def _cards_in_play(game):
    return [c for s in range(game.num_players) for c in game.grid(s)] + game.discard_pile + game._draw


@pytest.mark.parametrize("players, decks", [(2, 1), (3, 1), (4, 1), (5, 2), (6, 2)])
def test_two_decks_are_used_automatically_for_five_and_six_players(players, decks):
    game = Game(players, seed=3)
    assert len(_cards_in_play(game)) == 52 * decks
    assert Rules().decks_for(players) == decks


@pytest.mark.parametrize("decks", [1, 2, 3])
def test_deck_count_can_be_overridden(decks):
    game = Game(6, Rules(decks=decks, jokers="standard"), seed=1)
    assert len(_cards_in_play(game)) == 54 * decks
    game = Game(2, Rules(decks=decks, jokers="lucky_swing"), seed=1)
    assert _cards_in_play(game).count(JOKER) == 1
