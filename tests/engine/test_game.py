"""The game state machine, rule by rule (spec sections 3-7).

Many tests stack a fresh game's cards by hand (``stack``) so that a rule can be seen at work.
"""

from __future__ import annotations

import dataclasses
import gc
import json
import random
import types

import pytest

import golflab.game
from golflab import Card, Game, IllegalActionError, Observation, Phase, Rules, parse_cards, score_round

pytestmark = pytest.mark.usefixtures("clean_env")

DOWN = "000000"
UP = "111111"


def stack(game, grids=None, draw=None, discard=None, face_up=None):
    """Set a fresh game's cards by hand (for rule tests): grids per seat, the draw pile
    listed top first, the discard pile listed top last, face-up flags per seat."""
    if grids is not None:
        game._grids = [parse_cards(g) for g in grids]
    if draw is not None:
        game._draw = list(reversed(parse_cards(draw)))
    if discard is not None:
        game._discard = parse_cards(discard)
    if face_up is not None:
        game._up = [[bool(int(ch)) for ch in row] if isinstance(row, str) else list(row) for row in face_up]
    return game


def playing(players=2, seed=1, **rules) -> Game:
    """A game already in ``playing`` (no initial flips), seat 0 to draw."""
    return Game(players, Rules(initial_flips=0, **rules), seed)


def all_cards(game: Game) -> list[Card]:
    held = [game.held] if game.held is not None else []
    return [c for s in range(game.num_players) for c in game.grid(s)] + game.discard_pile + game._draw + held


def play(game: Game, *actions: str) -> Game:
    for a in actions:
        game.apply(a)
    return game


# ------------------------------------------------------------------ players
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_two_to_six_players(players):
    game = Game(players, seed=0)
    assert game.num_players == players
    assert game.players == tuple(f"Player {i + 1}" for i in range(players))


@pytest.mark.parametrize("players", [0, 1, 7, 12, -2])
def test_fewer_than_two_or_more_than_six_players_is_a_clear_error(players):
    with pytest.raises(ValueError, match="2 to 6 players"):
        Game(players, seed=0)


@pytest.mark.parametrize("players", [["Ann"], ["a", "b", "c", "d", "e", "f", "g"]])
def test_wrong_number_of_names_is_a_clear_error(players):
    with pytest.raises(ValueError, match="2 to 6 players"):
        Game(players, seed=0)


@pytest.mark.parametrize(
    "players, match",
    [(True, "number from 2 to 6"), ("Ann,Bob", "number from 2 to 6"), (2.0, "number from 2 to 6"),
     (["Ann", "Ann"], "distinct"), (["Ann", ""], "non-empty"), (["Ann", 3], "non-empty")],
)
def test_bad_players_argument_is_a_clear_error(players, match):
    with pytest.raises(ValueError, match=match):
        Game(players, seed=0)


def test_named_players():
    game = Game(["Ann", "Sofia", "Maya"], seed=0)
    assert game.players == ("Ann", "Sofia", "Maya") and game.num_players == 3


def test_bad_rules_or_seed_is_a_clear_error():
    with pytest.raises(ValueError, match="golflab.Rules"):
        Game(2, {"rounds": 3}, seed=0)
    with pytest.raises(ValueError, match="seed must be a whole number"):
        Game(2, seed="7")


def test_a_deck_too_small_to_deal_is_a_clear_error(monkeypatch):
    # 1-3 decks always hold enough cards for 6 players, so shrink the deck to see the check.
    real = golflab.game.build_deck
    monkeypatch.setattr(golflab.game, "build_deck", lambda decks, jokers: real(decks, jokers)[:36])
    with pytest.raises(ValueError, match="too few to deal.*37 needed"):
        Game(6, seed=0)


def test_no_seed_picks_one_and_keeps_it():
    game = Game(2)
    again = Game(2, seed=game.seed)
    assert [again.grid(s) for s in range(2)] == [game.grid(s) for s in range(2)]


# ------------------------------------------------------------------ setup
@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("jokers", ["none", "standard", "lucky_swing", "eagle_eye"])
def test_setup_deals_six_face_down_cards_each_and_starts_the_discard_pile_with_one(players, jokers):
    game = Game(players, Rules(jokers=jokers), seed=5)
    deck = len(golflab.build_deck(Rules().decks_for(players), jokers))
    assert all(len(game.grid(s)) == 6 for s in range(players))
    assert all(game.face_up(s) == [False] * 6 for s in range(players))
    assert len(game.discard_pile) == 1
    assert game.draw_pile_size == deck - 6 * players - 1
    assert sorted(all_cards(game), key=str) == sorted(golflab.build_deck(game._decks, jokers), key=str)


