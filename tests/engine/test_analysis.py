"""golflab.analysis: grades of single decisions in built situations, and the counters."""

from __future__ import annotations

import pytest

from golflab import Card, Game, Phase, Rules, build_deck
from golflab.analysis import GRADES, Grade, QualityCounters, game_phase, grade
from golflab.ev import action_values, placement_evs


def table(mine, rules=None, discard=("4H",), held=None, source="draw", others=None, players=2):
    """A game in seat 0's turn: ``mine`` is six codes, "?" for a face-down card (filled from
    the deck); ``others`` optional grids for the other seats (default all face down);
    ``held`` a card seat 0 holds (from ``source``: "draw" or "take")."""
    rules = rules or Rules()
    game = Game(players, rules, seed=5)
    deck = build_deck(rules.decks_for(players), rules.jokers)
    grids_spec = [list(mine)] + [list(o) for o in (others or [["?"] * 6] * (players - 1))]
    named = [Card.parse(c) for g in grids_spec for c in g if c != "?"] + [Card.parse(c) for c in discard]
    if held:
        named.append(Card.parse(held))
    for c in named:
        deck.remove(c)
    grids, ups = [], []
    for spec in grids_spec:
        grids.append([deck.pop() if c == "?" else Card.parse(c) for c in spec])
        ups.append([c != "?" for c in spec])
    game._grids, game._up = grids, ups
    game._discard = [Card.parse(c) for c in discard]
    game._draw = deck
    game._phase, game._current, game._first = Phase.PLAYING, 0, 0
    game._stage = "draw"
    if held:
        game._held, game._held_src, game._stage = Card.parse(held), source, "place"
    return game


def graded(game, action):
    return grade(game.observation(0), action, "Sofia")


def test_discarding_a_two_is_a_blunder():
    g = graded(table(["9H", "7S", "?", "?", "?", "?"], held="2C"), "discard")
    assert (g.quality, g.case, g.type) == ("BLUNDER", "discarded_twos", "discard")


def test_discarding_a_joker_is_a_blunder():
    g = graded(table(["9H", "7S", "?", "?", "?", "?"], rules=Rules(jokers="standard"), held="JK"), "discard")
    assert (g.quality, g.case) == ("BLUNDER", "discarded_jokers")


def test_discarding_a_king_is_a_mistake():
    g = graded(table(["3H", "AS", "?", "?", "?", "?"], held="KC"), "discard")
    assert (g.quality, g.case) == ("MISTAKE", "discarded_kings")
    assert g.best_action != "discard" and g.ev_loss > 0


def test_taking_a_queen_without_a_pair_is_a_blunder():
    g = graded(table(["3H", "AS", "?", "?", "?", "?"], discard=("QD",)), "take")
    assert (g.quality, g.case, g.type) == ("BLUNDER", "took_bad_card_without_pair", "take_discard")


def test_taking_a_queen_that_can_complete_a_pair_is_not_that_blunder():
    g = graded(table(["QH", "AS", "?", "?", "?", "?"], discard=("QD",)), "take")
    assert g.case is None
    assert g.quality in ("OPTIMAL", "GOOD")


def test_taking_a_ten_under_ten_penny_is_no_ten_point_card():
    g = graded(table(["9H", "8S", "?", "?", "?", "?"], rules=Rules(ten_penny=True), discard=("TD",)), "take")
    assert g.case is None


def test_pairing_negative_cards_is_a_mistake():
    g = graded(table(["2H", "8S", "9D", "?", "?", "?"], held="2C"), "swap 3")
    assert (g.quality, g.case) == ("MISTAKE", "paired_negative_cards")


def test_pairing_super_kings_is_pairing_negative_cards():
    g = graded(table(["KH", "8S", "9D", "?", "?", "?"], rules=Rules(super_kings=True), held="KC"), "swap 3")
    assert g.case == "paired_negative_cards"


def test_eagle_eye_joker_pair_is_allowed_and_best():
    game = table(["JK", "8S", "9D", "?", "?", "?"], rules=Rules(jokers="eagle_eye"), held="JK")
    g = graded(game, "swap 3")
    assert g.case is None
    assert g.quality == "OPTIMAL" and g.best_action == "swap 3"


def test_swapping_a_good_card_for_a_worse_one_is_a_mistake():
    g = graded(table(["KH", "8S", "9D", "?", "?", "?"], held="7C"), "swap 0")
    assert (g.quality, g.case) == ("MISTAKE", "swapped_good_for_bad")


