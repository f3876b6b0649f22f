"""``golflab.legality``: why an action is refused, from any seat's observation, in the cases a
random game does not reach (``tests/test_legal_parity.py`` checks every reason a game meets)."""

from __future__ import annotations

import dataclasses

import pytest

from golflab import Game, IllegalActionError, Phase, Rules
from golflab.actions import DRAW
from golflab.legality import REASONS, legal_actions, why_illegal


def started(rules: Rules = Rules()) -> Game:
    game = Game(["Ann", "Ben"], rules, seed=3)
    for move in ("flip 0", "flip 3", "flip 1", "flip 4"):
        game.apply(move)
    return game


def test_an_empty_discard_pile_cannot_be_taken_from():
    obs = started().observation(0)
    empty = dataclasses.replace(obs, discard_pile=(), discard_top=None, legal_actions=[DRAW])
    assert why_illegal(empty, "take").reason == "pile_empty"
    assert legal_actions("draw", Rules(), [False] * 6, False, None, False) == [DRAW]


def test_another_seat_and_a_finished_hole_are_their_own_reasons():
    game = started()
    assert game.observation(1).why_illegal("draw").reason == "not_your_turn"
    assert game.observation(0).why_illegal("draw") is None
    while game.phase is not Phase.ROUND_OVER:
        game.apply(game.legal_actions()[-1])
    assert game.why_illegal("draw").reason == "between_holes"


def test_the_knock_reasons_name_the_rule_and_the_count():
    plain, knocking = started(), started(Rules(knock_early=True))
    assert plain.why_illegal("knock").note == REASONS["knock_off"]
    assert knocking.why_illegal("knock").note == " (knock needs one or two face-down cards; this seat has 4)"
    knocking.apply("draw")
    assert knocking.why_illegal("knock").reason == "knock_not_now"
    with pytest.raises(IllegalActionError, match="only at the start of a turn"):
        knocking.apply("knock")


def test_not_an_action_is_a_clear_error():
    with pytest.raises(IllegalActionError):
        started().why_illegal("fly 9")