def test_same_seed_deals_the_same_cards_and_another_seed_does_not():
    a, b, c = Game(4, seed=11), Game(4, seed=11), Game(4, seed=12)
    assert [a.grid(s) for s in range(4)] == [b.grid(s) for s in range(4)]
    assert a.discard_pile == b.discard_pile and a._draw == b._draw
    assert [a.grid(s) for s in range(4)] != [c.grid(s) for s in range(4)]


def test_initial_flips_zero_starts_in_playing():
    game = Game(3, Rules(initial_flips=0), seed=1)
    assert game.phase is Phase.PLAYING and game.awaiting == "draw"
    assert [str(a) for a in game.legal_actions()] == ["draw", "take"]


@pytest.mark.parametrize("flips", [1, 2])
def test_initial_flips_seat_by_seat_from_the_first_player(flips):
    game = Game(3, Rules(initial_flips=flips), seed=2)
    assert game.phase is Phase.INITIAL_FLIP
    order = []
    for _ in range(3 * flips):
        assert game.phase is Phase.INITIAL_FLIP
        order.append(game.current_player)
        game.apply(game.legal_actions()[-1])
    assert order == [s for s in range(3) for _ in range(flips)]  # each makes all flips before the next
    assert game.phase is Phase.PLAYING and game.current_player == 0
    assert [game.face_up(s).count(True) for s in range(3)] == [flips] * 3


def test_initial_flip_chooses_which_card_and_cannot_flip_twice():
    game = Game(2, Rules(initial_flips=2), seed=3)
    game.apply("flip 4")
    assert game.face_up(0) == [False, False, False, False, True, False]
    assert "flip 4" not in [str(a) for a in game.legal_actions()]
    with pytest.raises(IllegalActionError, match="flip 4"):
        game.apply("flip 4")
    assert [str(a) for a in game.legal_actions()] == ["flip 0", "flip 1", "flip 2", "flip 3", "flip 5"]


def test_no_draw_during_the_initial_flips():
    game = Game(2, seed=3)
    with pytest.raises(IllegalActionError, match="initial_flip"):
        game.apply("draw")


def finish_hole(game: Game) -> Game:
    """Play the hole to its end: everyone swaps face-down cards in order (deterministic)."""
    while game.awaiting is not None:
        acts = game.legal_actions()
        if game.awaiting == "draw":
            game.apply("draw")
        elif game.awaiting == "place":
            down = [i for i, u in enumerate(game.face_up(game.current_player)) if not u]
            game.apply(f"swap {down[0]}" if down else "discard")
        else:
            game.apply(acts[0])
    return game


@pytest.mark.parametrize("players", [2, 3, 5])
def test_first_seat_moves_one_to_the_left_each_hole(players):
    game = Game(players, Rules(rounds=7, initial_flips=1), seed=4)
    firsts = []
    for hole in range(1, 8):
        assert game.round == hole
        firsts.append(game.first_player)
        assert game.current_player == game.first_player  # the hole's first player flips first
        finish_hole(game)
        if game.phase is Phase.ROUND_OVER:
            game.next_round()
    assert firsts == [(h - 1) % players for h in range(1, 8)]
    assert game.phase is Phase.GAME_OVER


def test_playing_starts_with_the_holes_first_player():
    game = Game(3, Rules(rounds=2, initial_flips=0), seed=4)
    finish_hole(game).next_round()
    assert game.phase is Phase.PLAYING and game.current_player == 1


# ------------------------------------------------------------------ a turn
def test_draw_gives_the_top_of_the_draw_pile_to_the_drawer_only():
    game = stack(playing(3), draw="9H 4C")
    size = game.draw_pile_size
    game.apply("draw")
    assert game.held == Card.parse("9H") and game.held_source == "draw"
    assert game.draw_pile_size == size - 1
    assert game.observation(0).drawn == Card.parse("9H")
    assert game.observation(1).drawn is None and game.observation(2).drawn is None
    assert game.observation(1).taken is None
    assert Card.parse("9H") not in game.observation(1).visible_cards()


def test_drawn_card_can_be_swapped_or_discarded():
    game = playing(2)
    game.apply("draw")
    assert [str(a) for a in game.legal_actions()] == [f"swap {i}" for i in range(6)] + ["discard"]