def test_replacing_a_king_to_complete_a_pair_is_not_good_for_bad():
    # column (0,3) is K 8: putting the 8 over the king pairs the column (8 -> 0)
    g = graded(table(["KH", "5S", "4D", "8C", "?", "?"], held="8D"), "swap 0")
    assert g.case is None and g.ev == pytest.approx(-8)


def test_discarding_a_five_when_a_swap_gains_is_questionable():
    g = graded(table(["9H", "8S", "QD", "?", "?", "?"], held="5C"), "discard")
    assert g.case == "questionable_moves" and "discarding a 5-point card" in g.reason
    assert g.ev_loss >= 1 and g.quality in ("QUESTIONABLE", "MISTAKE")


def test_discarding_a_five_when_nothing_gains_is_optimal():
    g = graded(table(["AH", "KS", "3D", "2C", "AS", "KD"], held="5C"), "discard")
    assert (g.quality, g.case, g.ev, g.ev_loss) == ("OPTIMAL", None, 0.0, 0.0)


def test_passing_a_three_that_would_replace_a_nine_is_questionable():
    g = graded(table(["9H", "AS", "KD", "AC", "KS", "?"], discard=("3D",)), "draw")
    assert g.case == "questionable_moves" and g.type == "draw"
    assert g.quality in ("QUESTIONABLE", "MISTAKE")


def test_going_out_high_is_questionable_and_going_out_low_is_not():
    others = [["AH", "AD", "KS", "KH", "2S", "?"]]
    high = table(["9H", "8S", "7D", "6C", "QS", "?"], held="JD", others=others)
    g = graded(high, "swap 5")
    assert g.case == "questionable_moves" and "going out" in g.reason
    low = table(["AC", "2D", "KD", "3C", "KC", "?"], held="AS", others=[["9H", "8S", "7D", "6C", "QS", "?"]])
    assert graded(low, "swap 5").case is None


def test_going_out_over_ten_is_fine_when_clearly_lowest():
    others = [["QH", "QD", "JS", "9H", "8S", "?"]]
    g = graded(table(["7H", "5S", "AD", "KC", "2S", "?"], held="8D", others=others), "swap 5")
    assert g.case is None


def test_grade_ev_is_the_real_expectation_of_the_move():
    game = table(["9H", "7S", "3D", "?", "?", "?"], held="4C")
    obs = game.observation(0)
    evs = placement_evs(obs, obs.drawn)
    for action, value in evs.items():
        g = grade(obs, action)
        assert g.ev == pytest.approx(value)
        assert g.ev_loss == pytest.approx(value - min(evs.values()))
        assert g.best_action == min(evs, key=evs.get)
    assert grade(obs, "swap 0").quality == "OPTIMAL"  # 4 over the 9: -5, the best


def test_ev_loss_grades_rise_with_the_loss():
    game = table(["QH", "JS", "KD", "?", "?", "?"], held="AC")
    obs = game.observation(0)
    values = action_values(obs).values
    grades = {a: grade(obs, a).quality for a in values}
    assert grades["swap 0"] == "OPTIMAL"  # A over Q: -9
    # discarding the ace gives up 9 points: at least a mistake
    assert GRADES.index(grades["discard"]) >= GRADES.index("MISTAKE")


def test_flips_and_skips_are_optimal_and_typed():
    game = table(["9H", "7S", "?", "?", "?", "?"], rules=Rules(flip_mode="endgame"),
                 others=[["AH", "AD", "KS", "KH", "2S", "?"]])
    game.apply("draw").apply("discard")
    obs = game.observation(0)
    assert "skip" in [str(a) for a in obs.legal_actions]
    skip = grade(obs, "skip")
    flip = grade(obs, "flip 2")
    assert (skip.type, skip.quality, flip.type, flip.quality) == ("skip_flip", "OPTIMAL", "flip", "OPTIMAL")


def test_grade_refuses_an_illegal_action_and_bad_notation():
    obs = table(["9H", "7S", "?", "?", "?", "?"]).observation(0)
    with pytest.raises(ValueError, match="not legal here.*draw, take"):
        grade(obs, "discard")
    with pytest.raises(ValueError, match="not an action"):
        grade(obs, "fly away")


def test_grade_works_on_a_real_game_for_any_legal_action():
    game = Game(3, Rules(), seed=9)
    for _ in range(30):
        obs = game.observation(game.current_player)
        for action in obs.legal_actions:
            g = grade(obs, action)
            assert isinstance(g, Grade) and g.quality in GRADES and g.ev_loss >= 0
        game.apply(obs.legal_actions[-1])
        if game.phase is not Phase.PLAYING and game.phase is not Phase.INITIAL_FLIP:
            break


