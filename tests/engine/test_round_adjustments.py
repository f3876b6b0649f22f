"""Round adjustments as data (``model.ROUND_ADJUSTMENTS``): who gets each, and that scoring
reads nothing else."""

from __future__ import annotations

import pytest

from golflab import Rules
from golflab.model import ADJUSTMENT_OF, ROUND_ADJUSTMENTS, WHO_KINDS, RoundAdjustment, scoring_model
from golflab.rules import OPTIONS
from golflab.scoring import ADJUSTMENT_ORDER, round_breakdown

OPTION_OF = {o.name: o for o in OPTIONS}


def test_every_adjustment_is_a_yes_no_rule_option_with_help_and_the_order_is_the_declarations():
    assert ADJUSTMENT_ORDER == tuple(a.rule for a in ROUND_ADJUSTMENTS)
    for adjustment in ROUND_ADJUSTMENTS:
        option = OPTION_OF[adjustment.rule]
        assert option.kind is bool and option.default is False and option.help
        assert adjustment.reason and adjustment.points != 0
    assert {a.who for a in ROUND_ADJUSTMENTS} == set(WHO_KINDS)


@pytest.mark.parametrize(("who", "scores", "finisher", "seats"), [
    ("score_is", [21, 5, 21, 0], 1, [0, 2]),
    ("finisher", [9, 5, 7], 1, [1]),
    ("finisher", [9, 5, 7], None, []),
    ("finisher_beaten", [9, 5, 7], 0, [0]),
    ("finisher_beaten", [5, 5, 7], 0, []),
    ("finisher_beaten", [9, 5, 7], None, []),
    ("lowest", [4, 2, 2, 8], None, [1, 2]),
    ("tied", [4, 2, 4, 2, 9], 0, [0, 1, 2, 3]),
    ("tied", [1, 2, 3], 0, []),
])
def test_each_kind_names_its_seats(who, scores, finisher, seats):
    adjustment = RoundAdjustment("probe", who, 1, "a probe", score=21 if who == "score_is" else None)
    assert adjustment.seats(scores, finisher) == seats


def test_a_declaration_that_cannot_apply_is_refused_and_says_what_is_allowed():
    with pytest.raises(ValueError, match="who must be one of score_is, finisher, finisher_beaten, lowest, tied"):
        RoundAdjustment("probe", "everyone", 1, "a probe")
    with pytest.raises(ValueError, match="score is given exactly when who is 'score_is'"):
        RoundAdjustment("probe", "score_is", 1, "a probe")
    with pytest.raises(ValueError, match="score is given exactly when who is 'score_is'"):
        RoundAdjustment("probe", "lowest", 1, "a probe", score=3)


def test_scoring_applies_the_declared_adjustments_in_order_each_to_the_scores_so_far():
    """Every adjustment on: blackjack turns seat 0's 21 into 0, which ties seat 2's 0, so both
    take the underdog bonus and then the tied shame; the finisher (seat 1), beaten, pays the
    knock penalty and takes the knock bonus; each with its declared points and reason."""
    rules = Rules(**{a.rule: True for a in ROUND_ADJUSTMENTS})
    assert [a.rule for a in scoring_model(rules).adjustments] == list(ADJUSTMENT_ORDER)
    hands = [["10S", "5C", "4D", "KH", "AS", "AD"],   # 10 + 6 + 5 = 21
             ["AS", "3D", "4C", "KD", "2S", "6H"],    # 12
             ["KS", "5H", "9C", "KC", "5D", "9H"],    # two pairs and a pair of kings: 0
             ["QS", "JD", "8C", "7D", "6S", "9S"]]    # 50
    result = round_breakdown(hands, rules, finisher=1)
    assert result.hand_scores == (21, 12, 0, 50)
    assert [(a.rule, a.seat) for a in result.adjustments] == [
        ("blackjack", 0), ("knock_penalty", 1), ("knock_bonus", 1), ("underdog_bonus", 0), ("underdog_bonus", 2),
        ("tied_shame", 0), ("tied_shame", 2)]
    for a in result.adjustments:
        declared = ADJUSTMENT_OF[a.rule]
        assert (a.points, a.reason) == (declared.points, declared.reason)
    assert result.scores == (2, 17, 2, 50)