def test_swapped_in_card_is_face_up_and_the_old_card_goes_face_up_to_the_discard_pile():
    game = stack(playing(2), grids=["AS 2S 3S 4S 5S 6S", "AH 2H 3H 4H 5H 6H"], draw="QD", discard="KC")
    play(game, "draw", "swap 4")
    assert game.grid(0)[4] == Card.parse("QD") and game.face_up(0)[4]
    assert game.discard_pile == parse_cards("KC 5S")
    assert game.observation(1).grids[0][4] == Card.parse("QD")
    assert game.observation(1).discard_top == Card.parse("5S")
    assert game.current_player == 1 and game.awaiting == "draw"


def test_discarding_the_drawn_card_ends_the_turn_in_flip_mode_never():
    game = stack(playing(2), draw="QD", discard="KC")
    play(game, "draw", "discard")
    assert game.discard_pile == parse_cards("KC QD")
    assert game.current_player == 1 and game.awaiting == "draw" and game.turns == [1, 0]
    assert game.face_up(0) == [False] * 6


def test_taking_from_the_discard_pile_is_public_and_must_be_swapped():
    game = stack(playing(3), discard="7C KD")
    game.apply("take")
    assert game.held == Card.parse("KD") and game.held_source == "take"
    assert game.discard_pile == parse_cards("7C")
    assert [str(a) for a in game.legal_actions()] == [f"swap {i}" for i in range(6)]
    for seat in (1, 2):
        obs = game.observation(seat)
        assert obs.taken == Card.parse("KD") and obs.drawn is None
        assert Card.parse("KD") in obs.visible_cards()
    assert game.observation(0).drawn == Card.parse("KD")


def test_a_card_taken_from_the_discard_pile_may_not_be_put_back():
    game = stack(playing(2), discard="7C KD")
    game.apply("take")
    before = game.to_json()
    with pytest.raises(IllegalActionError, match="discard"):
        game.apply("discard")
    assert game.to_json() == before
    game.apply("swap 0")
    assert game.grid(0)[0] == Card.parse("KD") and game.face_up(0)[0]


def test_take_then_swap_puts_the_replaced_card_on_the_discard_pile():
    game = stack(playing(2), grids=["AS 2S 3S 4S 5S 6S", "AH 2H 3H 4H 5H 6H"], discard="7C KD")
    play(game, "take", "swap 5")
    assert game.discard_pile == parse_cards("7C 6S")


def test_swapping_a_face_up_card_is_allowed():
    game = stack(playing(2), grids=["AS 2S 3S 4S 5S 6S", "AH 2H 3H 4H 5H 6H"],
                 face_up=["100000", DOWN], draw="9D")
    play(game, "draw", "swap 0")
    assert game.grid(0)[0] == Card.parse("9D") and game.discard_pile[-1] == Card.parse("AS")


# ------------------------------------------------------------------ flip modes
def test_flip_mode_always_must_flip_a_face_down_card_after_discarding():
    game = stack(playing(2, flip_mode="always"), face_up=["110000", DOWN])
    play(game, "draw", "discard")
    assert game.current_player == 0 and game.awaiting == "flip"
    assert [str(a) for a in game.legal_actions()] == ["flip 2", "flip 3", "flip 4", "flip 5"]
    with pytest.raises(IllegalActionError, match="skip"):
        game.apply("skip")
    game.apply("flip 3")
    assert game.face_up(0)[3] and game.current_player == 1


def test_flip_mode_always_does_not_flip_after_a_swap():
    game = playing(2, flip_mode="always")
    play(game, "draw", "swap 0")
    assert game.current_player == 1 and game.face_up(0).count(True) == 1


def test_flip_mode_always_nothing_to_flip_ends_the_turn():
    # a seat with no face-down card (stacked) discards: there is nothing to flip.
    game = stack(playing(2, flip_mode="always"), face_up=[UP, DOWN])
    play(game, "draw", "discard")
    assert game.awaiting == "draw" and game.current_player == 1
    assert game.finisher == 0


def test_flip_mode_endgame_no_flip_while_everyone_has_two_or_more_face_down():
    game = stack(playing(3, flip_mode="endgame"), face_up=["111100", "111100", "000000"])
    play(game, "draw", "discard")
    assert game.current_player == 1 and game.awaiting == "draw"


def test_flip_mode_endgame_may_flip_or_skip_when_another_player_has_at_most_one_face_down():
    game = stack(playing(3, flip_mode="endgame"), face_up=["110000", "000000", "111110"])
    play(game, "draw", "discard")
    assert game.awaiting == "flip"
    assert [str(a) for a in game.legal_actions()] == ["flip 2", "flip 3", "flip 4", "flip 5", "skip"]
    game.apply("skip")
    assert game.current_player == 1 and game.face_up(0).count(True) == 2


