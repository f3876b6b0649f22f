"""The spec's going-out guidance (section 9), as the lessons teach it: go out with about
``GO_OUT_MAX`` points or fewer when you are likely lowest, counting each opponent's face-up
cards (``shown_points``) and each hidden card at the average unseen value (``go_out_advice``).

This is the rule of thumb a learner is taught, not the CPU players' policy
(``golflab.ai.wants_to_go_out``)."""

from __future__ import annotations

from typing import Sequence

from .cards import Card
from .model import COLUMNS, scoring_model
from .rules import Rules

__all__ = ["GO_OUT_MAX", "go_out_advice", "shown_points"]

#: Go out with a hand of this many points or fewer (spec, section 9: "about 10 or less").
GO_OUT_MAX = 10


def shown_points(cells: Sequence[Card | None], rules: Rules) -> int:
    """What a grid's face-up cards score (None: face down): a column of two face-up cards is
    scored as the column it is (a pair by the rules' pair points), a lone face-up card by its value."""
    model = scoring_model(rules)
    total = 0
    for a, b in COLUMNS:
        ka = None if cells[a] is None else model.kind(cells[a])
        kb = None if cells[b] is None else model.kind(cells[b])
        if ka is not None and kb is not None:
            total += model.column_points(ka, kb)
        elif ka is not None or kb is not None:
            total += model.value[ka if ka is not None else kb]
    return total


def go_out_advice(my_score: int, others: Sequence[Sequence[Card | None]], rules: Rules,
                  unseen: float) -> tuple[str, str]:
    """The spec's going-out guidance and why: ``yes`` (about ``GO_OUT_MAX`` or less and lowest, each
    hidden card of the others counted at the average unseen value ``unseen``), or ``high``,
    ``not-lowest``, ``careful`` (knock penalty: not lowest if their hidden cards were 0)."""
    if my_score > GO_OUT_MAX:
        return "high", f"Your hand would score {my_score}: more than about {GO_OUT_MAX} is too high to go out."
    for cells in others:
        shown, hidden = shown_points(cells, rules), sum(c is None for c in cells)
        guess = shown + hidden * unseen
        if guess <= my_score:
            return "not-lowest", (f"An opponent shows {shown} points and {hidden} hidden cards, about "
                                  f"{guess:.0f} in all: you may not be lowest with {my_score}.")
        if rules.knock_penalty and shown <= my_score:
            return "careful", (f"With the knock penalty, be careful: an opponent shows only {shown} with {hidden} "
                               f"hidden cards. If those are low, your {my_score} is not lowest.")
    return "yes", f"Your {my_score} is low, and each opponent is likely to score more."
