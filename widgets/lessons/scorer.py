"""An interactive score pad for teaching: pick six cards and the rules, see the score explained."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

import ipywidgets as w

from golflab import Card, Rules, hand_breakdown
from golflab.rules import options_affecting

from ..table.display_size import LARGE_CSS, resolve_large, set_large
from ..table.rules_form import RulesForm
from ..table.words import position_words
from .card_picker import CardPicker
from .rules_html import LESSON_CSS, hand_html

#: The options that change a hand's score (card values, pairs, hand bonuses).
SCORING_OPTIONS = options_affecting("card_values", "pairs", "hand_bonus")
#: A hand that teaches the pairing lesson: two queens cancel, the 2 stays unpaired.
DEFAULT_HAND = ("QH", "2S", "5D", "QC", "7C", "KS")
PAD_CSS = """<style>
.golf-score-message{background:#ffebee;border-left:4px solid #c62828;color:#7f0000;border-radius:4px;
 padding:4px 10px;margin:4px 0;font:14px system-ui,sans-serif}
.golf-card-bad input{border:2px solid #c62828 !important;background:#ffebee !important}
.golf-pos-label{font:12px system-ui,sans-serif;color:#555}
.golf-card-rank select,.golf-card-suit select,.golf-card-text input{font-size:15px !important}
</style>"""


class HandScorer(w.VBox):
    """Six card pickers in grid order plus the scoring rules; the breakdown updates live.

    Each picker (a ``CardPicker``) carries the CSS class ``golf-score-slot-N``; the breakdown
    ``golf-score-result``; a refused typed card is explained in ``golf-score-message``.
    ``large``: large cards and type for a projector (None: the teacher's setting, see
    ``widgets.display_size``).
    """

    def __init__(self, cards: Sequence[str] = DEFAULT_HAND, rules: Rules | None = None, large: bool | None = None):
        is_large = resolve_large(large)
        if len(cards) != 6:
            raise ValueError(f"a hand has exactly 6 cards in grid order, got {len(cards)}")
        self.pickers = [CardPicker(card, name=position_words(i)) for i, card in enumerate(cards)]
        slots = []
        for i, picker in enumerate(self.pickers):
            picker.add_class(f"golf-score-slot-{i}")
            picker.observe(self._card_changed, names="value")
            picker.observe(self._show_errors, names="error")
            label = w.HTML(f"<span class='golf-pos-label'>{escape(position_words(i))}</span>")
            slots.append(w.VBox([label, picker], layout=w.Layout(margin="0 14px 4px 0", flex="0 0 auto")))
        self.form = RulesForm(rules, options=SCORING_OPTIONS)
        self.form.on_change(lambda _rules: self.refresh())
        self.message = w.HTML(layout=w.Layout(display="none"))
        self.message.add_class("golf-score-message")
        self.result = w.HTML()
        self.result.add_class("golf-score-result")
        intro = w.HTML(LESSON_CSS + PAD_CSS + LARGE_CSS
                       + "<b>Type each card (e.g. KH, 10D, JK) or pick its rank and suit. "
                       "Columns are 0 and 3, 1 and 4, 2 and 5.</b>")
        # the hand keeps its two rows of three (its columns are what it teaches): a phone scrolls it sideways
        grid = w.VBox([w.HBox(slots[:3]), w.HBox(slots[3:])], layout=w.Layout(overflow="auto"))
        rules_title = w.HTML("<b>House rules that change a hand's score</b>")
        super().__init__([intro, grid, self.message, self.result, rules_title, self.form])
        self.add_class("golf-score-pad")
        set_large(self, is_large)
        self.refresh()

    @property
    def cards(self) -> list[str]:
        return [p.value for p in self.pickers]

    @property
    def score(self) -> int:
        return hand_breakdown(self.cards, self.form.rules).total

    def refresh(self) -> None:
        """Recompute the breakdown from the pickers and the rules."""
        rules = self.form.rules
        self.result.value = hand_html(hand_breakdown(self.cards, rules), rules)

    def _card_changed(self, _change) -> None:
        for picker in self.pickers:  # a good card makes any earlier refusal old news
            picker.error = ""
        self.refresh()

    def _show_errors(self, _change) -> None:
        errors = [f"{escape(position_words(i).capitalize())} keeps the {escape(Card.parse(p.value).pretty)}: "
                  f"{escape(p.error, quote=False)}" for i, p in enumerate(self.pickers) if p.error]
        self.message.value = "<br>".join(errors)
        self.message.layout.display = None if errors else "none"