def test_flip_mode_endgame_counts_your_own_face_down_cards_too():
    game = stack(playing(2, flip_mode="endgame"), face_up=["111110", DOWN])
    play(game, "draw", "discard")
    assert [str(a) for a in game.legal_actions()] == ["flip 5", "skip"]
    game.apply("flip 5")
    assert game.finisher == 0 and game.phase is Phase.FINAL_TURN


def test_flip_mode_endgame_no_flip_after_a_swap():
    game = stack(playing(2, flip_mode="endgame"), face_up=["111100", "111110"])
    play(game, "draw", "swap 4")
    assert game.current_player == 1 and game.awaiting == "draw"


def test_flip_mode_never_offers_no_flip_even_in_the_endgame():
    game = stack(playing(2), face_up=["111110", "111110"])
    play(game, "draw", "discard")
    assert game.current_player == 1 and game.awaiting == "draw"


def test_flip_mode_always_flip_is_not_offered_after_taking():
    game = playing(2, flip_mode="always")
    play(game, "take", "swap 2")
    assert game.current_player == 1


# ------------------------------------------------------------------ draw pile exhaustion
def test_empty_draw_pile_is_refilled_from_the_discard_pile_except_its_top_card():
    game = stack(playing(2), draw="", discard="3C 4C 5C 6C 7C")
    game.apply("draw")
    assert game.discard_pile == parse_cards("7C")
    assert game.held in parse_cards("3C 4C 5C 6C")
    assert game.draw_pile_size == 3
    assert sorted(game._draw + [game.held]) == sorted(parse_cards("3C 4C 5C 6C"))
    assert game.phase is Phase.PLAYING and game.awaiting == "place"


def test_reshuffle_is_seeded():
    a = stack(playing(2, seed=9), draw="", discard="3C 4C 5C 6C 7C 8C 9C TC JC QC")
    b = stack(playing(2, seed=9), draw="", discard="3C 4C 5C 6C 7C 8C 9C TC JC QC")
    a.apply("draw"), b.apply("draw")
    assert a._draw == b._draw and a.held == b.held


def test_round_ends_at_once_when_nothing_is_left_to_draw():
    game = stack(playing(2, rounds=2), grids=["AS 2S 3S 4S 5S 6S", "AH 2H 3H 4H 5H 6H"], draw="", discard="KC")
    game.apply("draw")
    assert game.phase is Phase.ROUND_OVER and game.awaiting is None
    assert game.finisher is None and game.held is None
    assert all(all(game.face_up(s)) for s in range(2))
    assert game.round_results[-1].scores == tuple(score_round([game.grid(0), game.grid(1)], game.rules))
    assert game.totals == list(game.round_results[-1].scores)


def test_round_ended_by_an_empty_pile_during_final_turns_keeps_the_finisher():
    game = stack(playing(3, knock_bonus=True, rounds=1), face_up=["111110", DOWN, DOWN], draw="9D")
    play(game, "draw", "swap 5")
    assert game.phase is Phase.FINAL_TURN and game.finisher == 0
    stack(game, draw="", discard="KC")
    game.apply("draw")
    assert game.phase is Phase.GAME_OVER
    assert game.round_results[-1].finisher == 0
    assert [a.rule for a in game.round_results[-1].adjustments] == ["knock_bonus"]


def test_drawing_from_an_empty_discard_pile_is_illegal():
    game = stack(playing(2), discard="")
    assert [str(a) for a in game.legal_actions()] == ["draw"]
    before = game.to_json()
    with pytest.raises(IllegalActionError, match="take"):
        game.apply("take")
    assert game.to_json() == before


# ------------------------------------------------------------------ end of the round
def test_first_player_with_all_cards_face_up_is_the_finisher():
    game = stack(playing(4), face_up=["111110", "111110", DOWN, DOWN], draw="9D 8D")
    play(game, "draw", "discard")       # seat 0 still has a face-down card
    assert game.finisher is None and game.current_player == 1
    play(game, "draw", "swap 5")        # seat 1 goes out
    assert game.finisher == 1 and game.phase is Phase.FINAL_TURN


@pytest.mark.parametrize("finisher, order", [(0, [1, 2, 3]), (2, [3, 0, 1]), (3, [0, 1, 2])])
def test_every_other_player_gets_exactly_one_final_turn_in_seat_order(finisher, order):
    ups = [DOWN] * 4
    ups[finisher] = "011111"
    game = stack(playing(4), face_up=ups)
    game._current = finisher
    play(game, "draw", "swap 0")
    assert game.finisher == finisher
    seen = []
    while game.phase is Phase.FINAL_TURN:
        seat = game.current_player
        seen.append(seat)
        play(game, "draw", "discard")
        assert all(game.face_up(seat))  # cards turned face up after the final turn
        if game.phase is Phase.FINAL_TURN:
            others = [s for s in range(4) if s not in seen and s != finisher]
            assert not any(all(game.face_up(s)) for s in others)
    assert seen == order
    assert game.turns[finisher] == 1 and all(game.turns[s] == 1 for s in order)
    assert game.phase is Phase.ROUND_OVER


