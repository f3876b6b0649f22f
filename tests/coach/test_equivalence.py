"""Moves that are one move up to the grid's symmetry are valued once, and shown with one value
(``golflab.equivalence``, issue 40: a learner meets one number for one option)."""

from __future__ import annotations

from golflab import Game, Position, Rules, coach
from golflab.coach import valuation
from golflab.equivalence import equivalent_moves, same_move

HOLDS_4 = "7H ? ? 7S ? 5C / 9S ? ? ? 7D ?; discard 4S; deck 38; seat 0 holds 4D"
JACKS = "JH ? ? JD ? ? / 9S ? ? ? 7D ?; discard 4S; deck 38; seat 0 holds 4D; rules one_eyed_jacks=on"


def legal(obs) -> list[str]:
    return [str(a) for a in obs.legal_actions]


def first_flips():
    """The first seat's observations before its first and its second initial flip."""
    game = Game(["Ann", "Bob"], Rules(rounds=1), seed=3)
    first = game.observation(0)
    game.apply("flip 1")
    return first, game.observation(0)


def test_moves_are_grouped_by_what_they_and_their_column_partners_hold():
    first, second = first_flips()
    assert equivalent_moves(first, legal(first)) == [tuple(f"flip {p}" for p in range(6))]
    # the king's partner (4) is its own move; every other face-down card is one move
    assert equivalent_moves(second, legal(second)) == [("flip 0", "flip 2", "flip 3", "flip 5"), ("flip 4",)]
    obs = Position.parse(HOLDS_4).observation()
    assert equivalent_moves(obs, legal(obs)) == [
        ("swap 0", "swap 3"),  # a 7 of the paired 7s
        ("swap 1", "swap 4"),  # a face-down card under a face-down card
        ("swap 2",), ("swap 5",),  # the face-down card above the 5, and the 5
        ("discard",)]
    # the same rank is not the same card: a one-eyed jack counts 0, the jack of diamonds 10
    jacks = Position.parse(JACKS).observation()
    assert equivalent_moves(jacks, legal(jacks)) == [
        ("swap 0",), ("swap 1", "swap 2", "swap 4", "swap 5"), ("swap 3",), ("discard",)]
    assert equivalent_moves(obs, ["discard", "swap 3"]) == [("discard",), ("swap 3",)]
    assert same_move(obs, "swap 1", "Swap 4") and same_move(obs, "discard", "discard")
    assert not same_move(obs, "swap 1", "swap 2") and not same_move(jacks, "swap 0", "swap 3")


def test_a_hint_values_each_move_once_and_shows_that_value_for_its_equals():
    coach.clear_cache()
    first, second = first_flips()
    options = coach.hint(first)
    assert {o.value for o in options} == {options[0].value} and options[0].action == "flip 0"
    assert [o.same_as for o in options] == [""] + ["flip 0"] * 5
    assert coach.rollouts_spent(options) == coach.MIN_SAMPLES  # nothing to choose between: one round
    obs = Position.parse(HOLDS_4).observation()
    options = coach.hint(obs)
    by = {o.action: o for o in options}
    assert sorted(by) == sorted(legal(obs))
    for a, b in (("swap 0", "swap 3"), ("swap 1", "swap 4")):
        assert (by[a].value, by[a].se, by[a].gap_se, by[a].samples) == \
               (by[b].value, by[b].se, by[b].gap_se, by[b].samples)
        assert by[a].same_as == "" and by[b].same_as == a
    order = [o.action for o in options]
    assert order.index("swap 3") == order.index("swap 0") + 1  # equals side by side
    assert 0 < coach.rollouts_spent(options) <= coach.HINT_ROLLOUTS
    assert coach.rollouts_spent(options) < sum(o.samples for o in options)
    # a grade reads the same values: equal moves, equal grades
    assert coach.grade(obs, "swap 1").ev_loss == coach.grade(obs, "swap 4").ev_loss
    assert coach.grade(obs, "swap 1").grade == coach.grade(obs, "swap 4").grade


def test_the_end_of_hole_check_values_equal_moves_once_too():
    obs = Position.parse(HOLDS_4).observation()
    ref = valuation.reference(obs, 8, seed=99)
    assert sorted(ref) == sorted(legal(obs))
    assert ref["swap 0"] == ref["swap 3"] and ref["swap 1"] == ref["swap 4"]
