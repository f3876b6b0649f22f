"""Teaching text for the rules notebook (widgets.lesson): plain words, numbers from the engine."""

import re

from golflab_widgets.lessons.rules_html import adjustments_html, table_html, tell, tier_frame

from golflab import Game, Rules, round_breakdown
from golflab.words import card_name


def words(html: str) -> str:
    """The text a reader sees (style sheets and tags removed)."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", re.sub(r"<style>.*?</style>", "", html, flags=re.DOTALL)))


def test_a_turn_is_told_in_plain_words_with_cards_as_people_write_them():
    game = Game(players=["Ann", "Sofia"], rules=Rules(rounds=1), seed=7)
    tell(game, "flip 0", "flip 4", "flip 2", "flip 3")
    text = words(tell(game, "draw", "swap 5"))
    placed, dropped = game.grid(0)[5], game.discard_pile[-1]
    assert f"Ann drew the {card_name(placed)} from the deck." in text
    named = card_name(placed, suit=True)
    assert f"may swap the {named} for any one of the six cards in the grid, or discard it." in text
    assert (f"Ann put the {card_name(placed)} at bottom right, replacing a face-down card: "
            f"it was the {card_name(dropped)}") in text
    for developer in ("swap 5", "legal", "[", "'", placed.code):
        assert developer not in text
    assert game.history[-2:] == ["draw", "swap 5"]  # the moves were really played


def test_a_face_up_card_replaced_is_told_as_discarded():
    game = Game(players=["Ann", "Sofia"], rules=Rules(rounds=1), seed=7)
    tell(game, "flip 0", "flip 4", "flip 2", "flip 3")
    text = words(tell(game, "draw", "swap 0"))
    placed, dropped = game.grid(0)[0], game.discard_pile[-1]
    assert f"Ann put the {card_name(placed)} at top left, discarding the {card_name(dropped)}" in text
    assert "face-down" not in text


def test_the_table_shows_face_down_cards_as_backs():
    game = Game(players=["Ann", "Sofia"], rules=Rules(rounds=1), seed=7)
    html = table_html(game)
    assert html.count('title="face down"') == 12 + 1  # every grid card and the draw pile
    assert f"{game.draw_pile_size} cards" in words(html) and "Ann (to play)" in words(html)


def test_adjustments_are_told_in_the_engine_order_with_running_scores():
    rules = Rules(knock_penalty=True, underdog_bonus=True, tied_shame=True)
    hands = [["KH", "5S", "3D", "KC", "AH", "3C"], ["4H", "5H", "QD", "4C", "KS", "QC"],
             ["9H", "7S", "8D", "7C", "7H", "8C"]]
    result = round_breakdown(hands, rules, finisher=0)
    text = words(adjustments_html(["Ann", "Ben", "Cleo"], result, rules))
    labels = [a.rule.replace("_", " ").capitalize() for a in result.adjustments]
    spots = [text.index(label) for label in labels]
    assert spots == sorted(spots) and len(labels) == 4
    assert "Ann (went out)" in text and "_" not in text
    assert "Hole scores: " + ", ".join(f"{n} {s}" for n, s in zip(["Ann", "Ben", "Cleo"], result.scores)) in text
    assert "Ben wins the hole." in text


def test_tiers_read_as_people_write_cards():
    table = tier_frame(Rules(jokers="standard"))
    assert "10" in table.index and "T" not in table.index and "\u2605 joker" in table.index
    assert list(table.columns) == ["Points", "Tier", "Advice"]
    moved = tier_frame(Rules(ten_penny=True, super_kings=True), moved_only=True)
    assert list(moved.index) == ["10", "K"]
    assert moved.loc["K", "Points with these rules"] == -2