def test_finisher_gets_no_final_turn_and_the_round_is_scored_after_the_last_final_turn():
    game = stack(playing(2, rounds=3), grids=["AS 2S 3S 4S 5S 6S", "AH 2H 3H 4H 5H 6H"],
                 face_up=["011111", DOWN], draw="KD 9C")
    play(game, "draw", "swap 0")            # seat 0 goes out with KD 2S 3S / 4S 5S 6S = 4+3+9
    assert game.current_player == 1 and game.phase is Phase.FINAL_TURN
    play(game, "draw", "swap 0")            # seat 1: 9C 2H 3H / 4H 5H 6H = 13+3+9
    assert game.phase is Phase.ROUND_OVER and game.awaiting is None
    assert game.legal_actions() == []
    result = game.round_results[-1]
    assert result.finisher == 0 and result.scores == (16, 25)
    assert game.totals == [16, 25] and game.holes_won == [1, 0]
    assert all(all(game.face_up(s)) for s in range(2))


def test_finisher_via_a_flip_after_discarding():
    game = stack(playing(2, flip_mode="always"), face_up=["111110", DOWN])
    play(game, "draw", "discard", "flip 5")
    assert game.finisher == 0 and game.current_player == 1 and game.phase is Phase.FINAL_TURN


def test_final_turn_includes_the_flip_after_a_discard():
    game = stack(playing(2, flip_mode="always"), face_up=["011111", "110000"])
    play(game, "draw", "swap 0")
    play(game, "draw", "discard")
    assert game.phase is Phase.FINAL_TURN and game.awaiting == "flip"
    game.apply("flip 2")
    assert game.phase is not Phase.FINAL_TURN


# ------------------------------------------------------------------ stall guard
def test_stall_guard_ends_the_round_after_max_turns_per_player():
    game = playing(3, max_turns=10, rounds=2)
    for turn in range(30):
        assert game.phase is Phase.PLAYING, turn
        play(game, "draw", "discard")
    assert game.phase is Phase.ROUND_OVER
    assert game.turns == [10, 10, 10] and game.finisher is None
    assert game.round_results[-1].finisher is None


def test_stall_guard_counts_every_player():
    game = playing(3, max_turns=10, rounds=2)
    for _ in range(29):
        play(game, "draw", "discard")
    assert game.phase is Phase.PLAYING and game.turns == [10, 10, 9]


def test_stall_guard_waits_for_final_turns():
    game = stack(playing(2, max_turns=10), face_up=[DOWN, DOWN])
    for _ in range(9):
        play(game, "draw", "discard", "draw", "discard")
    game._up[1] = [False] + [True] * 5
    play(game, "draw", "discard")         # seat 0: 10 turns
    play(game, "draw", "swap 0")          # seat 1 goes out on its 10th turn
    assert game.phase is Phase.FINAL_TURN and game.current_player == 0
    play(game, "draw", "discard")
    assert game.phase is Phase.ROUND_OVER and game.turns == [11, 10]


# ------------------------------------------------------------------ holes and the game
def test_game_of_one_round_is_over_after_the_first_hole():
    game = finish_hole(Game(2, Rules(rounds=1), seed=1))
    assert game.phase is Phase.GAME_OVER and game.is_over
    with pytest.raises(IllegalActionError, match="game_over"):
        game.next_round()
    with pytest.raises(IllegalActionError, match="none"):
        game.apply("draw")


@pytest.mark.parametrize("rounds", [1, 2, 9, 18])
def test_a_game_lasts_its_number_of_rounds(rounds):
    game = Game(3, Rules(rounds=rounds), seed=rounds)
    holes = 0
    while True:
        finish_hole(game)
        holes += 1
        if game.phase is Phase.GAME_OVER:
            break
        assert game.phase is Phase.ROUND_OVER
        game.next_round()
    assert holes == rounds == game.round == len(game.round_results)


def test_totals_add_up_the_round_scores_and_holes_won_count_ties():
    game = Game(4, Rules(rounds=4), seed=8)
    while not game.is_over:
        finish_hole(game)
        if game.phase is Phase.ROUND_OVER:
            game.next_round()
    results = game.round_results
    assert game.totals == [sum(r.scores[s] for r in results) for s in range(4)]
    assert game.holes_won == [sum(s in r.winners for r in results) for s in range(4)]
    for r in results:
        assert r.winners == tuple(s for s in range(4) if r.scores[s] == min(r.scores))


