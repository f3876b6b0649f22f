"""An interactive score pad for teaching: pick six cards and the rules, see the score explained."""

from __future__ import annotations

from typing import Sequence

import ipywidgets as w

from golflab import JOKER, Card, Rules, hand_breakdown
from golflab.cards import ALL_CARDS
from golflab.display import CARD_CSS, breakdown_html

from .rules_form import RulesForm

CARD_OPTIONS = [(c.pretty, c.code) for c in ALL_CARDS] + [("\u2605 joker", JOKER.code)]
SCORING_OPTIONS = ("jokers", "super_kings", "ten_penny", "wolfpack")


class HandScorer(w.VBox):
    """Six card pickers in grid order plus the scoring rules; the breakdown updates live.

    Each picker carries the CSS class ``golf-score-slot-N``; the result ``golf-score-result``.
    """

    def __init__(self, cards: Sequence[str] = ("2H", "KS", "5D", "2C", "KD", "9S"), rules: Rules | None = None):
        if len(cards) != 6:
            raise ValueError(f"a hand has exactly 6 cards in grid order, got {len(cards)}")
        codes = [Card.parse(c).code for c in cards]
        self.pickers = [w.Dropdown(options=CARD_OPTIONS, value=code, layout=w.Layout(width="90px")) for code in codes]
        for i, picker in enumerate(self.pickers):
            picker.add_class(f"golf-score-slot-{i}")
            picker.observe(lambda _change: self.refresh(), names="value")
        self.form = RulesForm(rules, options=SCORING_OPTIONS)
        self.form.on_change(lambda _rules: self.refresh())
        self.result = w.HTML()
        self.result.add_class("golf-score-result")
        grid = w.VBox([w.HBox(self.pickers[:3]), w.HBox(self.pickers[3:])])
        super().__init__([w.HTML("<b>Pick the six cards (top row 0-2, bottom row 3-5)</b>"), grid, self.form, self.result])
        self.refresh()

    @property
    def cards(self) -> list[str]:
        return [p.value for p in self.pickers]

    @property
    def score(self) -> int:
        return hand_breakdown(self.cards, self.form.rules).total

    def refresh(self) -> None:
        """Recompute the breakdown from the pickers and the rules."""
        self.result.value = CARD_CSS + breakdown_html(hand_breakdown(self.cards, self.form.rules))
