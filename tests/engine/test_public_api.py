"""The engine's public surface, used exactly as DESIGN.md writes it.

Covers every block of "The public surface that outside code relies on": the golf engine,
the CPU players and ``simulate``, the command line, and Codepiece. Behaviour beyond the
contract is tested with each module.
"""

import dataclasses
import json
import subprocess
import sys

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


# ------------------------------------------------------------------ CPU players and simulate
def test_ai_lines():
    from golflab import Game, Rules
    from golflab.ai import PROFILES, CPUPlayer

    assert PROFILES["Sofia"].swap_threshold == 4
    bot = CPUPlayer("Sofia", seed=1)
    game = Game(players=4, rules=Rules(), seed=7)
    for _ in range(40):
        action = bot.choose(game.observation(game.current_player))
        assert action in game.legal_actions()
        game.apply(action)


def test_simulate_line():
    import pandas as pd

    import golflab
    from golflab import Rules

    result = golflab.simulate(players=["Sofia", "Maya", "Priya", "Marcus"], games=2, rules=Rules(rounds=1), seed=0)
    assert isinstance(result.rounds, pd.DataFrame) and len(result.rounds) > 0
    assert isinstance(result.decisions, pd.DataFrame) and len(result.decisions) > 0
    assert result.quality is not None
    again = golflab.simulate(players=["Sofia", "Maya", "Priya", "Marcus"], games=2, rules=Rules(rounds=1), seed=0)
    pd.testing.assert_frame_equal(result.rounds, again.rounds)


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "golflab", *args], capture_output=True, text=True, timeout=300)


def test_command_line_simulate_prints_a_summary_table_or_json():
    args = ["simulate", "--players", "Sofia,Maya", "--games", "2", "--seed", "1", "--rule", "flip_mode=always"]
    table = _cli(*args)
    assert table.returncode == 0, table.stderr
    assert "Sofia" in table.stdout and "Maya" in table.stdout
    as_json = _cli(*args, "--json")
    assert as_json.returncode == 0, as_json.stderr
    assert "Sofia" in json.dumps(json.loads(as_json.stdout))


# ------------------------------------------------------------------ Codepiece
def test_codepiece_lines():
    import golflab.codepiece
    from golflab import IllegalActionError
    from golflab.codepiece import CodepieceGame

    g = CodepieceGame(seed=1, dealer=0)
    assert [len(g.state(s)["hand"]) for s in range(4)] == [13, 13, 13, 13]
    assert g.phase == "bidding"
    assert isinstance(g.current_player, int)
    legal = g.legal_actions()
    assert "pass" in legal and all(isinstance(a, str) for a in legal)
    state = g.state(g.current_player)
    for key in ("phase", "current_player", "hand", "legal_actions", "bid", "declarer", "trump", "tricks_won",
                "current_trick", "bidding_history", "winner", "payoffs"):
        assert key in state, key
    assert len(golflab.codepiece.one_hot(state["hand"])) == 52
    with pytest.raises(IllegalActionError):
        g.apply("trump_S")  # not legal while bidding


def test_codepiece_from_hands_plays_to_the_end():
    from golflab import Card
    from golflab.codepiece import CodepieceGame

    deck = [str(c) for c in sorted(Card(r, s) for s in "SHDC" for r in "A23456789TJQK")]
    g = CodepieceGame.from_hands([deck[0:13], deck[13:26], deck[26:39], deck[39:52]], dealer=0)
    assert sorted(g.state(0)["hand"]) == sorted(deck[0:13])
    for _ in range(200):
        if g.phase == "over":
            break
        g.apply(g.legal_actions()[-1])
    assert g.phase == "over"
    assert len(g.payoffs) == 4
    assert g.state(0)["tricks_won"][0] + g.state(0)["tricks_won"][1] in (0, 13)