def test_hole_winners_share_ties():
    game = stack(playing(3, rounds=1), grids=["KS KH 5S KD KC 5H", "AS 2S 3S AH 2H 3H",
                                              "QS QH 9S 4S 4H 9H"],
                 face_up=["011111", DOWN, DOWN], draw="KS 7C 7D")
    play(game, "draw", "swap 0", "draw", "discard", "draw", "discard")
    assert game.round_results[-1].scores == (0, 0, 28)
    assert game.holes_won == [1, 1, 0] and game.winners == [0, 1]


def test_the_lowest_total_wins_and_ties_share_the_win():
    game = finish_hole(Game(3, Rules(rounds=1), seed=2))
    game._totals = [12, 7, 7]
    assert game.winners == [1, 2]
    game._totals = [3, 7, 9]
    assert game.winners == [0]


def test_next_round_only_from_round_over():
    game = Game(2, Rules(rounds=2), seed=1)
    with pytest.raises(IllegalActionError, match="initial_flip.*legal actions are flip 0"):
        game.next_round()
    finish_hole(game)
    game.next_round()
    assert game.round == 2 and game.phase is Phase.INITIAL_FLIP
    assert all(game.face_up(s) == [False] * 6 for s in range(2))
    assert len(game.discard_pile) == 1 and game.turns == [0, 0]


def test_phases_compare_equal_to_their_strings():
    assert Phase.INITIAL_FLIP == "initial_flip" and Phase.PLAYING == "playing"
    assert Phase.FINAL_TURN == "final_turn" and Phase.ROUND_OVER == "round_over"
    assert Phase.GAME_OVER == "game_over" and str(Phase.PLAYING) == "playing"


# ------------------------------------------------------------------ illegal actions
@pytest.mark.parametrize("text", ["swap 3", "discard", "skip", "take"])
def test_illegal_action_is_a_value_error_naming_action_phase_and_legal_actions(text):
    game = Game(2, seed=1)
    before = game.to_json()
    with pytest.raises(IllegalActionError) as exc:
        game.apply(text)
    assert isinstance(exc.value, ValueError)
    msg = str(exc.value)
    assert repr(text) in msg and "initial_flip" in msg
    assert "legal actions are flip 0, flip 1, flip 2, flip 3, flip 4, flip 5" in msg
    assert game.to_json() == before


@pytest.mark.parametrize("text", ["jump", "swap 9", "flip -1", "", "swap", 3, None])
def test_unparseable_action_is_refused_the_same_way(text):
    game = playing(2)
    before = game.to_json()
    with pytest.raises(IllegalActionError) as exc:
        game.apply(text)
    msg = str(exc.value)
    assert repr(str(text)) in msg and "playing" in msg and "legal actions are draw, take" in msg
    assert game.to_json() == before


def test_action_notation_forgives_case_and_spacing():
    game = playing(2)
    game.apply("  DRAW ")
    game.apply("Swap   2")
    assert game.history == ["draw", "swap 2"]


def test_refusal_after_the_hole_points_to_next_round():
    game = finish_hole(Game(2, Rules(rounds=2), seed=1))
    with pytest.raises(IllegalActionError, match="next_round"):
        game.apply("draw")


# ------------------------------------------------------------------ observation
def test_observation_never_shows_a_face_down_card():
    game = stack(playing(3), face_up=["100001", DOWN, "010000"])
    for seat in range(3):
        obs = game.observation(seat)
        for s in range(3):
            for i in range(6):
                expected = game.grid(s)[i] if game.face_up(s)[i] else None
                assert obs.grids[s][i] == expected
        assert obs.face_down(0) == [1, 2, 3, 4]


def test_observation_shows_own_drawn_card_but_not_another_seats():
    game = playing(2)
    game.apply("draw")
    assert game.observation(0).drawn == game.held and game.observation(0).holding
    other = game.observation(1)
    assert other.drawn is None and other.taken is None and other.holding
    assert game.held not in other.grids[0]


def test_observation_legal_actions_only_for_the_seat_to_move():
    game = playing(3)
    assert [str(a) for a in game.observation(0).legal_actions] == ["draw", "take"]
    assert game.observation(1).legal_actions == [] and game.observation(2).legal_actions == []