def test_game_phase_by_fewest_face_down_cards():
    assert game_phase(table(["9H", "7S", "?", "?", "?", "?"]).observation(0)) == "early"
    assert game_phase(table(["9H", "7S", "?", "?", "?", "?"], others=[["AH", "AD", "KS", "?", "?", "?"]])
                      .observation(0)) == "mid"
    assert game_phase(table(["9H", "7S", "?", "?", "?", "?"], others=[["AH", "AD", "KS", "KH", "2S", "?"]])
                      .observation(0)) == "late"


def test_quality_counters_count_rate_and_add():
    a, b = QualityCounters(), QualityCounters()
    game = table(["9H", "7S", "?", "?", "?", "?"], held="2C")
    obs = game.observation(0)
    a.add(grade(obs, "discard"))
    a.add(grade(table(["9H", "7S", "?", "?", "?", "?"]).observation(0), "draw"))
    b.add(grade(table(["9H", "7S", "?", "?", "?", "?"]).observation(0), "draw"))
    total = a + b
    assert (total.discarded_twos, total.total_turns, total.total_decisions) == (1, 2, 3)
    assert total.rates()["discarded_twos"] == 0.5
    assert total.grades["BLUNDER"] == 1
    d = total.to_dict()
    assert d["rates"]["discarded_twos"] == 0.5 and d["grades"]["BLUNDER"] == 1
    assert QualityCounters().rates()["discarded_kings"] == 0.0


def test_grade_reads_as_one_line_for_a_learner():
    g = graded(table(["3H", "AS", "?", "?", "?", "?"], held="KC"), "discard")
    text = str(g)
    assert text.startswith("discard: MISTAKE (ev +0.0, best swap ") and "discarding a king" in text
    assert "\n" not in text


def test_grade_depends_only_on_what_the_seat_sees():
    """Swapping two hidden cards (a face-down card and a draw-pile card) changes no grade."""
    game = table(["9H", "7S", "3D", "?", "?", "?"], held="4C")
    before = {a: grade(game.observation(0), a) for a in ("swap 0", "swap 3", "discard")}
    hidden, pile = game._grids[0][3], game._draw[0]
    game._grids[0][3], game._draw[0] = pile, hidden
    assert hidden != pile
    after = {a: grade(game.observation(0), a) for a in before}
    assert after == before


def test_pairing_negative_cards_is_no_mistake_under_negative_pairs_keep_value():
    rules = Rules(negative_pairs_keep_value=True)
    g = graded(table(["2H", "4S", "3D", "?", "?", "?"], rules=rules, held="2C"), "swap 3")
    assert g.case is None and g.quality == "OPTIMAL"
    g = graded(table(["2H", "4S", "3D", "?", "?", "?"], held="2C"), "swap 3")
    assert g.case == "paired_negative_cards"


def test_one_eyed_jacks_are_graded_by_their_value():
    rules = Rules(one_eyed_jacks=True)
    # a one-eyed jack (0) is no 10-point card: taking it is no blunder
    g = graded(table(["8H", "8S", "9D", "?", "?", "?"], rules=rules, discard=("JH",)), "take")
    assert g.case != "took_bad_card_without_pair"
    g = graded(table(["8H", "8S", "9D", "?", "?", "?"], rules=rules, discard=("JD",)), "take")
    assert g.case == "took_bad_card_without_pair"


def test_whole_turn_flips_and_knocks_are_graded_against_drawing():
    rules = Rules(flip_as_action=True, knock_early=True)
    game = table(["KH", "AS", "2D", "?", "KC", "?"], rules=rules, others=[["9H", "8S", "7D", "?", "?", "?"]])
    obs = game.observation(0)
    best = action_values(obs)
    assert best.best_action in ("draw", "take")
    knock = grade(obs, "knock", "Sage")
    assert (knock.type, knock.ev, knock.ev_loss) == ("knock", 0.0, pytest.approx(-best.best_value))
    flip = grade(obs, "flip 3", "Sage")
    assert flip.type == "flip_turn" and flip.ev == 0.0
    counters = QualityCounters()
    for g in (knock, flip, grade(obs, "draw", "Sage")):
        counters.add(g)
    assert counters.total_turns == 3  # each of them starts a turn


def test_knocking_high_is_going_out_high():
    rules = Rules(knock_early=True)
    game = table(["QH", "JS", "9D", "?", "TC", "?"], rules=rules, others=[["AH", "KS", "2C", "?", "?", "?"]])
    g = grade(game.observation(0), "knock", "Maya")
    assert g.case == "questionable_moves" and "going out" in g.reason
