"""Choose one card quickly: type it (``KH``, ``10d``, ``JK``) or pick its rank and suit.

A typed card that is not a card changes nothing: the picker keeps its card, shows that
card again in the box and explains in ``error`` what was wrong and what is allowed.
"""

from __future__ import annotations

import ipywidgets as w
import traitlets

from golflab import JOKER, RANKS, SUITS, Card
from golflab.cards import SUIT_SYMBOLS

from ..a11y import name_control

JOKER_CODE = JOKER.code
ALLOWED = ("type a rank (A, 2-9, 10 or T, J, Q, K) then a suit (S \u2660, H \u2665, D \u2666 or C \u2663), "
           "e.g. KH or 10D; JK is a joker")


def rank_label(rank: str) -> str:
    """A rank as people write it: ``10`` for ``T``, ``★ joker`` for ``JK``."""
    return "\u2605 joker" if rank == JOKER_CODE else "10" if rank == "T" else rank


def typed_form(card: Card) -> str:
    """What to type for ``card``: ``KH``, ``10D``, ``JK``."""
    return card.code if card.is_joker else rank_label(card.rank) + card.suit


def card_input_error(text: str) -> str:
    """Why ``text`` is not a card (rank, suit or length), with what is allowed; '' if it is one."""
    try:
        Card.parse(text)
        return ""
    except ValueError:
        pass
    raw = text.strip()
    if not raw:
        return f"the box is empty: {ALLOWED}."
    upper = raw.upper()
    if len(upper) < 2:
        why = "a card is a rank then a suit"
    else:
        wrong = []
        if upper[:-1] not in RANKS and upper[:-1] != "10":
            wrong.append(f'"{raw[:-1]}" is not a rank')
        if upper[-1] not in SUITS and upper[-1] not in SUIT_SYMBOLS.values():
            wrong.append(f'"{raw[-1]}" is not a suit')
        why = " and ".join(wrong) or "write a rank then a suit"
    return f'"{raw}" is not a card ({why}): {ALLOWED}.'


class CardPicker(w.HBox):
    """A typed-card box (``golf-card-text``) beside rank and suit menus (``golf-card-rank``,
    ``golf-card-suit``), each named for a screen reader after ``name`` (its place, "top left");
    ``value`` is the card's code. A refused entry sets ``error`` and marks
    the box ``golf-card-bad`` until the next good card."""

    value = traitlets.Unicode("AS")
    error = traitlets.Unicode("")

    def __init__(self, card: str = "AS", name: str = "card", **kwargs) -> None:
        first = Card.parse(card)
        self._syncing = False
        self.text = w.Text(value=typed_form(first), continuous_update=False, placeholder="e.g. KH",
                           layout=w.Layout(width="58px"))
        self.rank = w.Dropdown(options=[(rank_label(r), r) for r in RANKS] + [("\u2605", JOKER_CODE)],
                               value=first.rank, layout=w.Layout(width="62px"))
        self.suit = w.Dropdown(options=[(SUIT_SYMBOLS[s], s) for s in SUITS], value=first.suit or SUITS[0],
                               disabled=first.is_joker, layout=w.Layout(width="54px"))
        for ctl, part in ((self.text, "text"), (self.rank, "rank"), (self.suit, "suit")):
            ctl.add_class(f"golf-card-{part}")
        self.text.tooltip = "type a card, e.g. KH, 10D or JK"
        name_control(self.text, f"{name}: type a card")
        name_control(self.rank, f"{name}: rank")
        name_control(self.suit, f"{name}: suit")
        super().__init__([self.text, self.rank, self.suit], **kwargs)
        self.value = first.code
        self.text.observe(self._typed, names="value")
        self.rank.observe(self._picked, names="value")
        self.suit.observe(self._picked, names="value")

    @traitlets.validate("value")
    def _valid_card(self, proposal) -> str:
        try:
            return Card.parse(proposal["value"]).code
        except ValueError as err:
            raise traitlets.TraitError(str(err)) from None

    @traitlets.observe("value")
    def _show(self, change) -> None:
        card = Card.parse(change["new"])
        self._syncing = True
        try:
            self.text.value = typed_form(card)
            self.rank.value = card.rank
            if not card.is_joker:
                self.suit.value = card.suit
            self.suit.disabled = card.is_joker
        finally:
            self._syncing = False
        self._set_error("")

    def _typed(self, change) -> None:
        if self._syncing:
            return
        problem = card_input_error(change["new"])
        if not problem:
            self.value = Card.parse(change["new"]).code
            self._show({"new": self.value})  # tidy the box even when the card is the same
            return
        self._syncing = True
        try:
            self.text.value = typed_form(Card.parse(self.value))
        finally:
            self._syncing = False
        self._set_error(problem)

    def _picked(self, _change) -> None:
        if self._syncing:
            return
        self.value = JOKER_CODE if self.rank.value == JOKER_CODE else self.rank.value + self.suit.value

    def _set_error(self, message: str) -> None:
        self.error = message

    @traitlets.observe("error")
    def _mark_box(self, change) -> None:
        if change["new"]:
            self.text.add_class("golf-card-bad")
        else:
            self.text.remove_class("golf-card-bad")