def test_observation_fields():
    game = playing(2, rounds=4)
    obs = game.observation(1)
    assert isinstance(obs, Observation)
    assert (obs.seat, obs.phase, obs.round, obs.current_player) == (1, Phase.PLAYING, 1, 0)
    assert obs.discard_top == game.discard_pile[-1] and obs.draw_pile_size == game.draw_pile_size
    assert obs.rules == game.rules and obs.totals == [0, 0] and obs.my_grid == [None] * 6


def _reachable(root, stop=(type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType)):
    seen, todo = {id(root): root}, [root]
    while todo:
        for ref in gc.get_referents(todo.pop()):
            if id(ref) not in seen and not isinstance(ref, stop):
                seen[id(ref)] = ref
                todo.append(ref)
    return seen


def test_observation_holds_no_reference_to_the_game():
    game = stack(playing(2), face_up=["100000", DOWN])
    game.apply("draw")
    obs = game.observation(0)
    reachable = _reachable(obs)
    for internal in (game, game.__dict__, game._grids, *game._grids, game._up, *game._up, game._discard,
                     game._draw, game._totals, game._rng):
        assert id(internal) not in reachable
    snapshot = dataclasses.asdict(obs)
    game.apply("swap 3")
    assert dataclasses.asdict(obs) == snapshot
    with pytest.raises(dataclasses.FrozenInstanceError):
        obs.seat = 1


@pytest.mark.parametrize("seat", [-1, 2, True, "0"])
def test_observation_of_a_bad_seat_is_a_clear_error(seat):
    with pytest.raises(ValueError, match="seat must be a seat index 0-1"):
        playing(2).observation(seat)


# ------------------------------------------------------------------ persistence
def random_actions(game: Game, rng: random.Random, count: int) -> list[str]:
    """Play ``count`` random legal actions (dealing the next hole when one ends)."""
    played = []
    for _ in range(count):
        if game.phase is Phase.GAME_OVER:
            break
        if game.phase is Phase.ROUND_OVER:
            game.next_round()
            continue
        acts = game.legal_actions()
        action = acts[rng.randrange(len(acts))]
        game.apply(action)
        played.append(str(action))
    return played


@pytest.mark.parametrize("steps", [0, 1, 7, 40, 160])
def test_json_round_trip_is_exact(steps):
    game = Game(["Ann", "Bo", "Cy"], Rules(rounds=3, jokers="eagle_eye", flip_mode="endgame"), seed=21)
    random_actions(game, random.Random(steps), steps)
    text = game.to_json()
    restored = Game.from_json(text)
    assert restored.to_json() == text
    assert restored.players == game.players and restored.rules == game.rules and restored.seed == game.seed
    assert [restored.grid(s) for s in range(3)] == [game.grid(s) for s in range(3)]
    assert restored._draw == game._draw and restored.held == game.held
    assert restored.round_results == game.round_results and restored.holes_won == game.holes_won


def test_restored_game_continues_identically_including_future_shuffles():
    # draw-and-discard only: the draw pile runs out and is reshuffled several times.
    game = Game(2, Rules(initial_flips=0, max_turns=200, rounds=2), seed=5)
    for _ in range(30):
        play(game, "draw", "discard")
    restored = Game.from_json(game.to_json())
    reshuffles = 0
    for _ in range(300):
        if game.phase is not Phase.PLAYING:
            break
        before = game.draw_pile_size
        play(game, "draw", "discard")
        play(restored, "draw", "discard")
        reshuffles += before == 0
        assert restored.discard_pile == game.discard_pile and restored._draw == game._draw
    assert reshuffles >= 3
    assert restored.to_json() == game.to_json()


def test_json_of_a_game_between_holes_and_after_the_next_deal():
    game = finish_hole(Game(2, Rules(rounds=3, initial_flips=0), seed=2))
    assert Game.from_json(game.to_json()).phase is Phase.ROUND_OVER
    game.next_round()
    restored = Game.from_json(game.to_json())
    assert restored.round == 2 and restored.to_json() == game.to_json()


def _saved(**changes):
    data = json.loads(Game(2, Rules(rounds=2), seed=3).apply("flip 0").to_json())
    for key, value in changes.items():
        if value is KeyError:
            del data[key]
        else:
            data[key] = value
    return json.dumps(data)


