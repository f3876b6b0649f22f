"""The engine's public surface, used exactly as DESIGN.md writes it.

Covers the golf engine block of "The public surface that outside code relies on".
(The AI, simulate, CLI and Codepiece blocks belong to their own modules' tests.)
"""

import dataclasses

import pytest

pytestmark = pytest.mark.usefixtures("clean_env")


def test_imports():
    import golflab
    from golflab import Card, Game, IllegalActionError, Phase, Rules

    assert golflab.Card is Card and golflab.Rules is Rules and golflab.Game is Game
    assert golflab.Phase is Phase and golflab.IllegalActionError is IllegalActionError
    assert issubclass(IllegalActionError, ValueError)
    for name in golflab.__all__:
        assert hasattr(golflab, name), name


def test_card_lines():
    from golflab import Card

    assert str(Card.parse("KH")) == "KH"
    assert str(Card.parse("10d")) == "TD"
    assert Card.parse("JK").is_joker


def test_rules_lines():
    from golflab import Rules

    r = Rules()
    assert (r.rounds, r.initial_flips, r.flip_mode, r.jokers, r.max_turns) == (9, 2, "never", "none", 50)
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.rounds = 3
    r = Rules(flip_mode="always", jokers="eagle_eye", knock_penalty=True, rounds=18)
    assert (r.flip_mode, r.jokers, r.knock_penalty, r.rounds) == ("always", "eagle_eye", True, 18)
    assert Rules(use_jokers=True, lucky_swing=True).jokers == "lucky_swing"


def test_scoring_functions():
    import golflab
    from golflab import Card, Rules

    assert golflab.card_value(Card.parse("KH"), Rules()) == 0
    assert golflab.card_value(Card.parse("KH"), Rules(super_kings=True)) == -2
    assert golflab.score_hand(["2S", "5H", "6C", "2D", "4S", "3H"]) == 18
    assert golflab.score_hand([Card.parse(c) for c in "2S 5H 6C 2D 4S 3H".split()], rules=Rules()) == 18
    hands = [["KS", "KH", "5C", "QD", "QC", "5D"], ["AS", "2H", "3C", "4D", "5S", "6H"]]
    assert golflab.score_round(hands) == [20, 17]
    assert golflab.score_round(hands, rules=Rules(knock_penalty=True), finisher=0) == [30, 17]
    assert isinstance(golflab.score_round(hands, rules=Rules(), finisher=None), list)


def test_game_surface():
    from golflab import Game, IllegalActionError, Phase, Rules

    game = Game(players=4, rules=Rules(), seed=7)
    assert game.phase is Phase.INITIAL_FLIP and game.phase == "initial_flip"
    assert game.current_player == 0
    assert game.round == 1
    assert [str(a) for a in game.legal_actions()] == [f"flip {i}" for i in range(6)]
    for _ in range(8):
        assert game.apply(game.legal_actions()[0]) is game
    assert game.phase == "playing"
    assert game.apply("draw") is game
    assert game.apply("swap 3") is game
    assert game.current_player == 1
    with pytest.raises(IllegalActionError):
        game.next_round()
    obs = game.observation(game.current_player)
    for field in ("seat", "phase", "round", "current_player", "grids", "discard_top", "drawn",
                  "draw_pile_size", "legal_actions", "rules", "totals"):
        assert hasattr(obs, field), field
    assert isinstance(game.discard_pile, list) and game.discard_pile[-1] == obs.discard_top
    assert isinstance(game.draw_pile_size, int)
    assert game.totals == [0, 0, 0, 0]
    assert game.history[-2:] == ["draw", "swap 3"] and len(game.history) == 10
    text = game.to_json()
    assert Game.from_json(text).to_json() == text


def test_named_players_and_phases():
    from golflab import Game, Phase

    game = Game(players=["Ann", "Sofia", "Maya", "Priya"], seed=7)
    assert game.players == ("Ann", "Sofia", "Maya", "Priya")
    assert [p.value for p in Phase] == ["initial_flip", "playing", "final_turn", "round_over", "game_over"]


@pytest.mark.parametrize("notation", ["flip 0", "flip 5", "draw", "take", "swap 0", "swap 5", "discard", "skip"])
def test_action_notation(notation):
    from golflab import Action

    assert str(Action.parse(notation)) == notation


def test_next_round_from_round_over():
    from golflab import Game, Phase, Rules

    game = Game(players=2, rules=Rules(initial_flips=0, rounds=2, max_turns=10), seed=7)
    while game.phase == "playing":
        game.apply("draw")
        game.apply("discard")
    assert game.phase is Phase.ROUND_OVER
    assert game.next_round() is game and game.round == 2