@pytest.mark.parametrize(
    "text, match",
    [
        ("not json", "invalid JSON"),
        (None, "invalid JSON"),
        ("[1, 2]", "format"),
        ('{"format": "chess.game"}', "format"),
        (_saved(version=99), "version 99"),
        (_saved(history=KeyError), "missing history"),
        (_saved(history="flip 0"), "history must be a list"),
        (_saved(history=["flip 0", "fly 3"]), "entry 1"),
        (_saved(history=["flip 0", "draw"]), "entry 1"),
        (_saved(rules={"rounds": 30}), "rounds"),
        (_saved(rules={"colour": 1}), "unknown rule option"),
        (_saved(players=1), "2 to 6"),
        (_saved(seed="x"), "seed"),
        (_saved(state={"round": "one"}), "state"),
        (_saved(seed=4), "corrupted"),
        (_saved(players=["A", "B", "C"]), "corrupted"),
    ],
)
def test_corrupted_or_foreign_json_is_a_clear_value_error(text, match):
    with pytest.raises(ValueError, match=match):
        Game.from_json(text)


def test_tampered_state_is_detected():
    data = json.loads(Game(2, seed=3).apply("flip 0").to_json())
    data["state"]["grids"][0][0] = "JK"
    with pytest.raises(ValueError, match="corrupted"):
        Game.from_json(json.dumps(data))
    data = json.loads(stack(playing(2), draw="QD").to_json())  # a stacked deal is not the seed's deal
    with pytest.raises(ValueError, match="corrupted"):
        Game.from_json(json.dumps(data))


def test_replay_rebuilds_a_game_from_seed_rules_and_history():
    game = Game(3, Rules(rounds=2), seed=13)
    random_actions(game, random.Random(1), 120)
    again = Game.replay(3, Rules(rounds=2), 13, game.history, round=game.round)
    assert again.to_json() == game.to_json()


def test_replay_of_a_bad_history_names_the_entry():
    with pytest.raises(ValueError, match=r"history entry 2 \('draw'\)"):
        Game.replay(2, None, 1, ["flip 0", "flip 1", "draw"])


def test_copy_is_independent_and_continues_identically():
    game = Game(2, Rules(initial_flips=0), seed=3)
    twin = game.copy()
    play(game, "draw", "discard")
    assert twin.history == [] and twin.draw_pile_size == game.draw_pile_size + 1
    play(twin, "draw", "discard")
    assert twin.to_json() == game.to_json()


# ------------------------------------------------------------------ display
def test_game_html_shows_face_down_cards_as_backs_and_never_leaks_their_codes():
    game = stack(playing(2), grids=["AS 2S 3S 4S 5S 6S", "AH 2H 3H 4H 5H 6H"],
                 face_up=["100001", "010000"], discard="KC", draw="QD")
    html = game._repr_html_()
    for code in ("AS", "6S", "2H", "KC"):
        assert f'title="{code}"' in html and Card.parse(code).pretty in html
    for code in ("2S", "3S", "4S", "5S", "AH", "3H", "4H", "5H", "6H", "QD"):
        assert code not in html and Card.parse(code).pretty not in html
    assert html.count('gl-back"') == 9 + 1  # nine face-down cards and the draw pile
    assert "Hole 1/9" in html and "Player 1" in html


def test_game_repr_names_hole_phase_and_who_is_to_move():
    game = playing(2)
    assert repr(game) == "<golflab.Game hole 1/9, playing, seat 0 to draw>"


def test_a_hand_built_action_is_checked_like_its_notation():
    from golflab import Action

    game = playing(2)
    game.apply(Action("draw"))  # equal to the interned "draw": legal
    before = game.to_json()
    for bad in (("swap", 9), ("swap", -1), ("jump",)):
        with pytest.raises(IllegalActionError, match="not an action"):
            Action(*bad)  # no such action can be built
        with pytest.raises(IllegalActionError, match="not an action"):
            game.apply(" ".join(map(str, bad)))
        assert game.to_json() == before
    game.apply(Action("swap", 5))
    assert game.history == ["draw", "swap 5"]


def test_flip_mode_endgame_final_turns_may_flip_because_the_finisher_has_none_face_down():
    game = stack(playing(2, flip_mode="endgame"), face_up=["011111", DOWN])
    play(game, "draw", "swap 0")
    play(game, "draw", "discard")
    assert game.phase is Phase.FINAL_TURN
    assert [str(a) for a in game.legal_actions()] == [f"flip {i}" for i in range(6)] + ["skip"]


def test_saved_rules_do_not_depend_on_the_environment(clean_env):
    clean_env.setenv("DEFAULT_ROUNDS", "3")
    clean_env.setenv("DEFAULT_FLIP_MODE", "always")
    game = Game(2, seed=4).apply("flip 0")
    text = game.to_json()
    clean_env.delenv("DEFAULT_ROUNDS")
    clean_env.setenv("DEFAULT_FLIP_MODE", "endgame")
    restored = Game.from_json(text)
    assert restored.rules.rounds == 3 and restored.rules.flip_mode == "always"
    assert restored.to_json() == text
